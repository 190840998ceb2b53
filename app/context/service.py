"""The context of a conversation's next request, by its policy, for a chosen model.

``Contexts`` is built once (by the composition root) and passed down: it knows the default
policy, where each conversation's own choices are kept, the models' windows and the per-entry
token counts. ``render`` is what a call sends; ``prepare`` is the first call of a turn's, which
compresses first when the conversation's policy says so and the request would pass its
threshold. ``FixedWindow`` is the other ``ContextSource``: the last turns, with no budget.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from app.context.events import CompressionFailed, OnContext, ignore
from app.context.policy import ContextPolicy, PolicyStore
from app.context.strategies import parse_strategy
from app.context.tokens import (
    Method,
    TokenCounter,
    bound_text,
    count_text,
    load_encoding,
    method_for,
)
from app.context.windows import context_window
from app.errors import CrosstalkError
from app.history import Context, DebugLog, History, ModelInput, SystemInstruction, render_context
from app.history.context import TOOL_RESULT_CHARS
from app.knowledge.retrieval import KNOWLEDGE_META, answering
from app.notes import FirstInputCut, OverBudget
from app.providers import Models, Provider, ToolSpec
from app.store import Conversation, Library

_tool_counts: dict[str, int] = {}  # by the definitions' sha256


def tool_tokens(tools: Sequence[ToolSpec], *, bound: bool = False) -> int:
    """What declaring the tools costs, counted once per set of tools; ``bound``: a bound no
    lower than that, with no vocabulary loaded (``bound_text``)."""
    described = [{"name": t.name, "description": t.description,
                  "parameters": dict(t.parameters)} for t in tools]  # fmt: skip
    text = json.dumps(described)
    if bound:
        return bound_text(text)
    key = hashlib.sha256(text.encode()).hexdigest()  # an MCP tool's schema can change
    if key not in _tool_counts:
        _tool_counts[key] = count_text(text) if tools else 0
    return _tool_counts[key]


def _fits_anyway(bounded: Context, policy: ContextPolicy) -> bool:
    """Whether a context rendered with bounds is the one exact counts would render: nothing
    left out or cut for the budget, and (compressing automatically) below the threshold."""
    if bounded.over_budget or any(
        isinstance(o.why, OverBudget | FirstInputCut) for o in bounded.omitted
    ):
        return False
    if bounded.tokens is None or bounded.budget is None:
        return True
    limit = bounded.budget * (policy.compress_threshold if policy.auto_compress else 1)
    return bounded.tokens < limit


def _passages(history: History, at: int | None) -> tuple[int, str] | None:
    """The input the request answers and the passages block it carries, if any."""
    found = answering(history, at)
    return (found[0], found[1].block()) if found is not None else None


def with_passages(context: Context, passages: tuple[int, str], tokens: int) -> Context:
    """``context`` with the passages block at the head of the input ``passages[0]`` (every
    protocol carries a user message's text), and its ``tokens`` in the count and the budget
    (the context was rendered with them held back). The input keeps its seq; its meta says
    where its own text starts (``KNOWLEDGE_META``)."""
    seq, block = passages
    entries = list(context.entries)
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if isinstance(entry, ModelInput) and entry.seq == seq and not entry.meta.get("compression"):
            meta = {**entry.meta, KNOWLEDGE_META: {"chars": len(block) + 2, "tokens": tokens}}
            text = f"{block}\n\n{entry.text}"
            entries[index] = msgspec.structs.replace(entry, text=text, meta=meta)
            break
    else:
        return context
    return dataclasses.replace(
        context,
        entries=tuple(entries),
        tokens=None if context.tokens is None else context.tokens + tokens,
        budget=None if context.budget is None else context.budget + tokens,
    )


class Named(Protocol):
    """A provider, or just its name: measuring needs no built provider (nor its key)."""

    @property
    def name(self) -> str: ...


class ContextSource(Protocol):
    """Where a turn's contexts come from: ``Contexts`` (policies, budgets, compression) or
    ``FixedWindow``."""

    def render(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        exact: bool = True,
    ) -> Context:
        """The context of one call to ``provider:model``: the path to message ``at``."""
        ...

    async def prepare(
        self,
        library: Library,
        conversation: Conversation,
        models: Models,
        provider: Provider,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        on_context: OnContext = ignore,
        exact: bool = True,
    ) -> Context:
        """The context of a turn's first call, after whatever must happen before it."""
        ...

    def tool_limit(
        self,
        conversation_id: str,
        provider: Named,
        model: str,
        max_tokens: int | None,
        share: float,
    ) -> int | None:
        """The tokens the tools' definitions may take (None: no limit)."""
        ...


@dataclass(frozen=True)
class FixedWindow:
    """The last ``turns`` turns (None: all of them), with no token budget and no compression."""

    turns: int | None

    def render(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        exact: bool = True,
    ) -> Context:
        context = render_context(conversation.history, self.turns, at=at,
                                 result_chars=result_chars)  # fmt: skip
        passages = _passages(conversation.history, at)
        return with_passages(context, passages, 0) if passages else context

    async def prepare(
        self,
        library: Library,
        conversation: Conversation,
        models: Models,
        provider: Provider,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        on_context: OnContext = ignore,
        exact: bool = True,
    ) -> Context:
        return self.render(conversation, provider, model, at=at, result_chars=result_chars)

    def tool_limit(
        self,
        conversation_id: str,
        provider: Named,
        model: str,
        max_tokens: int | None,
        share: float,
    ) -> int | None:
        return None


@dataclass
class Contexts:
    defaults: ContextPolicy = field(default_factory=ContextPolicy)
    store: PolicyStore | None = None  # None: every conversation follows the defaults
    windows: Mapping[str, int] = field(default_factory=dict)  # "provider:model" -> tokens
    kinds: Mapping[str, str] = field(default_factory=dict)  # provider name -> its kind
    counter: TokenCounter = field(default_factory=TokenCounter)

    # --- policy ---------------------------------------------------------------------------

    def policy(self, conversation_id: str) -> ContextPolicy:
        if self.store is None:
            return self.defaults
        return self.store.policy(conversation_id, self.defaults)

    def set_policy(self, conversation_id: str, changes: Mapping[str, object]) -> ContextPolicy:
        """Remember ``changes`` for the conversation (an empty mapping forgets its choices)."""
        if self.store is None:
            raise CrosstalkError("per-conversation context policies are not kept here")
        self.store.set(conversation_id, dict(changes), self.defaults)
        return self.policy(conversation_id)

    # --- measuring ------------------------------------------------------------------------

    def method(self, provider: Named, model: str) -> Method:
        return method_for(self.kinds.get(provider.name, provider.name), model)

    def window(self, provider: Named, model: str) -> int:
        server = self.kinds.get(provider.name) == "openai-compatible"
        spec = f"{provider.name}:{model}"
        return context_window(spec, provider, model, self.windows, server=server)

    def budget(
        self,
        policy: ContextPolicy,
        provider: Named,
        model: str,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        *,
        bound: bool = False,
    ) -> int:
        """The tokens the context may take; ``bound``: no more than that, with no vocabulary
        loaded (the tools' definitions reserved at their bound)."""
        window = self.window(provider, model)
        return policy.budget(window, max_tokens, reserved=tool_tokens(tools, bound=bound))

    def tool_limit(
        self,
        conversation_id: str,
        provider: Named,
        model: str,
        max_tokens: int | None,
        share: float,
    ) -> int | None:
        """``share`` of the conversation's budget: what the tools' definitions may take (None:
        no limit, when ``share`` is 0)."""
        if share <= 0:
            return None
        budget = self.budget(self.policy(conversation_id), provider, model, (), max_tokens)
        return int(share * budget)

    def render(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        exact: bool = True,
    ) -> Context:
        """What the next request to ``provider:model`` carries, by the conversation's policy.

        ``exact`` False counts only when it must: when bounds made without the vocabulary show
        that everything fits, below the compression threshold, the context is the one exact
        counts would give, and comes with ``tokens`` None (the provider's usage is the count)
        and the budget left beside the tools' bound.
        Loading a vocabulary is slow, and ``crosstalk ask`` would pay for it on every run.
        """
        policy = self.policy(conversation.id)
        method = self.method(provider, model)
        preamble = self.preamble(conversation)
        passages = _passages(conversation.history, at)  # the knowledge step's, counted apart
        block = passages[1] if passages else ""
        if not exact:
            held = bound_text(block, method.encoding) if block else 0
            bounded = render_context(
                conversation.history,
                policy.window_turns,
                at=at,
                budget=self.budget(policy, provider, model, tools, max_tokens, bound=True) - held,
                count=self.counter.counting(
                    conversation.id, method.encoding, method.media, bound=True
                ),
                keep_first_input=policy.keep_first_input,
                result_chars=result_chars,
                preamble=preamble,
            )
            if _fits_anyway(bounded, policy):
                bounded = with_passages(bounded, passages, held) if passages else bounded
                return dataclasses.replace(bounded, tokens=None)  # budget: the bound's
        count = self.counter.counting(conversation.id, method.encoding, method.media)
        held = count_text(block, method.encoding) if block else 0
        context = render_context(
            conversation.history,
            policy.window_turns,
            at=at,
            budget=self.budget(policy, provider, model, tools, max_tokens) - held,
            count=count,
            keep_first_input=policy.keep_first_input,
            result_chars=result_chars,
            preamble=preamble,
        )
        return with_passages(context, passages, held) if passages else context

    def preamble(self, conversation: Conversation) -> SystemInstruction | None:
        """The instructions of the conversation's project, if it has any (docs/projects.md):
        every request starts with them, before the conversation's own."""
        if self.store is None:
            return None
        from app.store.projects import Projects

        project = Projects(self.store.library).of(conversation.history)
        if project is None or not project.instructions:
            return None
        meta = {"project": project.id, "project_name": project.name}
        return SystemInstruction(text=project.instructions, meta=meta)

    async def ready(self, provider: Named, model: str) -> None:
        """Load the tokenizer off the event loop (once), so rendering never blocks."""
        await load_encoding(self.method(provider, model).encoding)

    # --- compressing before a request -----------------------------------------------------

    @staticmethod
    def past_threshold(context: Context, policy: ContextPolicy) -> bool:
        if context.budget is None or context.tokens is None:
            return False
        limit = context.budget * policy.compress_threshold
        return context.budget_dropped or context.over_budget or context.tokens >= limit

    async def prepare(
        self,
        library: Library,
        conversation: Conversation,
        models: Models,
        provider: Provider,
        model: str,
        *,
        tools: Sequence[ToolSpec] = (),
        max_tokens: int | None = None,
        at: int | None = None,
        result_chars: int = TOOL_RESULT_CHARS,
        on_context: OnContext = ignore,
        exact: bool = True,
    ) -> Context:
        """The context of a turn's first call (``render``), compressed first if the policy
        enables it and the request would pass the threshold: then rendered again, from the
        history with the summaries in it.

        A failure is reported (``CompressionFailed`` and a ``debug_log`` entry) and the request
        goes on with the context as it was: older turns fall out instead.
        """
        policy = self.policy(conversation.id)
        if exact:
            await self.ready(provider, model)
        context = self.render(conversation, provider, model, tools=tools, max_tokens=max_tokens,
                              at=at, result_chars=result_chars, exact=exact)  # fmt: skip
        if not policy.auto_compress or (context.tokens is None and not exact):
            return context  # nothing to compress, or below the threshold by its bound
        await self.ready(provider, model)
        if not self.past_threshold(context, policy):
            return context
        version = conversation.history.version
        await self._compress(library, conversation, models, policy, at, on_context)
        if conversation.history.version == version:
            return context
        return self.render(conversation, provider, model, tools=tools, max_tokens=max_tokens,
                           at=at, result_chars=result_chars, exact=exact)  # fmt: skip

    async def _compress(
        self,
        library: Library,
        conversation: Conversation,
        models: Models,
        policy: ContextPolicy,
        at: int | None,
        on_context: OnContext,
    ) -> None:
        """Compress by the policy; a failure is said and written down, never raised."""
        # here: a turn that does not compress does without the summaries' machinery
        from app.context.compression import CompressionError, NothingToCompress, compress

        try:
            compressor, compressor_model = models.resolve(policy.compression_model)
            await compress(
                library, conversation, compressor, compressor_model,
                parse_strategy(policy.compress_strategy),
                keep_first_input=policy.keep_first_input,
                keep_recent=policy.keep_recent_turns,
                limit=self.window(compressor, compressor_model),
                automatic=True, on_context=on_context, at=at,
            )  # fmt: skip
        except NothingToCompress:
            pass  # the budget still holds: older turns fall out as usual
        except CrosstalkError as exc:
            message = str(exc) if isinstance(exc, CompressionError) else f"compression: {exc}"
            on_context(CompressionFailed(message))
            library.append(conversation, DebugLog(category="compression", message=message))
