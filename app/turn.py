"""One turn of a conversation, in the order that keeps it safe:

1. the user's input is appended (durable before any model is called);
2. the live context is rendered from the history by the conversation's context policy
   (window, token budget, compression summaries), compressing first if the policy says so;
3. the chosen provider streams its reply, each event handed to the caller as it arrives;
4. the reply is appended with usage, latency and finish reason, marked partial on cancel or
   error (what arrived is kept); tool calls are run and their results appended, and the model
   is asked again, for a bounded number of rounds;
5. on the first turn, a title is generated (the first words of the input if that fails).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from app.approval import Approve
from app.attachments.sending import Sending
from app.context import Contexts, OnContext
from app.context.events import ignore
from app.context.recall import standalone_query
from app.context.service import Named
from app.context.windows import context_window
from app.errors import CrosstalkError
from app.history import (
    Attachment,
    History,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    render_context,
)
from app.history.context import CONTINUES, TOOL_RESULT_CHARS
from app.history.entries import STOPPED
from app.providers import (
    Finished,
    Models,
    Provider,
    ReasoningDelta,
    ReasoningDone,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolSpec,
    UsageReport,
)
from app.scrub import scrub
from app.store import Conversation, Library
from app.titles import fallback_title, generate_title, is_small
from app.tools import (
    DEFAULT_MAX_ROUNDS,
    Chosen,
    Rewrite,
    ToolBox,
    ToolContext,
    not_run,
)
from app.tuning import applied, merged, remembered


@dataclass
class OutputBuilder:
    """Collects stream events into one ``model_output`` entry."""

    provider: str
    model: str
    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    reasoning_items: tuple[Reasoning, ...] | None = None
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    notes: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    first_token: float | None = None
    context: dict[str, object] | None = None  # what the request carried, as estimated
    extra: dict[str, object] = field(default_factory=dict)  # more meta, e.g. what it regenerates

    def add(self, event: StreamEvent) -> None:
        if (
            isinstance(event, TextDelta | ReasoningDelta | ToolCallDelta)
            and self.first_token is None
        ):
            self.first_token = time.monotonic()
        match event:
            case TextDelta(text=text):
                self.text.append(text)
            case ReasoningDelta(text=text):
                self.reasoning.append(text)
            case ReasoningDone(items=items):
                self.reasoning_items = items
            case ToolCallDelta(index=index, id=call_id, name=name, arguments=arguments):
                call = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                call["id"] = call_id or call["id"]
                call["name"] = name or call["name"]
                call["arguments"] += arguments
            case UsageReport(usage=usage):
                self.usage = usage
            case Finished(finish_reason=reason):
                self.finish_reason = reason

    def build(self, *, partial: bool = False, error: str | None = None) -> ModelOutput:
        now = time.monotonic()
        meta: dict[str, object] = {**self.extra, "latency_ms": round((now - self.started) * 1000)}
        if self.first_token is not None:
            meta["first_token_ms"] = round((self.first_token - self.started) * 1000)
        if self.notes:
            meta["replay_notes"] = self.notes
        if self.context:
            meta["context"] = self.context
        reasoning = list(self.reasoning_items or ())
        if self.reasoning_items is None and self.reasoning:
            text = "".join(self.reasoning)
            reasoning.append(Reasoning(provider=self.provider, model=self.model, text=text))
        return ModelOutput(
            provider=self.provider,
            model=self.model,
            text="".join(self.text),
            reasoning=reasoning,
            tool_calls=[ToolCall(**c) for _, c in sorted(self.calls.items())],
            finish_reason=self.finish_reason,
            usage=self.usage,
            partial=partial,
            error=error,
            meta=meta,
        )


@dataclass(frozen=True)
class TurnSettings:
    window_turns: int | None  # None: no fixed number of turns (the budget, if any, decides)
    title_model: str | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    max_tool_rounds: int = DEFAULT_MAX_ROUNDS
    reasoning: str | None = None  # "low" | "medium" | "high": ask the model to think; None: off
    default_tools: tuple[str, ...] = ()  # for a conversation's first turn, unless told otherwise
    recall_model: str | None = None  # rewrites search_conversations queries; None: as written
    # the context policy, token budget and compression; None: the window alone (window_turns)
    contexts: Contexts | None = None
    # fits attachments to each provider (app/attachments/sending.py); None: sent as stored
    sending: Sending | None = None
    toolbox: ToolBox | None = None  # the tools there are; None: the built-ins alone
    approve: Approve | None = None  # asks before an MCP tool runs; None: such calls are denied
    tool_share: float = 0.1  # of the token budget the tool definitions may take; 0: no limit
    tool_result_chars: int = TOOL_RESULT_CHARS  # a longer result is cut for the model
    # False: count tokens only when bounds do not show that everything fits (the command line:
    # the provider's usage is the count, and loading a tokenizer costs ~0.1 s); the window
    # counts exactly, its tokenizer loaded in the background
    exact_counts: bool = True
    # False: a new conversation is left untitled for the caller to name (the command line does
    # it in a process of its own, so the title request never delays its exit: ``name_later``)
    make_title: bool = True

    @property
    def box(self) -> ToolBox:
        return self.toolbox or ToolBox.builtin()


OnEvent = Callable[[StreamEvent], None]


def enabled_tools(history: History, default: Sequence[str] = ()) -> list[str]:
    """The tools of the conversation's latest input: a choice is remembered until changed."""
    for entry in reversed(list(history)):
        if isinstance(entry, ModelInput):
            return list(entry.meta.get("tools", []))
    return list(default)


