"""Settings: providers and their API keys, the default and title models, the turn window, and
the tools a new conversation starts with.

Non-modal: the main window calls ``open()``, saves what ``settings_saved`` carries and answers
``test_requested`` with ``show_test_result``. The dialog itself touches nothing but ``Keys``:
a key typed here goes to the OS keyring and nowhere else, and is never shown again.
"""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.keys import KeyringUnavailable, Keys
from app.settings import DEFAULT_PROVIDERS, LOCAL, ProviderConfig, Settings
from app.tools import BUILTIN

COLUMNS = ("Name", "Kind", "Base URL", "Models", "Key")
NAME, KIND, BASE_URL, MODELS, KEY = range(len(COLUMNS))
STORED_PLACEHOLDER = "•••••••• (stored in the OS keyring)"
ERROR_STYLE = "color: #b00020;"
CONFIG_ROLE = Qt.ItemDataRole.UserRole  # on the name cell: the row's ProviderConfig
SOURCE_ROLE = Qt.ItemDataRole.UserRole  # on the key cell: where the key comes from, or None


def _split_models(text: str) -> list[str]:
    return list(dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))


def _check_model(label: str, spec: str, providers: list[str]) -> None:
    name, _, model = spec.strip().partition(":")
    if name not in providers or not model:
        raise ValueError(
            f"the {label} {spec!r} should be provider:model, the provider one of "
            f"{', '.join(providers)}"
        )


def _check_base_url(name: str, config: ProviderConfig) -> None:
    if config.base_url and not config.base_url.startswith(("http://", "https://")):
        raise ValueError(f"the base URL of {name} should start with http:// or https://")
    if config.kind == "openai-compatible" and not config.base_url:
        raise ValueError(f"{name} needs a base URL, e.g. http://127.0.0.1:11434/v1")


