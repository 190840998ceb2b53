"""When the window syncs (docs/sync.md): after the library changes (once the
changes have settled for ``debounce`` seconds), every ``every`` seconds, and when asked; never
two at once; after a failure not again until a wait that doubles each time (1, 2, 4 ... 30
minutes), unless asked; stopped on quit.

Plain asyncio, no Qt: the window drives it on its qasync loop. The sync itself is blocking
(``engine.sync``) and runs on a thread of its own, always the same one, so the store's events
it causes (received entries, deletes, pins) are told apart from the user's changes by the
thread they arrive on, and never schedule another sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from app.errors import CrosstalkError, stored
from app.history import utc_now
from app.sync import engine
from app.sync import state as states

if TYPE_CHECKING:
    from app.store.events import StoreEvent
    from app.store.library import Library
    from app.sync.layout import Vault

__all__ = ["BackgroundSync", "Status"]

log = logging.getLogger(__name__)

DEBOUNCE = 20.0  # seconds without a change before the changes are sent
EVERY = 300.0  # seconds between syncs when nothing changes here (others' changes come in)
FIRST = 5.0  # seconds after start before the first sync (the window paints first)
FIRST_RETRY = 60.0  # after a failure; doubled after each further one
LONGEST_RETRY = 1800.0
PENDING_AFTER = 1.0  # seconds a change waits before "N to send" is counted again
PROGRESS_EVERY = 0.1  # seconds between two progress steps shown


@dataclass(frozen=True)
class Status:
    """What the status line shows. ``retry_at`` is on ``time.monotonic()``'s clock."""

    syncing: bool = False
    stage: str = ""  # while syncing: "listing", "receiving" or "sending"
    done: int = 0
    total: int = 0
    last_at: str | None = None  # UTC ISO time of the last sync that finished
    error: str | None = None  # the last failure in words; a success clears it
    failure: dict[str, Any] | None = None  # and as values (``app.errors.stored``), if it has them
    retry_at: float | None = None  # when the next try after a failure is due
    pending: int = 0  # conversations with changes not sent yet
    summary: str | None = None  # the last finished sync's summary
    counts: dict[str, int] | None = None  # its numbers (``SyncReport.counts``)


StatusFn = Callable[[Status], None]
ReportFn = Callable[[engine.SyncReport], None]


