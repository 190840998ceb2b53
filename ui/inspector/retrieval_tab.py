"""The inspector's Retrieval tab: what a turn took from the user's documents (the
``knowledge`` records of ``app.knowledge.retrieval``): the question, the query searched (the
rewrite's, with its model, time and cost, or why the question was searched as it was), and
every passage found with its lexical, vector and fused scores and whether it was sent.

One turn at a time, picked in the list at the top; the dock picks the turn of the entry the
History tab has selected when this tab is brought to front.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.history import History
from app.history.entries import entry_id
from app.knowledge.retrieval import Retrieval, Retrieved, input_of, retrievals
from ui.chat.citations import place
from ui.common import locale_format

COLUMNS = 6  # [n], where, lexical, vector, fused, sent
INDEX_ROLE = Qt.ItemDataRole.UserRole


class RetrievalTab(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history: History | None = None
        self.records: list[tuple[int, Retrieval]] = []  # the input's seq, its retrieval
        self.turns = QComboBox()
        self.turns.currentIndexChanged.connect(self._show_turn)
        self.empty = QLabel(self.tr(
            "No question of this conversation searched your documents. Add documents with "
            "File > Knowledge, and the questions that follow search them."
        ))  # fmt: skip
        self.empty.setWordWrap(True)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTreeWidget()
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels([
            self.tr("[n]"), self.tr("Passage"), self.tr("Lexical"), self.tr("Vector"),
            self.tr("Fused"), self.tr("Sent"),
        ])  # fmt: skip
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in (0, 2, 3, 4, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.currentItemChanged.connect(self._show_passage)
        self.passage = QPlainTextEdit()
        self.passage.setReadOnly(True)
        self.passage.setPlaceholderText(self.tr("The passage's text, as sent"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.passage)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.turns)
        layout.addWidget(self.empty)
        layout.addWidget(self.details)
        layout.addWidget(split, 1)
        self._show_turn(-1)

    # --- what is shown ----------------------------------------------------------------------

    def set_history(self, history: History | None) -> None:
        """The conversation's records, the last turn shown (or the one shown before, if it is
        still there)."""
        kept = self.current()
        self.history = history
        found = retrievals(history) if history is not None else {}
        records = []
        for record in found.values():
            seq = history.seq_of(record.input) if history is not None else None
            if seq is not None:
                records.append((seq, record))
        self.records = sorted(records, key=lambda pair: pair[0])
        self.turns.blockSignals(True)
        self.turns.clear()
        for seq, record in self.records:
            question = " ".join(record.question.split())
            if len(question) > 80:
                question = question[:79] + "…"
            said = self.tr("#{seq}: {question}").format(seq=seq, question=question)
            self.turns.addItem(said, seq)
        self.turns.blockSignals(False)
        index = self.turns.findData(kept) if kept is not None else -1
        self.turns.setCurrentIndex(index if index >= 0 else self.turns.count() - 1)
        self._show_turn(self.turns.currentIndex())

    def current(self) -> int | None:
        """The seq of the input whose retrieval is shown."""
        seq = self.turns.currentData()
        return seq if isinstance(seq, int) else None

    def select_seq(self, seq: int) -> bool:
        """Show the retrieval of the turn entry ``seq`` belongs to (an input or a reply)."""
        history = self.history
        if history is None or not 1 <= seq <= history.version:
            return False
        question = input_of(history, history.at(seq))
        if question is None:
            return False
        index = self.turns.findData(history.seq_of(entry_id(question)))
        if index < 0:
            return False
        self.turns.setCurrentIndex(index)
        return True

    def _show_turn(self, index: int) -> None:
        record = self.records[index][1] if 0 <= index < len(self.records) else None
        self.empty.setVisible(not self.records)
        self.turns.setVisible(bool(self.records))
        self.details.setVisible(record is not None)
        self.table.clear()
        self.passage.clear()
        if record is None:
            return
        self.details.setText(self.details_html(record))
        for n, passage in enumerate(record.passages):
            self.table.addTopLevelItem(self._row(n, passage))
        first = self.table.topLevelItem(0)
        if first is not None:
            self.table.setCurrentItem(first)

    def details_html(self, record: Retrieval) -> str:
        lines = [
            self.tr("<b>Question:</b> {text}").format(text=escape(record.question)),
            self.tr("<b>Searched:</b> {text}").format(text=escape(record.query)),
        ]
        seconds = locale_format.number((record.rewrite_ms or 0) / 1000)
        cost = (
            locale_format.money(record.rewrite_cost)
            if record.rewrite_cost is not None
            else self.tr("cost unknown")
        )
        model = record.rewrite_model or ""
        if record.rewritten:
            said = self.tr("Rewritten by {model} in {seconds} s, {cost}")
            lines.append(escape(said.format(model=model or "?", seconds=seconds, cost=cost)))
        else:
            why = record.why_not or self.tr("the question was searched as it is")
            said = self.tr("Not rewritten: {why}").format(why=why)
            if model:  # asked, and it did not do
                tried = self.tr("{model}, {seconds} s, {cost}")
                said += f" ({tried.format(model=model, seconds=seconds, cost=cost)})"
            lines.append(escape(said))
        problem = getattr(record, "vector_problem", "")
        if problem:
            lines.append(escape(self.tr("Searched by words only: {why}").format(why=problem)))
        sent = len(record.sent)
        found = self.tr("%n passage(s) found", "", len(record.passages))
        lines.append(escape(self.tr("{found}, {sent} sent, in {ms} ms").format(
            found=found, sent=locale_format.count(sent),
            ms=locale_format.number(record.search_ms, 0),
        )))  # fmt: skip
        return "<br>".join(lines)

    def _row(self, index: int, passage: Retrieved) -> QTreeWidgetItem:
        where = place(passage)
        if passage.heading:
            where += f" · {passage.heading}"
        item = QTreeWidgetItem([
            f"[{passage.n}]" if passage.sent else "", where, _score(passage.lexical),
            _score(passage.vector), _score(passage.score),
            self.tr("sent") if passage.sent else self.tr("not sent"),
        ])  # fmt: skip
        item.setData(0, INDEX_ROLE, index)
        tip = passage.where if not passage.heading else f"{passage.where}\n{passage.heading}"
        item.setToolTip(1, tip)
        for column in (2, 3, 4):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
        if not passage.sent:
            for shown in range(COLUMNS):
                item.setForeground(shown, self.palette().placeholderText())
        return item

    def changeEvent(self, event: QEvent) -> None:  # Qt override: the unsent rows' colour
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            row = self.table.currentIndex().row()
            self._show_turn(self.turns.currentIndex())
            chosen = self.table.topLevelItem(row) if row >= 0 else None
            if chosen is not None:
                self.table.setCurrentItem(chosen)

    def _show_passage(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        index = self.turns.currentIndex()
        if item is None or not 0 <= index < len(self.records):
            self.passage.clear()
            return
        record = self.records[index][1]
        passage = record.passages[int(item.data(0, INDEX_ROLE))]
        self.passage.setPlainText(passage.text or self.tr("(not sent: its text is not kept)"))


def _score(value: float | None) -> str:
    return "–" if value is None else locale_format.number(value, 3)  # noqa: RUF001
