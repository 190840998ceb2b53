"""The live context of the next request, rendered from the long history.

The history is never edited; what a request carries is the system instruction, the memory
notebook, optionally the first user message, the summaries of standing compressions in place of
the entries they cover, and the most recent turns that fit the window and the token budget. A
turn is one ``model_input`` and everything that answered it (outputs and tool results); a turn
is carried or left out whole, and a compression never ends between a tool call and its results,
so a call is never separated from its results. Everything left out is recorded with the reason.

Rendering walks back from the newest entry and stops once the window and the budget are full,
with an outline of the history (``outline.py``) that grows with it: its cost does not depend on
how long the conversation is, and each entry's tokens are counted once by the caller's counter.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import msgspec

from app.history.entries import (
    AnyEntry,
    Compression,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolResults,
)
from app.history.history import History
from app.history.outline import Claim, Outline, outline_of
from app.notes import Covered, FirstInputCut, LeftOut, Note, OutsideWindow, OverBudget, english

ConversationEntry = ModelInput | ModelOutput | ToolResults
Count = Callable[[AnyEntry], int]

DEFAULT_WINDOW_TURNS = 20
TOOL_RESULT_CHARS = 24_000  # a tool result longer than this is cut for the model


def cut_results(entry: ToolResults, limit: int) -> ToolResults:
    """``entry`` with each result over ``limit`` characters cut, saying so; the transcript
    keeps the whole result."""
    if all(len(r.content) <= limit for r in entry.results):
        return entry
    results = [
        r
        if len(r.content) <= limit
        else msgspec.structs.replace(
            r,
            content=f"{r.content[:limit]}\n[… cut for the model: {len(r.content):,} characters "
            "in all; the whole result is kept in the conversation]",
        )
        for r in entry.results
    ]
    return msgspec.structs.replace(entry, results=results)


@dataclass(frozen=True)
class Omission:
    first_seq: int
    last_seq: int
    why: Note

    @property
    def reason(self) -> str:
        """Why, as the command line says it."""
        return english(self.why)


@dataclass(frozen=True)
class Context:
    system: str | None  # the whole system instruction: the project's, then the conversation's
    notebook: str | None
    entries: tuple[ConversationEntry, ...]
    omitted: tuple[Omission, ...] = field(default=())
    tokens: int | None = None  # what the entries, system and notebook count, if counted
    budget: int | None = None
    over_budget: bool = False  # the newest turn alone did not fit, and was carried anyway
    project_system: str | None = None  # the part of ``system`` from the conversation's project

    @property
    def budget_dropped(self) -> bool:
        return any(isinstance(o.why, OverBudget) for o in self.omitted)


def summary_input(compression: Compression, start: int | None = None) -> ModelInput:
    """A standing compression as the request carries it: a user message in the covered place."""
    first, last = compression.covers
    if compression.strategy.startswith("facts"):
        head = f"[Facts from earlier in this conversation (entries {first}-{last})]"
    else:
        head = f"[Summary of earlier in this conversation (entries {first}-{last})]"
    meta = {"compression": compression.seq, "covers": [start or first, last]}
    return ModelInput(
        text=f"{head}\n{compression.summary}", seq=compression.seq, ts=compression.ts, meta=meta
    )


def _carried(entry: ConversationEntry) -> bool:
    """A failed reply with nothing in it says nothing to the next model."""
    if isinstance(entry, ModelOutput):
        return bool(entry.text or entry.tool_calls)
    return True


def _superseded(turn: list[ConversationEntry], index: int) -> bool:
    """A final reply (or a broken one) followed by another reply in the same turn was retried
    (not continued: a continuation goes on from it)."""
    entry = turn[index]
    following = turn[index + 1] if index + 1 < len(turn) else None
    return (
        isinstance(entry, ModelOutput)
        and isinstance(following, ModelOutput)
        and CONTINUES not in following.meta
        and (not entry.tool_calls or entry.error is not None)
    )


CONTINUES = "continues"  # a reply's meta: the id of the reply cut at its length limit it goes on


def joined(turn: list[ConversationEntry]) -> list[ConversationEntry]:
    """A reply and its continuations as one reply, as the model wrote it in parts: the text
    joined, the last part's finish, calls and seq (the history keeps each part)."""
    result: list[ConversationEntry] = []
    for entry in turn:
        before = result[-1] if result else None
        if (
            isinstance(entry, ModelOutput)
            and CONTINUES in entry.meta
            and (isinstance(before, ModelOutput) and not before.tool_calls)
        ):
            result[-1] = msgspec.structs.replace(
                entry,
                text=before.text + entry.text,
                reasoning=[*before.reasoning, *entry.reasoning],
                meta={**entry.meta, "joins": [before.seq, entry.seq]},
            )
        else:
            result.append(entry)
    return result


