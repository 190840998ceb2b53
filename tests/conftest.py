"""Shared fixtures: every test gets its own data dir; nothing touches the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.paths import DataDir
from app.store import Library
from tests.helpers import prerequisites

PROVIDER_ENVIRONMENT = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
)


def pytest_configure(config: pytest.Config) -> None:
    """As the window does (ui/shell/pyside_feature.py): PySide6, which pytest-qt loads first, would
    otherwise read the source of every module the tests import after it."""
    from ui.shell.pyside_feature import stop_source_scans

    stop_source_scans()
    config.addinivalue_line(
        "markers",
        f"{prerequisites.MARK}(missing): a program the test needs was not found (None: it was); "
        "skipped, or failed under CI=true (tests/helpers/prerequisites.py needs)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A missing prerequisite skips the test, or fails it under CI=true, before its fixtures."""
    prerequisites.check(item)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test has its own data dir, no provider keys, and never the user's keyring."""
    monkeypatch.setenv("CROSSTALK_HOME", str(tmp_path / "home"))
    for name in PROVIDER_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")


@pytest.fixture
def data_dir(tmp_path: Path) -> DataDir:
    return DataDir(tmp_path / "home")


@pytest.fixture
def library(data_dir: DataDir) -> Iterator[Library]:
    lib = Library(data_dir)
    yield lib
    lib.close()
