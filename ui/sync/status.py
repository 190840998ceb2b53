"""Sync in the window: the status bar's line (``SyncLine``) and the background sync it shows
(``SyncRunner``, which drives ``app.sync.background.BackgroundSync`` on the window's loop).

The line says one thing at a time, the most pressing first: syncing (with how far), the last
failure (with when it is tried again), what is not sent yet, when it last synced. A click, or
File > Sync now, syncs at once.
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from msgspec.structs import replace
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from ui.common import errors_text, locale_format, theme

if TYPE_CHECKING:
    from app.composition import Services
    from app.settings_sync import SyncConfig
    from app.sync.background import BackgroundSync, Status
    from app.sync.engine import SyncReport

TICK_MS = 20_000  # "2 min ago" and "retrying in 4 min" are redrawn this often
WIDEST = 460  # px: a long error is cut short here; the tooltip has it whole


class SyncResult(QObject):
    """A sync's result in the window's language (the engine's summary is English, kept for
    when the numbers are missing)."""

    def words(self, counts: dict[str, int] | None, summary: str | None) -> str:
        if not counts:
            return summary or ""
        received, branches = counts.get("received", 0), counts.get("branches", 0)
        sent, events = counts.get("sent", 0), counts.get("events", 0)
        parts = []
        if received:
            parts.append(self.tr("received %n entry(s)", "", received))
        if branches:
            parts.append(self.tr("%n new branch(es) from another device", "", branches))
        if sent:
            parts.append(self.tr("sent %n entry(s)", "", sent))
        if events:
            parts.append(self.tr("%n pin(s), delete(s) or restore(s)", "", events))
        if not parts:
            return self.tr("up to date: nothing to receive or send")
        return self.tr("; ").join(parts)


def result_words(counts: dict[str, int] | None, summary: str | None) -> str:
    return SyncResult().words(counts, summary)


class SyncLine(QPushButton):
    """The status bar's sync line; ``clicked`` asks for a sync now."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncLine")
        self.setFlat(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # File > Sync now is the keyboard's way
        self.status: Status | None = None
        self.full_text = ""
        self._failed: bool | None = None  # as last styled
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self.refresh)
        self.hide()  # until sync is set up

    def show_status(self, status: Status | None) -> None:
        """``status`` from now on; None: sync is not set up here (the line is hidden)."""
        self.status = status
        self.setVisible(status is not None)
        if status is None:  # nothing shown: nothing to redraw
            self._tick.stop()
        elif not self._tick.isActive():
            self._tick.start()
        self.refresh()

    def refresh(self) -> None:
        status = self.status
        if status is None:
            return
        text, retry = self._parts(status)
        self.full_text = locale_format.spaced(text, retry)
        failed = bool(status.error) and not status.syncing
        # a long error is cut short, never when it is tried again
        metrics = self.fontMetrics()
        room = WIDEST - (metrics.horizontalAdvance(f" {retry}") if retry else 0)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
        self.setText(locale_format.spaced(shown, retry))
        if failed != self._failed:  # (styling again costs: not at each step of progress)
            self._failed = failed
            # the error colour of the active theme; otherwise the palette's text, as the bar's
            self.setStyleSheet(
                f"#syncLine {{ color: {theme.colour('error')}; border: none; padding: 0 6px; }}"
                if failed
                else "#syncLine { border: none; padding: 0 6px; }"
            )
        self.setToolTip(self._details(status))

    def restyle(self) -> None:
        """The theme changed: its colours and the palette's, again."""
        self._failed = None
        self.refresh()

    def text_for(self, status: Status) -> str:
        text, retry = self._parts(status)
        return locale_format.spaced(text, retry)

    def _parts(self, status: Status) -> tuple[str, str]:
        """The line's text, and when a failed sync is tried again ("" if it is not)."""
        if status.error and not status.syncing:
            error = errors_text.said_stored(status.failure, status.error)
            text = self.tr("Sync failed: {error}").format(error=error)
            if status.retry_at is None:
                return text, ""
            minutes = max(1, math.ceil((status.retry_at - time.monotonic()) / 60))
            return text, self.tr("(retrying in %n min)", "", minutes)
        return self._words(status), ""

    def _words(self, status: Status) -> str:
        if status.syncing:
            if status.stage in ("receiving", "sending") and status.total > 1:
                text = self.tr("Syncing… {done}/{total}")
                return text.format(
                    done=locale_format.count(status.done), total=locale_format.count(status.total)
                )
            return self.tr("Syncing…")
        if status.pending:
            return self.tr("%n conversation(s) to send", "", status.pending)
        if status.last_at:
            return self.tr("Synced {when}").format(when=self._ago(status.last_at))
        return self.tr("Not synced yet")

    def _ago(self, at: str) -> str:
        try:
            moment = datetime.fromisoformat(at)
        except ValueError:
            return at
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = (datetime.now(UTC) - moment).total_seconds()
        if seconds < 60:
            return self.tr("just now")
        if seconds < 3600:
            return self.tr("%n min ago", "", int(seconds // 60))
        return locale_format.when(moment)

    def _details(self, status: Status) -> str:
        lines = [self.full_text]
        if status.summary and status.last_at:
            lines.append(
                self.tr("Last sync ({when}): {summary}").format(
                    when=locale_format.when(status.last_at),
                    summary=result_words(status.counts, status.summary),
                )
            )
        lines.append(self.tr("Click to sync now (File > Sync now, Ctrl+Shift+S)"))
        return "\n".join(lines)


class SyncRunner(QObject):
    """The window's background sync: started when ``[sync]`` is set, restarted when Settings
    changes it, stopped on quit. Speaks in signals, on the window's thread."""

    status_changed = Signal(object)  # a Status, or None when sync is off
    branches_arrived = Signal(object)  # [(conversation id, seq)]: new branches from elsewhere

    def __init__(self, services: Services, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.services = services
        self.background: BackgroundSync | None = None
        self.timing: dict[str, float] = {}  # BackgroundSync's timing, shortened by tests
        self._restarts = 0  # the newest restart wins: one still stopping gives way to it

    @property
    def status(self) -> Status | None:
        return self.background.status if self.background is not None else None

    def start(self) -> None:
        """Begin syncing in the background if sync is set up here (else nothing)."""
        config = self.services.settings.sync
        if config is None or self.background is not None:
            self.status_changed.emit(self.status)
            return
        from app.sync import engine
        from app.sync.background import BackgroundSync

        environ = self.services.environ
        background = BackgroundSync(
            self.services.library, lambda: engine.open_vault(config, environ), **self.timing
        )
        background.status_listeners.append(self.status_changed.emit)
        background.report_listeners.append(self._on_report)
        self.background = background
        background.start()
        self.status_changed.emit(background.status)

    def sync_now(self) -> bool:
        """Sync at once; False when sync is not set up here."""
        if self.background is None:
            return False
        self.background.sync_now()
        return True

    def halt(self) -> None:
        """No new sync (the window is closing); one running stops at its next safe point."""
        if self.background is not None:
            self.background.halt()

    async def stop(self) -> None:
        """Stop, waiting for a sync running to stop."""
        background, self.background = self.background, None
        if background is not None:
            await background.stop()
        self.status_changed.emit(None)

    async def restart(self, config: SyncConfig | None) -> None:
        """Sync set up anew (or turned off: None), as Settings > Sync saved it. Restarts that
        overlap (set up, then switched while the first still stops) end with the newest."""
        self._restarts += 1
        mine = self._restarts
        await self.stop()
        if mine != self._restarts:
            return  # a newer restart came while this one stopped: it starts what is saved
        self.services.settings = replace(self.services.settings, sync=config)
        self.start()
        if self.background is not None:
            self.background.sync_now()  # a new remote: the first sync at once

    def _on_report(self, report: SyncReport) -> None:
        if report.branches:
            self.branches_arrived.emit(list(report.branches))