def _spin(value: int, top: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(1, max(top, value))  # never clamp a larger value someone wrote by hand
    spin.setValue(value)
    return spin


def _model_combo(models: list[str], current: str) -> QComboBox:
    combo = QComboBox()
    combo.setEditable(True)  # any provider:model, also one not listed yet
    combo.addItems(models)
    combo.setCurrentText(current)
    return combo


class SettingsDialog(QDialog):
    settings_saved = Signal(object)  # the new Settings, valid; saving them is the caller's work
    test_requested = Signal(str)  # a provider's name: check its key; answer show_test_result

    def __init__(
        self, settings: Settings, keys: Keys, models: list[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self._settings = settings
        self._keys = keys
        self._notes: dict[str, tuple[bool, str]] = {}  # last key message per provider
        tabs = QTabWidget()
        tabs.addTab(self._providers_tab(), "Providers")
        tabs.addTab(self._models_tab(settings, models), "Models")
        tabs.addTab(self._tools_tab(settings), "Tools")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        for name, config in settings.all_providers().items():
            self._append_row(name, config)
        self.table.selectRow(0)
        self.key_edit.installEventFilter(self)  # Enter saves the key, see eventFilter
        self.new_name.installEventFilter(self)
        self.resize(760, 520)

    # --- building ------------------------------------------------------------------------

    def _providers_tab(self) -> QWidget:
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(MODELS, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._show_selected)
        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText("name, e.g. ollama")
        self.add_button = QPushButton("Add OpenAI-compatible provider")
        self.remove_button = QPushButton("Remove provider")
        self.provider_error = QLabel()
        self.provider_error.setStyleSheet(ERROR_STYLE)
        self.provider_error.setWordWrap(True)
        self.provider_error.hide()
        self.new_name.textChanged.connect(lambda text: self.add_button.setEnabled(bool(text)))
        self.add_button.clicked.connect(self.add_provider)
        self.remove_button.clicked.connect(self.remove_provider)
        self.add_button.setEnabled(False)
        row = QHBoxLayout()
        for widget in (self.new_name, self.add_button, self.remove_button):
            row.addWidget(widget)
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.provider_error)
        layout.addWidget(self._key_box())
        return tab

    def _key_box(self) -> QGroupBox:
        self.key_box = QGroupBox("API key")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.save_key_button = QPushButton("Save key")
        self.remove_key_button = QPushButton("Remove key")
        self.test_button = QPushButton("Test")
        self.test_button.setToolTip("Send one tiny request with the saved settings and key")
        self.key_message = QLabel()
        self.key_message.setWordWrap(True)
        self.key_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.key_edit.textChanged.connect(
            lambda text: self.save_key_button.setEnabled(bool(text.strip()))
        )
        self.save_key_button.clicked.connect(self.save_key)
        self.remove_key_button.clicked.connect(self.remove_key)
        self.test_button.clicked.connect(self.request_test)
        self.save_key_button.setEnabled(False)
        row = QHBoxLayout()
        for widget in (self.key_edit, self.save_key_button, self.remove_key_button):
            row.addWidget(widget)
        row.addWidget(self.test_button)
        layout = QVBoxLayout(self.key_box)
        layout.addLayout(row)
        layout.addWidget(self.key_message)
        return self.key_box

    def _models_tab(self, settings: Settings, models: list[str]) -> QWidget:
        self.default_model = _model_combo(models, settings.default_model)
        self.title_model = _model_combo(models, settings.title_model)
        self.window_turns = _spin(settings.window_turns, 500)
        self.max_tool_rounds = _spin(settings.max_tool_rounds, 50)
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow("Default model for new conversations:", self.default_model)
        form.addRow("Model that writes titles:", self.title_model)
        form.addRow("Recent turns sent with each request:", self.window_turns)
        form.addRow("Tool rounds allowed per reply:", self.max_tool_rounds)
        return tab

    def _tools_tab(self, settings: Settings) -> QWidget:
        self.tool_boxes: dict[str, QCheckBox] = {}
        tab = QWidget()
        form = QFormLayout(tab)
        intro = QLabel("Tools a new conversation starts with (the model may call them):")
        intro.setWordWrap(True)
        form.addRow(intro)
        for name, tool in BUILTIN.items():
            box = QCheckBox(name)
            box.setChecked(name in settings.default_tools)
            box.setToolTip(tool.spec.description)
            about = QLabel(tool.spec.description)
            about.setWordWrap(True)
            about.setBuddy(box)
            form.addRow(box, about)
            self.tool_boxes[name] = box
        return tab

    def default_tools(self) -> list[str]:
        """The checked tools: those kept in their old order, newly checked ones after them."""
        checked = [name for name, box in self.tool_boxes.items() if box.isChecked()]
        kept = [name for name in self._settings.default_tools if name in checked]
        return kept + [name for name in checked if name not in kept]

    def _append_row(self, name: str, config: ProviderConfig) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        fixed = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
        cells = (name, config.kind, config.base_url or "", ", ".join(config.models), "")
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column in (NAME, KIND, KEY):
                item.setFlags(fixed)
            self.table.setItem(row, column, item)
        self._cell(row, NAME).setData(CONFIG_ROLE, config)
        self._refresh_key(row)
        return row

    # --- providers -----------------------------------------------------------------------

    def _cell(self, row: int, column: int) -> QTableWidgetItem:
        item = self.table.item(row, column)
        assert item is not None  # _append_row fills every cell
        return item

    def _names(self) -> list[str]:
        return [self._cell(row, NAME).text() for row in range(self.table.rowCount())]

    def _selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def selected_provider(self) -> str | None:
        row = self._selected_row()
        return None if row is None else self._cell(row, NAME).text()

    def add_provider(self) -> None:
        name = self.new_name.text().strip()
        config = ProviderConfig(kind="openai-compatible")
        try:
            if name in self._names():
                raise ValueError(f"there is already a provider named {name!r}")
            Settings(providers={name: config})  # the same rule settings.toml is checked by
        except ValueError as exc:
            self.provider_error.setText(str(exc))
            self.provider_error.show()
            return
        self.provider_error.hide()
        self.new_name.clear()
        row = self._append_row(name, config)
        self.table.selectRow(row)
        self.table.editItem(self._cell(row, BASE_URL))

    def remove_provider(self) -> None:
        name = self.selected_provider()
        row = self._selected_row()
        if row is None or name in DEFAULT_PROVIDERS:
            return
        self.table.removeRow(row)
        self.table.selectRow(min(row, self.table.rowCount() - 1))

    def providers(self) -> dict[str, ProviderConfig]:
        """The user's providers as edited: built-ins only where they differ from the defaults."""
        result: dict[str, ProviderConfig] = {}
        for row in range(self.table.rowCount()):
            name = self._cell(row, NAME).text()
            config = msgspec.structs.replace(
                self._cell(row, NAME).data(CONFIG_ROLE),
                base_url=self._cell(row, BASE_URL).text().strip() or None,
                models=_split_models(self._cell(row, MODELS).text()),
            )
            _check_base_url(name, config)
            if DEFAULT_PROVIDERS.get(name) != config:
                result[name] = config
        return result

    # --- keys ----------------------------------------------------------------------------

    def _refresh_key(self, row: int) -> None:
        name = self._cell(row, NAME).text()
        config: ProviderConfig = self._cell(row, NAME).data(CONFIG_ROLE)
        key = self._keys.lookup(name)
        source = key.source if key else None  # only where it comes from is kept
        if source is None:
            status = "missing" if config.key_required else "not needed"
        else:
            status = f"from {source}"
        self._cell(row, KEY).setText(status)
        self._cell(row, KEY).setData(SOURCE_ROLE, source)
        if row == self._selected_row():
            self._show_selected()

    def _show_selected(self) -> None:
        row = self._selected_row()
        name = self.selected_provider()
        for widget in (self.key_box, self.remove_button):
            widget.setEnabled(name is not None)
        if row is None or name is None:
            return
        self.remove_button.setEnabled(name not in DEFAULT_PROVIDERS)
        self.key_box.setTitle(f"API key for {name}")
        self.key_edit.clear()
        source = self._cell(row, KEY).data(SOURCE_ROLE)
        if source == "keyring":
            self.key_edit.setPlaceholderText(STORED_PLACEHOLDER)
        elif source:
            self.key_edit.setPlaceholderText(f"none saved; {source} from the environment is used")
        else:
            self.key_edit.setPlaceholderText("paste an API key to keep it in the OS keyring")
        self.remove_key_button.setEnabled(source == "keyring")
        ok, text = self._notes.get(name, (True, ""))
        self.key_message.setText(text)
        self.key_message.setStyleSheet("" if ok else ERROR_STYLE)

    def _note(self, name: str, ok: bool, text: str) -> None:
        self._notes[name] = (ok, text)
        if name == self.selected_provider():
            self.key_message.setText(text)
            self.key_message.setStyleSheet("" if ok else ERROR_STYLE)

    def save_key(self) -> None:
        row, name = self._selected_row(), self.selected_provider()
        value = self.key_edit.text()
        self.key_edit.clear()  # the widget never holds a key longer than this
        if row is None or name is None or not value.strip():
            return
        try:
            self._keys.store(name, value)
        except (KeyringUnavailable, ValueError) as exc:
            self._note(name, False, str(exc))
            return
        self._note(name, True, f"Saved the key for {name} in the OS keyring.")
        self._refresh_key(row)

    def remove_key(self) -> None:
        row, name = self._selected_row(), self.selected_provider()
        if row is None or name is None:
            return
        try:
            removed = self._keys.forget(name)
        except KeyringUnavailable as exc:
            self._note(name, False, str(exc))
            return
        where = "Removed the key" if removed else "There was no key"
        self._note(name, True, f"{where} for {name} in the OS keyring.")
        self._refresh_key(row)

    def request_test(self) -> None:
        name = self.selected_provider()
        if name is not None:
            self._note(name, True, f"Testing {name}…")
            self.test_requested.emit(name)

    def show_test_result(self, provider_name: str, ok: bool, message: str) -> None:
        prefix = "✓ " if ok else "✗ "
        self._note(provider_name, ok, prefix + message)

    # --- saving --------------------------------------------------------------------------

    def settings(self) -> Settings:
        """The settings as edited; ValueError says what is wrong with them."""
        providers = self.providers()
        names = [LOCAL, *(DEFAULT_PROVIDERS | providers)]
        default, title = self.default_model.currentText(), self.title_model.currentText()
        _check_model("default model", default, names)
        _check_model("title model", title, names)
        edited = msgspec.structs.asdict(self._settings) | {
            "default_model": default.strip(),
            "title_model": title.strip(),
            "window_turns": self.window_turns.value(),
            "max_tool_rounds": self.max_tool_rounds.value(),
            "default_tools": self.default_tools(),
            "providers": providers,
        }
        return Settings(**edited)  # runs Settings' own checks

    def save(self) -> None:
        try:
            settings = self.settings()
        except ValueError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        self.error.hide()
        self.settings_saved.emit(settings)
        self.accept()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # Enter in the key or name field acts on that field; it must not also press OK.
        if (
            watched in (self.key_edit, self.new_name)
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            if watched is self.key_edit:
                self.save_key()
            else:
                self.add_provider()
            return True
        return super().eventFilter(watched, event)
