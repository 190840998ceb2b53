"""A non-modal message above the chat: what went wrong and a button for what to do."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from app.errors import AuthFailed, CrosstalkError
from ui.common import errors_text, icons, theme


class ErrorBanner(QFrame):
    action_requested = Signal(str)  # the action's name, e.g. "settings", "retry", "undo"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.action = QPushButton()
        close = self.close_button = QPushButton()
        close.setFlat(True)
        close.setToolTip(self.tr("Dismiss"))
        layout = QHBoxLayout(self)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.action)
        layout.addWidget(close)
        self._action_name = ""
        self.action.clicked.connect(lambda: self.action_requested.emit(self._action_name))
        self.action.clicked.connect(self.hide)
        close.clicked.connect(self.hide)
        self.restyle()
        self.hide()

    def show_message(self, text: str, action: str = "") -> None:
        self.message.setText(text)
        self._action_name = action
        labels = {"settings": self.tr("Open Settings"), "retry": self.tr("Retry"),
                  "undo": self.tr("Undo"), "undo_project": self.tr("Undo")}  # fmt: skip
        self.action.setText(labels.get(action, action.title()))
        self.action.setVisible(bool(action))
        self.show()

    def show_error(self, exc: CrosstalkError, action: str | None = None) -> None:
        """``exc`` in the user's language (``ui.common.errors_text``) with what to do about
        it: ``action``, or by default Open Settings for a key refused or missing."""
        if action is None:
            action = "settings" if isinstance(exc, AuthFailed) else ""
        self.show_message(errors_text.said(exc), action)

    def restyle(self) -> None:
        """The active theme's warning colours (``ui.common.theme``), the cross in the text's."""
        ink = QApplication.palette().color(QPalette.ColorRole.WindowText)  # ours is set later
        self.close_button.setIcon(icons.icon("close", ink))
        background, border = theme.colour("banner_background"), theme.colour("banner_border")
        self.setStyleSheet(
            f"#errorBanner {{ background: {background}; border: 1px solid {border}; "
            "border-radius: 4px; }"
        )