def turn_tools(
    history: History, settings: TurnSettings, tools: Sequence[str] | None = None
) -> list[str]:
    """The tools a new turn enables: those asked for, else the conversation's last choice."""
    if tools is not None:
        return settings.box.check(tools)
    return enabled_tools(history, settings.default_tools)


def used_tools(history: History, at: int | None = None) -> set[str]:
    """The tools the path to ``at`` (by default the active path) has called."""
    leaf = history.active_leaf if at is None else at
    return {
        call.name
        for seq in (history.path_to(leaf) if leaf else ())
        if isinstance(entry := history.at(seq), ModelOutput)
        for call in entry.tool_calls
    }


def declared_tools(
    conversation: Conversation,
    provider: Named,
    model: str,
    settings: TurnSettings,
    enabled: Sequence[str],
    *,
    at: int | None = None,
) -> Chosen:
    """The tools a request declares: every enabled one, unless their definitions would take
    more than ``settings.tool_share`` of the token budget (then ``Chosen.left_out``)."""
    limit: int | None = None
    contexts = settings.contexts
    if contexts is not None and settings.tool_share > 0:
        policy = contexts.policy(conversation.id)
        budget = contexts.budget(policy, provider, model, (), settings.max_tokens)
        limit = int(settings.tool_share * budget)
    used = used_tools(conversation.history, at)
    return settings.box.choose(enabled, used, limit, exact=settings.exact_counts)


def left_out_note(chosen: Chosen, settings: TurnSettings) -> str | None:
    if not chosen.left_out:
        return None
    names = ", ".join(chosen.left_out[:5]) + (", …" if len(chosen.left_out) > 5 else "")
    return (
        f"{len(chosen.left_out)} MCP tools not declared (over {settings.tool_share:.0%} of the "
        f"budget): {names}"
    )


def new_input(
    text: str,
    enabled: Sequence[str],
    tuning: Mapping[str, Any] | None = None,
    attachments: Sequence[Attachment] = (),
) -> ModelInput:
    """A turn's ``model_input``, remembering its tools and the conversation's own sampling
    settings (the next turn uses the same)."""
    meta: dict[str, Any] = {"tools": list(enabled)} if enabled else {}
    if tuning:
        meta["tuning"] = dict(tuning)
    return ModelInput(text=text, attachments=list(attachments), meta=meta)


