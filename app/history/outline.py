"""What rendering a context needs to know about a history, kept up to date as the history grows.

An outline is of one path through the history's tree: the messages from a root to a leaf, the
compressions made on that path, and the conversation-wide entries (system instruction,
notebook). A history is append-only, so these facts (where the inputs are, the latest system
instruction and notebook, which compressions stand and which were retracted) are extended with
each new entry instead of being found again by a walk over the whole history on every request.
One outline of the active path is kept per ``History`` object, and freed with it; it is built
again only when the active path stops being an extension of the one it knew (a switch or an
edit).
"""

from __future__ import annotations

import bisect
import weakref
from typing import Any

import msgspec

from app.history.entries import (
    AnyEntry,
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolResults,
)
from app.history.history import ROOT, History
from app.notes import CompressionUnused

RETRACT = "retract"  # a compression entry of this strategy undoes the compressions it covers


class Claim(msgspec.Struct, frozen=True):
    """The part of the history a standing compression replaces: ``start``-``last`` are left out
    and its summary stands in; ``start`` is 1 for last-n, whose older entries leave too."""

    start: int
    last: int
    compression: Compression


class Outline(msgspec.Struct):
    leaf: int = ROOT  # the path's last message
    version: int = 0
    on_path: set[int] = set()  # the path's message seqs
    conversation: list[int] = []  # seqs of input, output, results
    inputs: list[int] = []  # seqs of model_input entries
    system: SystemInstruction | None = None
    notebook: MemoryNotebook | None = None
    compressions: list[Compression] = []  # retractions excluded
    retracted: dict[int, int] = {}  # compression seq -> retracting seq
    _claims: tuple[list[Claim], list[tuple[int, CompressionUnused]]] | None = None
    # what rendering derives from a standing claim, kept until the claims change
    memo: dict[tuple[int, int | None], Any] = {}

    @property
    def first_input(self) -> int | None:
        return self.inputs[0] if self.inputs else None

    def catch_up(self, history: History) -> bool:
        """Extend the outline with new entries; False if the path is no longer the one it
        knew (a new message that does not follow its leaf)."""
        for seq in range(self.version + 1, history.version + 1):
            entry = history.at(seq)
            if history.is_message(seq):
                if history.parent_of(seq) != self.leaf:
                    return False
                self.leaf = seq
                self.on_path.add(seq)
            self._add(history, entry)
            self.version = seq
        return True

    def _add(self, history: History, entry: AnyEntry) -> None:
        if isinstance(entry, ModelInput | ModelOutput | ToolResults):
            if entry.seq not in self.on_path:
                return
            self.conversation.append(entry.seq)
            if isinstance(entry, ModelInput):
                self.inputs.append(entry.seq)
        elif isinstance(entry, SystemInstruction):
            self.system = entry
        elif isinstance(entry, MemoryNotebook):
            self.notebook = entry
        elif isinstance(entry, Compression):
            anchor = history.anchor_of(entry.seq)
            if anchor != ROOT and anchor not in self.on_path:
                return  # made on another branch: it summarises what this path does not hold
            self._claims = None
            self.memo.clear()
            if entry.strategy != RETRACT:
                self.compressions.append(entry)
                return
            first, last = entry.covers
            for compression in self.compressions:
                if first <= compression.seq <= last:
                    self.retracted.setdefault(compression.seq, entry.seq)

    def claims(self) -> tuple[list[Claim], list[tuple[int, CompressionUnused]]]:
        """The standing compressions (by ``start``) and why each other one is not used."""
        if self._claims is None:
            self._claims = _resolve(self.compressions, self.retracted)
        return self._claims

    def conversation_between(self, first: int, last: int) -> list[int]:
        """Seqs of conversation entries in ``first``-``last``."""
        low = bisect.bisect_left(self.conversation, first)
        high = bisect.bisect_right(self.conversation, last)
        return self.conversation[low:high]

    def span(self, first: int, last: int, skip: int | None = None) -> tuple[int, int] | None:
        """The first and last conversation entries in ``first``-``last``, leaving out ``skip``
        at either end; None if there are none."""
        low = bisect.bisect_left(self.conversation, first)
        high = bisect.bisect_right(self.conversation, last) - 1
        if low <= high and self.conversation[low] == skip:
            low += 1
        if low <= high and self.conversation[high] == skip:
            high -= 1
        return (self.conversation[low], self.conversation[high]) if low <= high else None

    def turn_start(self, lower: int, seq: int) -> int:
        """Where the turn holding ``seq`` starts, not before ``lower`` (a cut turn starts there)."""
        index = bisect.bisect_right(self.inputs, seq) - 1
        if index >= 0 and self.inputs[index] >= lower:
            return self.inputs[index]
        return lower


def _problem(compression: Compression) -> CompressionUnused | None:
    first, last = compression.covers
    if not compression.summary.strip():
        return CompressionUnused(cause="empty")
    if not 1 <= first <= last < compression.seq:
        return CompressionUnused(cause="out_of_range", first=first, last=last)
    return None


def _resolve(
    compressions: list[Compression], retracted: dict[int, int]
) -> tuple[list[Claim], list[tuple[int, CompressionUnused]]]:
    """Newest first: a compression stands unless undone, broken, or overlapping a newer one."""
    claims: list[Claim] = []  # kept sorted by start; they never overlap
    starts: list[int] = []
    notes: list[tuple[int, CompressionUnused]] = []
    for compression in reversed(compressions):
        if compression.seq in retracted:
            undone = CompressionUnused(cause="undone", by=retracted[compression.seq])
            notes.append((compression.seq, undone))
            continue
        if problem := _problem(compression):
            notes.append((compression.seq, problem))
            continue
        first, last = compression.covers
        start = 1 if compression.strategy.startswith("last-n") else first
        # of the claims starting at or before `last`, only the latest-starting can reach `start`
        index = bisect.bisect_right(starts, last) - 1
        if index >= 0 and claims[index].last >= start:
            newer = claims[index].compression.seq
            notes.append((compression.seq, CompressionUnused(cause="superseded", by=newer)))
            continue
        position = bisect.bisect_left(starts, start)
        starts.insert(position, start)
        claims.insert(position, Claim(start, last, compression))
    return claims, notes


_outlines: weakref.WeakKeyDictionary[History, Outline] = weakref.WeakKeyDictionary()


def outline_of(history: History, leaf: int | None = None) -> Outline:
    """The outline of the path to ``leaf`` (by default the active path)."""
    if leaf is not None and leaf != history.active_leaf:
        return _build(history, leaf)  # a path other than the active one: not kept
    outline = _outlines.get(history)
    if (
        outline is None
        or outline.version > history.version
        or not outline.catch_up(history)
        or outline.leaf != history.active_leaf
    ):
        outline = _outlines[history] = _build(history, history.active_leaf)
    return outline


def _build(history: History, leaf: int) -> Outline:
    outline = Outline(leaf=leaf, version=history.version, on_path=set(history.path_to(leaf)))
    for entry in history:
        outline._add(history, entry)
    return outline
