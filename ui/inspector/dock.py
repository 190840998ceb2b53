"""The inspector: a dock with the History, Next request, Usage and Retrieval tabs of the
conversation shown.

It follows the conversation the window shows and the entries appended to it (never the tokens
of a streaming reply: the history only changes when an entry is saved). Nothing is computed while
the dock is hidden, nor for a tab that is not in front; each tab remembers which version of the
history it shows and catches up when it is looked at. The numbers come from ``app.inspect``; the
next request from the window's ``RequestWatch``, which the composer's meter shows too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget

from app.composition import Services
from app.errors import CrosstalkError
from app.history import AnyEntry, History
from app.inspect.ledger import Ledger, ledger
from app.inspect.next_request import NextRequest, provider_count
from app.pricing import PriceTable
from ui.chat.controller import ChatController
from ui.common import errors_text, locale_format
from ui.inspector.history_tab import HistoryTab
from ui.inspector.next_request_tab import NextRequestTab
from ui.inspector.request_watch import ENTRY_DELAY_MS, RequestWatch
from ui.inspector.retrieval_tab import RetrievalTab
from ui.inspector.usage_tab import UsageTab

log = logging.getLogger(__name__)

HISTORY, NEXT_REQUEST, USAGE, RETRIEVAL = range(4)


@dataclass(frozen=True)
class _Shown:
    """Which state of which history a tab shows: rebuilt or extended when this changes."""

    conversation_id: str | None
    history: History | None
    version: int
    prices: PriceTable | None


class InspectorDock(QDockWidget):
    show_in_chat = Signal(int)  # the user asked to see entry ``seq`` in the chat

    def __init__(
        self, controller: ChatController, watch: RequestWatch, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Inspector"))
        self.setObjectName("inspectorDock")  # saveState/restoreState find it by name
        self.setAllowedAreas(
            Qt.DockWidgetArea.RightDockWidgetArea
            | Qt.DockWidgetArea.LeftDockWidgetArea
            | Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.controller = controller
        self.watch = watch
        self.conversation_id: str | None = None
        self.ledger: Ledger | None = None
        self._ledger_of: _Shown | None = None
        self._shown: dict[int, _Shown | None] = {HISTORY: None, USAGE: None, RETRIEVAL: None}
        self._pending_seq: int | None = None  # a turn picked in Usage: its entry, for History
        self._retrieval_seq: int | None = None  # the History entry Retrieval last followed

        self.history_tab = HistoryTab()
        self.next_tab = NextRequestTab()
        self.usage_tab = UsageTab()
        self.retrieval_tab = RetrievalTab()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.history_tab, self.tr("History"))
        self.tabs.addTab(self.next_tab, self.tr("Next request"))
        self.tabs.addTab(self.usage_tab, self.tr("Usage"))
        self.tabs.addTab(self.retrieval_tab, self.tr("Retrieval"))
        self.setWidget(self.tabs)
        self._entry_timer = QTimer(self)
        self._entry_timer.setSingleShot(True)
        self._entry_timer.setInterval(ENTRY_DELAY_MS)
        self._entry_timer.timeout.connect(self.refresh)

        self.history_tab.show_in_chat.connect(self.show_in_chat)
        self.usage_tab.turn_selected.connect(self._on_turn_selected)
        self.usage_tab.turn_opened.connect(self.inspect)
        self.next_tab.entry_activated.connect(self.inspect)
        self.next_tab.count_requested.connect(self._on_count_requested)
        # bound methods, not lambdas: Qt drops these connections when the dock is destroyed
        self.tabs.currentChanged.connect(self._on_shown)
        self.visibilityChanged.connect(self._on_shown)
        controller.entry_appended.connect(self._on_entry)
        watch.updated.connect(self._on_request)

    # --- what to show ------------------------------------------------------------------

    def show_conversation(self, conversation_id: str | None) -> None:
        """Follow another conversation (None: a new chat, nothing saved yet)."""
        if conversation_id != self.conversation_id:
            self.conversation_id = conversation_id
            self._pending_seq = None
            self.refresh()

    def state(self) -> tuple[int, QByteArray]:
        """What to restore next time: the tab in front and the History columns."""
        return self.tabs.currentIndex(), self.history_tab.table.horizontalHeader().saveState()

    def restore(self, tab: int, columns: QByteArray | None) -> None:
        if 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)
        if columns is not None:
            self.history_tab.table.horizontalHeader().restoreState(columns)

    def settings_changed(self) -> None:
        """Prices may have changed: the ledger tabs see the new price table as a change."""
        self.refresh()

    def inspect(self, seq: int) -> None:
        """Show the dock at the History tab with entry ``seq`` selected (from the chat, or a
        turn double-clicked in Usage)."""
        self._pending_seq = None
        self.show()
        self.raise_()
        self.tabs.setCurrentIndex(HISTORY)
        self.refresh()
        self.history_tab.select_seq(seq)

    def _on_shown(self, _value: object) -> None:
        self.watch.want_body(self.isVisible() and self.tabs.currentIndex() == NEXT_REQUEST)
        self.refresh()

    def _on_entry(self, conversation_id: str, _entry: AnyEntry) -> None:
        mine = conversation_id == self.conversation_id
        if mine and self.isVisible() and not self._entry_timer.isActive():
            self._entry_timer.start()

    def _on_turn_selected(self, seq: int) -> None:
        """A turn picked in Usage: the History tab selects its first entry when shown."""
        self._pending_seq = seq

    def _on_request(self) -> None:
        if self.isVisible() and self.tabs.currentIndex() == NEXT_REQUEST:
            self._show_next()

    # --- computing -----------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the tab in front up to date, if the dock is shown at all."""
        self._entry_timer.stop()
        if not self.isVisible():
            return
        tab = self.tabs.currentIndex()
        if tab == NEXT_REQUEST:
            self.watch.update()
            self._show_next()
            return
        wanted = self._wanted()
        if self._shown.get(tab) != wanted:
            if tab == HISTORY:
                self._refresh_history(wanted)
            elif tab == USAGE:
                shown = self._shown[USAGE]
                same = shown is not None and shown.conversation_id == wanted.conversation_id
                self.usage_tab.set_ledger(self._ledger(wanted), keep_pick=same)
            elif tab == RETRIEVAL:
                self.retrieval_tab.set_history(wanted.history)
            self._shown[tab] = wanted
        if tab == RETRIEVAL:  # the turn of the entry picked in History
            picked = self.history_tab.selected_seq()
            if picked is not None and picked != self._retrieval_seq:
                self.retrieval_tab.select_seq(picked)
            self._retrieval_seq = picked
        if tab == HISTORY and self._pending_seq is not None:
            seq, self._pending_seq = self._pending_seq, None
            self.history_tab.select_seq(seq)

    def _wanted(self) -> _Shown:
        if self.conversation_id is None:
            return _Shown(None, None, 0, None)
        history = self.controller.conversation(self.conversation_id).history
        return _Shown(self.conversation_id, history, history.version, self.services.prices)

    @property
    def services(self) -> Services:
        return self.controller.services

    def _ledger(self, wanted: _Shown) -> Ledger | None:
        if wanted.history is None or wanted.prices is None:
            self.ledger = None
        elif self._ledger_of != wanted:
            assert wanted.conversation_id is not None
            policy = self.services.contexts.policy(wanted.conversation_id)
            self.ledger = ledger(
                wanted.history, wanted.prices, keep_first_input=policy.keep_first_input
            )
        self._ledger_of = wanted
        return self.ledger

    def _refresh_history(self, wanted: _Shown) -> None:
        shown = self._shown[HISTORY]
        grown = (  # or recosted: the same rows, at new prices
            shown is not None
            and wanted.history is not None
            and shown.history is wanted.history
            and shown.version <= wanted.version
        )
        computed = self._ledger(wanted)
        if grown and computed is not None:
            assert shown is not None
            self.history_tab.extend(computed, recosted=shown.prices is not wanted.prices)
        else:
            self.history_tab.set_ledger(computed, wanted.history)

    def _on_count_requested(self) -> None:
        request = self.next_tab.request
        if request is not None:
            self.next_tab.count_button.setEnabled(False)
            self.next_tab.show_exact(
                self.tr("Asking {provider} to count…").format(provider=request.provider), request
            )
            self.controller.spawn(self._count(request))

    async def _count(self, shown: NextRequest) -> None:
        """The provider's own count of the request shown, said under the estimate."""
        watch = self.watch
        try:
            conversation = (
                None
                if watch.conversation_id is None
                else self.controller.conversation(watch.conversation_id)
            )
            tokens = await provider_count(
                self.services, conversation, shown.spec,
                draft=watch.composer.draft(), tools=watch.composer.tools(),
            )  # fmt: skip
        except CrosstalkError as exc:
            text = self.tr("{provider} could not count: {error}").format(
                provider=shown.provider, error=errors_text.said(exc)
            )
        except Exception as exc:  # said in the tab (and logged), never raised into Qt
            log.warning("counting %s: %r", shown.spec, exc, exc_info=True)
            text = self.tr("{provider} could not count: {error}").format(
                provider=shown.provider, error=f"{type(exc).__name__}: {exc}"
            )
        else:
            text = (
                self.tr("{model} has no token-counting endpoint: the estimate is all there is")
                .format(model=shown.spec)
                if tokens is None
                else self.tr(
                    "{provider} counts {tokens} input tokens for this request (tools included), "
                    "against the estimate of {estimate}"
                ).format(
                    provider=shown.provider, tokens=locale_format.count(tokens),
                    estimate=locale_format.count((shown.tokens or 0) + shown.tool_tokens),
                )
            )  # fmt: skip
        if self.next_tab.counted_for is shown:  # not replaced by a newer request meanwhile
            self.next_tab.show_exact(text, shown)
            self.next_tab.count_button.setEnabled(True)

    def _show_next(self) -> None:
        """The watch's request, once it has the wire body and is for the model picked."""
        watch = self.watch
        request = watch.request
        if request is not None and watch.rendered and request.spec == watch.composer.model():
            self.next_tab.show_request(request, new_chat=watch.conversation_id is None)
        else:
            self.next_tab.show_message(watch.message or self.tr("Preparing…"))
