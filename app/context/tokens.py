"""Counting tokens offline, once per entry.

``bpe-openai`` embeds OpenAI's o200k_base and cl100k_base vocabularies (tiktoken's, same ids)
and needs no network. For OpenAI's models the count is the tokenizer's own, plus a small
per-message overhead; for every other provider it is an estimate, and labelled as one.

Entries never change once appended, so a count is kept per (conversation, seq, encoding):
rendering the next context counts only entries it has not seen before.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.attachments.profiles import profile_for
from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolResults,
)
from app.private_apis import bpe_openai_bindings

MESSAGE_OVERHEAD = 4  # role and framing tokens around each message (OpenAI's chat format)
ATTACHMENT_TOKENS = 1000  # an attachment whose size is not known: a provider-side guess
BYTES_PER_TOKEN = 4  # a text file not read yet: about four bytes a token (English, code)
_CHUNK = 50_000  # characters per count call: each holds the GIL, so a huge paste goes in parts
O200K = "o200k_base"
CL100K = "cl100k_base"
_CL100K_MODELS = ("gpt-4-", "gpt-4", "gpt-3.5")  # before gpt-4o everything used cl100k


@dataclass(frozen=True)
class Method:
    """How a count was made: the encoding, and whether it is the provider's own tokenizer."""

    encoding: str
    estimate: bool
    media: str = "openai"  # whose published rule estimates images and PDF pages

    @property
    def label(self) -> str:
        if self.estimate:
            return f"an estimate with {self.encoding}: this provider tokenizes differently"
        return f"counted with {self.encoding}, OpenAI's tokenizer"


def method_for(provider_kind: str, model: str) -> Method:
    """OpenAI's own models get their encoding; anyone else's an o200k estimate."""
    if provider_kind in ("openai", "openai-responses"):
        old = model.startswith(_CL100K_MODELS) and not model.startswith(("gpt-4o", "gpt-4.1"))
        return Method(CL100K if old else O200K, estimate=False)
    media = provider_kind if provider_kind in ("anthropic", "gemini") else "openai"
    return Method(O200K, estimate=True, media=media)


@cache
def _encoding(name: str) -> Any:
    """bpe-openai's Rust tokenizer for ``name`` (``count``, ``encode``), built once: building
    it holds the GIL for a while (docs/performance.md)."""
    return bpe_openai_bindings().tokenizer_for_encoding(name)


async def load_encoding(name: str = O200K) -> None:
    """Load a tokenizer in a worker thread, so the first count does not stall the loop."""
    if name not in _loaded:
        await asyncio.get_running_loop().run_in_executor(None, _encoding, name)
        _loaded.add(name)


_loaded: set[str] = set()


def count_text(text: str, encoding: str = O200K) -> int:
    if not text:
        return 0
    encoder = _encoding(encoding)
    total, start = 0, 0
    while start < len(text):
        end = start + _CHUNK
        if end < len(text):  # cut before a space: it belongs to the word after it
            space = text.rfind(" ", start + 1, end)
            end = space if space > start else end
        total += _count(encoder, text[start:end])
        start = end
    return total


def _count(encoder: Any, text: str) -> int:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: replaced, as bpe-openai's own encode does
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return int(encoder.count(text))


def bound_text(text: str, encoding: str = O200K) -> int:
    """At least as many as ``count_text`` says, without a vocabulary: every BPE token of these
    encodings stands for one byte or more of UTF-8 (each of the 256 bytes is a token)."""
    return len(text.encode("utf-8", "surrogatepass"))


TextCount = Callable[[str, str], int]


def attachment_tokens(
    attachment: Attachment,
    encoding: str = O200K,
    media: str = "openai",
    text_count: TextCount = count_text,
) -> int:
    """What an attachment costs: a text file counted (or estimated from its size when its
    bytes are in the blob store), an image or PDF by the provider's published rule from its
    stored size or pages (``app/attachments/profiles.py``). Always an estimate but for text."""
    mime = attachment.mime_type
    if mime.startswith("text/"):
        if not attachment.data:
            return attachment.size // BYTES_PER_TOKEN
        try:
            text = base64.b64decode(attachment.data).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            return ATTACHMENT_TOKENS
        return text_count(text, encoding)
    profile = profile_for(media, "")
    if mime.startswith("image/") and attachment.width and attachment.height:
        return profile.image_tokens(attachment.width, attachment.height)
    if mime == "application/pdf" and attachment.pages:
        return attachment.pages * profile.page_tokens()
    return ATTACHMENT_TOKENS


def entry_text(entry: AnyEntry) -> str:
    """The text of an entry as a model would read it (tool calls and results included)."""
    match entry:
        case ModelInput(text=text) | SystemInstruction(text=text):
            return text
        case MemoryNotebook(content=content):
            return content
        case Compression(summary=summary):
            return summary
        case ModelOutput():
            calls = "".join(f"\n{c.name}({c.arguments})" for c in entry.tool_calls)
            return entry.text + calls
        case ToolResults(results=results):
            return "\n".join(f"{r.name}: {r.content}" for r in results)
        case _:
            return ""


def count_entry(
    entry: AnyEntry,
    encoding: str = O200K,
    media: str = "openai",
    text_count: TextCount = count_text,
) -> int:
    """An entry's tokens; with ``text_count=bound_text``, a bound no lower than the count."""
    tokens = text_count(entry_text(entry), encoding) + MESSAGE_OVERHEAD
    if isinstance(entry, ModelInput):
        tokens += sum(attachment_tokens(a, encoding, media, text_count) for a in entry.attachments)
    if isinstance(entry, ToolResults):
        tokens += MESSAGE_OVERHEAD * max(len(entry.results) - 1, 0)
    return tokens


class TokenCounter:
    """Per-entry counts, each made once: keyed by (conversation, seq, encoding).

    Entries not yet appended (seq 0) are counted every time and never cached. ``media`` is
    whose rule estimates images and PDF pages (``Method.media``).
    """

    def __init__(self) -> None:
        self._counts: dict[tuple[Hashable, int, str, str], int] = {}

    def __len__(self) -> int:
        return len(self._counts)

    def counting(
        self,
        conversation: Hashable,
        encoding: str = O200K,
        media: str = "openai",
        *,
        bound: bool = False,
    ) -> Callable[[AnyEntry], int]:
        """Each entry's count; ``bound``: a bound no lower than it, with no vocabulary loaded
        (``bound_text``), for deciding that everything fits without counting."""
        counts = self._counts
        text_count = bound_text if bound else count_text
        kind = f"{encoding} bound" if bound else encoding

        def count(entry: AnyEntry) -> int:
            if not entry.seq:
                return count_entry(entry, encoding, media, text_count)
            key = (conversation, entry.seq, kind, media)
            found = counts.get(key)
            if found is None:
                found = counts[key] = count_entry(entry, encoding, media, text_count)
            return found

        return count


async def exact_count(provider: object, request: Any) -> int | None:
    """The provider's own count of ``request``'s input tokens, from its counting endpoint
    (Anthropic, Gemini, OpenAI Responses), if it has one; None if it has none. Needs the
    network and the key; failures raise the provider's errors."""
    count = getattr(provider, "count_tokens", None)
    if count is None:
        return None
    return int(await count(request))