def _live_entries(turn: list[ConversationEntry]) -> Iterator[ConversationEntry | Omission]:
    turn = joined(turn)
    for index, entry in enumerate(turn):
        if not _carried(entry):
            yield Omission(entry.seq, entry.seq, LeftOut(cause="failed_empty"))
        elif _superseded(turn, index):
            yield Omission(entry.seq, entry.seq, LeftOut(cause="superseded"))
        elif isinstance(entry, ModelOutput) and entry.tool_calls and entry.error is not None:
            # the calls of a broken reply were never run: carry its text, not the calls
            yield Omission(entry.seq, entry.seq, LeftOut(cause="broken_calls"))
            if entry.text:
                yield msgspec.structs.replace(entry, tool_calls=[])
        else:
            yield entry


REMOVED = LeftOut(cause="removed")
# replies before the first input on the path (its question could not be read, or an import
# began with a reply): a reply must answer something, so none of them is sent
NO_QUESTION = LeftOut(cause="before_first_input")


def _removed(turn: list[ConversationEntry], excluded: set[int]) -> set[int]:
    """The seqs of a turn the user removed from the context: a removed input takes its whole
    turn (a reply must answer something), and a call and its results go together."""
    seqs = {entry.seq for entry in turn if entry.seq in excluded}
    if not seqs:
        return seqs
    if isinstance(turn[0], ModelInput) and turn[0].seq in seqs:
        return {entry.seq for entry in turn}
    for before, after in itertools.pairwise(turn):
        paired = isinstance(before, ModelOutput) and isinstance(after, ToolResults)
        continued = isinstance(after, ModelOutput) and CONTINUES in after.meta
        if (paired or continued) and (before.seq in seqs or after.seq in seqs):
            seqs |= {before.seq, after.seq}  # a call and its results; a reply and its rest
    for before, after in itertools.pairwise(reversed(turn)):  # a rest in three parts or more
        if CONTINUES in before.meta and before.seq in seqs:
            seqs.add(after.seq)
    return seqs


