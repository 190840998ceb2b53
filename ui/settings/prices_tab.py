"""Settings' Prices tab: your prices per model pattern, tried first, then the shipped defaults.

A table of patterns and US dollars per million tokens. Only your prices are saved; a default
that is edited becomes yours, and Reset brings its shipped price back.
"""

from __future__ import annotations

import math
from fnmatch import fnmatchcase

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.pricing import DEFAULT_PRICES, Price, PriceTable
from ui.common import theme
from ui.settings.form import FormError

CONTEXT = "PricesTab"  # the translation context of every text here
PRICE_COLUMNS = (
    QT_TRANSLATE_NOOP("PricesTab", "Pattern"),
    QT_TRANSLATE_NOOP("PricesTab", "Input"),
    QT_TRANSLATE_NOOP("PricesTab", "Cached"),
    QT_TRANSLATE_NOOP("PricesTab", "Cache write"),
    QT_TRANSLATE_NOOP("PricesTab", "Output"),
    QT_TRANSLATE_NOOP("PricesTab", "Source"),
)
PATTERN, INPUT, CACHED, CACHE_WRITE, OUTPUT, SOURCE = range(len(PRICE_COLUMNS))
PRICE_FIELDS = {INPUT: "input", CACHED: "cached", CACHE_WRITE: "cache_write", OUTPUT: "output"}
YOURS = QT_TRANSLATE_NOOP("PricesTab", "your price")
DEFAULT = QT_TRANSLATE_NOOP("PricesTab", "default")
PRICES_INTRO = QT_TRANSLATE_NOOP(
    "PricesTab",
    "US dollars per million tokens. A pattern is a model name or provider:model, where * "
    "matches anything. Your prices are tried first, in this order, then the defaults; the "
    "first pattern that matches a model prices it. Empty cached or cache write: the input "
    "price. Editing a default makes it your price; only your prices are saved.",
)

NOT_A_NUMBER = QT_TRANSLATE_NOOP(
    "PricesTab", "Prices: {pattern}: the {label} price {text} is not a number"
)
NEGATIVE = QT_TRANSLATE_NOOP("PricesTab", "Prices: {pattern}: the {label} price cannot be negative")
MISSING = QT_TRANSLATE_NOOP("PricesTab", "Prices: {pattern}: the {label} price is missing")


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


class PriceError(FormError):
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

    def wrong(column: int, problem: str, text: str = "") -> PriceError:
        label = _tr(PRICE_COLUMNS[column]).lower()
        message = _tr(problem).format(pattern=pattern, label=label, text=repr(text))
        return PriceError(row, message)

    def number(column: int) -> float | None:
        text = cells[column].strip()
        if not text:
            return None
        try:
            value = float(text.removeprefix("$"))
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise wrong(column, NOT_A_NUMBER, text)
        if value < 0:
            raise wrong(column, NEGATIVE)
        return value

    def required(column: int) -> float:
        value = number(column)
        if value is None:
            raise wrong(column, MISSING)
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


class PricesTab(QWidget):
    """The table and its buttons; ``prices()`` is what the dialog saves."""

    def __init__(self, prices: dict[str, Price], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.price_table = QTableWidget(0, len(PRICE_COLUMNS))
        self.price_table.setHorizontalHeaderLabels([_tr(label) for label in PRICE_COLUMNS])
        self.price_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.price_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.price_table.verticalHeader().hide()
        header = self.price_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PATTERN, QHeaderView.ResizeMode.Stretch)
        self._filling = True
        for match in PriceTable(prices).rows():
            self._append_price(match.pattern, match.price)
        self._filling = False
        self.price_table.itemChanged.connect(self._price_edited)
        self.price_table.itemSelectionChanged.connect(self._price_buttons)
        self.add_price_button = QPushButton(self.tr("Add price"))
        self.remove_price_button = QPushButton(self.tr("Remove price"))
        self.reset_price_button = QPushButton(self.tr("Reset to default"))
        self.add_price_button.clicked.connect(self.add_price)
        self.remove_price_button.clicked.connect(self.remove_price)
        self.reset_price_button.clicked.connect(self.reset_price)
        self._layout()
        self._price_buttons()

    def _layout(self) -> None:
        intro = QLabel(_tr(PRICES_INTRO))
        intro.setWordWrap(True)
        self.price_error = QLabel()
        self.price_error.setStyleSheet(f"color: {theme.colour('error')};")
        self.price_error.setWordWrap(True)
        self.price_error.hide()
        self.price_note = QLabel()
        self.price_note.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted
        self.price_note.setWordWrap(True)
        self.price_note.hide()
        row = QHBoxLayout()
        for widget in (self.add_price_button, self.remove_price_button, self.reset_price_button):
            row.addWidget(widget)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.price_table, 1)
        layout.addLayout(row)
        layout.addWidget(self.price_error)
        layout.addWidget(self.price_note)

    def show_error(self, error: PriceError) -> None:
        """Point at the row a save was refused for."""
        self.price_table.selectRow(error.row)

    # --- rows ----------------------------------------------------------------------------

    def _price_cell(self, row: int, column: int) -> QTableWidgetItem:
        item = self.price_table.item(row, column)
        assert item is not None  # _append_price fills every cell
        return item

    def _price_cells(self, row: int) -> dict[int, str]:
        return {column: self._price_cell(row, column).text() for column in PRICE_FIELDS}

    def _is_yours(self, row: int) -> bool:
        return self._price_cell(row, SOURCE).text() == _tr(YOURS)

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
            message = self.tr("Prices: row {row} has no pattern; give a model name, e.g. gpt-4.1*")
            raise PriceError(row, message.format(row=row + 1))
        return pattern, _parse_price(row, pattern, self._price_cells(row))

    def _is_default(self, row: int) -> bool:
        """The row is a shipped default as shipped (nothing of it is saved)."""
        pattern = self._price_cell(row, PATTERN).text().strip()
        if pattern not in DEFAULT_PRICES:
            return False
        try:
            return self._row_price(row)[1] == DEFAULT_PRICES[pattern]
        except PriceError:
            return False

    def _update_source(self, row: int) -> None:
        filling, self._filling = self._filling, True
        try:
            source = DEFAULT if self._is_default(row) else YOURS
            self._price_cell(row, SOURCE).setText(_tr(source))
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
            if self._is_yours(r)
        ]
        notes = [
            self.tr(
                "Your price for {mine} also prices the models of {theirs}, as yours is tried "
                "first; add a price for {theirs} to keep them apart."
            ).format(mine=mine, theirs=theirs)
            for mine, theirs in _shadowed([p for p in user if p])
        ]
        self.price_note.setText("\n".join(notes[:3]) + ("\n…" if len(notes) > 3 else ""))
        self.price_note.setVisible(bool(notes))

    # --- buttons -------------------------------------------------------------------------

    def add_price(self) -> None:
        """A new row at the end of your prices at the top (tried in table order), to type in."""
        row = 0
        while row < self.price_table.rowCount() and self._is_yours(row):
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
                message = self.tr("Prices: {pattern} is listed twice")
                raise PriceError(row, message.format(pattern=pattern))
            seen.add(pattern)
            if DEFAULT_PRICES.get(pattern) != price:
                result[pattern] = price
        return result
