"""The time one step of drawing in parts may take on the window's thread.

A long page (``ui.chat.document``) and a long reply (``ui.chat.appending``) are inserted a part
at a time, a few parts per turn of the event loop. Stopping only once ``PART_MS`` has passed lets
the last insert of a step run past it by its whole cost (a part with a long table or code block
costs Qt several times a short one), so the next part waits for the next step when, at the rate
the step's inserts have gone so far, it would end past ``PART_MS``. The first part of a step
always goes.
"""

from __future__ import annotations

from time import perf_counter

PART_MS = 4


class StepBudget:
    def __init__(self, ms: float = PART_MS) -> None:
        self._ms = ms
        self._began = perf_counter()
        self._chars = 0  # inserted in this step

    def fits(self, chars: int) -> bool:
        """Whether a part of ``chars`` characters still goes in this step."""
        if not self._chars:
            return True
        elapsed = (perf_counter() - self._began) * 1000
        return elapsed + elapsed / self._chars * chars <= self._ms

    def spent(self, chars: int) -> None:
        """A part of ``chars`` characters was inserted."""
        self._chars += max(1, chars)
