"""Helpers for the transfer tests: fixtures on disk and snapshots of a library's files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.paths import DataDir
from app.store import Library

FIXTURES = Path(__file__).with_name("fixtures")


def snapshot(data: DataDir) -> dict[str, bytes]:
    """Every transcript (live and trashed) by name, with its bytes."""
    files = {}
    for folder in (data.conversations, data.trash):
        for path in sorted(folder.glob("*.jsonl")):
            files[f"{folder.name}/{path.name}"] = path.read_bytes()
    return files


@pytest.fixture
def other_library(tmp_path: Path) -> Iterator[Library]:
    """A second, empty library (another machine)."""
    library = Library(DataDir(tmp_path / "other"))
    yield library
    library.close()
