"""Settings: providers and their API keys, the default and title models, the turn window, the
tools a new conversation starts with, and the prices costs are worked out with.

Non-modal: the main window calls ``open()``, saves what ``settings_saved`` carries and answers
``test_requested`` with ``show_test_result``. The dialog itself touches nothing but ``Keys``:
a key typed here goes to the OS keyring and nowhere else, and is never shown again.
"""

from __future__ import annotations

import math
from fnmatch import fnmatchcase

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
from app.pricing import DEFAULT_PRICES, Price, PriceTable
from app.settings import DEFAULT_PROVIDERS, LOCAL, ProviderConfig, Settings
from app.tools import BUILTIN

COLUMNS = ("Name", "Kind", "Base URL", "Models", "Key")
NAME, KIND, BASE_URL, MODELS, KEY = range(len(COLUMNS))
STORED_PLACEHOLDER = "•••••••• (stored in the OS keyring)"
ERROR_STYLE = "color: #b00020;"
CONFIG_ROLE = Qt.ItemDataRole.UserRole  # on the name cell: the row's ProviderConfig
SOURCE_ROLE = Qt.ItemDataRole.UserRole  # on the key cell: where the key comes from, or None

PRICE_COLUMNS = ("Pattern", "Input", "Cached", "Cache write", "Output", "Source")
PATTERN, INPUT, CACHED, CACHE_WRITE, OUTPUT, SOURCE = range(len(PRICE_COLUMNS))
PRICE_FIELDS = {INPUT: "input", CACHED: "cached", CACHE_WRITE: "cache_write", OUTPUT: "output"}
YOURS, DEFAULT = "your price", "default"
PRICES_INTRO = (
    "US dollars per million tokens. A pattern is a model name or provider:model, where * "
    "matches anything. Your prices are tried first, in this order, then the defaults; the "
    "first pattern that matches a model prices it. Empty cached or cache write: the input "
    "price. Editing a default makes it your price; only your prices are saved."
)
MUTED_STYLE = "color: #656d76;"


class PriceError(ValueError):
    """A price row that is not valid; ``row`` is where it is in the table."""

    def __init__(self, row: int, message: str) -> None:
        super().__init__(message)
        self.row = row


def _price_text(value: float | None) -> str:
    """As typed: ``2.5``, ``0.075``, ``0``; empty for "as the input price"."""
    if value is None:
        return ""
    text = repr(float(value))
    return text.removesuffix(".0")


def _parse_price(row: int, pattern: str, cells: dict[int, str]) -> Price:
    """A row's cells as a Price; PriceError says which cell is wrong and why."""

    def number(column: int) -> float | None:
        text = cells[column].strip()
        label = PRICE_COLUMNS[column].lower()
        if not text:
            return None
        try:
            value = float(text.removeprefix("$"))
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise PriceError(row, f"Prices: {pattern}: the {label} price {text!r} is not a number")
        if value < 0:
            raise PriceError(row, f"Prices: {pattern}: the {label} price cannot be negative")
        return value

    def required(column: int) -> float:
        value = number(column)
        if value is None:
            label = PRICE_COLUMNS[column].lower()
            raise PriceError(row, f"Prices: {pattern}: the {label} price is missing")
        return value

    # checked in the table's order, so the first message is about the leftmost wrong cell
    fresh, cached, written, output = (
        required(INPUT), number(CACHED), number(CACHE_WRITE), required(OUTPUT)
    )  # fmt: skip
    return Price(input=fresh, output=output, cached=cached, cache_write=written)