@dataclass
class _Walk:
    """One rendering, newest entry first."""

    history: History
    outline: Outline
    window: int | None
    budget: int | None
    count: Count | None
    keep_first: int | None  # the seq of the first input, when it is always carried
    summaries: bool = True  # standing compressions stand in for what they cover
    blocks: list[list[ConversationEntry]] = field(default_factory=list)
    omitted: list[Omission] = field(default_factory=list)
    used: int = 0
    turns: int = 0
    over_budget: bool = False
    excluded: set[int] = field(default_factory=set)

    def cost(self, entries: Sequence[AnyEntry]) -> int:
        return sum(map(self.count, entries)) if self.count else 0

    def fits(self, cost: int) -> bool:
        if self.budget is None or self.used + cost <= self.budget:
            return True
        if not self.blocks:  # the newest part always goes, and says it did not fit
            self.over_budget = True
            return True
        return False

    def omit(self, first: int, last: int, why: Note) -> None:
        """Record conversation entries in ``first``-``last`` as left out (the kept input aside)."""
        span = self.outline.span(first, last, skip=self.keep_first)
        if span is not None:
            self.omitted.append(Omission(*span, why))

    def run(self) -> None:
        claims = self.outline.claims()[0] if self.summaries else []
        index, seq = len(claims) - 1, self.history.version
        # entries before the first input belong to no turn (a reply must answer something)
        floor = self.outline.first_input or seq + 1
        while seq >= floor:
            while index >= 0 and claims[index].start > seq:
                index -= 1
            claim = claims[index] if index >= 0 and claims[index].last >= seq else None
            lower = claims[index].last + 1 if index >= 0 and claim is None else 1
            if claim is not None:
                if not self.summary(claim):
                    return self.omit(1, seq, self.over_budget_note())
                seq, index = claim.start - 1, index - 1
            elif self.window is not None and self.turns >= self.window:
                self.omit(lower, seq, OutsideWindow(turns=self.window))
                seq = lower - 1
            else:
                start = self.outline.turn_start(lower, seq)
                if not self.turn(start, seq):
                    return self.omit(1, seq, self.over_budget_note())
                seq = start - 1
        if floor > 1 and seq >= 1:
            self.omit(1, min(seq, floor - 1), NO_QUESTION)
        return None

    def over_budget_note(self) -> OverBudget:
        return OverBudget(tokens=self.budget or 0)

    def summary(self, claim: Claim) -> bool:
        compression = claim.compression
        cost = self.cost([compression])
        if not self.fits(cost):
            return False
        self.used += cost
        key = (compression.seq, self.keep_first)
        if key not in self.outline.memo:  # the same for every request until the claims change
            self.outline.memo[key] = self.stand_in(claim)
        carried, omitted = self.outline.memo[key]
        self.blocks.append(carried)
        self.omitted += omitted
        return True

    def stand_in(self, claim: Claim) -> tuple[list[ConversationEntry], list[Omission]]:
        """The summary a claim carries, and what it leaves out, with the reasons."""
        compression = claim.compression
        first, last = compression.covers
        seq, strategy = compression.seq, compression.strategy
        spans = [(first, last, Covered(cause="covered", seq=seq, strategy=strategy))]
        if claim.start < first:
            left_out = Covered(cause="left_out", seq=seq, strategy=strategy)
            spans.append((claim.start, first - 1, left_out))
        omitted = [
            Omission(*span, why)
            for low, high, why in spans
            if (span := self.outline.span(low, high, skip=self.keep_first)) is not None
        ]
        return [summary_input(compression, claim.start)], omitted

    def turn(self, start: int, end: int) -> bool:
        seqs = self.outline.conversation_between(start, end)
        raw = [self.history.at(s) for s in seqs if s != self.keep_first]
        turn = [e for e in raw if isinstance(e, ModelInput | ModelOutput | ToolResults)]
        removed = _removed(turn, self.excluded) if self.excluded else set()
        live: list[ConversationEntry | Omission] = [
            Omission(e.seq, e.seq, REMOVED) for e in turn if e.seq in removed
        ]
        live += _live_entries([e for e in turn if e.seq not in removed])
        carried = [e for e in live if not isinstance(e, Omission)]
        cost = self.cost(carried)
        if carried and not self.fits(cost):
            return False
        self.omitted += [o for o in live if isinstance(o, Omission)]
        self.used += cost
        if carried:
            self.blocks.append(carried)
            self.turns += 1
        return True


FIRST_INPUT_SHARE = 0.5  # of the budget the always-kept first input may take