class BackgroundSync:
    def __init__(
        self,
        library: Library,
        open_vault: Callable[[], Vault],
        *,
        debounce: float = DEBOUNCE,
        every: float = EVERY,
        first: float = FIRST,
        first_retry: float = FIRST_RETRY,
        longest_retry: float = LONGEST_RETRY,
    ) -> None:
        """``open_vault`` opens the remote (on the sync's thread: it reads the marker); it is
        opened again after a failure, so fixed credentials are picked up."""
        self.library = library
        self._open_vault = open_vault
        self._vault: Vault | None = None
        self.debounce, self.every, self.first = debounce, every, first
        self.first_retry, self.longest_retry = first_retry, longest_retry
        self.status = Status()
        self.syncs = 0  # syncs begun (the tests count them)
        self.status_listeners: list[StatusFn] = []
        self.report_listeners: list[ReportFn] = []
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="crosstalk-sync")
        self._thread: int | None = None  # the executor's thread, once it has run something
        self._cancel = threading.Event()
        self._wake: asyncio.Future[None] | None = None  # the scheduler's nap, cut short
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._now = False  # asked to sync now
        self._change_at: float | None = None  # a change's sync is due then
        self._periodic_at = 0.0
        self._failures = 0
        self._progress: tuple[str, int, int] | None = None  # the latest step
        self._scheduled = False  # a step is on its way to the loop
        self._shown_at, self._stage = 0.0, ""
        self._pending_task: asyncio.Task[None] | None = None
        self.running = 0  # syncs on the thread now: never more than one

    # --- the window's calls ---------------------------------------------------------------

    def start(self) -> None:
        """Begin on the current loop (running, or about to run): the first sync ``first``
        seconds from now."""
        self._loop = loop = asyncio.get_event_loop()
        self._periodic_at = time.monotonic() + self.first
        self._unsubscribe = self.library.subscribe(self._heard)
        self._task = asyncio.ensure_future(self._run(), loop=loop)
        self._task.add_done_callback(_said_if_failed)
        self._pending_task = asyncio.ensure_future(self._read_last(), loop=loop)

    def changed(self) -> None:
        """Something here changed: sync once nothing more has changed for ``debounce`` s."""
        self._change_at = time.monotonic() + self.debounce
        self._poke()
        if self._pending_task is None or self._pending_task.done():
            wait = min(PENDING_AFTER, self.debounce / 2)  # counted before it is sent
            self._pending_task = asyncio.ensure_future(self._count_pending(wait), loop=self._loop)

    def sync_now(self) -> None:
        """Sync as soon as the one running (if any) has finished, failures' wait or not."""
        self._now = True
        self._poke()

    def halt(self) -> None:
        """No sync begins from now on, and one running stops at its next safe point (what it
        did is kept); ``stop`` waits for it."""
        self._cancel.set()
        self._poke()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    async def stop(self, timeout: float = 10.0) -> None:
        """``halt``, and wait up to ``timeout`` seconds for a sync running to stop."""
        self.halt()
        if self._pending_task is not None:
            self._pending_task.cancel()
        task = self._task
        if task is not None and not task.done():
            try:  # the sync's thread notices the cancel between two steps
                await asyncio.wait_for(asyncio.shield(task), timeout)
            except TimeoutError:  # (a request hanging): left to end on its thread
                log.warning("the sync did not stop within %s s", timeout)
                task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    @property
    def stopped(self) -> bool:
        return self._cancel.is_set()

    # --- the schedule ---------------------------------------------------------------------

    def _poke(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def _due(self) -> float:
        if self._now:
            return 0.0
        if self._failures:
            return self.status.retry_at or 0.0
        if self._change_at is not None:
            return min(self._change_at, self._periodic_at)
        return self._periodic_at

    async def _run(self) -> None:
        while not self._cancel.is_set():
            delay = self._due() - time.monotonic()
            if delay > 0:
                await self._nap(delay)
                continue
            await self._sync_once()

    async def _nap(self, seconds: float) -> None:
        """Wait ``seconds``, or until poked. Bound to the loop the sync was started on, not
        to "the running loop": qasync runs a task's steps from Qt's events too, when
        asyncio does not count its loop as running (as in tests that process Qt events)."""
        assert self._loop is not None
        self._wake = wake = self._loop.create_future()
        timer = self._loop.call_later(seconds, _settle, wake)
        try:
            await wake
        finally:
            timer.cancel()
            self._wake = None

    async def _sync_once(self) -> None:
        self._now, self._change_at = False, None
        self.syncs += 1
        self._set(syncing=True, stage="listing", done=0, total=0)
        assert self._loop is not None
        loop = self._loop
        try:
            report, pending = await loop.run_in_executor(self._executor, self._work)
        except engine.Cancelled:
            self._set(syncing=False)
            return
        except states.SyncBusy:  # `crosstalk sync` in a terminal: try again a little later
            self._change_at = time.monotonic() + self.debounce
            self._set(syncing=False)
            return
        except Exception as exc:
            if not isinstance(exc, CrosstalkError):
                log.exception("sync failed")
            else:
                log.warning("sync failed: %s", exc)
            self._vault = None  # opened again next time: the secrets or the remote may change
            self._failures += 1
            wait = min(self.first_retry * 2 ** (self._failures - 1), self.longest_retry)
            words = str(exc) or type(exc).__name__
            failure = stored(exc) if isinstance(exc, CrosstalkError) else None
            self._set(syncing=False, error=words, failure=failure, retry_at=time.monotonic() + wait)
            await self._count_pending(0)
            return
        self._failures = 0
        self._periodic_at = time.monotonic() + self.every
        self._set(
            syncing=False, error=None, failure=None, retry_at=None, last_at=utc_now(),
            pending=pending, summary=report.summary(), counts=report.counts(),
        )  # fmt: skip
        for listener in list(self.report_listeners):
            listener(report)

    def _work(self) -> tuple[engine.SyncReport, int]:
        """On the sync's thread: open the remote if need be, sync, count what is left."""
        self._thread = threading.get_ident()
        self.running += 1
        try:
            if self._cancel.is_set():
                raise engine.Cancelled("stopped before it began")
            if self._vault is None:
                try:
                    self._vault = self._open_vault()
                except CrosstalkError as exc:  # as a failed sync's, for `crosstalk sync status`
                    states.record_failure(self.library.data, exc)
                    raise
            report = engine.sync(
                self.library, self._vault, progress=self._on_progress, cancel=self._cancel
            )
            return report, states.pending(self.library)
        finally:
            self.running -= 1

    # --- what the status line shows -------------------------------------------------------

    def _set(self, **changes: object) -> None:
        self.status = replace(self.status, **changes)  # type: ignore[arg-type]
        for listener in list(self.status_listeners):
            listener(self.status)

    def _on_progress(self, stage: str, done: int, total: int) -> None:
        """On the sync's thread: the latest progress, shown at most ten times a second (and
        at each new stage) however often it comes."""
        self._progress = (stage, done, total)
        now = time.monotonic()
        if self._scheduled or (now - self._shown_at < PROGRESS_EVERY and stage == self._stage):
            return
        self._scheduled, self._shown_at, self._stage = True, now, stage
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._show_progress)

    def _show_progress(self) -> None:
        self._scheduled = False
        if self._progress is not None and self.status.syncing:
            stage, done, total = self._progress
            self._set(stage=stage, done=done, total=total)

    async def _read_last(self) -> None:
        """At start: what the last sync (of this window or a command) left recorded."""
        assert self._loop is not None
        loop = self._loop
        last, pending = await loop.run_in_executor(
            self._executor,
            lambda: (states.last_sync(self.library.data), states.pending(self.library)),
        )
        if self.syncs == 0:  # else a sync of this window's has said more
            self._set(
                last_at=last.at, error=last.error, failure=last.failure, summary=last.summary,
                counts=last.counts,
                pending=pending,
            )  # fmt: skip

    async def _count_pending(self, after: float) -> None:
        assert self._loop is not None
        loop = self._loop
        if after:
            pause = loop.create_future()
            loop.call_later(after, _settle, pause)
            await pause
        try:
            pending = await loop.run_in_executor(
                self._executor, lambda: states.pending(self.library)
            )
        except RuntimeError:  # the executor was shut down: stopping
            return
        self._set(pending=pending)

    # --- the store ------------------------------------------------------------------------

    def _heard(self, event: StoreEvent) -> None:
        """A store event, on whichever thread made the change: the sync's own are not a
        change to send (they came from the remote, or went there)."""
        if threading.get_ident() == self._thread or self._loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: quitting
            self._loop.call_soon_threadsafe(self.changed)


def _said_if_failed(task: asyncio.Task[None]) -> None:
    """The schedule ended by a bug: logged (background sync stops; the window goes on)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("background sync stopped", exc_info=task.exception())


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