def _shadowed(user: list[str]) -> list[tuple[str, str]]:
    """(your pattern, default pattern) pairs where yours, tried first, also takes the default's
    models: a price for ``gpt-4o*`` is also the price of every ``gpt-4o-mini*`` model."""
    pairs = []
    for pattern in user:
        bare = pattern.partition(":")[2] if ":" in pattern else pattern
        for default in DEFAULT_PRICES:
            if default not in user and (
                fnmatchcase(default, pattern) or fnmatchcase(default, bare)
            ):
                pairs.append((pattern, default))
    return pairs


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
        self.prices_tab = self._prices_tab(settings)
        tabs.addTab(self.prices_tab, "Prices")
        self.tabs = tabs
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
        self.window_turns = _spin(settings.window_turns or 0, 500, low=0)  # 0: the budget
        self.window_turns.setSpecialValueText(self.tr("As many as the token budget holds"))
        self.max_tool_rounds = _spin(settings.max_tool_rounds, 50)
        self.enter_sends = QCheckBox("Enter sends the message (Shift+Enter: a new line)")
        self.enter_sends.setChecked(settings.enter_sends)
        self.enter_sends.setToolTip("Off: Enter starts a new line and Ctrl+Enter sends")
        tab = QWidget()
        form = QFormLayout(tab)
        form.addRow("Default model for new conversations:", self.default_model)
        form.addRow("Model that writes titles:", self.title_model)
        form.addRow("Recent turns sent with each request:", self.window_turns)
        form.addRow("Tool rounds allowed per reply:", self.max_tool_rounds)
        form.addRow("Composer:", self.enter_sends)
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

    def _prices_tab(self, settings: Settings) -> QWidget:
        self.price_table = QTableWidget(0, len(PRICE_COLUMNS))
        self.price_table.setHorizontalHeaderLabels(PRICE_COLUMNS)
        self.price_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.price_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.price_table.verticalHeader().hide()
        header = self.price_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PATTERN, QHeaderView.ResizeMode.Stretch)
        self._filling = True
        for match in PriceTable(settings.prices).rows():
            self._append_price(match.pattern, match.price)
        self._filling = False
        self.price_table.itemChanged.connect(self._price_edited)
        self.price_table.itemSelectionChanged.connect(self._price_buttons)
        self.add_price_button = QPushButton("Add price")
        self.remove_price_button = QPushButton("Remove price")
        self.reset_price_button = QPushButton("Reset to default")
        self.add_price_button.clicked.connect(self.add_price)
        self.remove_price_button.clicked.connect(self.remove_price)
        self.reset_price_button.clicked.connect(self.reset_price)
        intro = QLabel(PRICES_INTRO)
        intro.setWordWrap(True)
        self.price_error = QLabel()
        self.price_error.setStyleSheet(ERROR_STYLE)
        self.price_error.setWordWrap(True)
        self.price_error.hide()
        self.price_note = QLabel()
        self.price_note.setStyleSheet(MUTED_STYLE)
        self.price_note.setWordWrap(True)
        self.price_note.hide()
        row = QHBoxLayout()
        for widget in (self.add_price_button, self.remove_price_button, self.reset_price_button):
            row.addWidget(widget)
        row.addStretch(1)
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addWidget(intro)
        layout.addWidget(self.price_table, 1)
        layout.addLayout(row)
        layout.addWidget(self.price_error)
        layout.addWidget(self.price_note)
        self._price_buttons()
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

    # --- prices --------------------------------------------------------------------------

    def _price_cell(self, row: int, column: int) -> QTableWidgetItem:
        item = self.price_table.item(row, column)
        assert item is not None  # _append_price fills every cell
        return item

    def _price_cells(self, row: int) -> dict[int, str]:
        return {column: self._price_cell(row, column).text() for column in PRICE_FIELDS}

    def _append_price(self, pattern: str, price: Price | None, at: int | None = None) -> int:
        row = self.price_table.rowCount() if at is None else at
        self.price_table.insertRow(row)
        fixed = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
        values = {
            column: _price_text(getattr(price, name)) if price else ""
            for column, name in PRICE_FIELDS.items()
        }
        for column in range(len(PRICE_COLUMNS)):
            item = QTableWidgetItem(pattern if column == PATTERN else values.get(column, ""))
            if column == SOURCE or (column == PATTERN and pattern in DEFAULT_PRICES):
                item.setFlags(fixed)  # a default's pattern stays: Reset brings its price back
            if column in PRICE_FIELDS:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.price_table.setItem(row, column, item)
        self._update_source(row)
        return row

    def _row_price(self, row: int) -> tuple[str, Price]:
        pattern = self._price_cell(row, PATTERN).text().strip()
        if not pattern:
            raise PriceError(
                row, f"Prices: row {row + 1} has no pattern; give a model name, e.g. gpt-4.1*"
            )
        return pattern, _parse_price(row, pattern, self._price_cells(row))

    def _is_default(self, row: int) -> bool:
        """The row is a shipped default as shipped (nothing of it is saved)."""
        pattern = self._price_cell(row, PATTERN).text().strip()
        if pattern not in DEFAULT_PRICES:
            return False
        try:
            return self._row_price(row)[1] == DEFAULT_PRICES[pattern]
        except ValueError:
            return False

    def _update_source(self, row: int) -> None:
        filling, self._filling = self._filling, True
        try:
            self._price_cell(row, SOURCE).setText(DEFAULT if self._is_default(row) else YOURS)
        finally:
            self._filling = filling

    def _price_edited(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() == SOURCE:
            return
        row = item.row()
        self._update_source(row)
        try:
            self._row_price(row)
        except PriceError as exc:
            self.price_error.setText(str(exc))
            self.price_error.show()
        else:
            self.price_error.hide()
        self._price_buttons()

    def _selected_price_row(self) -> int | None:
        rows = self.price_table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def _price_buttons(self) -> None:
        row = self._selected_price_row()
        pattern = None if row is None else self._price_cell(row, PATTERN).text().strip()
        default = pattern in DEFAULT_PRICES
        self.remove_price_button.setEnabled(row is not None and not default)
        self.reset_price_button.setEnabled(
            row is not None and default and not self._is_default(row)
        )
        user = [
            self._price_cell(r, PATTERN).text().strip()
            for r in range(self.price_table.rowCount())
            if self._price_cell(r, SOURCE).text() == YOURS
        ]
        notes = [
            f"Your price for {mine} also prices the models of {theirs}, as yours is tried "
            f"first; add a price for {theirs} to keep them apart."
            for mine, theirs in _shadowed([p for p in user if p])
        ]
        self.price_note.setText("\n".join(notes[:3]) + ("\n…" if len(notes) > 3 else ""))
        self.price_note.setVisible(bool(notes))

    def add_price(self) -> None:
        """A new row at the end of your prices at the top (tried in table order), to type in."""
        row = 0
        while row < self.price_table.rowCount() and self._price_cell(row, SOURCE).text() == YOURS:
            row += 1
        self._filling = True
        try:
            self._append_price("", None, at=row)
        finally:
            self._filling = False
        self.price_table.selectRow(row)
        self.price_table.scrollToItem(self._price_cell(row, PATTERN))
        self.price_table.editItem(self._price_cell(row, PATTERN))

    def remove_price(self) -> None:
        row = self._selected_price_row()
        if row is None or self._price_cell(row, PATTERN).text().strip() in DEFAULT_PRICES:
            return
        self.price_table.removeRow(row)
        self.price_error.hide()
        self._price_buttons()

    def reset_price(self) -> None:
        row = self._selected_price_row()
        pattern = None if row is None else self._price_cell(row, PATTERN).text().strip()
        if row is None or pattern not in DEFAULT_PRICES:
            return
        price = DEFAULT_PRICES[pattern]
        self._filling = True
        try:
            for column, name in PRICE_FIELDS.items():
                self._price_cell(row, column).setText(_price_text(getattr(price, name)))
        finally:
            self._filling = False
        self._update_source(row)
        self.price_error.hide()
        self._price_buttons()

    def prices(self) -> dict[str, Price]:
        """Your prices as edited, in table order: defaults only where they were changed."""
        result: dict[str, Price] = {}
        seen: set[str] = set()
        for row in range(self.price_table.rowCount()):
            pattern, price = self._row_price(row)
            if pattern in seen:
                raise PriceError(row, f"Prices: {pattern} is listed twice")
            seen.add(pattern)
            if DEFAULT_PRICES.get(pattern) != price:
                result[pattern] = price
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
            "window_turns": self.window_turns.value() or None,
            "max_tool_rounds": self.max_tool_rounds.value(),
            "enter_sends": self.enter_sends.isChecked(),
            "default_tools": self.default_tools(),
            "providers": providers,
            "prices": self.prices(),
        }
        return Settings(**edited)  # runs Settings' own checks

    def save(self) -> None:
        try:
            settings = self.settings()
        except ValueError as exc:
            self.error.setText(str(exc))
            self.error.show()
            if isinstance(exc, PriceError):  # show where it is
                self.tabs.setCurrentWidget(self.prices_tab)
                self.price_table.selectRow(exc.row)
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
