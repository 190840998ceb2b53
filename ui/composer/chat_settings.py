"""This chat…: the conversation's system instruction (its own dialog, saved at once), and its
own temperature, longest reply and thinking over the settings' defaults. Those go with the
next message and are remembered with it (``app.tuning``); "Default" leaves a value to the
settings (or the model). Documents… opens the chat's documents (the Knowledge dialog), where
the window offers them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.tuning import EFFORTS

MAX_REPLY = 200_000


class ChatSettingsDialog(QDialog):
    def __init__(
        self,
        tuning: Mapping[str, Any],
        parent: QWidget | None = None,
        *,
        documents: Callable[[], object] | None = None,  # opens this chat's Knowledge dialog
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("This chat"))
        self.own_temperature = QCheckBox(self.tr("Its own"))
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.temperature.setValue(float(tuning.get("temperature", 0.7)))
        self.own_temperature.setChecked("temperature" in tuning)
        self.temperature.setEnabled("temperature" in tuning)
        self.own_temperature.toggled.connect(self.temperature.setEnabled)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(0, MAX_REPLY)
        self.max_tokens.setSingleStep(100)
        self.max_tokens.setSpecialValueText(self.tr("Default"))  # 0
        self.max_tokens.setValue(int(tuning.get("max_tokens", 0)))
        self.thinking = QComboBox()
        self.thinking.addItem(self.tr("Default (the settings)"), None)
        labels = {
            "off": self.tr("Off"),
            "low": self.tr("Low"),
            "medium": self.tr("Medium"),
            "high": self.tr("High"),
        }
        for effort in EFFORTS:
            self.thinking.addItem(labels[effort], effort)
        self.thinking.setCurrentIndex(max(self.thinking.findData(tuning.get("reasoning")), 0))

        self.system_button = QPushButton(self.tr("System instruction…"))
        self.system_button.setToolTip(self.tr("What the model is told before every message"))
        self.documents_button = QPushButton(self.tr("Documents…"))
        self.documents_button.setToolTip(
            self.tr("The files and folders this chat's questions are answered from")
        )
        row = QHBoxLayout()
        row.addWidget(self.own_temperature)
        row.addWidget(self.temperature, 1)
        form = QFormLayout(self)
        form.addRow(self.tr("Instructions:"), self.system_button)
        if documents is not None:
            form.addRow(self.tr("Documents:"), self.documents_button)
            # closed first, its choices kept as OK keeps them: while it is open (window-modal)
            # the Knowledge dialog, not modal, would take no input
            self.documents_button.clicked.connect(self.accept)
            self.documents_button.clicked.connect(lambda: documents())
        else:
            self.documents_button.hide()
        form.addRow(self.tr("Temperature:"), row)
        form.addRow(self.tr("Longest reply (tokens):"), self.max_tokens)
        form.addRow(self.tr("Thinking, where the model can:"), self.thinking)
        note = QLabel(self.tr("These go with your next message and stay with this chat."))
        note.setWordWrap(True)
        form.addRow(note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def tuning(self) -> dict[str, Any]:
        """The choices: a key for each value the chat sets itself."""
        chosen: dict[str, Any] = {}
        if self.own_temperature.isChecked():
            chosen["temperature"] = round(self.temperature.value(), 2)
        if self.max_tokens.value():
            chosen["max_tokens"] = self.max_tokens.value()
        if (effort := self.thinking.currentData()) is not None:
            chosen["reasoning"] = effort
        return chosen