def build_request(
    conversation: Conversation,
    provider: Named,
    model: str,
    settings: TurnSettings,
    enabled: Sequence[str],
    *,
    at: int | None = None,
    fit: bool = True,
) -> Request:
    """What one model call sends: the context of the path to message ``at`` (the active path
    by default) by the conversation's policy, the enabled tools and the settings' limits. The
    inspector's next-request view renders through this too, so what it shows is what the call
    sends. ``fit`` off leaves attachments as stored (counting needs no image scaled)."""
    chosen = declared_tools(conversation, provider, model, settings, enabled, at=at)
    tools = chosen.specs
    chars = settings.tool_result_chars
    if settings.contexts is None:
        context = render_context(conversation.history, settings.window_turns, at=at,
                                 result_chars=chars)  # fmt: skip
    else:
        context = settings.contexts.render(conversation, provider, model, tools=tools,
                                           max_tokens=settings.max_tokens, at=at,
                                           result_chars=chars,
                                           exact=settings.exact_counts)  # fmt: skip
    notes: tuple[str, ...] = ()
    if settings.sending is not None and fit:  # attachments as this model takes them
        context, notes = settings.sending.prepare(context, provider, model)
    left_out = left_out_note(chosen, settings)
    return Request(
        model,
        context,
        tools,
        settings.max_tokens,
        settings.temperature,
        settings.reasoning,
        (*notes, left_out) if left_out else notes,
        chosen.left_out,
    )


def _declared(
    conversation: Conversation,
    provider: Named,
    model: str,
    settings: TurnSettings,
    enabled: Sequence[str],
    at: int | None,
) -> tuple[ToolSpec, ...]:
    return declared_tools(conversation, provider, model, settings, enabled, at=at).specs


async def run_turn(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    text: str,
    settings: TurnSettings,
    *,
    system: str | None = None,
    tools: Sequence[str] | None = None,
    on_event: OnEvent = lambda event: None,
    on_context: OnContext = ignore,
    edit: int | None = None,
    tuning: Mapping[str, Any] | None = None,
    attachments: Sequence[Attachment] = (),
) -> ModelOutput:
    """One turn: the input, the reply (with any tool rounds), and a title on the first turn.

    ``attachments`` (stored with ``app.attachments.files``) go with the input; they are
    checked against the provider's limits before anything is appended, so a refused send
    leaves the conversation as it was.

    ``tuning`` changes the conversation's own temperature, max tokens or thinking (remembered
    with the input, ``app.tuning``).

    With ``edit`` (the seq of an earlier input), the input is that one edited: it follows the
    same message, so it and its reply start a new branch and the edited one stays as it was.
    Before the first request, the context is compressed if the conversation's policy says so
    (``on_context`` hears about it)."""
    provider, model = models.resolve(spec)
    history = conversation.history
    after = edit_point(history, edit) if edit is not None else None
    enabled = turn_tools(history, settings, tools)
    chosen = merged(history, tuning)
    settings = applied(settings, chosen)
    entry = new_input(text, enabled, chosen, attachments)
    if settings.sending is not None and attachments:  # before anything is written
        settings.sending.check(entry, provider, model)
    if system is not None and system != (history.system_instruction or ""):
        await library.append_async(conversation, SystemInstruction(text=system))
    if edit is not None:
        entry = msgspec.structs.replace(entry, meta={**entry.meta, "edit_of": history.id_of(edit)})
    stamped = await library.append_async(conversation, entry, after=after)
    if settings.contexts is not None:
        await settings.contexts.before_request(
            library, conversation, models, provider, model,
            tools=_declared(conversation, provider, model, settings, enabled, stamped.seq),
            max_tokens=settings.max_tokens, on_context=on_context, at=stamped.seq,
            exact=settings.exact_counts,
        )  # fmt: skip
    output = await respond(
        library, conversation, provider, model, settings, enabled, on_event, models=models,
        at=stamped.seq,
    )  # fmt: skip
    if settings.make_title and conversation.history.title is None:
        await _title(library, conversation, models, settings.title_model or spec, text, output.text)
    return output


