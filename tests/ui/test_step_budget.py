"""A step of drawing in parts leaves the next part for the next step when, at the rate of the
step's inserts so far, it would end past the step's time (ui/chat/step_budget.py)."""

from __future__ import annotations

import pytest

from ui.chat import step_budget
from ui.chat.step_budget import StepBudget


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(step_budget, "perf_counter", clock)
    return clock


def test_the_first_part_always_goes_however_long(clock: Clock) -> None:
    budget = StepBudget(4)
    clock.now += 0.050
    assert budget.fits(1_000_000)


def test_a_part_that_would_end_past_the_step_waits_for_the_next(clock: Clock) -> None:
    budget = StepBudget(4)
    budget.spent(1_000)
    clock.now += 0.003  # 3 ms for 1,000 characters
    assert not budget.fits(1_000)  # 3 ms more: past 4
    assert budget.fits(300)  # 0.9 ms more: within 4


def test_past_the_time_nothing_more_goes(clock: Clock) -> None:
    budget = StepBudget(4)
    budget.spent(10)
    clock.now += 0.005
    assert not budget.fits(1)
