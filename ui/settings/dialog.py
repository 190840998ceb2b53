"""Settings: providers and their API keys, the default and title models, the turn window, the
tools a new conversation starts with, how the user's documents are searched, the prices costs
are worked out with, and the language.

Non-modal: the main window calls ``open()``, saves what ``settings_saved`` carries and answers
``test_requested`` with ``show_test_result``. The dialog itself touches nothing but ``Keys``: a
key typed here goes to the OS keyring, or, where there is none and the user asks for it, into
this process's memory for the session. It is never shown again: only where it comes from is.
What the environment sets (a key in ``OPENAI_API_KEY``, a base URL in ``OPENAI_BASE_URL``) is
shown with the variable's name, read-only, and a key's value never.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError
from app.keys import Keys
from app.settings import DEFAULT_PROVIDERS, LOCAL, ProviderConfig, Settings
from app.tools import BUILTIN
from ui.common import i18n
from ui.settings.form import FormError, shown
from ui.settings.key_box import KeyBox, error_style, key_status
from ui.settings.knowledge_tab import DocumentsError, KnowledgeTab
from ui.settings.prices_tab import PriceError, PricesTab
from ui.settings.sync_tab import SyncTab
from ui.settings.tools_tab import McpServersPage

if TYPE_CHECKING:
    from app.mcp import McpManager
    from app.paths import DataDir
    from app.settings_sync import SyncConfig

COLUMNS = (
    QT_TRANSLATE_NOOP("SettingsDialog", "Name"),
    QT_TRANSLATE_NOOP("SettingsDialog", "Kind"),
    QT_TRANSLATE_NOOP("SettingsDialog", "Base URL"),
    QT_TRANSLATE_NOOP("SettingsDialog", "Models"),
    QT_TRANSLATE_NOOP("SettingsDialog", "Key"),
)
NAME, KIND, BASE_URL, MODELS, KEY = range(len(COLUMNS))
CONFIG_ROLE = Qt.ItemDataRole.UserRole  # on the name cell: the row's ProviderConfig
SOURCE_ROLE = Qt.ItemDataRole.UserRole  # on the key cell: where the key comes from, or None
HINT_ROLE = Qt.ItemDataRole.UserRole + 1  # on the base URL cell: the environment's, and where
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


@dataclass(frozen=True)
class ProviderTrial:
    """A provider as the dialog shows it, to test before anything is saved: its settings as
    edited, and keys that answer it with the key typed in the field, if one is (that key is
    kept nowhere else)."""

    name: str
    config: ProviderConfig
    keys: Keys


def _split_models(text: str) -> list[str]:
    return list(dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))


def _check_model(
    label: str, spec: str, providers: list[str], error: type[FormError] = FormError
) -> None:
    name, _, model = spec.strip().partition(":")
    if name not in providers or not model:
        message = SettingsDialog.tr(
            "the {label} {spec} should be provider:model, the provider one of {names}"
        )
        raise error(message.format(label=label, spec=repr(spec), names=", ".join(providers)))


def _check_base_url(name: str, config: ProviderConfig) -> None:
    if config.base_url and not config.base_url.startswith(("http://", "https://")):
        message = SettingsDialog.tr("the base URL of {name} should start with http:// or https://")
        raise FormError(message.format(name=name))
    if config.kind == "openai-compatible" and not config.base_url:
        message = SettingsDialog.tr("{name} needs a base URL, e.g. http://127.0.0.1:11434/v1")
        raise FormError(message.format(name=name))


def _spin(value: int, top: int, low: int = 1) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, max(top, value))  # never clamp a larger value someone wrote by hand
    spin.setValue(value)
    return spin


def _model_combo(models: list[str], current: str) -> QComboBox:
    combo = QComboBox()
    combo.setEditable(True)  # any provider:model, also one not listed yet
    combo.addItems(models)
    combo.setCurrentText(current)
    return combo


def _error_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(error_style())
    label.hide()
    return label


class _EnvironmentHint(QStyledItemDelegate):
    """Draws what the environment puts in an empty cell (``HINT_ROLE``), muted, in its place.

    Shown only: it is not the cell's text, so it is never saved, and the editor opens empty;
    what is typed there is the settings' own value and overrides the environment's.
    """

    def initStyleOption(  # Qt override
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        hint = index.data(HINT_ROLE)
        if hint and not option.text:
            option.text = hint
            muted = option.palette.color(QPalette.ColorRole.PlaceholderText)
            option.palette.setColor(QPalette.ColorRole.Text, muted)


class SettingsDialog(QDialog):
    settings_saved = Signal(object)  # the new Settings, valid; saving them is the caller's work
    test_requested = Signal(object)  # a ProviderTrial: try it; answer show_test_result
    language_chosen = Signal(str)  # "system" or a code, on OK; kept in window.ini by the caller
    restart_requested = Signal()  # Restart now: saved, then the caller starts Crosstalk again
    stall_logging_chosen = Signal(bool)  # Advanced: log the window's stalls; on OK

    def __init__(
        self,
        settings: Settings,
        keys: Keys,
        models: list[str],
        parent: QWidget | None = None,
        *,
        language: str = i18n.SYSTEM,  # the saved choice
        running_language: str | None = None,  # the choice this process shows; None: language
        stall_logging: bool = False,  # Advanced: ui/shell/stall_monitor.py is on
        mcp: McpManager | None = None,  # Tools: its servers, edited in mcp.json at once
        data: DataDir | None = None,  # Sync: set up and turned off at once, in this data dir
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._settings = settings
        self._keys = keys
        self.mcp_page = McpServersPage(mcp) if mcp is not None else None
        if self.mcp_page is not None:
            self.finished.connect(self.mcp_page.cancel)  # a test still running stops
        tabs = QTabWidget()
        tabs.addTab(self._providers_tab(), self.tr("Providers"))
        tabs.addTab(self._models_tab(settings, models), self.tr("Models"))
        tabs.addTab(self._tools_tab(settings), self.tr("Tools"))
        self.knowledge_tab = KnowledgeTab(settings, models)
        tabs.addTab(self.knowledge_tab, self.tr("Documents"))
        self.prices_tab = PricesTab(settings.prices)
        tabs.addTab(self.prices_tab, self.tr("Prices"))
        self.sync_tab = SyncTab(data, settings) if data is not None else None
        if self.sync_tab is not None:
            tabs.addTab(self.sync_tab, self.tr("Sync"))
            self.sync_tab.sync_changed.connect(self._sync_changed)
        self.providers_tab = tabs.widget(0)
        self._running_language = language if running_language is None else running_language
        tabs.addTab(self._language_tab(language), self.tr("Language"))
        tabs.addTab(self._advanced_tab(stall_logging), self.tr("Advanced"))
        self.tabs = tabs
        self.error = _error_label()
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
        self.resize(860, 560 if self.mcp_page is None else 720)

    # --- building ------------------------------------------------------------------------

    def _providers_tab(self) -> QWidget:
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([self.tr(label) for label in COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegateForColumn(BASE_URL, _EnvironmentHint(self.table))
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (BASE_URL, MODELS):  # the long ones share what is left, elided
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._show_selected)
        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText(self.tr("name, e.g. ollama"))
        self.add_button = QPushButton(self.tr("Add OpenAI-compatible provider"))
        self.remove_button = QPushButton(self.tr("Remove provider"))
        self.provider_error = _error_label()
        self.new_name.textChanged.connect(lambda text: self.add_button.setEnabled(bool(text)))
        self.new_name.returnPressed.connect(self.add_provider)
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
        self.key_box = KeyBox(self._keys)
        self.key_box.key_changed.connect(self._refresh_named)
        self.key_box.test_clicked.connect(self.request_test)
        layout.addWidget(self.key_box)
        return tab

    def _models_tab(self, settings: Settings, models: list[str]) -> QWidget:
        self.default_model = _model_combo(models, settings.default_model)
        self.title_model = _model_combo(models, settings.title_model)
        self.window_turns = _spin(settings.window_turns or 0, 500, low=0)  # 0: the budget
        self.window_turns.setSpecialValueText(self.tr("As many as the token budget holds"))
        self.max_tool_rounds = _spin(settings.max_tool_rounds, 50)
        self.enter_sends = QCheckBox(self.tr("Enter sends the message (Shift+Enter: a new line)"))
        self.enter_sends.setChecked(settings.enter_sends)
        self.enter_sends.setToolTip(self.tr("Off: Enter starts a new line and Ctrl+Enter sends"))
        self.vision_models = QLineEdit(", ".join(settings.vision_models))
        self.vision_models.setPlaceholderText(self.tr("e.g. ollama:llava*, lmstudio:qwen2-vl*"))
        self.vision_models.setToolTip(
            self.tr(
                "Models of OpenAI-compatible servers that read images (provider:model, * for "
                "any). Others get no images; OpenAI's, Anthropic's and Gemini's own models are "
                "known."
            )
        )
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(self.tr("Default model for new conversations:"), self.default_model)
        form.addRow(self.tr("Model that writes titles:"), self.title_model)
        form.addRow(self.tr("Recent turns sent with each request:"), self.window_turns)
        form.addRow(self.tr("Tool rounds allowed per reply:"), self.max_tool_rounds)
        form.addRow(self.tr("Composer:"), self.enter_sends)
        form.addRow(self.tr("Models that read images:"), self.vision_models)
        return tab

    def _tools_tab(self, settings: Settings) -> QWidget:
        self.tool_boxes: dict[str, QCheckBox] = {}
        tab = QWidget()
        layout = QVBoxLayout(tab)
        form = QFormLayout()
        layout.addLayout(form)
        if self.mcp_page is not None:
            layout.addWidget(self.mcp_page, 1)
        else:
            layout.addStretch(1)
        intro = QLabel(self.tr("Tools a new conversation starts with (the model may call them):"))
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

    def _language_tab(self, language: str) -> QWidget:
        self.language = QComboBox()
        self.language.addItem(self.tr("System (as the desktop is set)"), i18n.SYSTEM)
        for code in i18n.available():
            self.language.addItem(i18n.native_name(code), code)
        self.language.setCurrentIndex(max(self.language.findData(language), 0))
        self.restart_note = QLabel(self.tr("Applies when Crosstalk restarts."))
        self.restart_button = QPushButton(self.tr("Restart now"))
        self.restart_button.setToolTip(
            self.tr("Save these settings, close Crosstalk and start it again in this language")
        )
        self.restart_button.clicked.connect(self.save_and_restart)
        self.language.currentIndexChanged.connect(self._show_restart)
        row = QHBoxLayout()
        row.addWidget(self.restart_note, 1)
        row.addWidget(self.restart_button)
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(self.tr("Language of the window:"), self.language)
        form.addRow(row)
        self._show_restart()
        return tab

    def _advanced_tab(self, stall_logging: bool) -> QWidget:
        self.stall_logging = QCheckBox(
            self.tr("Log every moment the window stops responding for over 50 ms")
        )
        self.stall_logging.setChecked(stall_logging)
        about = QLabel(
            self.tr(
                "For reporting slowness: each stall is written to the log with what the window "
                "was doing. Help > Report a problem copies the log's last lines."
            )
        )
        about.setWordWrap(True)
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow(self.stall_logging)
        form.addRow(about)
        return tab

    def _sync_changed(self, config: SyncConfig | None) -> None:
        """Sync was set up or turned off (and saved) in its tab: OK keeps it so."""
        self._settings = msgspec.structs.replace(self._settings, sync=config)

    def chosen_language(self) -> str:
        return str(self.language.currentData())

    def _show_restart(self) -> None:
        changed = self.chosen_language() != self._running_language
        self.restart_note.setVisible(changed)
        self.restart_button.setVisible(changed)

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
        self._show_environment_url(row, name, config)
        self._refresh_key(row)
        return row

    def _show_environment_url(self, row: int, name: str, config: ProviderConfig) -> None:
        """The base URL the environment gives, for when the cell is left empty (the settings'
        own URL wins), with where it comes from; never saved from here."""
        found = self._keys.base_url_from_environment(name, config.kind)
        if found is None:
            return
        variable, url = found
        item = self._cell(row, BASE_URL)
        item.setData(
            HINT_ROLE, self.tr("{url} (from {variable})").format(url=url, variable=variable)
        )
        item.setToolTip(
            self.tr(
                "Empty: {url} from {variable} in the environment is used. Type a URL to use "
                "another one instead."
            ).format(url=url, variable=variable)
        )

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

    def show_key_for(self, name: str) -> None:
        """The Providers tab with ``name`` selected and its key field ready to paste into."""
        if name not in (names := self._names()):
            return
        self.tabs.setCurrentWidget(self.providers_tab)
        self.table.selectRow(names.index(name))
        self.key_box.key_edit.setFocus()

    def add_provider(self) -> None:
        name = self.new_name.text().strip()
        config = ProviderConfig(kind="openai-compatible")
        try:
            if name in self._names():
                raise FormError(
                    self.tr("there is already a provider named {name}").format(name=repr(name))
                )
            Settings(providers={name: config})  # the same rule settings.toml is checked by
        except (FormError, CrosstalkError) as exc:
            self.provider_error.setText(shown(exc))
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

    def _config_at(self, row: int) -> ProviderConfig:
        """The row's provider as shown now, edits included; FormError if its URL is wrong."""
        config: ProviderConfig = msgspec.structs.replace(
            self._cell(row, NAME).data(CONFIG_ROLE),
            base_url=self._cell(row, BASE_URL).text().strip() or None,
            models=_split_models(self._cell(row, MODELS).text()),
        )
        _check_base_url(self._cell(row, NAME).text(), config)
        return config

    def providers(self) -> dict[str, ProviderConfig]:
        """The user's providers as edited: built-ins only where they differ from the defaults."""
        result: dict[str, ProviderConfig] = {}
        for row in range(self.table.rowCount()):
            name, config = self._cell(row, NAME).text(), self._config_at(row)
            if DEFAULT_PROVIDERS.get(name) != config:
                result[name] = config
        return result

    # --- keys ----------------------------------------------------------------------------

    def _refresh_key(self, row: int) -> None:
        name = self._cell(row, NAME).text()
        config: ProviderConfig = self._cell(row, NAME).data(CONFIG_ROLE)
        key = self._keys.lookup(name, config.kind)
        source = key.source if key else None  # only where it comes from is kept
        self._cell(row, KEY).setText(key_status(source, config.key_required))
        self._cell(row, KEY).setData(SOURCE_ROLE, source)
        if row == self._selected_row():
            self.key_box.update_source(source)

    def _refresh_named(self, name: str) -> None:
        if name in self._names():
            self._refresh_key(self._names().index(name))

    def _show_selected(self) -> None:
        row, name = self._selected_row(), self.selected_provider()
        self.remove_button.setEnabled(name is not None and name not in DEFAULT_PROVIDERS)
        if row is None:
            self.key_box.show_provider(None, None, None)
            return
        config = self._cell(row, NAME).data(CONFIG_ROLE)
        self.key_box.show_provider(name, config, self._cell(row, KEY).data(SOURCE_ROLE))

    def request_test(self) -> None:
        """Try the provider as shown: its kind, base URL and models as edited and the key in
        the field (not saved), else the key in use. Nothing is saved by trying."""
        row, name = self._selected_row(), self.selected_provider()
        if row is None or name is None:
            return
        try:
            config = self._config_at(row)
        except FormError as exc:
            self.key_box.note(name, False, shown(exc))
            return
        if not config.models:
            text = self.tr("{name} lists no models to test with: add one in its Models cell")
            self.key_box.note(name, False, text.format(name=name))
            return
        keys = self.key_box.typed_keys(name)
        self.key_box.note(name, True, self.tr("Testing {name}…").format(name=name))
        self.test_requested.emit(ProviderTrial(name, config, keys))

    def show_test_result(self, provider_name: str, ok: bool, message: str) -> None:
        prefix = "✓ " if ok else "✗ "
        self.key_box.note(provider_name, ok, prefix + message)

    # --- saving --------------------------------------------------------------------------

    def settings(self) -> Settings:
        """The settings as edited; FormError or InvalidValue says what is wrong with them."""
        providers = self.providers()
        names = [LOCAL, *(DEFAULT_PROVIDERS | providers)]
        default, title = self.default_model.currentText(), self.title_model.currentText()
        _check_model(self.tr("default model"), default, names)
        _check_model(self.tr("title model"), title, names)
        documents = self.knowledge_tab.values()
        if (recall := documents["recall_model"]) is not None:
            _check_model(self.tr("model that rewrites questions"), recall, names, DocumentsError)
        edited = msgspec.structs.asdict(self._settings) | {
            **documents,
            "default_model": default.strip(),
            "title_model": title.strip(),
            "window_turns": self.window_turns.value() or None,
            "max_tool_rounds": self.max_tool_rounds.value(),
            "enter_sends": self.enter_sends.isChecked(),
            "default_tools": self.default_tools(),
            "providers": providers,
            "prices": self.prices_tab.prices(),
            "vision_models": _split_models(self.vision_models.text()),
        }
        settings = Settings(**edited)  # runs Settings' own checks
        self.knowledge_tab.check(settings, self._keys)  # the embedding model can be made
        return settings

    def save(self) -> bool:
        """OK: the settings and the language go to the caller; False if they are not valid."""
        try:
            settings = self.settings()
        except (FormError, CrosstalkError) as exc:
            self.error.setText(shown(exc))
            self.error.show()
            if isinstance(exc, PriceError):  # show where it is
                self.tabs.setCurrentWidget(self.prices_tab)
                self.prices_tab.show_error(exc)
            elif self.knowledge_tab.concerns(exc):
                self.tabs.setCurrentWidget(self.knowledge_tab)
            return False
        self.error.hide()
        self.settings_saved.emit(settings)
        self.language_chosen.emit(self.chosen_language())
        self.stall_logging_chosen.emit(self.stall_logging.isChecked())
        self.accept()
        return True

    def save_and_restart(self) -> None:
        if self.save():
            self.restart_requested.emit()

    # --- Enter ---------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        # Enter finishes what is being typed and never presses OK half-way through an edit:
        # a field acts on its own Enter first (the key field tests, the name field adds, a
        # cell commits), then the key reaches here and stops. A focused button takes Enter
        # itself, OK included.
        if event.key() in ENTER_KEYS:
            event.accept()
            return
        super().keyPressEvent(event)
