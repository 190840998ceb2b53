"""Exactly what the next request sends, before it is sent: no key, no network.

The request is built by the turn runner's own ``request``, from a copy of the history with the
composer's draft appended as the pending ``model_input`` (as a turn appends it), and
rendered by the same adapter class the turn uses. So the body shown is the body posted, unless
auto-compression runs first, which ``would_compress`` says. The draft is never stored, and its
token count never cached: it changes with every keystroke. A new chat (no conversation yet) is
an empty history under the default policy: its first request.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.composition import Services
from app.context import Contexts, TokenCounter, count_entry
from app.context.service import Named, tool_tokens
from app.context.tokens import (
    O200K,
    Method,
    bound_text,
    count_text,
    entry_text,
    exact_count,
)
from app.errors import CrosstalkError
from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    Context,
    History,
    ModelInput,
    Omission,
    SystemInstruction,
    utc_now,
)
from app.history.outline import outline_of
from app.inspect.redact import redact, redact_text
from app.knowledge.retrieval import KNOWLEDGE_META
from app.notes import Counting, Note, Sampling, ToolsLeftOut, mapped
from app.providers import Provider, Request
from app.store import Conversation, Header
from app.store.transcript import FORMAT, VERSION, Appender
from app.tuning import applied, remembered
from app.turn import new_input, turn_tools

PROJECT_PART = "project"  # a part: the instructions of the conversation's project
# a part: the passages from the user's documents the newest question carries (its text the
# block as sent), or, ``pending``, the sources the question about to be sent will search
KNOWLEDGE_PART = "knowledge"


@dataclass(frozen=True)
class Carried:
    """One part of the request: an entry, a compression's summary standing in for the entries
    it covers ("summary"), the composer's unsent text ("draft", no seq yet), the
    instructions of the conversation's project ("project", no seq: not in its history), or
    the passages from the user's documents ("knowledge", no seq: carried at the head of the
    question they were found for, counted apart; ``pending`` when not searched yet)."""

    seq: int | None
    kind: str
    tokens: int
    text: str  # redacted
    covers: tuple[int, int] | None = None
    # a knowledge part not searched yet: ``text`` is the sources' paths, one a line; 0 tokens
    pending: bool = False


@dataclass(frozen=True)
class NextRequest:
    spec: str
    provider: str
    model: str
    carried: tuple[Carried, ...]
    tokens: int | None  # the carried parts together (tools not included)
    tool_tokens: int  # what declaring the enabled tools costs
    budget: int | None
    window: int
    estimate: bool  # not the provider's own tokenizer
    counting: Counting  # how the tokens were counted: "estimated with ... (Gemini counts ...)"
    omitted: tuple[Omission, ...]  # window, budget, compression, retry ...
    notes: tuple[Note, ...]  # what replay changed: reasoning dropped, tool ids rewritten ...
    body: dict[str, Any] | None  # the wire body the adapter would post, redacted
    body_error: str | None  # why there is no body (an unknown model, say; None if not rendered)
    would_compress: bool  # auto-compression would run before this request
    over_budget: bool
    sampling: tuple[Sampling, ...] = ()  # temperature, max tokens and thinking as sent
    # what fitting the attachments to this model did: scaled, converted, left out, and why
    attachments: tuple[Note, ...] = ()
    # enabled tools not declared: their definitions were over the tools' share of the budget
    tools_left_out: tuple[str, ...] = ()
    tool_tokens_all: int = 0  # what declaring every enabled tool would cost
    # the knowledge sources the next question will search (their paths), if it will
    knowledge_sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Named:
    """A provider by name only, for measuring when there is no adapter to render with."""

    name: str


class _DraftCounter(TokenCounter):
    """The shared counts for stored entries; what is not stored yet (the draft, a changed
    system instruction, all of a new chat) counted afresh and never kept, since its seq belongs
    to whatever the next turn really appends."""

    def __init__(self, shared: TokenCounter, stored: int) -> None:
        super().__init__()
        self._shared = shared
        self._stored = stored  # the last stored seq

    def __len__(self) -> int:
        return len(self._shared)

    def counting(
        self,
        conversation: Hashable,
        encoding: str = O200K,
        media: str = "openai",
        *,
        bound: bool = False,
    ) -> Callable[[AnyEntry], int]:
        shared = self._shared.counting(conversation, encoding, media, bound=bound)
        stored = self._stored
        text_count = bound_text if bound else count_text

        def count(entry: AnyEntry) -> int:
            if entry.seq > stored:
                return count_entry(entry, encoding, media, text_count)
            return shared(entry)

        return count


def next_request(
    services: Services,
    conversation: Conversation | None,
    spec: str,
    *,
    draft: str = "",
    tools: Sequence[str] | None = None,
    system: str | None = None,
    render: bool = True,
    attachments: Sequence[Attachment] = (),
    exact: bool = True,
) -> NextRequest:
    """The request a turn to ``spec`` would send now, with ``draft`` as its input.

    ``conversation`` None is a new chat, not saved yet. ``tools`` and ``system`` are what the
    turn would be given (None: as the conversation has them). ``render`` False leaves out the
    wire body (and the adapter's notes): the counts need only the tokenizer, not the SDK.
    ``exact`` False counts only if bounds leave a doubt (``Contexts.render``): ``tokens`` None
    and ``tool_tokens`` a bound when everything fits without counting.
    Synchronous and offline; call ``prepare`` first so nothing slow happens here.
    """
    built = _build(
        services, conversation or _unsaved(), spec, draft, tools, system, attachments, render,
        exact,
    )  # fmt: skip
    request, provider, model = built.request, built.provider, built.request.model
    context = request.context
    body: dict[str, Any] | None = None
    notes: tuple[Note, ...] = ()
    body_error = built.problem
    if built.adapter is not None and render:
        body, notes, body_error = _render(built.adapter, request, draft)
    contexts = services.contexts
    method = contexts.method(provider, model)
    uncounted = context.tokens is None  # (``exact`` False) it fits by bounds: rows get those
    count = built.counter.counting(
        built.conversation_id, method.encoding, method.media, bound=uncounted
    )
    policy = contexts.defaults if conversation is None else contexts.policy(conversation.id)
    carried = _carried(built.history, context, count, built.draft_seq)
    planned: tuple[str, ...] = ()
    if conversation is not None and not any(row.kind == KNOWLEDGE_PART for row in carried):
        planned = _searched(services, conversation)
        if planned:
            row = Carried(None, KNOWLEDGE_PART, 0, "\n".join(planned), pending=True)
            at = len(carried) - 1 if carried and carried[-1].kind == "draft" else len(carried)
            carried = (*carried[:at], row, *carried[at:])
    return NextRequest(
        spec=spec,
        provider=provider.name,
        model=model,
        carried=carried,
        tokens=context.tokens,
        tool_tokens=tool_tokens(request.tools, bound=uncounted),
        budget=context.budget,
        window=contexts.window(provider, model),
        estimate=method.estimate,
        counting=counting_label(method, contexts.kinds.get(provider.name, provider.name), spec),
        omitted=context.omitted,
        notes=notes,
        # the tools' own line is shown from ``tools_left_out`` (app/turn/requests.py left_out_note)
        attachments=tuple(
            mapped(note, redact_text)
            for note in request.notes
            if not isinstance(note, ToolsLeftOut)
        ),
        body=body,
        body_error=body_error,
        would_compress=policy.auto_compress and Contexts.past_threshold(context, policy),
        over_budget=context.over_budget,
        sampling=sampling(request),
        tools_left_out=request.tools_left_out,
        tool_tokens_all=built.all_tools,
        knowledge_sources=planned,
    )


def _searched(services: Services, conversation: Conversation) -> tuple[str, ...]:
    """The sources the conversation's next question will search (its own and its
    project's): what the preview can say before the question is rewritten and searched."""
    step = services.runner.knowledge
    if step is None or not conversation.id:
        return ()
    try:
        return tuple(step.sources(conversation).paths)
    except CrosstalkError:  # an index this version cannot read: the turn will say so
        return ()


SAMPLING_SEPARATOR = " · "  # temperature 0.2 · at most 800 tokens · thinking high


def sampling(request: Request) -> tuple[Sampling, ...]:
    """What the request sets: temperature, at most so many tokens, thinking; () if nothing."""
    parts = []
    if request.temperature is not None:
        parts.append(Sampling(cause="temperature", temperature=request.temperature))
    if request.max_tokens is not None:
        parts.append(Sampling(cause="max_tokens", tokens=request.max_tokens))
    if request.reasoning is not None:
        parts.append(Sampling(cause="thinking", effort=request.reasoning))
    return tuple(parts)


def pending_request(
    services: Services,
    conversation: Conversation | None,
    spec: str,
    *,
    draft: str = "",
    tools: Sequence[str] | None = None,
    system: str | None = None,
) -> Request:
    """The neutral ``Request`` behind ``next_request`` (for a provider's own token count)."""
    return _build(services, conversation or _unsaved(), spec, draft, tools, system).request


async def provider_count(
    services: Services,
    conversation: Conversation | None,
    spec: str,
    *,
    draft: str = "",
    tools: Sequence[str] | None = None,
    system: str | None = None,
) -> int | None:
    """The provider's own count of the next request's input tokens (tools included), from its
    counting endpoint (Anthropic, Gemini, OpenAI Responses); None if it has none. Online, and
    with the key: a missing key raises ``AuthFailed`` that says where to set it."""
    request = pending_request(services, conversation, spec, draft=draft, tools=tools,
                              system=system)  # fmt: skip
    provider, _model = services.models.resolve(spec)
    return await exact_count(provider, request)


_warmed: set[type] = set()  # adapter classes that have rendered once in this process


async def prepare(services: Services, spec: str, *, render: bool = True) -> None:
    """Import what rendering for ``spec`` needs and load its tokenizer, off the event loop
    (an SDK is slow to import, a tokenizer to build: docs/performance.md), so ``next_request``
    stays quick.
    ``render`` False loads the tokenizer only, for ``next_request(render=False)``. Each is
    done in a thread once per process: after that, nothing is left to load."""
    try:
        provider, model = services.renderer(spec)  # the adapter's module, no SDK: a few ms
    except CrosstalkError:
        return  # next_request reports the unknown model
    if render and type(provider) not in _warmed:
        await asyncio.to_thread(_warm, provider, model)
        _warmed.add(type(provider))
    await services.contexts.ready(provider, model)


_OWN_COUNTERS = {"anthropic": "Anthropic", "gemini": "Gemini"}


def counting_label(method: Method, kind: str, spec: str) -> Counting:
    """How the tokens are counted, said once: "estimated with o200k_base (Gemini counts
    differently)" or "exact (OpenAI's own tokenizer, o200k_base)"."""
    if not method.estimate:
        return Counting(cause="exact", encoding=method.encoding)
    if kind == "local":
        return Counting(cause="estimated_local", encoding=method.encoding)
    return Counting(cause="estimated", encoding=method.encoding, who=_OWN_COUNTERS.get(kind, spec))


def wire_json(body: dict[str, Any]) -> str:
    """The body as pretty JSON, keys in the order they are sent."""
    return json.dumps(body, indent=2, ensure_ascii=False)


@dataclass(frozen=True)
class _Built:
    adapter: Provider | None  # None: nothing to render with
    problem: str | None  # why not
    provider: Named
    request: Request
    history: History  # with the draft
    draft_seq: int | None
    counter: TokenCounter
    conversation_id: str
    all_tools: int = 0  # tokens every enabled tool would cost, declared or not


def _build(
    services: Services,
    conversation: Conversation,
    spec: str,
    draft: str,
    tools: Sequence[str] | None,
    system: str | None,
    attachments: Sequence[Attachment] = (),
    fit: bool = True,
    exact: bool = True,
) -> _Built:
    runner = services.runner
    settings = applied(runner.defaults(conversation.history), remembered(conversation.history))
    settings = dataclasses.replace(settings, exact_counts=exact)
    contexts = services.contexts
    enabled = turn_tools(conversation.history, runner.toolbox, settings.default_tools, tools)
    name, _, model = spec.partition(":")
    adapter: Provider | None = None
    problem = None
    try:
        adapter, model = services.renderer(spec)
    except CrosstalkError as exc:
        problem = str(exc)
    provider: Named = adapter if adapter is not None else _Named(name)
    pending, draft_seq = _pending(conversation, draft, enabled, system, attachments)
    counter = _DraftCounter(contexts.counter, conversation.history.version)
    counted = runner.using(
        settings=settings, contexts=dataclasses.replace(contexts, counter=counter)
    )
    # fitting attachments (reading and scaling images) only when the body is shown
    request = counted.request(pending, provider, model, enabled, fit=fit)
    all_tools = tool_tokens([t.spec for t in runner.toolbox.resolve(enabled)], bound=not exact)
    return _Built(
        adapter, problem, provider, request, pending.history, draft_seq, counter, conversation.id,
        all_tools,
    )  # fmt: skip


def _unsaved() -> Conversation:
    """A new chat: an empty history under an id no conversation has (so the default policy
    applies). Nothing is ever written: the preview only reads, and appends to a copy."""
    header = Header(format=FORMAT, version=VERSION, id="", created_at=utc_now())
    return Conversation(header, History(), Appender(Path(os.devnull), 0))


def _warm(provider: Provider, model: str) -> None:
    question = ModelInput(text="?", seq=1)
    _render(provider, Request(model, Context(None, None, (question,))))


def _render(
    provider: Provider, request: Request, draft: str = ""
) -> tuple[dict[str, Any] | None, tuple[Note, ...], str | None]:
    """The body, redacted (the history's strings through the cache, the draft not)."""

    def text(value: str) -> str:
        return redact_text(value) if value == draft else _redacted(value)

    try:
        rendered = provider.render(request)
    except (CrosstalkError, ImportError) as exc:
        return None, (), f"{provider.name} cannot render this request: {exc}"
    notes = tuple(mapped(note, redact_text) for note in rendered.notes)
    return redact(rendered.body, text), notes, None


def _pending(
    conversation: Conversation,
    draft: str,
    enabled: Sequence[str],
    system: str | None,
    attachments: Sequence[Attachment] = (),
) -> tuple[Conversation, int | None]:
    """The conversation as the turn will see it: a copy of the history with what a turn
    appends first (a changed system instruction, the input); the draft's seq, if any."""
    history = conversation.history
    added: list[AnyEntry] = []
    if system is not None and system != (history.system_instruction or ""):
        added.append(SystemInstruction(text=system))
    if draft or attachments:
        added.append(new_input(draft, enabled, attachments=attachments))
    if not added:
        return conversation, None
    copy = History(history)
    for entry in added:
        copy.append(copy.stamp(entry))
    draft_seq = copy.version if draft or attachments else None
    return dataclasses.replace(conversation, history=copy), draft_seq


_REDACTED: dict[str, str] = {}  # an entry's text -> the same, redacted
_REDACTED_CHARS = 0
REDACTED_LIMIT = 32_000_000  # characters kept before the cache starts again


def _redacted(text: str) -> str:
    """An entry's text, redacted once: entries never change, and a long history is carried
    again at every pause in typing (the draft is new each time: never kept)."""
    global _REDACTED_CHARS
    done = _REDACTED.get(text)
    if done is None:
        if _REDACTED_CHARS + len(text) > REDACTED_LIMIT:
            _REDACTED.clear()
            _REDACTED_CHARS = 0
        done = _REDACTED[text] = redact_text(text)
        _REDACTED_CHARS += len(text)
    return done


def _carried(
    history: History, context: Context, count: Callable[[AnyEntry], int], draft_seq: int | None
) -> tuple[Carried, ...]:
    """Each part of the context with its tokens, counted as rendering counted it."""
    outline = outline_of(history)
    project = context.project_system
    rows = [Carried(None, PROJECT_PART, count(SystemInstruction(text=project)), _redacted(project))
            ] if project else []  # fmt: skip
    rows += [
        Carried(entry.seq, entry.kind, count(entry), _redacted(entry_text(entry)))
        for entry in (outline.system, outline.notebook)
        if entry is not None and entry_text(entry)
    ]
    for entry in context.entries:
        compression = entry.meta.get("compression") if isinstance(entry, ModelInput) else None
        known = entry.meta.get(KNOWLEDGE_META) if isinstance(entry, ModelInput) else None
        if isinstance(known, dict) and entry.seq and entry.seq <= history.version:
            # the passages at the head of the question: a part of their own, then the
            # question as stored
            block = entry_text(entry)[: max(int(known.get("chars", 0)) - 2, 0)]
            rows.append(Carried(None, KNOWLEDGE_PART, int(known.get("tokens", 0)),
                                _redacted(block)))  # fmt: skip
            stored = history.at(entry.seq)
            rows.append(Carried(entry.seq, stored.kind, count(stored),
                                _redacted(entry_text(stored))))  # fmt: skip
        elif compression is not None:
            summary = history.at(compression)
            assert isinstance(summary, Compression)
            text = _redacted(summary.summary)
            rows.append(Carried(entry.seq, "summary", count(summary), text, summary.covers))
        elif entry.seq == draft_seq:
            rows.append(Carried(None, "draft", count(entry), redact_text(entry_text(entry))))
        else:
            rows.append(Carried(entry.seq, entry.kind, count(entry), _redacted(entry_text(entry))))
    return tuple(rows)
