"""The inspector: a dock with the History, Next request and Usage tabs of the conversation shown.

It follows the conversation the window shows and the entries appended to it (never the tokens
of a streaming reply: the history only changes when an entry is saved). Nothing is computed while
the dock is hidden, nor for a tab that is not in front; each tab remembers which version of the
history it shows and catches up when it is looked at. The numbers come from ``app.inspect``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QTabWidget, QWidget

from app.composition import Services
from app.history import AnyEntry, History
from app.inspect.ledger import Ledger, ledger
from app.inspect.next_request import next_request, prepare
from app.pricing import PriceTable
from ui.chat_controller import ChatController
from ui.composer import Composer
from ui.inspector.history_tab import HistoryTab
from ui.inspector.next_request_tab import NextRequestTab
from ui.inspector.usage_tab import UsageTab

log = logging.getLogger(__name__)

DRAFT_DELAY_MS = 300  # the next request follows the draft once typing pauses
# entries saved together (a reply, its tool results, the next input) are shown together, and
# after the append that saved them has returned to the turn, which streams on meanwhile
ENTRY_DELAY_MS = 30
HISTORY, NEXT_REQUEST, USAGE = range(3)


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
        self, controller: ChatController, composer: Composer, parent: QWidget | None = None
    ) -> None:
        super().__init__("Inspector", parent)
        self.setObjectName("inspectorDock")  # saveState/restoreState find it by name
        self.setAllowedAreas(
            Qt.DockWidgetArea.RightDockWidgetArea
            | Qt.DockWidgetArea.LeftDockWidgetArea
            | Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.controller = controller
        self.composer = composer
        self.conversation_id: str | None = None
        self.ledger: Ledger | None = None
        self._ledger_of: _Shown | None = None
        self._shown: dict[int, _Shown | None] = {HISTORY: None, USAGE: None}
        self._pending_seq: int | None = None  # a turn picked in Usage: its entry, for History
        self._next_stale = True
        self._prepared: set[str] = set()
        self._preparing: str | None = None

        self.history_tab = HistoryTab()
        self.next_tab = NextRequestTab()
        self.usage_tab = UsageTab()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.history_tab, "History")
        self.tabs.addTab(self.next_tab, "Next request")
        self.tabs.addTab(self.usage_tab, "Usage")
        self.setWidget(self.tabs)
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_DELAY_MS)
        self._draft_timer.timeout.connect(self.request_changed)
        self._entry_timer = QTimer(self)
        self._entry_timer.setSingleShot(True)
        self._entry_timer.setInterval(ENTRY_DELAY_MS)
        self._entry_timer.timeout.connect(self.refresh)

        self.history_tab.show_in_chat.connect(self.show_in_chat)
        self.usage_tab.turn_selected.connect(self._on_turn_selected)
        self.usage_tab.turn_opened.connect(self.inspect)
        # bound methods, not lambdas: Qt drops these connections when the dock is destroyed
        self.tabs.currentChanged.connect(self._on_shown)
        self.visibilityChanged.connect(self._on_shown)
        controller.entry_appended.connect(self._on_entry)
        composer.model_picker.currentTextChanged.connect(self._on_request_input)
        composer.edit.textChanged.connect(self._draft_timer.start)
        for action in composer.tools_menu.actions():
            action.toggled.connect(self._on_request_input)

    # --- what to show ------------------------------------------------------------------

    def show_conversation(self, conversation_id: str | None) -> None:
        """Follow another conversation (None: a new chat, nothing saved yet)."""
        if conversation_id != self.conversation_id:
            self.conversation_id = conversation_id
            self._next_stale = True
            self._pending_seq = None
            self.refresh()

    def settings_changed(self) -> None:
        """Prices, windows or providers may have changed: everything is computed again."""
        self._prepared.clear()
        self.request_changed()  # the ledger tabs see the new price table as a change too

    def request_changed(self) -> None:
        """The model, the draft or the tools changed: the next request is made again."""
        self._draft_timer.stop()
        self._next_stale = True
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
        self.refresh()

    def _on_request_input(self, _value: object) -> None:
        self.request_changed()

    def _on_turn_selected(self, seq: int) -> None:
        """A turn picked in Usage: the History tab selects its first entry when shown."""
        self._pending_seq = seq

    def _on_entry(self, conversation_id: str, _entry: AnyEntry) -> None:
        if conversation_id == self.conversation_id:
            self._next_stale = True
            if self.isVisible() and not self._entry_timer.isActive():
                self._entry_timer.start()

    # --- computing -----------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the tab in front up to date, if the dock is shown at all."""
        self._entry_timer.stop()
        if not self.isVisible():
            return
        tab = self.tabs.currentIndex()
        if tab == NEXT_REQUEST:
            if self._next_stale:
                self._refresh_next()
            return
        wanted = self._wanted()
        if self._shown.get(tab) != wanted:
            if tab == HISTORY:
                self._refresh_history(wanted)
            elif tab == USAGE:
                self.usage_tab.set_ledger(self._ledger(wanted))
            self._shown[tab] = wanted
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
            self.ledger = ledger(wanted.history, wanted.prices)
        self._ledger_of = wanted
        return self.ledger

    def _refresh_history(self, wanted: _Shown) -> None:
        shown = self._shown[HISTORY]
        grown = (
            shown is not None
            and wanted.history is not None
            and shown.history is wanted.history
            and shown.prices is wanted.prices
            and shown.version <= wanted.version
        )
        computed = self._ledger(wanted)
        if grown and computed is not None:
            self.history_tab.extend(computed)
        else:
            self.history_tab.set_ledger(computed, wanted.history)

    def _refresh_next(self) -> None:
        spec = self.composer.model()
        if self.conversation_id is None:
            self.next_tab.show_message(
                "A new chat: the first message starts the conversation (nothing to inspect yet)."
            )
            self._next_stale = False
            return
        if spec not in self._prepared:  # the adapter's SDK and tokenizer load off the loop
            if self._preparing is None:
                self.next_tab.show_message(f"Preparing {spec}…")
                self._preparing = spec
                self.controller.spawn(self._prepare(spec))
            return
        self._next_stale = False
        conversation = self.controller.conversation(self.conversation_id)
        try:
            request = next_request(
                self.services,
                conversation,
                spec,
                draft=self.composer.draft(),
                tools=self.composer.tools(),
            )
        except Exception as exc:  # shown in the tab (and logged), never raised into Qt
            log.warning("next request for %s: %r", spec, exc, exc_info=True)
            self.next_tab.show_message(f"Cannot show the next request for {spec}: {exc}")
            return
        self.next_tab.show_request(request)

    async def _prepare(self, spec: str) -> None:
        try:
            await prepare(self.services, spec)
        except Exception as exc:  # next_request reports it again, in the tab
            log.warning("preparing %s: %r", spec, exc)
        finally:
            self._prepared.add(spec)
            self._preparing = None
        self.refresh()