async def compare_turn(
    library: Library,
    conversation: Conversation,
    models: Models,
    specs_: Sequence[str],
    text: str,
    settings: TurnSettings,
    *,
    system: str | None = None,
    tools: Sequence[str] | None = None,
    on_event: Callable[[str, StreamEvent], None] = lambda spec, event: None,
    on_context: OnContext = ignore,
    tuning: Mapping[str, Any] | None = None,
) -> list[ModelOutput | BaseException]:
    """One input answered by several models at once: each reply follows the input, so they are
    siblings (the last to finish is active; the others are a switch away), each with its own
    usage and latency. Returns each model's reply, or what stopped it, in ``specs_`` order."""
    if len(set(specs_)) < 2:
        raise ValueError("comparing needs at least two different models")
    resolved = [models.resolve(spec) for spec in specs_]  # an unknown model fails before writing
    history = conversation.history
    enabled = turn_tools(history, settings, tools)
    chosen = merged(history, tuning)
    settings = applied(settings, chosen)
    if system is not None and system != (history.system_instruction or ""):
        await library.append_async(conversation, SystemInstruction(text=system))
    stamped = await library.append_async(conversation, new_input(text, enabled, chosen))
    if settings.contexts is not None:
        provider, model = resolved[0]
        await settings.contexts.before_request(
            library, conversation, models, provider, model,
            tools=_declared(conversation, provider, model, settings, enabled, stamped.seq),
            max_tokens=settings.max_tokens, on_context=on_context, at=stamped.seq,
            exact=settings.exact_counts,
        )  # fmt: skip
    at = stamped.seq  # every reply answers this input, whatever else was appended meanwhile
    meta: dict[str, object] = {"compare": list(specs_)}

    def answer(spec: str, provider: Provider, model: str) -> Coroutine[Any, Any, ModelOutput]:
        return respond(
            library, conversation, provider, model, settings, enabled,
            lambda event: on_event(spec, event), at=at, models=models, meta=meta,
        )  # fmt: skip

    jobs = [answer(spec, p, m) for spec, (p, m) in zip(specs_, resolved, strict=True)]
    results: list[ModelOutput | BaseException] = await asyncio.gather(*jobs, return_exceptions=True)
    first = next((r for r in results if isinstance(r, ModelOutput)), None)
    if settings.make_title and conversation.history.title is None and first is not None:
        spec = settings.title_model or f"{first.provider}:{first.model}"
        await _title(library, conversation, models, spec, text, first.text)
    return results


def can_continue(history: History, entry: object) -> bool:
    """A reply cut at its length limit, with no calls and nothing after it yet."""
    return (
        isinstance(entry, ModelOutput)
        and entry.finish_reason == "length"
        and not entry.tool_calls
        and not history.children(entry.seq)
    )


CONTINUE_PROMPT = "Continue exactly where your last reply stopped. Do not repeat anything."


async def continue_turn(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    settings: TurnSettings,
    on_event: OnEvent = lambda event: None,
    *,
    reply: int | None = None,
) -> ModelOutput:
    """Go on with reply ``reply`` (by default the active path's last), cut at its length
    limit: the model is asked to continue, and its reply follows the cut one (``continues``).
    The history keeps both parts; the context and the window show them as one reply."""
    history = conversation.history
    cut = history.at(reply) if reply is not None else history.last_output
    if not can_continue(history, cut):
        what = f"seq {reply}" if reply is not None else "the last reply"
        raise ValueError(
            f"{what} was not cut off at its length limit (or already goes on): nothing to continue"
        )
    assert isinstance(cut, ModelOutput)
    provider, model = models.resolve(spec)
    enabled = enabled_tools(history)
    settings = applied(settings, remembered(history))
    meta: dict[str, object] = {CONTINUES: history.id_of(cut.seq)}
    return await respond(
        library, conversation, provider, model, settings, enabled, on_event, at=cut.seq,
        models=models, meta=meta, prompt=CONTINUE_PROMPT,
    )  # fmt: skip


