"""Runs turns for any number of conversations at once; widgets only listen to its signals.

Each turn is an asyncio task (qasync runs asyncio on the Qt event loop), kept per conversation
so Stop can cancel it and switching to another conversation neither stops nor loses it. Stream
deltas are buffered and flushed on a timer every few tens of milliseconds, never per token.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import sys
import weakref
from collections import defaultdict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.approval import ApprovalRequest, Decision
from app.composition import Services
from app.context.events import Compressed, Compressing, ContextEvent, OnContext
from app.context.tokens import load_encoding
from app.errors import AuthFailed, CrosstalkError, RateLimited
from app.history import AnyEntry, Attachment, History, ModelInput, ModelOutput, Title
from app.next_model import model_to_continue
from app.providers import Models, Provider, ReasoningDelta, StreamEvent, TextDelta
from app.providers.local import LocalProvider
from app.store import Conversation
from app.store.events import Appended, Branched, StoreEvent
from app.turn import TurnRunner, TurnSettings, enabled_tools
from app.turn.defaults import with_project
from app.turn.knowledge import OnKnowledge
from ui.chat.searching import Searching
from ui.common import errors_text

log = logging.getLogger(__name__)

FLUSH_MS = 30

Turn = Coroutine[Any, Any, ModelOutput]
Listener = Callable[[StoreEvent], None]


class ChatController(QObject):
    entry_appended = Signal(str, object)  # conversation id, the entry as saved
    stream_started = Signal(str)
    stream_text = Signal(str, str)  # conversation id, text that arrived since the last flush
    stream_reasoning = Signal(str, str)
    stream_ended = Signal(str)
    turn_failed = Signal(str, str, str)  # conversation id, message, action: settings|retry|""
    title_changed = Signal(str, str)
    # conversation id, what automatic compression or the search of the user's documents is
    # doing ("" when it no longer holds)
    context_changed = Signal(str, str)
    branched = Signal(str, int)  # conversation id, the reply that started a branch beside others
    compare_text = Signal(str, str, str)  # conversation id, provider:model, text since last flush
    # a send that ended before its input was saved (refused, e.g. a file over the provider's
    # limit, or stopped): conversation id, its text, its attachments, for the composer again
    input_refused = Signal(str, str, object)
    # a turn waits for the user to allow an MCP tool call: conversation id, ApprovalRequest
    approval_requested = Signal(str, object)
    approval_ended = Signal(str, str)  # conversation id, call id: answered, or the turn stopped
    _store_event = Signal(object)  # a StoreEvent, from any thread

    def __init__(self, services: Services, flush_ms: int = FLUSH_MS) -> None:
        super().__init__()
        self.services = services
        self._open: dict[str, Conversation] = {}
        # conversations being read from disk off the window's thread (``open_async``)
        self._loading: dict[str, Future[Conversation]] = {}
        self._loader = ThreadPoolExecutor(2, thread_name_prefix="open-conversation")
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._text: defaultdict[str, list[str]] = defaultdict(list)
        self._reasoning: defaultdict[str, list[str]] = defaultdict(list)
        self._live: defaultdict[str, list[str]] = defaultdict(list)  # this call's text so far
        self._compared: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
        self._background: set[asyncio.Task[None]] = set()
        self._retired: list[Models] = []
        # the question each conversation's turn waits on, and a lock so that calls (two in one
        # reply, or the replies of a compare) are asked one after the other
        self._asking: dict[str, tuple[ApprovalRequest, asyncio.Future[Decision]]] = {}
        self._ask_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._runner: tuple[TurnRunner, TurnRunner] | None = None  # the services', this one's
        self._searching = Searching(self.context_changed.emit, self)  # the user's documents
        self._flush = QTimer(self)
        self._flush.setInterval(flush_ms)
        self._flush.timeout.connect(self.flush)
        # the library must not keep the controller alive: a cycle through it would be freed by
        # whichever thread next runs the garbage collector, and Qt objects die on their own
        # the store speaks on whichever thread made the change (turns append on a worker
        # thread): a signal carries each event to this object's thread, queued if need be
        self._store_event.connect(self._on_store_event)
        self._unsubscribe = services.library.subscribe(_weak_listener(self._post))

    # --- conversations ------------------------------------------------------------------

    def conversation(self, conversation_id: str) -> Conversation:
        """The one open copy of a conversation, shared by the view and any running turn."""
        if conversation_id not in self._open:
            pending = self._loading.get(conversation_id)
            if pending is not None:  # being read on a worker: that copy, not a second one
                return self._adopt(conversation_id, pending)
            self._open[conversation_id] = self.services.library.open(conversation_id)
        return self._open[conversation_id]

    def is_open(self, conversation_id: str) -> bool:
        """Whether the conversation is in memory already (``conversation`` returns at once)."""
        return conversation_id in self._open

    async def open_async(self, conversation_id: str) -> Conversation:
        """``conversation``, read from disk on a worker thread: parsing a long transcript
        takes a while (about half a second for 10,000 entries), the window paints meanwhile.
        Cancelling the wait leaves a reading already begun to finish (its copy is the open one
        then) and drops one not begun (the user went past it, e.g. with the arrow keys)."""
        if conversation_id in self._open:
            return self._open[conversation_id]
        pending = self._loading.get(conversation_id)
        if pending is None:
            pending = self._loader.submit(self.services.library.open, conversation_id)
            self._loading[conversation_id] = pending
            loop = asyncio.get_running_loop()

            def read(done: Future[Conversation]) -> None:  # on the worker
                if not loop.is_closed():
                    loop.call_soon_threadsafe(self._on_read, conversation_id, done)

            pending.add_done_callback(read)
        try:
            await asyncio.shield(asyncio.wrap_future(pending))
        except asyncio.CancelledError:
            if pending.cancel():  # not begun (others before it): not read at all
                self._loading.pop(conversation_id, None)
            raise
        return self._adopt(conversation_id, pending)

    def _adopt(self, conversation_id: str, pending: Future[Conversation]) -> Conversation:
        """The conversation read on a worker, now the open copy (waits for it if need be)."""
        if self._loading.get(conversation_id) is pending:
            del self._loading[conversation_id]
        conversation = pending.result()  # the reading's error, if it failed
        return self._open.setdefault(conversation_id, conversation)

    def _on_read(self, conversation_id: str, done: Future[Conversation]) -> None:
        """A reading ended, perhaps no longer waited for (another conversation was picked
        meanwhile): its copy is the open one all the same; a failure is for the waiter."""
        if self._loading.get(conversation_id) is not done:
            return
        if done.cancelled():  # the window closes
            del self._loading[conversation_id]
            return
        try:
            self._adopt(conversation_id, done)
        except Exception as exc:  # said to whoever still waits for it, else only logged
            log.info("reading %s failed: %r", conversation_id, exc)

    def new_conversation(self) -> Conversation:
        conversation = self.services.library.create()
        self._open[conversation.id] = conversation
        return conversation

    def forget(self, conversation_id: str) -> None:
        """Drop a conversation from memory (e.g. deleted), unless a turn is still running."""
        if not self.is_streaming(conversation_id):
            self._open.pop(conversation_id, None)

    def is_streaming(self, conversation_id: str) -> bool:
        task = self._tasks.get(conversation_id)
        return task is not None and not task.done()

    def tools(self, conversation_id: str) -> list[str]:
        """The tools this conversation's next turn offers (its last choice, or the defaults)."""
        history = self.conversation(conversation_id).history
        settings = TurnSettings.from_settings(self.services.settings)
        base = with_project(self.services.library, settings, history)
        return enabled_tools(history, base.default_tools)

    def last_model(self, conversation_id: str) -> str | None:
        """The model the conversation goes on with; None for the default model (no reply yet,
        or the last one came from elsewhere, e.g. an imported ChatGPT chat)."""
        output = self.conversation(conversation_id).history.last_output
        return model_to_continue(output, self.services.models)

    # --- turns --------------------------------------------------------------------------

    def send(
        self,
        conversation_id: str,
        text: str,
        spec: str,
        system: str | None = None,
        tools: Sequence[str] | None = None,
        tuning: Mapping[str, Any] | None = None,
        attachments: Sequence[Attachment] = (),
    ) -> asyncio.Task[None]:
        """Send ``text`` (and the files attached, stored by ui.chat.attachment_files) to ``spec``.
        If the turn ends before the input is saved, ``input_refused`` hands both back."""
        conversation, runner = self.conversation(conversation_id), self.runner()
        on_event, on_context = self._buffer(conversation_id), self._context(conversation_id)
        coroutine = self._searching.around(conversation, runner.knowledge, lambda heard: runner.run(
            conversation, spec, text, system=system, tools=tools, on_event=on_event,
            on_context=on_context, tuning=tuning, attachments=attachments, on_knowledge=heard,
        ))  # fmt: skip
        unsent = _Unsent(text, list(attachments), conversation.history.version)
        return self._start(conversation_id, coroutine, spec, unsent)

    def retry(
        self, conversation_id: str, spec: str, reply: int | None = None
    ) -> asyncio.Task[None]:
        """Answer again what reply ``reply`` answered (by default the last), with ``spec``: a
        sibling of it, the new active branch."""
        conversation = self.conversation(conversation_id)
        coroutine = self.runner().regenerate(
            conversation, spec, reply=reply, on_event=self._buffer(conversation_id),
            on_context=self._context(conversation_id),
        )  # fmt: skip
        return self._start(conversation_id, coroutine, spec)

    def continue_reply(self, conversation_id: str, seq: int, spec: str) -> asyncio.Task[None]:
        """Go on with reply ``seq``, cut at its length limit: the rest follows it."""
        conversation = self.conversation(conversation_id)
        coroutine = self.runner().continue_reply(
            conversation, spec, reply=seq, on_event=self._buffer(conversation_id)
        )
        return self._start(conversation_id, coroutine, spec)

    def edit(
        self,
        conversation_id: str,
        seq: int,
        text: str,
        spec: str,
        tools: Sequence[str] | None,
        tuning: Mapping[str, Any] | None = None,
    ) -> asyncio.Task[None]:
        """Send input ``seq`` again as ``text``: a new branch from where it was, with the
        files the input had attached."""
        conversation = self.conversation(conversation_id)
        edited = conversation.history.at(seq)
        attached = edited.attachments if isinstance(edited, ModelInput) else []
        runner = self.runner()
        on_event, on_context = self._buffer(conversation_id), self._context(conversation_id)
        coroutine = self._searching.around(conversation, runner.knowledge, lambda heard: runner.run(
            conversation, spec, text, tools=tools, on_event=on_event, on_context=on_context,
            edit=seq, tuning=tuning, attachments=attached, on_knowledge=heard,
        ))  # fmt: skip
        return self._start(conversation_id, coroutine, spec)

    def compare(
        self,
        conversation_id: str,
        text: str,
        specs: Sequence[str],
        tools: Sequence[str] | None,
        tuning: Mapping[str, Any] | None = None,
    ) -> asyncio.Task[None]:
        """One input to several models at once; each reply streams on ``compare_text`` and is
        kept as a sibling of the others."""
        conversation = self.conversation(conversation_id)
        runner = self.runner()
        compared = self._compared

        def on_event(spec: str, event: StreamEvent) -> None:
            if isinstance(event, TextDelta):
                compared[(conversation_id, spec)].append(event.text)

        async def turn(heard: OnKnowledge) -> ModelOutput:
            results = await runner.compare(
                conversation, list(specs), text, tools=tools, on_event=on_event,
                on_context=self._context(conversation_id), tuning=tuning, on_knowledge=heard,
            )  # fmt: skip
            replies = [r for r in results if isinstance(r, ModelOutput)]
            if not replies:
                failure = next(r for r in results if isinstance(r, BaseException))
                raise failure
            return replies[-1]

        coroutine = self._searching.around(conversation, runner.knowledge, turn)
        return self._start(conversation_id, coroutine, specs[0])

    def stop(self, conversation_id: str) -> None:
        task = self._tasks.get(conversation_id)
        if task is not None and not task.done():
            task.cancel()

    # --- asking before an MCP tool runs -----------------------------------------------------

    def pending_approval(self, conversation_id: str) -> ApprovalRequest | None:
        """The call this conversation's turn is waiting on the user for (None: none)."""
        asked = self._asking.get(conversation_id)
        return asked[0] if asked else None

    def answer(self, conversation_id: str, call_id: str, decision: Decision) -> bool:
        """The user's answer to the question about ``call_id``; False when nothing waits on
        it any more (answered already, or the turn was stopped)."""
        asked = self._asking.get(conversation_id)
        if asked is None or asked[0].call_id != call_id or asked[1].done():
            return False
        asked[1].set_result(decision)
        return True

    def runner(self) -> TurnRunner:
        """The services' turn runner, asking this window before an MCP tool runs; made again
        only when the services' is (new settings, models or tools)."""
        runner = self.services.runner
        if self._runner is None or self._runner[0] is not runner:
            self._runner = (runner, runner.using(approve=self._approve))
        return self._runner[1]

    async def _approve(self, request: ApprovalRequest) -> Decision:
        """Ask through ``approval_requested`` and wait for ``answer``; Stop cancels the wait
        (the turn ends, the call is recorded as not run) and ``approval_ended`` says so."""
        conversation_id = request.conversation_id
        async with self._ask_locks[conversation_id]:
            waiting = asyncio.get_running_loop().create_future()
            self._asking[conversation_id] = (request, waiting)
            self.approval_requested.emit(conversation_id, request)
            try:
                decision: Decision = await waiting
                return decision
            finally:
                waiting.cancel()  # a no-op once answered
                if self._asking.get(conversation_id, (None, None))[1] is waiting:
                    del self._asking[conversation_id]
                self.approval_ended.emit(conversation_id, request.call_id)

    def _start(
        self, conversation_id: str, coroutine: Turn, spec: str, unsent: _Unsent | None = None
    ) -> asyncio.Task[None]:
        if self.is_streaming(conversation_id):
            coroutine.close()
            raise CrosstalkError(self.tr("A reply is still streaming here: stop it first (Esc)."))
        task = asyncio.ensure_future(self._run(conversation_id, coroutine, spec, unsent))
        self._tasks[conversation_id] = task
        return task

    async def _run(
        self, conversation_id: str, coroutine: Turn, spec: str, unsent: _Unsent | None
    ) -> None:
        self.stream_started.emit(conversation_id)
        if not self._flush.isActive():
            self._flush.start()
        ended = True  # the turn ended early: stopped or failed
        try:
            await self.services.models.ready(spec)  # the window paints while an SDK imports
            await coroutine
            ended = False
        except asyncio.CancelledError:
            pass  # Stop: the partial reply is already saved
        except CrosstalkError as exc:
            self.turn_failed.emit(conversation_id, errors_text.said(exc), _action(exc))
        except Exception as exc:  # a bug: reported as one (ui/shell/unexpected.py), not said
            sys.excepthook(type(exc), exc, exc.__traceback__)
        finally:
            coroutine.close()  # not started if the model could not be resolved
            if ended and unsent is not None and conversation_id in self._open:
                history = self._open[conversation_id].history
                if not unsent.saved_in(history):  # nothing of it is lost: back to the composer
                    self.input_refused.emit(conversation_id, unsent.text, unsent.attachments)
            self.flush()
            self.stream_ended.emit(conversation_id)
            if not any(self.is_streaming(c) for c in self._tasks if c != conversation_id):
                self._flush.stop()

    def _context(self, conversation_id: str) -> OnContext:
        """Automatic compression is long work: say what it is doing, in words for the window."""

        def on_context(event: ContextEvent) -> None:
            if isinstance(event, Compressing):
                first, last = event.covers
                said = self.tr("Compressing entries {first}-{last} ({strategy}, {model})…")
                message = said.format(
                    first=first, last=last, strategy=event.strategy, model=event.model
                )
            elif isinstance(event, Compressed):
                message = self.tr("Compressed the older history; the summary stands in for it.")
            else:
                message = self.tr("Compression not used: {reason}").format(reason=event.message)
            self.context_changed.emit(conversation_id, message)

        return on_context

    def live_text(self, conversation_id: str) -> str:
        """What the running reply has said so far: for a view that switches back to it."""
        return "".join(self._live[conversation_id]) + "".join(self._text[conversation_id])

    def _buffer(self, conversation_id: str) -> Callable[[StreamEvent], None]:
        text, reasoning = self._text[conversation_id], self._reasoning[conversation_id]
        self._live[conversation_id].clear()

        def on_event(event: StreamEvent) -> None:
            if isinstance(event, TextDelta):
                text.append(event.text)
            elif isinstance(event, ReasoningDelta):
                reasoning.append(event.text)

        return on_event

    def flush(self) -> None:
        """Hand the text that arrived since the last flush to the view, one signal each."""
        for conversation_id, parts in self._reasoning.items():
            if parts:
                chunk = "".join(parts)
                parts.clear()
                self.stream_reasoning.emit(conversation_id, chunk)
        for conversation_id, parts in self._text.items():
            if parts:
                chunk = "".join(parts)
                parts.clear()
                self._live[conversation_id].append(chunk)
                self.stream_text.emit(conversation_id, chunk)
        for (conversation_id, spec), parts in self._compared.items():
            if parts:
                chunk = "".join(parts)
                parts.clear()
                self.compare_text.emit(conversation_id, spec, chunk)

    def _post(self, event: StoreEvent) -> None:
        self._store_event.emit(event)

    def _on_store_event(self, event: StoreEvent) -> None:
        if isinstance(event, Appended):
            self._on_appended(event.conversation_id, event.entry)
        elif isinstance(event, Branched):
            self.branched.emit(event.conversation_id, event.seq)

    def _on_appended(self, conversation_id: str, entry: AnyEntry) -> None:
        self.flush()  # text before the entry that closes it
        if isinstance(entry, ModelOutput):
            self._live[conversation_id].clear()
        self.entry_appended.emit(conversation_id, entry)
        if isinstance(entry, Title):
            self.title_changed.emit(conversation_id, entry.text)

    def refresh_open(self) -> None:
        """Read what other processes appended to the conversations open here (a stat each
        when nothing changed); the store's events bring the entries to the view."""
        for conversation in list(self._open.values()):
            self.services.library.refresh(conversation)

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a background job (e.g. a Settings test) and keep it alive until done."""
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def build_soon(self, spec: str) -> None:
        """Build ``spec``'s provider on a worker thread, so the first send to it does not on
        the window's: a cloud one reads its key from the OS keyring (slow the first
        time, or a prompt to unlock it). The cloud SDKs are imported by the inspector's
        prepare."""
        if spec and not self.services.models.is_built(spec):
            self.spawn(self._build(spec))

    async def before_first_paint(self) -> None:
        """What would stall the window if it came after the first paint: building the
        tokenizer the inspector counts with holds the GIL for a while (app/context/tokens.py),
        and landed in the first scroll of the list. Before the paint, it only delays it."""
        try:
            await load_encoding()
        except Exception:  # the window opens anyway; counting says what is wrong when used
            log.exception("the tokenizer could not be loaded")
        try:
            await asyncio.to_thread(self._load_for_turns)
        except Exception:  # only a head start: the first turn loads what failed, and says why
            log.exception("loading what turns use failed")

    def _load_for_turns(self) -> None:
        """The services' turn runner (the attachments' fitting, the contexts, the toolbox and
        the MCP servers it reads from mcp.json) and the compression machinery, made on a
        worker thread: ``app.composition`` imports each where it is first used, so that
        ``crosstalk ask`` imports only what it sends with; in the window, that first use would
        be the first send or Compress…, on the window's thread."""
        self.services.runner  # noqa: B018 (building it imports its parts)
        importlib.import_module("app.context.compression")

    def warm_up(self, spec: str) -> None:
        """At start: build ``spec``'s provider (``build_soon``) and, for the built-in model,
        start its process, so the first reply does not wait for either."""
        self.spawn(self._warm_up(spec))

    async def _build(self, spec: str) -> Provider | None:
        try:
            provider, _model = await asyncio.to_thread(self.services.models.resolve, spec)
        except CrosstalkError:
            return None  # said when it is used
        return provider

    async def _warm_up(self, spec: str) -> None:
        provider = await self._build(spec)
        if isinstance(provider, LocalProvider):
            await provider.warm_up()

    def retire(self, models: Models) -> None:
        """Models replaced by new settings: closed at shutdown, when nothing uses them."""
        self._retired.append(models)

    async def shutdown(self) -> None:
        """Stop every running turn (partial replies are saved) and close the providers."""
        tasks = [t for t in [*self._tasks.values(), *self._background] if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
        for models in [*self._retired, self.services.models]:
            await models.aclose()
        self._loader.shutdown(wait=False, cancel_futures=True)
        self._unsubscribe()

    # --- the library's other writes, off the window's thread --------------------------------

    async def rename(self, conversation_id: str, title: str) -> None:
        """Give the conversation the user's title, on a worker thread as a turn's appends are;
        the store's event brings it back (``title_changed``)."""
        await asyncio.to_thread(self.services.library.rename, conversation_id, title)

    async def pin(self, conversation_id: str, pinned: bool) -> None:
        """Keep the conversation on top of the list (or stop), on a worker thread."""
        await asyncio.to_thread(self.services.library.pin, conversation_id, pinned)

    async def delete(self, conversation_id: str) -> None:
        """Move the conversation to the trash on a worker thread, and drop it from memory
        (unless a turn still runs there: ``forget``)."""
        await asyncio.to_thread(self.services.library.delete, conversation_id)
        self.forget(conversation_id)

    async def restore(self, conversation_id: str) -> Conversation:
        """Bring the conversation back from the trash on a worker thread; the copy read there
        is the open one (``conversation`` returns it at once)."""
        restored = await asyncio.to_thread(self.services.library.restore, conversation_id)
        return self._open.setdefault(conversation_id, restored)

    async def fork(self, conversation_id: str, seq: int) -> Conversation:
        """A new conversation holding the path to message ``seq``, written on a worker
        thread; it is open here."""
        fork = await asyncio.to_thread(self.services.library.fork, conversation_id, seq)
        return self._open.setdefault(fork.id, fork)


@dataclass(frozen=True)
class _Unsent:
    """What a send asked to append, until it is saved."""

    text: str
    attachments: list[Attachment]
    version: int  # the history's version when the send began

    def saved_in(self, history: History) -> bool:
        """Whether the input was appended since (by this send: same text, same files)."""
        return any(
            isinstance(entry := history.at(seq), ModelInput)
            and entry.text == self.text
            and entry.attachments == self.attachments
            for seq in range(self.version + 1, history.version + 1)
        )


def _weak_listener(method: Listener) -> Listener:
    ref = weakref.WeakMethod(method)

    def listener(event: StoreEvent) -> None:
        target = ref()
        if target is not None:
            target(event)

    return listener


def _action(exc: CrosstalkError) -> str:
    if isinstance(exc, AuthFailed):
        return "settings"
    if isinstance(exc, RateLimited):
        return "retry"
    return "retry"
