"""A short scripted day in the real window (bench/session.py --quick; docs/performance.md): no
action after the first paint may stall the window's event loop for more than 100 ms.

The day runs once for the module (bench/session_day.py ``run_day``: 5,000 conversations with
real transcripts, a 10,000-entry chat, a 20,000-character reply at 1,000 tokens/s, the first
send to a local fake OpenAI server, 200 conversations imported, a compression, resizing) with
the app's stall monitor on; each action is then checked on its own, so one slow action does not
hide the others. 100 ms is a generous bound that survives a noisy machine; the bench holds the
real target (16 ms).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from bench.session_day import (
    ACTIONS,
    QUICK,
    Day,
    innermost,
    library_copy,
    prepare,
    run_day,
    run_in_qt,
)

BOUND_MS = 100


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory, qapp: QApplication) -> Day:
    root = tmp_path_factory.mktemp("session")
    cached = prepare(QUICK, root / "cache")
    data, long_id = library_copy(cached, root / "data")
    scratch: Path = root / "scratch"
    scratch.mkdir()
    return run_in_qt(lambda: run_day(data, long_id, QUICK, scratch))


@pytest.mark.slow
def test_the_day_went_through_every_action(day: Day) -> None:
    assert [a.name for a in day.actions] == list(ACTIONS)
    assert all(a.result_ms is not None for a in day.actions), [
        (a.name, a.note) for a in day.actions if a.result_ms is None
    ]


@pytest.mark.slow
@pytest.mark.parametrize("action", ACTIONS)
def test_no_stall_over_100_ms(day: Day, action: str) -> None:
    [done] = [a for a in day.actions if a.name == action]
    over = sorted((s for s in done.stalls if s.ms > BOUND_MS), key=lambda s: -s.ms)
    stacks = "\n\n".join(f"{s.ms:.0f} ms in:\n{innermost(s.stack)}" for s in over[:3])
    hot = "\n\n".join(
        f"~{ms:.0f} ms in {place}:\n{frames}" for ms, place, frames in done.hot_stacks()
    )
    assert not over, (
        f"{action}: {len(over)} stall(s) over {BOUND_MS} ms, the longest first:\n{stacks}"
        f"\n\nwhere the stalls' time went (sampled):\n{hot}"
    )
