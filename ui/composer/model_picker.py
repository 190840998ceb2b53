"""The model picker: the current model in full, and a popup to find any other.

The popup searches every provider's models fuzzily (anywhere in ``provider:model``), shows
them grouped by provider under a header saying where the key comes from (with Add key… when
there is none), the models used lately first, and each with its context window and price. An
OpenAI-compatible provider's header can ask its server what it serves (Refresh), in the
background; a failure shows in place. A ``provider:model`` typed in full is picked as typed:
any model a provider serves, listed or not.

What it shows comes from ``app.model_catalog``: a ``Snapshot`` per opening (the keys are read
then, off the UI thread, never per keystroke) and ``arrange`` per keystroke. The picker stays
a ``QComboBox`` holding the flat list of configured models, which other parts of the window
read (``count``/``itemText``) and refill (``clear``/``addItems``); only its popup is its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QWidget

from app.model_catalog import KeyStatus, ModelCatalog, ModelFacts, Snapshot
from ui.composer.model_popup import ModelPopup


class ModelPicker(QComboBox):
    """The model of the next turn. ``currentText()`` is the model; picking one in the popup
    makes it current (``currentTextChanged``) and emits ``model_picked``."""

    model_picked = Signal(str)  # provider:model, chosen in the popup
    add_key_requested = Signal(str)  # provider: the user asked to give it a key (Settings)

    def __init__(
        self,
        models: Sequence[str],
        catalog: ModelCatalog | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.addItems(list(models))
        self.setMinimumContentsLength(12)  # the least it shrinks to in a narrow window
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.popup = ModelPopup(self, self)
        self.popup.picked.connect(self.pick)
        self.popup.refresh_requested.connect(self.refresh)
        self.popup.add_key_requested.connect(self._add_key)
        self._snapshot: Snapshot | None = None
        self._keys: dict[str, KeyStatus] = {}  # as last read: shown while read again
        self._facts: dict[str, ModelFacts] = {}
        self._refreshing: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.currentTextChanged.connect(self._show_current)
        self._show_current(self.currentText())

    # --- the button ---------------------------------------------------------------------

    def sizeHint(self) -> QSize:
        """Wide enough for the current model in full (the layout may give less: then it is
        elided, and the tooltip has it)."""
        hint = super().sizeHint()
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        room = 8  # the style's text margins, which sizeFromContents does not count
        text = QSize(self.fontMetrics().horizontalAdvance(self.currentText()) + room, hint.height())
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)
        return QSize(max(size.width(), hint.width()), hint.height())

    def _show_current(self, spec: str) -> None:
        self.setToolTip(
            self.tr("Model for this turn: {model}\nClick, or start typing, to pick another")
            .format(model=spec or self.tr("none"))
        )  # fmt: skip
        self.updateGeometry()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Typing on the closed picker opens it and searches for what was typed."""
        text = event.text()
        plain = not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier
        if plain and text.isprintable() and text.strip():
            self.showPopup()
            self.popup.search.setText(text)
            return
        super().keyPressEvent(event)

    def set_current(self, spec: str) -> None:
        """Make ``spec`` the current model, listed or not."""
        if self.findText(spec) < 0:
            self.addItem(spec)
        self.setCurrentIndex(self.findText(spec))

    def pick(self, spec: str) -> None:
        self.hidePopup()
        self.set_current(spec)
        self.model_picked.emit(spec)

    def _add_key(self, provider: str) -> None:
        self.hidePopup()
        self.add_key_requested.emit(provider)

    # --- the popup ----------------------------------------------------------------------

    def showPopup(self) -> None:
        if self.popup.isVisible():
            return
        if self.catalog is None:
            self._snapshot = Snapshot.of_specs([self.itemText(i) for i in range(self.count())])
        else:
            self._facts.clear()  # the settings may have changed since the last opening
            self._snapshot = self.catalog.snapshot(self._keys)
            self._start(self._read_keys())
        self.popup.open_for(self, self._snapshot, self.currentText())

    def hidePopup(self) -> None:
        self.popup.hide()

    def facts(self, spec: str) -> ModelFacts | None:
        if self.catalog is None:
            return None
        if spec not in self._facts:
            self._facts[spec] = self.catalog.facts(spec)
        return self._facts[spec]

    def can_refresh(self) -> bool:
        return self.catalog is not None

    def refreshing(self, provider: str) -> bool:
        return provider in self._refreshing

    def refresh(self, provider: str) -> None:
        """Ask the provider's server what it serves, in the background."""
        if self.catalog is None or provider in self._refreshing:
            return
        self._refreshing.add(provider)
        self.popup.show_results(keep_selection=True)
        self._start(self._refresh(provider))

    async def _refresh(self, provider: str) -> None:
        assert self.catalog is not None
        try:
            listed = await asyncio.to_thread(self.catalog.refresh, provider)
        finally:
            self._refreshing.discard(provider)
        if not shiboken6.isValid(self):  # the window closed meanwhile
            return
        if self._snapshot is not None:
            self._snapshot = self._snapshot.with_server(provider, listed)
            self.popup.change_snapshot(self._snapshot)

    async def _read_keys(self) -> None:
        assert self.catalog is not None
        keys = await asyncio.to_thread(self.catalog.key_statuses)
        if not shiboken6.isValid(self):
            return
        self._keys = keys
        if self._snapshot is not None:
            self._snapshot = self._snapshot.with_keys(keys)
            self.popup.change_snapshot(self._snapshot)

    def _start(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.result()  # an exception goes to the loop's handler (logged), not nowhere