def _fitted_first(
    entry: ModelInput, budget: int, count: Count
) -> tuple[ModelInput, list[Omission]]:
    """The always-kept first input as it is carried: whole if it takes at most half the
    budget, else its beginning, cut to that (a first message larger than the model's window
    must not be carried into every request forever)."""
    allowed = int(budget * FIRST_INPUT_SHARE)
    cost = count(entry)
    if cost <= allowed or not entry.text:
        return entry, []
    keep = max(int(len(entry.text) * allowed / cost) - 200, 0)  # framing and attachments
    cut = entry.text[:keep].rsplit(" ", 1)[0] if " " in entry.text[:keep] else entry.text[:keep]
    shown = f"{cut}\n[… the rest of this first message does not fit the request: {cost:,} tokens]"
    fitted = msgspec.structs.replace(entry, text=shown, attachments=[],
                                     meta={**entry.meta, "trimmed": True})  # fmt: skip
    return fitted, [Omission(entry.seq, entry.seq, FirstInputCut(tokens=cost))]


def render_context(
    history: History,
    window_turns: int | None = DEFAULT_WINDOW_TURNS,
    *,
    at: int | None = None,
    budget: int | None = None,
    count: Count | None = None,
    keep_first_input: bool = False,
    summaries: bool = True,
    result_chars: int = TOOL_RESULT_CHARS,
    preamble: SystemInstruction | None = None,
) -> Context:
    """The context of the next request: the path through the history's tree to message ``at``
    (by default the active path), never anything from another branch.

    ``window_turns`` recent turns at most (None: no limit); ``budget`` tokens at most, as
    ``count`` counts each entry (the newest turn is carried even if it alone is over);
    ``keep_first_input`` always carries the first user message. Messages the user removed from
    the context are left out (``Omission`` says so). ``summaries`` off renders as if no
    compression stood (what a redo of a compression covers). A tool result over
    ``result_chars`` characters is cut (counts are of the whole one: an over-estimate).
    ``preamble`` (not in the history: a project's instructions) comes before the
    conversation's own system instruction, and is counted with it.
    """
    if window_turns is not None and window_turns < 1:
        raise ValueError("the window must hold at least one turn")
    outline = outline_of(history, at)
    own = outline.system.text or None if outline.system else None
    before = preamble.text or None if preamble else None
    system = "\n\n".join(t for t in (before, own) if t) or None
    notebook = outline.notebook.content or None if outline.notebook else None
    fixed: list[AnyEntry] = [preamble] if before and preamble else []
    fixed += [outline.system] if own and outline.system else []
    fixed += [outline.notebook] if notebook and outline.notebook else []
    first = outline.first_input if keep_first_input else None
    if first is not None and history.is_excluded(first):
        first = None  # removed by the user: not carried, kept first or not
    head: ModelInput | None = None
    trimmed: list[Omission] = []
    if first is not None:
        kept = history.at(first)
        assert isinstance(kept, ModelInput)
        head = kept
        if budget is not None and count is not None and first != outline.leaf:
            head, trimmed = _fitted_first(kept, budget, count)
        fixed.append(head)
    walk = _Walk(history, outline, window_turns, budget, count, first, summaries)
    walk.excluded = history.excluded
    # a cut first input is counted as carried (counts are kept by seq: the whole one's)
    walk.used = walk.cost([e if e.seq and e is history.at(e.seq)
                           else msgspec.structs.replace(e, seq=0) for e in fixed])  # fmt: skip
    walk.omitted += trimmed
    walk.run()
    entries: list[ConversationEntry] = []
    if head is not None:
        entries.append(head)
    for block in reversed(walk.blocks):
        entries += [cut_results(e, result_chars) if isinstance(e, ToolResults) else e
                    for e in block]  # fmt: skip
    _, notes = outline.claims()
    omitted = walk.omitted + [Omission(seq, seq, why) for seq, why in notes]
    # what is always carried (or the newest part) did not fit, and went anyway
    over = budget is not None and count is not None and walk.used > budget
    return Context(
        system=system,
        notebook=notebook,
        entries=tuple(entries),
        omitted=tuple(sorted(omitted, key=lambda o: (o.first_seq, o.last_seq))),
        tokens=walk.used if count else None,
        budget=budget,
        over_budget=walk.over_budget or over,
        project_system=before,
    )
