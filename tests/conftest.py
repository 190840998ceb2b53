"""Shared fixtures: every test gets its own data dir; nothing touches the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.paths import DataDir
from app.store import Library


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROSSTALK_HOME", str(tmp_path / "home"))


@pytest.fixture
def data_dir(tmp_path: Path) -> DataDir:
    return DataDir(tmp_path / "home")


@pytest.fixture
def library(data_dir: DataDir) -> Iterator[Library]:
    lib = Library(data_dir)
    yield lib
    lib.close()
