"""The next request of the conversation shown, as the composer stands: one computation that the
composer's meter and the inspector's Next request tab both show, so they never disagree.

It is made again when typing pauses, and when the model, the tools or the history change (what
changes together, as when another conversation is shown, is counted once). It is made on a
worker thread, one at a time, from a copy of the history as it stood (counting and scrubbing a
long history takes a while), and shown on the window's thread; a
result for a conversation no longer shown, or made again meanwhile, is dropped. The model's
tokenizer is loaded off the event loop first (and, once the wire body is wanted, the adapter's
SDK): until then the last figures stay, so nothing slow runs on the GUI thread. Loading a
vocabulary still holds the interpreter for a while (once per process), so for the
meter alone it waits for a quiet moment: not while the window starts or the user moves between
conversations.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from app.composition import Services
from app.errors import CrosstalkError
from app.history import AnyEntry, Attachment, History
from app.inspect.next_request import NextRequest, next_request, prepare
from app.store import Conversation
from ui.chat.controller import ChatController
from ui.composer.composer import Composer

log = logging.getLogger(__name__)

DRAFT_DELAY_MS = 300  # the next request follows the draft once typing pauses
# entries saved together (a reply, its tool results, the next input) count together, and
# after the append that saved them has returned to the turn, which streams on meanwhile
ENTRY_DELAY_MS = 30
SETTLE_MS = 500  # the meter's first preparation waits until nothing changed for this long
COUNTED, RENDERED = 1, 2  # how far a model is prepared: its tokenizer; its SDK too
BUSY_MS = 30  # while the window is busy (``busy``), how often to look whether it still is


class RequestWatch(QObject):
    updated = Signal()  # ``request`` (or ``message``) is new
    # a computation ended on the worker: its generation, and (request, message); queued by Qt
    # to this object's thread
    _made = Signal(int, object)

    def __init__(
        self, controller: ChatController, composer: Composer, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.composer = composer
        self.conversation_id: str | None = None
        self.request: NextRequest | None = None  # the latest made, for this conversation
        self.message = ""  # why there is no request (it failed), or what is being prepared
        self.computed = 0  # how many requests were made (each is a full context render)
        self._rendered = False  # ``request`` has its wire body
        self._want_body = False  # someone shows the wire body: render it too
        self._stale = True
        self._prepared: dict[str, int] = {}  # spec -> COUNTED | RENDERED
        self._preparing: str | None = None
        self._closed = False
        # one computation at a time, on a thread of its own; each gets the next generation,
        # and its result is shown only if no newer one was asked for meanwhile
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="next-request")
        self._generation = 0
        self._running = False
        self._copies = _Copies()  # used on the worker only
        self._made.connect(self._on_made)
        # whether the window is drawing (the chat a long tail): the worker waits for the end,
        # as its counting would slow each step down (the two take turns with the interpreter)
        self.busy: Callable[[], bool] = lambda: False
        self._draft_timer = self._timer(DRAFT_DELAY_MS)
        self._entry_timer = self._timer(ENTRY_DELAY_MS)
        self._soon = self._timer(0)  # changes made together are counted once
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._on_settled)
        self._settled = False  # a quiet moment came: the meter may load what it needs
        # bound methods, not lambdas: Qt drops these connections when the watch is destroyed
        composer.edit.textChanged.connect(self._on_draft)
        if composer.chips is not None:  # files attached or removed change the request too
            composer.chips.changed.connect(self._on_draft)
        composer.model_picker.currentTextChanged.connect(self._on_input)
        # every entry, those of servers added to mcp.json while the window runs included
        composer.tools_menu.changed.connect(self._on_tools)
        controller.entry_appended.connect(self._on_entry)

    def _timer(self, interval: int) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval)
        timer.timeout.connect(self.update)
        return timer

    @property
    def services(self) -> Services:
        return self.controller.services

    @property
    def rendered(self) -> bool:
        """Whether ``request`` carries the wire body (``want_body`` asked for it)."""
        return self.request is not None and self._rendered

    # --- what changed --------------------------------------------------------------------

    def follow(self, conversation_id: str | None) -> None:
        """Another conversation (None: a new chat): its figures, never the last one's."""
        if conversation_id != self.conversation_id or self.request is None:
            self.conversation_id = conversation_id
            self._generation += 1  # what is being made for the last one is not wanted
            self.request, self.message = None, ""
            self.updated.emit()
            self._later(self._soon)

    def want_body(self, wanted: bool) -> None:
        """The wire body is shown (or no longer): a request without one is made again."""
        self._want_body = wanted
        if wanted and self.request is not None and not self._rendered:
            self._later(self._soon)

    def settings_changed(self) -> None:
        """Providers, windows or prices may differ: prepare and count again."""
        self._prepared.clear()
        self._later(self._soon)

    def close(self) -> None:
        """The window closes: nothing is made or prepared from now on (no task is started
        while the controller shuts down, nor a timer left to fire into a closed loop)."""
        self._closed = True
        for timer in (self._draft_timer, self._entry_timer, self._soon, self._settle):
            timer.stop()
        self._worker.shutdown(wait=False, cancel_futures=True)

    def changed(self) -> None:
        """Something changed that the request depends on: make it again now."""
        self._stale = True
        self.update()

    def _later(self, timer: QTimer) -> None:
        self._stale = True
        if not self._settled:
            self._settle.start()  # not quiet yet
        if timer is not self._entry_timer or not timer.isActive():
            timer.start()  # (re)started: typing restarts the pause; entries do not postpone

    def _on_draft(self) -> None:
        self._later(self._draft_timer)

    def _on_tools(self) -> None:
        self._on_input(None)

    def _on_input(self, _value: object) -> None:
        self._later(self._soon)

    def _on_entry(self, conversation_id: str, _entry: AnyEntry) -> None:
        if conversation_id == self.conversation_id:
            self._later(self._entry_timer)

    # --- making it -----------------------------------------------------------------------

    def update(self) -> None:
        """Make the request now if anything changed and the model is prepared; else start
        preparing it (off the loop) and make it when that is done."""
        if not self._stale or self._closed:
            return
        for timer in (self._draft_timer, self._entry_timer, self._soon):
            timer.stop()  # whatever they were waiting for is counted now
        spec = self.composer.model()
        level = RENDERED if self._want_body else COUNTED
        if self._prepared.get(spec, 0) < level:
            if level == COUNTED and not self._settled:  # the Next request tab does not wait
                if not self._settle.isActive():
                    self._settle.start()
                return
            if self._preparing is None:
                self._preparing = spec
                # the last request stays meanwhile
                self.message = self.tr("Preparing {model}…").format(model=spec)
                self.updated.emit()
                self.controller.spawn(self._prepare(spec, level))
            return
        if self.busy():
            self._soon.start(BUSY_MS)  # the request stays stale until then
            return
        self._soon.setInterval(0)
        self._stale = False
        self._generation += 1  # whatever is being made now is not wanted any more
        if self._running:
            self._stale = True  # made once the one running is done (``_on_made``)
            return
        self.computed += 1
        cid = self.conversation_id
        conversation = None if cid is None else self.controller.conversation(cid)
        job = _Job(
            conversation,
            # a copy of the entries list as it stands (one step under the GIL): turns append
            # on another thread meanwhile, entries themselves never change
            [] if conversation is None else conversation.history.upto(conversation.history.version),
            spec,
            self.composer.draft(),
            self.composer.tools(),
            self.composer.attachments(),
            self._want_body,
        )
        self._running = True
        self._worker.submit(self._make, job, self._generation)

    def _make(self, job: _Job, generation: int) -> None:
        """On the worker: compute, and hand the result to the window's thread."""
        made = self._compute(job)
        with contextlib.suppress(RuntimeError):  # the window is gone meanwhile
            self._made.emit(generation, (job.render, made))

    def _on_made(self, generation: int, made: tuple[bool, tuple[NextRequest | None, str]]) -> None:
        self._running = False
        if self._closed:
            return
        render, (request, message) = made
        if generation == self._generation:
            self.request, self.message = request, message
            self._rendered = render and request is not None
            self.updated.emit()
        if self._stale:
            self.update()  # asked for while this one was made

    def _compute(self, job: _Job) -> tuple[NextRequest | None, str]:
        """On the worker: the request, or why there is none."""
        try:
            conversation = self._copies.copy(job.conversation, job.entries)
            request = next_request(
                self.services, conversation, job.spec, draft=job.draft, tools=job.tools,
                attachments=job.attachments, render=job.render,
            )  # fmt: skip
        except Exception as exc:  # shown where the request would be (and logged), never raised
            log.warning("next request for %s: %r", job.spec, exc, exc_info=True)
            return None, self.tr("Cannot show the next request for {model}: {error}").format(
                model=job.spec, error=exc
            )
        return request, ""

    def _renderer(self, spec: str) -> None:
        """On the worker: the adapter that renders ``spec``'s requests, built and kept."""
        with contextlib.suppress(CrosstalkError):  # an unknown model: ``prepare`` returns
            self.services.renderer(spec)

    def _on_settled(self) -> None:
        self._settled = True
        self.update()

    async def _prepare(self, spec: str, level: int) -> None:
        try:
            # the adapter's module is imported on the worker: ``prepare`` looks the adapter up
            # on the event loop, where importing it would hold the window
            await asyncio.get_running_loop().run_in_executor(self._worker, self._renderer, spec)
            await prepare(self.services, spec, render=level == RENDERED)
        except Exception as exc:  # next_request reports it again
            log.warning("preparing %s: %r", spec, exc)
        finally:
            self._prepared[spec] = max(level, self._prepared.get(spec, 0))
            self._preparing = None
        self.update()


@dataclass(frozen=True)
class _Job:
    """What one computation needs, taken on the window's thread."""

    conversation: Conversation | None
    entries: list[AnyEntry]  # the history's entries when it was asked for
    spec: str
    draft: str
    tools: Sequence[str] | None
    attachments: Sequence[Attachment]
    render: bool


class _Copies:
    """The worker's own copy of the history of the conversation it last counted, brought up
    to date with the entries appended since (histories only grow), so a long one is not
    built again at every pause in typing."""

    def __init__(self) -> None:
        self._of: Conversation | None = None
        self._copy: Conversation | None = None

    def copy(
        self, conversation: Conversation | None, entries: list[AnyEntry]
    ) -> Conversation | None:
        if conversation is None:
            return None
        copy = self._copy
        if copy is None or self._of is not conversation or copy.history.version > len(entries):
            copy = dataclasses.replace(conversation, history=History(entries))
        else:
            for entry in entries[copy.history.version :]:
                copy.history.append(entry)
        self._of, self._copy = conversation, copy
        return copy