def edit_point(history: History, seq: int) -> int:
    """The message an edit of input ``seq`` follows (that input's parent)."""
    if not (1 <= seq <= history.version and isinstance(history.at(seq), ModelInput)):
        raise ValueError(f"seq {seq} is not an input; `crosstalk show ID --all` lists them")
    return history.parent_of(seq)


def regenerate_point(history: History, seq: int | None = None) -> int:
    """The message a new answer to reply ``seq`` (by default the active path's last reply)
    follows: the one that reply followed, so the new answer is its sibling."""
    if seq is None:
        last = history.last_output
        if last is None:
            raise ValueError("there is no reply to regenerate: ask something first")
        seq = last.seq
    if not (1 <= seq <= history.version and isinstance(history.at(seq), ModelOutput)):
        raise ValueError(f"seq {seq} is not a reply; `crosstalk show ID --all` lists them")
    while CONTINUES in history.at(seq).meta:  # a reply in parts: answered again whole
        seq = history.parent_of(seq)
    return history.parent_of(seq)


async def retry_turn(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    settings: TurnSettings,
    on_event: OnEvent = lambda event: None,
    on_context: OnContext = ignore,
    *,
    reply: int | None = None,
) -> ModelOutput:
    """Answer again what reply ``reply`` answered (by default the active path's last reply),
    as its sibling: a new branch, active now; the earlier answer stays, one switch away."""
    provider, model = models.resolve(spec)
    history = conversation.history
    if history.turn_count == 0:
        raise ValueError(f"conversation {conversation.id} has no input to retry")
    leaf = history.active_leaf
    unanswered = reply is None and not isinstance(history.at(leaf), ModelOutput)
    if unanswered:  # an input (or tool results) never answered, e.g. after a crash: answer it
        at, replaced = leaf, None
    else:
        at = regenerate_point(history, reply)
        replaced = reply if reply is not None else getattr(history.last_output, "seq", None)
    enabled = enabled_tools(history)
    settings = applied(settings, remembered(history))
    if settings.contexts is not None:
        await settings.contexts.before_request(
            library, conversation, models, provider, model,
            tools=_declared(conversation, provider, model, settings, enabled, at),
            max_tokens=settings.max_tokens, at=at, on_context=on_context,
            exact=settings.exact_counts,
        )  # fmt: skip
    meta: dict[str, object] = {}
    if replaced is not None:
        meta["regenerates"] = history.id_of(replaced)
    output = await respond(
        library, conversation, provider, model, settings, enabled, on_event, at=at,
        models=models, meta=meta,
    )  # fmt: skip
    if settings.make_title and conversation.history.title is None:
        question = next(e.text for e in conversation.history if isinstance(e, ModelInput))
        await _title(
            library, conversation, models, settings.title_model or spec, question, output.text
        )
    return output


