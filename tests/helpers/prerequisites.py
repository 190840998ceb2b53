"""What some tests need from the machine (a program, a package `scripts/check` installs): without
it a test skips, saying what is missing, except under ``CI=true``, where it fails with that
name. `scripts/check` installs every one of these (as root on Debian/Ubuntu), so in CI a missing
one is a broken set-up, and a skip there would hide a whole area (the OS keyring, the real
window, the published MCP servers, the build's machine code) behind a green run.

What is legitimately not there on some machines, CI ones included (root to mount a file system,
an x86 CPU, Linux), keeps its plain ``pytest.skip``/``skipif``.

Two ways in: ``needs(...)``, a mark (on a test, a class or a module's ``pytestmark``) checked
before the test's fixtures are set up (tests/conftest.py ``pytest_runtest_setup``); and
``missing(why)``, called where a test or fixture finds out (an npm install that failed)."""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

MARK = "prerequisite"  # the mark's name; its one argument is what is missing, or None


def in_ci() -> bool:
    """Whether this run is CI's (``CI=true``, as GitHub Actions, GitLab and most others set)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")  # as scripts/check reads it


def missing(why: str) -> NoReturn:
    """Skip this test because of ``why`` (what is missing, and how to get it); under CI=true,
    fail it instead, with ``why``."""
    if in_ci():
        said = f"missing prerequisite (CI=true, so not skipped): {why}"
        pytest.fail(said, pytrace=False)
    pytest.skip(why)


def require(present: bool, why: str) -> None:
    """``missing(why)`` unless ``present``."""
    if not present:
        missing(why)


def absent_tools(*tools: str) -> list[str]:
    return [tool for tool in tools if shutil.which(tool) is None]


def needs(*tools: str, why: str) -> pytest.MarkDecorator:
    """A mark: the test runs only if every one of ``tools`` is on PATH; otherwise it skips
    (locally) or fails (CI=true) with ``why`` and the names of those not found."""
    absent = absent_tools(*tools)
    return getattr(pytest.mark, MARK)(f"{why}: {', '.join(absent)} not found" if absent else None)


def check(item: pytest.Item) -> None:
    """Before ``item``'s fixtures: ``missing`` for the first of its ``needs`` marks that found
    something missing (tests/conftest.py calls this)."""
    for mark in item.iter_markers(MARK):
        if mark.args and mark.args[0]:
            missing(mark.args[0])


# the OS keyring's Secret Service, started unlocked in a D-Bus session (../shared/testing.md)
NEEDS_KEYRING = needs(
    "dbus-run-session",
    "gnome-keyring-daemon",
    why="needs gnome-keyring and dbus for the OS keyring (scripts/check installs them)",
)
