"""Reading damaged transcript lines: every readable entry goes where its own seq and id say.

A transcript is appended in seq order, one entry per line, so an undamaged file holds seqs
1, 2, 3 ... in line order (the fast path in ``codec.decode_lines``). When it does not, this
module decides where each readable entry goes (docs/architecture.md, "Files and their
versions"):

- a line that cannot be read (garbage, a line cut in half, a flipped byte in its structure) is
  reported with its file and line and takes no place at all;
- a line that repeats an entry already read (same id; same content for entries from before
  ids) is reported and skipped;
- the entries that are in order (the longest run of lines whose seqs rise) keep their seqs;
- an entry out of order (two lines swapped, a seq changed by a flipped byte, a foreign line)
  takes its own seq if no entry in order holds it, else a free seq between the entries in
  order around its line, else it is reported and set aside;
- a seq no readable line holds gets a stand-in (a ``debug_log`` of category ``damaged``, in
  memory only, never written or sent), so seqs stay 1, 2, 3 ...

Nothing here changes a file: readers never write (docs/architecture.md, "The store").
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

import msgspec

from app.history.entries import AnyEntry, DebugLog

DAMAGED = "damaged"  # the category of a stand-in for an entry no readable line holds

# A readable line claiming a seq further than this beyond what its file could hold is not
# believed: its gap would be filled with that many stand-ins (a foreign line saying seq 10**12)
MOST_MISSING = 100_000


class Line(msgspec.Struct, frozen=True):
    number: int  # in the file, the header being line 1
    entry: AnyEntry


def place(
    readable: list[Line],
    unreadable: list[int],
    where: str,
    first_seq: int,
    held: Callable[[AnyEntry], bool] | None = None,
) -> tuple[list[AnyEntry], list[str]]:
    """The entries of ``readable`` (in file order) numbered from ``first_seq`` on, with
    stand-ins for seqs no readable line holds, and the problems found (file and line each).
    ``unreadable`` are the numbers of lines that could not be read (already reported);
    ``held`` says whether an entry before ``first_seq`` is one the caller already has."""
    problems: list[str] = []
    lines = _without_repeats(readable, first_seq, held, where, problems)
    ceiling = first_seq + len(readable) + len(unreadable) + MOST_MISSING
    places = _Places(
        _in_order([line for line in lines if first_seq <= line.entry.seq < ceiling]),
        first_seq,
        # the seqs an entry out of order may take as its own: up to what the lines could hold
        first_seq + len(readable) + len(unreadable) - 1,
    )
    for line in lines:
        if line.number in places.done:  # in order, or moved already
            continue
        placed = places.take(line)
        if placed is None:
            problems.append(
                f"{where} line {line.number}: entry {line.entry.seq} is out of order and its "
                "place is taken; set aside (the line is kept in the file)"
            )
        elif placed.entry.seq != placed.claimed:
            problems.append(
                f"{where} line {placed.number} says entry {placed.claimed}, whose place is "
                f"taken; read as entry {placed.entry.seq}, the free place between its neighbours"
            )
    by_seq = places.by_seq
    entries: list[AnyEntry] = []
    missing: list[int] = []
    for seq in range(first_seq, max(by_seq, default=first_seq - 1) + 1):
        found = by_seq.get(seq)
        if found is None:
            missing.append(seq)
            entries.append(DebugLog(seq=seq, category=DAMAGED, message=_why_missing(seq, where)))
        else:
            entries.append(found.entry)
    if missing:
        problems.append(f"{where}: no readable line holds {_seqs(missing)}; stood in for")
    return entries, problems


def _number(line: Line) -> int:
    return line.number


def _without_repeats(
    readable: list[Line],
    first_seq: int,
    held: Callable[[AnyEntry], bool] | None,
    where: str,
    problems: list[str],
) -> list[Line]:
    """``readable`` less the lines that repeat an entry read before (or already held)."""
    first: dict[object, int] = {}
    kept = []
    for line in readable:
        entry = line.entry
        identity = (entry.seq, entry.id) if entry.id else (entry.seq, msgspec.json.encode(entry))
        if identity in first:
            problems.append(
                f"{where} line {line.number}: entry {entry.seq} again (as on line "
                f"{first[identity]}); skipped"
            )
            continue
        if entry.seq < first_seq and held is not None and held(entry):
            problems.append(f"{where} line {line.number}: entry {entry.seq} again; skipped")
            continue
        first[identity] = line.number
        kept.append(line)
    return kept


def _in_order(lines: list[Line]) -> list[Line]:
    """A longest run of ``lines`` (in file order) whose seqs strictly rise: the entries that
    are where they were appended. Of equal runs, the one keeping earlier lines."""
    tails: list[int] = []  # tails[k]: the smallest last seq of a rising run of length k + 1
    tail_at: list[int] = []  # the index in ``lines`` of that last entry
    before: list[int] = []  # for each line, the index of the line before it in its run
    for i, line in enumerate(lines):
        k = bisect.bisect_left(tails, line.entry.seq)
        if k == len(tails):
            tails.append(line.entry.seq)
            tail_at.append(i)
        elif line.entry.seq < tails[k]:
            tails[k], tail_at[k] = line.entry.seq, i
        else:  # an equal seq: the earlier line keeps its place in the run
            before.append(-1)
            continue
        before.append(tail_at[k - 1] if k else -1)
    run: list[Line] = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        run.append(lines[i])
        i = before[i]
    return run[::-1]


class Placed(msgspec.Struct, frozen=True):
    number: int
    entry: AnyEntry  # with the seq it was given
    claimed: int  # the seq its line says


class _Places:
    """Which line holds each seq: the entries in order first, then the others one by one."""

    def __init__(self, ordered: list[Line], first_seq: int, capacity: int) -> None:
        self.ordered = ordered  # in file order, seqs rising
        self.by_seq: dict[int, Line] = {line.entry.seq: line for line in ordered}
        self.done = {line.number for line in ordered}  # the lines that have their place
        self.first_seq = first_seq
        self.last = max([capacity, *self.by_seq])

    def take(self, line: Line) -> Placed | None:
        """Place an entry out of order: at its own seq if free, else at a free seq between
        the entries in order around its line; else, if the entry in order holding its seq has
        such a free place, that one is the entry out of place (a seq flipped to the next
        one's) and moves. None if neither can be."""
        claimed = line.entry.seq
        if self.first_seq <= claimed <= self.last and claimed not in self.by_seq:
            return self._put(line, claimed)
        seq = self._free_between(line.number, claimed, self.ordered, self.by_seq)
        if seq is not None:
            return self._put(line, seq)
        holder = self.by_seq.get(claimed)
        if holder is None or not any(o is holder for o in self.ordered):
            return None
        swapped = sorted([*(o for o in self.ordered if o is not holder), line], key=_number)
        taken = self.by_seq | {claimed: line}
        seq = self._free_between(holder.number, claimed, swapped, taken)
        if seq is None:
            return None
        self.ordered, self.by_seq = swapped, taken
        self.done.add(line.number)
        return self._put(holder, seq)

    def _put(self, line: Line, seq: int) -> Placed:
        entry = msgspec.structs.replace(line.entry, seq=seq)
        self.by_seq[seq] = Line(line.number, entry)
        self.done.add(line.number)
        return Placed(line.number, entry, line.entry.seq)

    def _free_between(
        self, number: int, claimed: int, ordered: list[Line], by_seq: dict[int, Line]
    ) -> int | None:
        """A seq no entry holds between the entries in order around line ``number``, the
        nearest to the one it claimed; None if there is none."""
        k = bisect.bisect_left([line.number for line in ordered], number)
        low = ordered[k - 1].entry.seq + 1 if k else self.first_seq
        # after every entry in order: the place after the last one so far is free too
        high = ordered[k].entry.seq - 1 if k < len(ordered) else max(by_seq, default=self.last) + 1
        free = [seq for seq in range(low, high + 1) if seq not in by_seq]
        return min(free, key=lambda seq: (abs(seq - claimed), seq)) if free else None


def _why_missing(seq: int, where: str) -> str:
    return f"entry {seq} of {where}: no readable line holds it"


def _seqs(seqs: list[int]) -> str:
    if len(seqs) == 1:
        return f"entry {seqs[0]}"
    if seqs[-1] - seqs[0] == len(seqs) - 1:
        return f"entries {seqs[0]} to {seqs[-1]}"
    return "entries " + ", ".join(str(seq) for seq in seqs)
