"""The Project dialog: a new project, or a project's name, instructions and defaults (the
model, the tools, temperature, longest reply, thinking). Each default may be left to the
settings (None, docs/projects.md); a conversation's own choices win over the project's.

OK writes through ``Projects.create`` or ``rename`` and ``edit`` off the window's thread; a
name already taken, or empty, is said in the dialog, which stays open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.store.project_state import Project
from app.store.projects import Projects
from app.tuning import EFFORTS
from ui.projects.saving import Spawn, WriteDialog

MAX_REPLY = 200_000  # as This chat… (ui/composer/chat_settings.py)
DEFAULT_TEMPERATURE = 0.7
Tool = tuple[str, str, bool]  # selector ("calculator", "mcp:fs"), its tooltip, usable now


class ProjectDialog(WriteDialog):
    """``project`` None: a new one. ``models``: the models the picker lists ("provider:model");
    ``tools``: the built-in tools and MCP servers as the composer's Tools menu lists them;
    ``knowledge``: opens the project's documents (the Knowledge dialog), for a project made
    already."""

    saved = Signal(object)  # the Project as written

    def __init__(
        self,
        projects: Projects,
        spawn: Spawn,
        models: Sequence[str],
        tools: Sequence[Tool],
        project: Project | None = None,
        parent: QWidget | None = None,
        *,
        knowledge: Callable[[Project], object] | None = None,
    ) -> None:
        super().__init__(spawn, parent)
        self.projects = projects
        self.project = project
        self.setWindowTitle(self.tr("New project") if project is None else self.tr("Project"))
        self.name = QLineEdit(project.name if project else "")
        self.name.setPlaceholderText(self.tr("e.g. Thesis"))
        self.instructions = QPlainTextEdit(project.instructions if project else "")
        self.instructions.setPlaceholderText(
            self.tr("What the model is told before every message of the project's chats")
        )
        self.instructions.setMinimumHeight(180)
        self.model = self._model_box(models, project.model if project else None)
        self.own_tools = QCheckBox(self.tr("Its own tools"))
        self.tools = self._tools_list(tools, project.tools if project else None)
        self.own_tools.setChecked(project is not None and project.tools is not None)
        self.tools.setEnabled(self.own_tools.isChecked())
        self.own_tools.toggled.connect(self.tools.setEnabled)
        self._tuning(project)
        self.documents = QPushButton(self.tr("Documents…"))
        self.documents.setToolTip(self.tr("The files and folders the project's chats search"))
        self.offers_documents = project is not None and knowledge is not None
        if project is not None and knowledge is not None:
            self.documents.clicked.connect(lambda: knowledge(project))
        else:
            self.documents.hide()
        self._lay_out()
        self.name.setFocus()

    def _model_box(self, models: Sequence[str], chosen: str | None) -> QComboBox:
        box = QComboBox()
        box.setEditable(True)  # a model not listed may be typed as provider:model
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        box.addItem(self.tr("Default (the settings)"), None)
        for spec in models:
            box.addItem(spec, spec)
        completer = QCompleter([*models], box)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        box.setCompleter(completer)
        if chosen is None:
            box.setCurrentIndex(0)
        elif (index := box.findData(chosen)) >= 0:
            box.setCurrentIndex(index)
        else:
            box.setEditText(chosen)
        return box

    def _tools_list(self, tools: Sequence[Tool], chosen: list[str] | None) -> QListWidget:
        listed = QListWidget()
        ticked = set(chosen or [])
        names = [name for name, _tip, _usable in tools]
        extra = [(name, self.tr("Not offered now"), False) for name in ticked - set(names)]
        for name, tip, usable in [*tools, *sorted(extra)]:
            item = QListWidgetItem(name)
            item.setToolTip(tip)
            flags = Qt.ItemFlag.ItemIsUserCheckable
            if usable or name in ticked:  # still possible to untick one no longer usable
                flags |= Qt.ItemFlag.ItemIsEnabled
            item.setFlags(flags)
            item.setCheckState(Qt.CheckState.Checked if name in ticked else Qt.CheckState.Unchecked)
            listed.addItem(item)
        listed.setMaximumHeight(140)
        return listed

    def _tuning(self, project: Project | None) -> None:
        self.own_temperature = QCheckBox(self.tr("Its own"))
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        given = project.temperature if project else None
        self.temperature.setValue(DEFAULT_TEMPERATURE if given is None else given)
        self.own_temperature.setChecked(given is not None)
        self.temperature.setEnabled(given is not None)
        self.own_temperature.toggled.connect(self.temperature.setEnabled)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(0, MAX_REPLY)
        self.max_tokens.setSingleStep(100)
        self.max_tokens.setSpecialValueText(self.tr("Default (the settings)"))  # 0
        self.max_tokens.setValue((project.max_tokens if project else None) or 0)
        self.thinking = QComboBox()
        self.thinking.addItem(self.tr("Default (the settings)"), None)
        labels = {"off": self.tr("Off"), "low": self.tr("Low"), "medium": self.tr("Medium"),
                  "high": self.tr("High")}  # fmt: skip
        for effort in EFFORTS:
            self.thinking.addItem(labels[effort], effort)
        reasoning = project.reasoning if project else None
        self.thinking.setCurrentIndex(max(self.thinking.findData(reasoning), 0))

    def _lay_out(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Name:"), self.name)
        form.addRow(self.tr("Instructions:"), self.instructions)
        form.addRow(self.tr("Model:"), self.model)
        tools = QVBoxLayout()
        tools.addWidget(self.own_tools)
        tools.addWidget(self.tools)
        form.addRow(self.tr("Tools:"), tools)
        temperature = QHBoxLayout()
        temperature.addWidget(self.own_temperature)
        temperature.addWidget(self.temperature, 1)
        form.addRow(self.tr("Temperature:"), temperature)
        form.addRow(self.tr("Longest reply (tokens):"), self.max_tokens)
        form.addRow(self.tr("Thinking, where the model can:"), self.thinking)
        if self.offers_documents:
            documents = QHBoxLayout()
            documents.addWidget(self.documents)
            documents.addStretch(1)
            form.addRow(self.tr("Knowledge:"), documents)
        note = QLabel(
            self.tr("New chats in the project start from these; a chat's own choices win.")
        )
        note.setWordWrap(True)
        column = QVBoxLayout(self)
        column.addLayout(form)
        column.addWidget(note)
        column.addWidget(self.problem)
        column.addWidget(self.buttons)
        self.resize(560, 620)

    # --- the values -----------------------------------------------------------------------

    def chosen_model(self) -> str | None:
        text = self.model.currentText().strip()
        if not text or (self.model.currentIndex() == 0 and text == self.model.itemText(0)):
            return None
        return text

    def chosen_tools(self) -> list[str] | None:
        if not self.own_tools.isChecked():
            return None
        items = (self.tools.item(row) for row in range(self.tools.count()))
        return [item.text() for item in items if item.checkState() == Qt.CheckState.Checked]

    def settings(self) -> dict[str, Any]:
        """Every field of the project (``project_state.FIELDS`` but archived); None: the
        settings' default."""
        temperature = self.temperature.value() if self.own_temperature.isChecked() else None
        return {
            "instructions": self.instructions.toPlainText().strip(),
            "model": self.chosen_model(),
            "tools": self.chosen_tools(),
            "temperature": None if temperature is None else round(temperature, 2),
            "max_tokens": self.max_tokens.value() or None,
            "reasoning": self.thinking.currentData(),
        }

    def accept(self) -> None:  # Qt override: OK writes, and closes once written
        name, settings, project, projects = (
            self.name.text(),
            self.settings(),
            self.project,
            self.projects,
        )

        def job() -> Project:
            if project is None:
                given = {k: v for k, v in settings.items() if v not in (None, "")}
                return projects.create(name, **given)
            if name != project.name:
                projects.rename(project.id, name)
            # only the fields changed here: one changed elsewhere meanwhile keeps its value
            changed = {k: v for k, v in settings.items() if v != getattr(project, k)}
            return projects.edit(project.id, **changed)

        self.write(job, self.saved.emit)
