"""Neutral events about the context, for whoever shows progress (the CLI, later the window)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Compressing:
    """A compression started: ``parts`` summaries will be asked of ``model``."""

    strategy: str
    covers: tuple[int, int]
    model: str
    parts: int
    automatic: bool


@dataclass(frozen=True)
class Compressed:
    """Summaries were appended as these compression entries."""

    seqs: tuple[int, ...]
    tokens_before: int | None = None
    tokens_after: int | None = None


@dataclass(frozen=True)
class CompressionFailed:
    """Nothing was appended; the context stays as it was."""

    message: str


ContextEvent = Compressing | Compressed | CompressionFailed
OnContext = Callable[[ContextEvent], None]


def ignore(event: ContextEvent) -> None:
    pass
