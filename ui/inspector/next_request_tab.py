"""The Next request tab: what a turn to the composer's model would send now, part by part, its
tokens against the model's window, what is left out and why, and the wire body itself. Counts
made with another tokenizer than the provider's are marked "≈" wherever they show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.inspect.next_request import (
    KNOWLEDGE_PART,
    SAMPLING_SEPARATOR,
    Carried,
    NextRequest,
    wire_json,
)
from ui.common import locale_format, theme
from ui.common.notes import said, said_all
from ui.inspector.history_model import kind_icon
from ui.inspector.tables import ROOT, ColumnsModel, Index, monospace_view, read_only_table, titled
from ui.inspector.wording import QT_TRANSLATE_NOOP, kind_label, kind_tip

CARRIED_COLUMNS = (
    QT_TRANSLATE_NOOP("CarriedModel", "Seq"), QT_TRANSLATE_NOOP("CarriedModel", "Kind"),
    QT_TRANSLATE_NOOP("CarriedModel", "Tokens"), QT_TRANSLATE_NOOP("CarriedModel", "Text"),
)  # fmt: skip
TEXT_CHARS = 300  # of an entry's text in its cell; the tooltip has more
TIP_CHARS = 2000
SEQ_ROLE = Qt.ItemDataRole.UserRole + 1  # of a left-out item: the first entry it names


class CarriedModel(ColumnsModel):
    """The parts of the next request in the order they are sent."""

    context = "CarriedModel"
    columns = CARRIED_COLUMNS
    numeric = frozenset({0, 2})

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Carried] = []
        self._approx = ""  # "≈ " when the counts are estimates

    def set_rows(self, rows: Sequence[Carried], estimate: bool = False) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._approx = "≈ " if estimate else ""
        self.endResetModel()

    def carried(self, row: int) -> Carried:
        return self._rows[row]

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        part, column = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return "" if part.seq is None else str(part.seq)
            if column == 1:
                if part.covers is not None:
                    return self.tr("summary of {first}-{last}").format(
                        first=part.covers[0], last=part.covers[1]
                    )
                if part.kind == "project":
                    return self.tr("project's instructions")
                if part.kind == KNOWLEDGE_PART:
                    return self.tr("Passages from your documents")
                return self.tr("draft (unsent)") if part.kind == "draft" else kind_label(part.kind)
            if column == 2:  # a search not made yet has nothing to count
                return "" if part.pending else f"{self._approx}{locale_format.count(part.tokens)}"
            if part.pending:
                return self.searched(part, ", ")
            return " ".join(part.text[:TEXT_CHARS].split())
        if role == Qt.ItemDataRole.DecorationRole and column == 1 and part.kind in KIND_ICONS:
            return kind_icon(KIND_ICONS[part.kind])
        if role == Qt.ItemDataRole.ToolTipRole and part.pending and column in (2, 3):
            if column == 2:
                return self.tr("Counted once your question is searched, when you send it")
            return self.searched(part, "\n")[:TIP_CHARS]
        if role == Qt.ItemDataRole.ToolTipRole and column == 3:
            return part.text[:TIP_CHARS]
        if role == Qt.ItemDataRole.ToolTipRole and column == 2 and self._approx:
            return self.tr("An estimate: the provider's own tokenizer counts differently")
        if role == Qt.ItemDataRole.ToolTipRole and column == 1 and part.kind == KNOWLEDGE_PART:
            return self.tr(
                "The passages found in your documents for the newest question: sent at the head "
                "of its text, each labelled [1], [2] ... for the reply to cite"
            )
        if role == Qt.ItemDataRole.ToolTipRole and column == 1 and part.kind == "project":
            return self.tr(
                "The instructions of this conversation's project: every request in the project "
                "starts with them, before the conversation's own system instruction"
            )
        if role == Qt.ItemDataRole.ToolTipRole and column == 1:
            return kind_tip(part.kind)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def searched(self, part: Carried, between: str) -> str:
        """A pending knowledge part as the table says it: "searched when you send:" and the
        sources the question will search (``part.text`` holds their paths, one a line)."""
        sources = between.join(part.text.splitlines())
        return self.tr("searched when you send: {sources}").format(sources=sources)


def _fill(bar: QProgressBar, value: int, maximum: int, text: str) -> None:
    bar.setRange(0, max(maximum, 1))
    bar.setValue(min(value, maximum))
    share = locale_format.percent(value / max(maximum, 1))
    said = QCoreApplication.translate("NextRequestTab", "{text} tokens ({percent})")
    bar.setFormat(said.format(text=text, percent=share))


# the history kind whose icon a part shows ("summary" is a compression standing in)
KIND_ICONS = {
    "summary": "compression",
    "draft": "model_input",
    "project": "system_instruction",
    KNOWLEDGE_PART: KNOWLEDGE_PART,  # the style's file icon: a document
    **{kind: kind for kind in ("system_instruction", "memory_notebook", "model_input")},
    **{kind: kind for kind in ("model_output", "tool_results")},
}


class NextRequestTab(QWidget):
    entry_activated = Signal(int)  # seq: a part or a left-out entry double-clicked
    count_requested = Signal()  # the user asked the provider for its own count

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request: NextRequest | None = None
        self.counted_for: NextRequest | None = None
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bar = QProgressBar()  # against the model's window
        self.bar.setTextVisible(True)
        self.budget_bar = QProgressBar()  # against the budget the context policy allows
        self.budget_bar.setTextVisible(True)
        # "≈ estimated with ... (Gemini counts differently)" or "exact (...)"
        self.counting = QLabel()
        self.counting.setWordWrap(True)
        self.count_button = QPushButton(self.tr("Ask the provider"))
        self.count_button.setToolTip(
            self.tr(
                "Ask the provider's token-counting endpoint for the exact count of this request "
                "(online, with your key; Anthropic, Gemini and OpenAI Responses have one)"
            )
        )
        self.exact = QLabel()  # the provider's own count, once asked
        self.exact.setWordWrap(True)
        self.exact.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warning = QLabel()
        self.warning.setObjectName("inspectorWarning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(f"color: {theme.colour('stopped')};")
        self.warning.setVisible(False)

        self.carried = CarriedModel(self)
        self.table = read_only_table(self.carried)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((48, 150, 70)):
            header.resizeSection(column, width)
        header.setStretchLastSection(True)
        self.left_out = QListWidget()  # omissions, then the adapter's notes
        self.left_out.setWordWrap(True)
        self.left_out.setToolTip(self.tr("Double-click an entry's line to see it in History"))

        self.show_wire = QCheckBox(self.tr("Show wire request"))
        self.show_wire.setToolTip(
            self.tr("The exact JSON body the adapter would send (keys redacted)")
        )
        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the wire request to the clipboard"))
        self.wire = monospace_view()
        self.wire_box = QWidget()
        wire_layout = QVBoxLayout(self.wire_box)
        wire_layout.setContentsMargins(0, 0, 0, 0)
        wire_layout.addWidget(self.wire)
        self.wire_box.setVisible(False)

        self._lay_out()

        self.show_wire.toggled.connect(self._toggle_wire)
        self.copy_button.clicked.connect(self.copy_wire)
        self.count_button.clicked.connect(self.count_requested)
        self.table.activated.connect(self._on_part_activated)
        self.left_out.itemActivated.connect(self._on_left_out_activated)
        self.show_message("")

    def _lay_out(self) -> None:
        """Heading, bars and counts on top; the parts, what was left out and the wire body in a
        splitter; the wire toggle and Copy at the bottom."""
        wire_row = QHBoxLayout()
        wire_row.addWidget(self.show_wire)
        wire_row.addStretch(1)
        wire_row.addWidget(self.copy_button)
        lists = QSplitter(Qt.Orientation.Vertical)
        lists.addWidget(self.table)
        lists.addWidget(titled(self.tr("Left out and changed"), self.left_out))
        lists.addWidget(self.wire_box)
        lists.setStretchFactor(0, 3)
        lists.setStretchFactor(1, 1)
        lists.setStretchFactor(2, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.bar)
        layout.addWidget(self.budget_bar)
        counting_row = QHBoxLayout()
        counting_row.addWidget(self.counting, 1)
        counting_row.addWidget(self.count_button)
        layout.addLayout(counting_row)
        layout.addWidget(self.exact)
        layout.addWidget(self.warning)
        layout.addWidget(lists, 1)
        layout.addLayout(wire_row)

    # --- content -----------------------------------------------------------------------

    def show_message(self, text: str) -> None:
        """No request to show: why (no conversation yet, preparing, an unknown model)."""
        self.request = None
        self.heading.setText(text)
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.bar.setFormat("")
        self.budget_bar.setVisible(False)
        self.counting.clear()
        self.show_exact("")
        self.count_button.setEnabled(False)
        self.warning.setVisible(False)
        self.carried.set_rows([])
        self.left_out.clear()
        self.wire.clear()
        self.copy_button.setEnabled(False)

    def show_request(self, request: NextRequest, *, new_chat: bool = False) -> None:
        """Show ``request``; ``new_chat``: it would start a conversation not saved yet."""
        self.request = request
        count = locale_format.count
        total = (request.tokens or 0) + request.tool_tokens
        approx = "≈ " if request.estimate else ""
        parts = len(request.carried)
        heading = (
            self.tr("{model}, the first request of a new chat: %n part(s), {tokens} tokens", "",
                    parts)
            if new_chat
            else self.tr("{model}, the next request: %n part(s), {tokens} tokens", "", parts)
        )  # fmt: skip
        heading = heading.format(model=request.spec, tokens=f"{approx}{count(total)}")
        if request.tool_tokens:
            heading += self.tr(", {tokens} of them declaring tools").format(
                tokens=count(request.tool_tokens)
            )
        self.heading.setText(heading)
        counted = (
            f"{approx}{count(total)}" if request.tokens is not None else self.tr("not counted")
        )
        _fill(
            self.bar, total, request.window,
            self.tr("{counted} of the window's {window}").format(
                counted=counted, window=count(request.window)
            ),
        )  # fmt: skip
        if request.budget is not None:
            limit = request.budget
            _fill(
                self.budget_bar, total, limit,
                self.tr("{counted} of the budget's {budget}").format(
                    counted=counted, budget=count(limit)
                ),
            )  # fmt: skip
        self.budget_bar.setVisible(request.budget is not None)
        counting = f"{approx}{said(request.counting)}"
        if request.sampling:
            counting += "\n" + self.tr("Sent with: {sampling}").format(
                sampling=said_all(request.sampling, SAMPLING_SEPARATOR)
            )
        self.counting.setText(counting)
        if request != self.counted_for:  # a count asked for another request no longer holds
            self.show_exact("")
        self.count_button.setEnabled(request.estimate)
        warnings = []
        if request.would_compress:
            warnings.append(self.tr("Automatic compression would run before this request is sent."))
        if request.over_budget:
            warnings.append(self.tr("The newest turn alone is over the budget; it is sent anyway."))
        if request.body is None:
            why = request.body_error or self.tr("nothing to render")
            warnings.append(self.tr("No wire request: {reason}").format(reason=why))
        self.warning.setText(" ".join(warnings))
        self.warning.setVisible(bool(warnings))
        self.carried.set_rows(request.carried, request.estimate)
        self.left_out.clear()
        for omission in request.omitted:
            first, last = omission.first_seq, omission.last_seq
            where = (
                self.tr("entry {seq}").format(seq=first)
                if first == last
                else self.tr("entries {first}-{last}").format(first=first, last=last)
            )
            line = self.tr("{where}: {reason}").format(where=where, reason=said(omission.why))
            item = QListWidgetItem(line)
            item.setData(SEQ_ROLE, first)
            self.left_out.addItem(item)
        for note in request.attachments:  # scaled, converted or left out (app/attachments)
            self.left_out.addItem(self.tr("attachment: {note}").format(note=said(note)))
        if request.tools_left_out:  # over the tools' share of the budget (app/tools.py choose)
            line = self.tr(
                "tools: not declared, to keep their definitions within their share: {names}"
            )
            self.left_out.addItem(line.format(names=", ".join(request.tools_left_out)))
        for note in request.notes:  # what the adapter changed (app/providers)
            self.left_out.addItem(self.tr("adapter: {note}").format(note=said(note)))
        if not (request.omitted or request.notes or request.attachments or request.tools_left_out):
            self.left_out.addItem(
                self.tr("Nothing: a new chat has no history yet.")
                if new_chat
                else self.tr("Nothing: the whole history is sent as it is.")
            )
        self.copy_button.setEnabled(request.body is not None)
        if self.show_wire.isChecked():
            self._fill_wire()

    def show_exact(self, text: str, counted_for: NextRequest | None = None) -> None:
        """The provider's answer (or why there is none) for ``counted_for``; "" clears it."""
        self.counted_for = counted_for
        self.exact.setText(text)
        self.exact.setVisible(bool(text))

    def _on_part_activated(self, index: QModelIndex) -> None:
        seq = self.carried.carried(index.row()).seq
        if seq is not None:
            self.entry_activated.emit(seq)

    def _on_left_out_activated(self, item: QListWidgetItem) -> None:
        seq = item.data(SEQ_ROLE)
        if isinstance(seq, int):
            self.entry_activated.emit(seq)

    def wire_text(self) -> str:
        """What the wire view shows (and Copy copies): the body, or why there is none."""
        request = self.request
        if request is None:
            return ""
        if request.body is None:
            return request.body_error or self.tr("no request body")
        return wire_json(request.body)

    def copy_wire(self) -> None:
        if self.request is not None and self.request.body is not None:
            QGuiApplication.clipboard().setText(self.wire_text())

    def _toggle_wire(self, shown: bool) -> None:
        self.wire_box.setVisible(shown)
        if shown:
            self._fill_wire()

    def _fill_wire(self) -> None:
        text = self.wire_text()
        if self.wire.toPlainText() != text:
            self.wire.setPlainText(text)
