"""The append-only history of one conversation; ``seq`` is its version."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

import msgspec

from app.errors import TranscriptError
from app.history.entries import (
    AnyEntry,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    Usage,
    utc_now,
)

E = TypeVar("E", bound=AnyEntry)


class History:
    """Entries in order, seq 1, 2, 3 ... Nothing is ever edited or removed."""

    def __init__(self, entries: Iterable[AnyEntry] = ()) -> None:
        self._entries: list[AnyEntry] = []
        for expected, entry in enumerate(entries, start=1):
            if entry.seq != expected:
                raise TranscriptError(
                    f"entry seq {entry.seq} where {expected} was expected; the history has a gap"
                )
            self._entries.append(entry)

    @property
    def version(self) -> int:
        return len(self._entries)

    def stamp(self, entry: E) -> E:
        """The entry as it will be appended next: with the next seq and the current time."""
        return msgspec.structs.replace(entry, seq=self.version + 1, ts=entry.ts or utc_now())

    def append(self, entry: AnyEntry) -> None:
        if entry.seq != self.version + 1:
            raise ValueError(f"append of seq {entry.seq} to a history at version {self.version}")
        self._entries.append(entry)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[AnyEntry]:
        return iter(self._entries)

    def at(self, seq: int) -> AnyEntry:
        if not 1 <= seq <= self.version:
            raise KeyError(seq)
        return self._entries[seq - 1]

    def upto(self, seq: int) -> list[AnyEntry]:
        return self._entries[:seq]

    # --- derived facts, each from the latest entry that sets them -------------------------

    def _latest(self, kind: type[E]) -> E | None:
        for entry in reversed(self._entries):
            if isinstance(entry, kind):
                return entry
        return None

    @property
    def title(self) -> str | None:
        entry = self._latest(Title)
        return entry.text if entry else None

    @property
    def system_instruction(self) -> str | None:
        entry = self._latest(SystemInstruction)
        return entry.text or None if entry else None

    @property
    def notebook(self) -> str | None:
        entry = self._latest(MemoryNotebook)
        return entry.content or None if entry else None

    @property
    def last_output(self) -> ModelOutput | None:
        return self._latest(ModelOutput)

    @property
    def turn_count(self) -> int:
        return sum(isinstance(e, ModelInput) for e in self._entries)

    def usage(self) -> Usage:
        total = Usage()
        for entry in self._entries:
            if isinstance(entry, ModelOutput):
                total = total + entry.usage
        return total
