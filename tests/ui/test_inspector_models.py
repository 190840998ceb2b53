"""The inspector's Qt models under Qt's own model tester (fatal on any broken contract), as their
content changes the way the dock changes it; and the usage chart as painted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication

from app.history import (
    Compression,
    History,
    ModelInput,
    ModelOutput,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.inspect.ledger import ledger
from app.inspect.next_request import Carried
from app.pricing import PriceTable
from app.store import Conversation, Library
from ui.inspector.history_model import (
    COST,
    KIND,
    LATENCY,
    SEQ_ROLE,
    TOTAL_COST,
    HistoryFilter,
    LedgerModel,
)
from ui.inspector.next_request_tab import CarriedModel
from ui.inspector.usage_chart import CACHED, INPUT, OUTPUT, UsageChart
from ui.inspector.usage_tab import TotalsModel

FATAL = QAbstractItemModelTester.FailureReportingMode.Fatal
PRICES = PriceTable()
Built = tuple[Library, History, Conversation]


@pytest.fixture
def history(library: Library) -> Iterator[Built]:
    """Two turns (a tool round in the first) over two providers, and a reply with no price."""
    c = library.create()
    for entry in (
        ModelInput(text="What time is it in Paris?"),
        ModelOutput(provider="openai", model="gpt-4.1", finish_reason="tool_calls",
                    tool_calls=[ToolCall(id="c1", name="current_time", arguments="{}")],
                    usage=Usage(input=400, output=20), meta={"latency_ms": 900}),
        ToolResults(results=[ToolResult(call_id="c1", name="current_time", content="10:00Z")]),
        ModelOutput(provider="openai", model="gpt-4.1", text="11:00 in Paris.",
                    usage=Usage(input=450, cached=400, output=8)),
        ModelInput(text="And in Tokyo?"),
        ModelOutput(provider="kimi", model="kimi-k2", text="19:00.",
                    usage=Usage(input=500, output=4, reasoning=2)),
    ):  # fmt: skip
        library.append(c, entry)
    yield library, c.history, c


def test_the_ledger_model_as_it_grows_and_is_compressed(qapp: QApplication, history: Built) -> None:
    library, entries, conversation = history
    model = LedgerModel()
    QAbstractItemModelTester(model, FATAL)
    assert model.rowCount() == 0 and model.columnCount() == 12
    model.set_ledger(ledger(entries, PRICES), entries)
    assert model.rowCount() == 6
    assert model.index(1, LATENCY).data() == "0.9 s"
    assert model.index(5, COST).data() == "no price"
    assert "Settings > Prices" in model.index(5, COST).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(5, TOTAL_COST).data().endswith("+ ?")
    assert model.index(1, KIND).data(Qt.ItemDataRole.DecorationRole) is not None
    assert model.index(0, 0, model.index(0, 0)).isValid() is False  # a table: no children
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom: changed.append((top.row(), bottom.row())))
    library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text="19:00"))
    model.extend(ledger(entries, PRICES))  # the last reply answered again: it says so
    assert model.rowCount() == 7 and changed == [(5, 5)]
    assert model.index(5, KIND).data() == "output (retried at seq 7)"
    changed.clear()
    library.append(conversation, ModelInput(text="Summarise"))
    model.extend(ledger(entries, PRICES))
    assert model.rowCount() == 8 and not changed  # appended: nothing earlier changed
    library.append(conversation, Compression(
        strategy="whole", covers=(1, 4), summary="Paris time asked.", provider="openai",
        model="gpt-4.1", usage=Usage(input=600, output=30),
    ))  # fmt: skip
    model.extend(ledger(entries, PRICES))
    assert model.rowCount() == 9
    assert changed and changed[0][0] <= 1 and changed[-1][1] >= 3  # now summarised: repainted
    muted = model.index(2, 0).data(Qt.ItemDataRole.ForegroundRole)
    assert muted is not None and model.index(8, 0).data(Qt.ItemDataRole.ForegroundRole) is None
    assert model.row_of(9) == 8 and model.row_of(99) is None
    model.set_ledger(None, None)
    assert model.rowCount() == 0


def test_the_filter_by_kind_and_text(qapp: QApplication, history: Built) -> None:
    _, entries, _ = history
    model = LedgerModel()
    proxy = HistoryFilter()
    proxy.setSourceModel(model)
    QAbstractItemModelTester(proxy, FATAL)
    model.set_ledger(ledger(entries, PRICES), entries)

    def seqs() -> list[int]:
        return [proxy.index(row, 0).data(SEQ_ROLE) for row in range(proxy.rowCount())]

    proxy.set_kind("model_output")
    assert seqs() == [2, 4, 6]
    proxy.set_search("paris")
    assert seqs() == [4]
    proxy.set_kind("")
    assert seqs() == [1, 4]
    proxy.set_search("current_time")  # a tool call's name, and the result's
    assert seqs() == [2, 3]
    proxy.set_search("  ")
    assert seqs() == [1, 2, 3, 4, 5, 6] and not proxy.active


def test_the_totals_model_adds_a_grand_total(qapp: QApplication, history: Built) -> None:
    _, entries, _ = history
    model = TotalsModel()
    QAbstractItemModelTester(model, FATAL)
    assert model.rowCount() == 0
    model.set_totals(ledger(entries, PRICES).by_model())
    rows = [[model.index(r, c).data() for c in range(7)] for r in range(model.rowCount())]
    assert rows[0][:6] == ["openai:gpt-4.1", "2", "850", "400", "28", "0"]
    assert rows[1][0] == "kimi:kimi-k2" and rows[1][6] == "no price"
    assert rows[2][:6] == ["Total", "3", "1,350", "400", "32", "2"]
    assert rows[2][6].endswith("+ ?") and model.unpriced
    assert model.index(2, 0).data(Qt.ItemDataRole.FontRole).bold()
    model.set_totals([])
    assert model.rowCount() == 0


def test_the_carried_model(qapp: QApplication) -> None:
    model = CarriedModel()
    QAbstractItemModelTester(model, FATAL)
    model.set_rows([
        Carried(1, "system_instruction", 12, "Be brief."),
        Carried(5, "summary", 40, "[Summary]\nThey asked.", (2, 4)),
        Carried(None, "draft", 7, "And  now\nthis?"),
    ])  # fmt: skip
    assert [model.index(r, 1).data() for r in range(3)] == [
        "system", "summary of 2-4", "draft (unsent)"
    ]  # fmt: skip
    assert model.index(2, 0).data() == "" and model.index(2, 3).data() == "And now this?"
    assert model.index(1, 2).data() == "40"
    assert model.index(2, 3).data(Qt.ItemDataRole.ToolTipRole) == "And  now\nthis?"
    model.set_rows([])
    assert model.rowCount(QModelIndex()) == 0


def test_the_chart_paints_stacked_bars_per_turn(qapp: QApplication, history: Built) -> None:
    _, entries, _ = history
    chart = UsageChart()
    chart.resize(400, 240)
    turns = ledger(entries, PRICES).turns()
    chart.set_turns(turns)
    image = chart.grab().toImage()
    first = chart.bar_rect(0)  # 850 in (400 cached), 28 out
    x = int(first.left()) + 4  # clear of the cost line's dot at the centre

    def color_at(y: float) -> QColor:
        return image.pixelColor(x, int(y))

    bottom = first.bottom()
    scale = first.height() / (850 + 28)
    assert color_at(bottom - 200 * scale) == CACHED
    assert color_at(bottom - 600 * scale) == INPUT
    assert color_at(first.top() + 1) == OUTPUT
    assert chart.bar_at(x) == 0 and chart.bar_at(1) is None
    assert "Turn 1 (from seq 1)" in chart.tooltip(0) and "cached 400" in chart.tooltip(0)
    assert "no price" in chart.tooltip(1)
    chart.set_turns([])
    assert chart.bar_at(x) is None
