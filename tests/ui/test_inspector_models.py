"""The inspector's Qt models under Qt's own model tester (fatal on any broken contract), as their
content changes the way the dock changes it; and the usage chart as painted."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from itertools import pairwise

import pytest
from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
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
from app.inspect.ledger import TurnUsage, ledger
from app.inspect.next_request import Carried
from app.pricing import PriceTable, format_cost
from app.store import Conversation, Library
from ui.common.locale_format import clock
from ui.inspector.history_model import (
    COST,
    KIND,
    LATENCY,
    SEQ_ROLE,
    TIME,
    TOTAL_COST,
    TURN,
    HistoryFilter,
    LedgerModel,
    local_time,
)
from ui.inspector.next_request_tab import CarriedModel
from ui.inspector.usage_chart import UsageChart, bar_colour
from ui.inspector.usage_tab import (
    T_COST,
    T_INPUT,
    T_MODELS,
    T_SEQS,
    TURN_ROLE,
    TotalsModel,
    TurnsModel,
)

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
    assert model.rowCount() == 0 and model.columnCount() == 13
    model.set_ledger(ledger(entries, PRICES), entries)
    assert model.rowCount() == 6
    assert model.index(1, LATENCY).data() == "0.9 s"
    assert model.index(5, COST).data() == "no price"
    assert "Settings > Prices" in model.index(5, COST).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(5, TOTAL_COST).data().endswith("+")
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
    # model, calls, input, cached, output, reasoning, then the cost (shown second)
    rows = [[model.index(r, c).data() for c in (0, 2, 3, 4, 5, 6, 1)]
            for r in range(model.rowCount())]  # fmt: skip
    assert rows[0][:6] == ["openai:gpt-4.1", "2", "850", "400", "28", "0"]
    assert rows[1][0] == "kimi:kimi-k2" and rows[1][6] == "no price"
    assert rows[2][:6] == ["Total", "3", "1,350", "400", "32", "2"]
    assert rows[2][6].endswith("+") and model.unpriced
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
    assert model.index(1, 2).data() == "40"  # counted with the provider's own tokenizer
    assert model.index(2, 3).data(Qt.ItemDataRole.ToolTipRole) == "And  now\nthis?"
    model.set_rows(
        [Carried(1, "system_instruction", 1200, "Be brief.")], estimate=True
    )  # another tokenizer: every count says so
    assert model.index(0, 2).data() == "≈ 1,200"
    assert "estimate" in model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
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
    assert color_at(bottom - 200 * scale) == bar_colour("cached")
    assert color_at(bottom - 600 * scale) == bar_colour("input")
    assert color_at(first.top() + 1) == bar_colour("output")
    assert chart.bar_at(x) == 0 and chart.bar_at(1) is None
    assert "Turn 1 (seq 1-4)" in chart.tooltip(0) and "cached 400" in chart.tooltip(0)
    assert "no price" in chart.tooltip(1)
    chart.set_turns([])
    assert chart.bar_at(x) is None


def test_each_row_has_its_turn_and_a_compact_time(qapp: QApplication, history: Built) -> None:
    library, entries, conversation = history
    library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text="Again."))
    model = LedgerModel()
    model.set_ledger(ledger(entries, PRICES), entries)
    assert [model.index(r, TURN).data() for r in range(7)] == ["1", "1", "1", "1", "2", "2", "2"]
    shown = model.index(0, TIME).data()
    stamp = entries.at(1).ts
    assert shown == local_time(stamp) == clock(stamp, seconds=True)  # today: the time alone
    tip = model.index(0, TIME).data(Qt.ItemDataRole.ToolTipRole)
    assert stamp in tip and "local" in tip
    model.set_ledger(ledger(History([ModelOutput(provider="p", model="m", seq=1,
                                                 ts=stamp)]), PRICES), None)  # fmt: skip
    assert model.index(0, TURN).data() == ""  # before the first input: no turn


def test_local_time_is_short_for_today_and_dated_otherwise() -> None:
    moment = datetime(2026, 11, 21, 14, 2, 31).astimezone()
    stamp = moment.isoformat()
    today = moment.date()
    assert local_time(stamp, today) == clock(moment, seconds=True)
    assert local_time(stamp, today).startswith("2:02:31")  # en_US: "2:02:31 PM"
    assert local_time(stamp, today + timedelta(days=1)) == f"Nov 21 {clock(moment)}"
    assert local_time(stamp, date(2027, 1, 2)) == "Nov 21, 2026"
    assert local_time("not a time") == "not a time"


def turn(number: int, first: int, last: int, usage: Usage, cost: float, unpriced: bool = False,
         models: tuple[str, ...] = ("a:m",)) -> TurnUsage:  # fmt: skip
    return TurnUsage(number, first, last, 1, usage, cost, unpriced, models)


def test_the_turns_model_formats_and_sorts(qapp: QApplication, history: Built) -> None:
    _, entries, _ = history
    model = TurnsModel()
    QAbstractItemModelTester(model, FATAL)
    model.set_turns(ledger(entries, PRICES).turns())
    rows = [[model.index(r, c).data() for c in (0, T_SEQS, T_MODELS, T_INPUT, T_COST)]
            for r in range(model.rowCount())]  # fmt: skip
    paris = PRICES.cost("openai", "gpt-4.1", Usage(input=850, cached=400, output=28))
    assert rows == [
        ["1", "1-4", "openai:gpt-4.1", "850", format_cost(paris)],
        ["2", "5-6", "kimi:kimi-k2", "500", "no price"],
    ]
    assert "Settings > Prices" in model.index(1, T_COST).data(Qt.ItemDataRole.ToolTipRole)
    model.set_turns([
        turn(1, 1, 2, Usage(input=10), 0.5),
        turn(2, 3, 6, Usage(input=30), 0.1, unpriced=True, models=("a:m", "b:n")),
        turn(3, 7, 7, Usage(input=20), 0.9),
    ])  # fmt: skip
    assert model.index(1, T_COST).data() == "$0.100+"  # short by a call without a price
    assert model.index(1, T_MODELS).data() == "a:m, b:n"
    kept = QPersistentModelIndex(model.index(2, 0))  # turn 3, selected say
    model.sort(T_COST, Qt.SortOrder.DescendingOrder)
    assert [model.index(r, 0).data() for r in range(3)] == ["3", "1", "2"]
    assert kept.row() == 0 and kept.data() == "3"  # the selection follows its turn
    assert [model.index(r, 0).data(TURN_ROLE) for r in range(3)] == [2, 0, 1]
    assert [model.row_of(i) for i in range(3)] == [1, 2, 0]
    model.sort(T_INPUT, Qt.SortOrder.AscendingOrder)
    assert [model.index(r, 0).data() for r in range(3)] == ["1", "3", "2"]
    model.set_turns(model.turns[:2])  # a new ledger keeps the order asked for
    assert [model.index(r, 0).data() for r in range(2)] == ["1", "2"]


def many_turns(count: int) -> list[TurnUsage]:
    return [turn(n, 2 * n - 1, 2 * n, Usage(input=100 + n % 7 * 50, output=20), 0.01)
            for n in range(1, count + 1)]  # fmt: skip


def test_turn_numbers_label_the_axis_without_overlapping(qapp: QApplication) -> None:
    chart = UsageChart()
    chart.resize(600, 240)
    chart.set_turns(many_turns(4))
    assert chart.label_every() == 1
    assert [text for text, _ in chart.axis_labels()] == ["1", "2", "3", "4"]
    for count in (60, 400, 3000):
        chart.set_turns(many_turns(count))
        chart.resize(max(600, chart.minimumWidth()), 240)
        labels = chart.axis_labels()
        every = chart.label_every()
        assert every in (1, 2, 5, 10, 20, 50, 100, 200, 500) and every > 1, count
        assert [int(text) for text, _ in labels] == list(range(every, count + 1, every))
        for (_, left), (_, right) in pairwise(labels):
            assert left.right() < right.left(), count  # never overlapping
        for text, rect in labels[:3]:  # each under its own bar
            assert abs(rect.center().x() - chart.bar_rect(int(text) - 1).center().x()) < 1


def move_mouse(chart: UsageChart, x: float, y: float) -> None:
    position = QPointF(x, y)
    QApplication.sendEvent(chart, QMouseEvent(
        QEvent.Type.MouseMove, position, chart.mapToGlobal(position), Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
    ))  # fmt: skip


def test_the_bar_under_the_mouse_and_the_selected_one_are_highlighted(
    qapp: QApplication,
) -> None:
    chart = UsageChart()
    chart.resize(400, 240)
    chart.set_turns(many_turns(6))
    short = chart.bar_rect(0)  # the shortest bar: room above it for the highlight
    above = (int(short.center().x()), int(chart.column_rect(0).top()) + 4)
    plain = chart.grab().toImage().pixelColor(*above)
    move_mouse(chart, short.center().x(), short.center().y())
    assert chart.hovered == 0
    hovered = chart.grab().toImage().pixelColor(*above)
    assert hovered != plain
    move_mouse(chart, chart.bar_rect(3).center().x(), 100)
    assert chart.hovered == 3
    assert chart.grab().toImage().pixelColor(*above) == plain
    chart.select(0)
    selected = chart.grab().toImage().pixelColor(*above)
    assert selected not in (plain, hovered)  # stronger than a hover
    QApplication.sendEvent(chart, QEvent(QEvent.Type.Leave))
    assert chart.hovered is None
    clicked: list[int] = []
    chart.bar_clicked.connect(clicked.append)
    position = chart.bar_rect(4).center()
    QApplication.sendEvent(chart, QMouseEvent(
        QEvent.Type.MouseButtonPress, position, chart.mapToGlobal(position),
        Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    ))  # fmt: skip
    assert clicked == [4]