async def respond(
    library: Library,
    conversation: Conversation,
    provider: Provider,
    model: str,
    settings: TurnSettings,
    enabled: Sequence[str],
    on_event: OnEvent,
    *,
    at: int | None = None,
    models: Models | None = None,
    meta: dict[str, object] | None = None,
    prompt: str | None = None,
) -> ModelOutput:
    """Model output -> tool calls -> one tool_results entry -> next request, bounded.

    The first request carries the path to message ``at`` (by default the active leaf), and the
    reply follows it; ``meta`` is added to that first reply's, and ``prompt`` is a user message
    that request ends with without being kept (Continue's "go on"). With ``models``,
    ``search_conversations`` queries are first rewritten into standalone ones by the settings'
    title model (a cheap one), when it resolves. MCP servers the tools name start first (a
    server that cannot is a note on the request); their calls are asked about through
    ``settings.approve``."""
    ctx = ToolContext(
        library, conversation, rewrite=_rewriter(models, settings, conversation),
        approve=settings.approve,
    )  # fmt: skip
    at = conversation.history.active_leaf if at is None else at
    box = settings.box
    prepared = tuple(await box.prepare(enabled))
    for _ in range(settings.max_tool_rounds):
        output = await _call(
            library, conversation, provider, model, settings, enabled, on_event, at, meta, prompt,
            prepared,
        )  # fmt: skip
        meta = prompt = None
        if not output.tool_calls:
            return output
        at = await _run_tools(library, conversation, output, enabled, ctx, box)
    output = await _call(
        library, conversation, provider, model, settings, enabled, on_event, at, None, None,
        prepared,
    )  # fmt: skip
    if output.tool_calls:
        why = f"not run: the limit of {settings.max_tool_rounds} tool rounds was reached"
        results = ToolResults(results=not_run(output.tool_calls, why))
        await library.append_async(conversation, results, after=output.seq)
    return output


def _rewriter(
    models: Models | None, settings: TurnSettings, conversation: Conversation
) -> Rewrite | None:
    """Recall's query rewriting by the cheap model; None if there is none to use."""
    if models is None or not settings.recall_model:
        return None
    try:
        provider, model = models.resolve(settings.recall_model)
    except CrosstalkError:
        return None

    async def rewrite(query: str) -> str:
        history = conversation.history
        if history.turn_count <= 1:
            return query  # no earlier turn to resolve a reference from: the query as written
        return await standalone_query(provider, model, history, query)

    return rewrite


async def _run_tools(
    library: Library,
    conversation: Conversation,
    output: ModelOutput,
    enabled: Sequence[str],
    ctx: ToolContext,
    box: ToolBox,
) -> int:
    """Run a reply's calls and append their results after it; returns the results' seq.
    An MCP call's server, approval and timing go into the entry's ``meta["tools"]``."""
    results: list[ToolResult] = []
    metas: dict[str, dict[str, Any]] = {}
    try:
        for call in output.tool_calls:
            result, call_meta = await box.run(call, enabled, ctx)
            results.append(result)
            if call_meta.get("source") == "mcp":
                metas[call.id] = call_meta
    finally:  # cancelled or not, every call gets a result, so the history stays replayable
        rest = output.tool_calls[len(results) :]
        results += not_run(rest, f"not run: {STOPPED}")
        entry = ToolResults(results=results, meta={"tools": metas} if metas else {})
        stamped = await library.append_async(conversation, entry, after=output.seq)
    return stamped.seq


