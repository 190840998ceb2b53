"""A non-modal message above the chat: what went wrong and a button for what to do."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

LABELS = {"settings": "Open Settings", "retry": "Retry", "undo": "Undo"}


class ErrorBanner(QFrame):
    action_requested = Signal(str)  # the action's name, e.g. "settings", "retry", "undo"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.setStyleSheet(
            "#errorBanner { background: #fff4e5; border: 1px solid #f0b060; border-radius: 4px; }"
        )
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.action = QPushButton()
        close = QPushButton("✕")
        close.setFlat(True)
        close.setToolTip("Dismiss")
        layout = QHBoxLayout(self)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.action)
        layout.addWidget(close)
        self._action_name = ""
        self.action.clicked.connect(lambda: self.action_requested.emit(self._action_name))
        self.action.clicked.connect(self.hide)
        close.clicked.connect(self.hide)
        self.hide()

    def show_message(self, text: str, action: str = "") -> None:
        self.message.setText(text)
        self._action_name = action
        self.action.setText(LABELS.get(action, action.title()))
        self.action.setVisible(bool(action))
        self.show()
