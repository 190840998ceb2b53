"""Run only by tests/test_prerequisites.py (a name pytest does not collect on its own): each
way a test finds a prerequisite missing, with a program that is never installed."""

from __future__ import annotations

import pytest

from tests.helpers.prerequisites import needs, require

NEVER = "crosstalk-no-such-program"


@pytest.fixture
def costly() -> None:
    raise AssertionError("a fixture was set up for a test whose prerequisite is missing")


@needs(NEVER, "sh", why="needs a program that is never installed")
def test_marked_missing(costly: None) -> None:
    raise AssertionError("ran without its prerequisite")


@needs("sh", why="needs sh")
def test_marked_present() -> None:
    pass


class TestMarkedModuleWide:
    pytestmark = needs(NEVER, why="needs it for the whole class")

    def test_in_it(self) -> None:
        raise AssertionError("ran without its prerequisite")


def test_required_missing() -> None:
    require(False, "npm install failed (offline?)")
    raise AssertionError("ran without its prerequisite")


def test_required_present() -> None:
    require(True, "never said")