async def _call(
    library: Library,
    conversation: Conversation,
    provider: Provider,
    model: str,
    settings: TurnSettings,
    enabled: Sequence[str],
    on_event: OnEvent,
    at: int,
    meta: dict[str, object] | None = None,
    prompt: str | None = None,
    prepared: tuple[str, ...] = (),
) -> ModelOutput:
    """One model call: render the path to ``at``, stream, and append what came back after
    ``at`` (partial if it broke). ``prepared``: notes from starting the tools' servers."""
    request = build_request(conversation, provider, model, settings, enabled, at=at, fit=False)
    left_out = request.tools_left_out
    if settings.sending is not None:  # reading and scaling images: off the event loop
        fitted, notes = await asyncio.to_thread(
            settings.sending.prepare, request.context, provider, model
        )
        kept = tuple(n for n in request.notes if left_out and "not declared" in n)
        request = dataclasses.replace(request, context=fitted, notes=(*notes, *kept))
    if prompt is not None:
        entries = (*request.context.entries, ModelInput(text=prompt, meta={"transient": True}))
        request = dataclasses.replace(
            request, context=dataclasses.replace(request.context, entries=entries)
        )
    # the reply answers the history as it is now: if another process continues the
    # conversation meanwhile, the reply still follows `at`, on a branch (Library.append)
    based_on = conversation.history.version
    context = request.context
    rendered = provider.render(request)
    # kept with the reply: what the request changed
    replay = [*prepared, *request.notes, *rendered.notes]
    extra: dict[str, object] = {**(meta or {})}
    if left_out:
        extra["tools_left_out"] = list(left_out)
    builder = OutputBuilder(provider.name, model, notes=replay, extra=extra)
    if context.tokens is not None:
        builder.context = {"tokens": context.tokens, "budget": context.budget,
                           "omitted": len(context.omitted)}  # fmt: skip
    try:
        async for event in provider.stream(request):
            builder.add(event)
            on_event(event)
    except asyncio.CancelledError:
        stopped = builder.build(partial=True, error=STOPPED)
        await library.append_async(conversation, stopped, after=at, based_on=based_on)
        raise
    except Exception as exc:
        message = str(exc) if isinstance(exc, CrosstalkError) else f"{type(exc).__name__}: {exc}"
        message = scrub(message)  # adapters scrub their keys; key-shaped text never gets in
        output = builder.build(partial=True, error=message)
        await library.append_async(conversation, output, after=at, based_on=based_on)
        raise
    stamped = await library.append_async(conversation, builder.build(), after=at, based_on=based_on)
    assert isinstance(stamped, ModelOutput)
    return stamped


def title_maker(models: Models, spec: str) -> tuple[Provider, str] | str:
    """The model to ask for a title, or why none is asked (then the first words are the title):
    ``spec`` names no model there is, its key is missing, or it is a small model."""
    try:
        provider, model = models.resolve(spec)
    except CrosstalkError as exc:
        return str(exc)
    if is_small(context_window(spec, provider, model)):
        return f"{spec} is a small model: its titles read like replies, cut mid-word"
    return provider, model


def title_spec(conversation: Conversation, title_model: str | None) -> str | None:
    """Who names the conversation: the settings' ``title_model``, else the model of its reply;
    None while it has no reply to name it by (nothing answered, or every reply failed)."""
    output = conversation.history.last_output
    if output is None or output.error:
        return None
    return title_model or f"{output.provider}:{output.model}"


def fallback(question: str, why: str) -> Title:
    """The title when no model makes one: the first words of the question, and why."""
    return Title(text=fallback_title(question), source="generated", meta={"fallback": why})


def first_exchange(history: History) -> tuple[str, str]:
    """The question a conversation started with, and the active path's last reply: what its
    title is made from."""
    question = next((e.text for e in history if isinstance(e, ModelInput)), "")
    output = history.last_output
    return question, output.text if output else ""


async def name_conversation(
    library: Library, conversation: Conversation, models: Models, spec: str
) -> None:
    """Title an untitled conversation after its first turn (``crosstalk _title``, which ``ask``
    starts to do so after it has exited); one titled meanwhile keeps its title."""
    question, answer = first_exchange(conversation.history)
    await _title(library, conversation, models, spec, question, answer, keep=True)


async def _title(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    question: str,
    answer: str,
    *,
    keep: bool = False,
) -> None:
    """Name a new conversation; the reply already succeeded, so a failure here only falls back.
    ``keep``: a title another process gave it while the model was asked is kept."""
    title, why = None, "cancelled"
    try:
        chosen = title_maker(models, spec)
        if isinstance(chosen, str):
            why = chosen
        else:
            title = await generate_title(*chosen, question, answer)
            why = "the title model returned nothing usable (or a reply, not a title)"
    except CrosstalkError as exc:
        why = str(exc)
    finally:
        if title:
            entry = Title(text=title, source="generated", meta={"model": spec})
        else:
            entry = fallback(question, why)
        if keep:
            await asyncio.to_thread(library.refresh, conversation)
        if not keep or conversation.history.title is None:
            await library.append_async(conversation, entry)
