"""The ledger of a conversation: one row per entry, with its tokens, cost and running totals.

Built in one pass over the history, so a 10,000-entry conversation is ready at once; the text
of a row (``preview``) and its full JSON (``entry_json``) are made only when a row is looked at.
Costs come from a ``PriceTable`` at build time and are never stored: prices are editable. A call
whose model has no price has cost ``None``, and every row from it on says ``unpriced``, so a
total is never silently short.

The model calls are replies, compressions and the rewrite of a question before the user's
documents are searched: that call is recorded in the knowledge step's debug log
(``app.knowledge.retrieval``), whose row carries its model and usage as a reply's does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate

import msgspec

from app.history import (
    AnyEntry,
    Compression,
    DebugLog,
    History,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    ToolResults,
    Usage,
)
from app.history.entries import KINDS as ENTRY_KINDS
from app.history.entries import STOPPED
from app.history.history import rewrite_call
from app.history.outline import RETRACT, outline_of
from app.inspect.redact import redact, redact_text
from app.notes import CompressionUnused, Failed, Failure, Note, RowStatus, english_all
from app.pricing import Price, PriceTable

NO_USAGE = Usage()
KINDS = {kind: name for name, kind in ENTRY_KINDS.items()}


class Row(msgspec.Struct, frozen=True, gc=False):
    """One entry's line; a msgspec struct, as a slotted frozen dataclass is several times slower
    to make, which a ledger of many rows feels."""

    seq: int
    ts: str
    kind: str
    provider: str  # "" unless the entry is a model call (model_output, compression, rewrite)
    model: str
    # model_output and compression entries, and a knowledge step's debug log whose question
    # was rewritten by a model (``app.history.history.rewrite_call``)
    usage: Usage | None
    cost: float | None  # None: no usage, or no price for the model
    latency_ms: int | None
    first_token_ms: int | None
    total_tokens: int  # cumulative input+output up to and including this row
    total_cost: float  # cumulative of the known costs
    unpriced: bool  # some call up to here had no price
    covered_by: int | None  # seq of the standing compression the context carries instead
    covers: tuple[int, int] | None  # for compression entries: the range summarised
    statuses: tuple[Note, ...]  # () | partial | failed: ... | retracted by seq N | ...

    @property
    def status(self) -> str:
        """The statuses as the command line says them: "partial; other branch"."""
        return english_all(self.statuses) if self.statuses else ""

    @property
    def billed(self) -> bool:
        """A call that reported tokens: what usage totals count (the index keeps the same)."""
        usage = self.usage
        return usage is not None and usage != NO_USAGE


@dataclass(frozen=True, slots=True)
class ModelTotal:
    provider: str
    model: str
    calls: int  # calls that reported tokens
    usage: Usage
    cost: float | None  # None: the model has no price


@dataclass(frozen=True, slots=True)
class TurnUsage:
    """A user turn: its input and every model call up to the next input (tool rounds, retries,
    a compression run before its request, and its question's rewrite to search the user's
    documents)."""

    number: int  # from 1
    first_seq: int  # the turn's model_input
    last_seq: int
    calls: int
    usage: Usage
    cost: float  # the known costs
    unpriced: bool  # some call of the turn has no price, so ``cost`` is short
    models: tuple[str, ...] = ()  # "provider:model" of its calls, in order of first use


class Ledger:
    def __init__(self, rows: list[Row]) -> None:
        self.rows = rows
        # the user turn of each row, from 1; 0 before the first input (beside the rows, so a
        # row stays the columns the CLI prints)
        self.turn_of = list(accumulate(int(row.kind == "model_input") for row in rows))

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def index_of(self, seq: int) -> int:
        """The row of ``seq`` (rows are in seq order, one per entry)."""
        index = seq - 1
        if not 0 <= index < len(self.rows) or self.rows[index].seq != seq:
            raise KeyError(seq)
        return index

    def by_model(self) -> list[ModelTotal]:
        """Totals per provider/model, in order of first use; compression calls and a question's
        rewrite before the user's documents are searched count too."""
        totals: dict[tuple[str, str], tuple[int, Usage, float | None]] = {}
        for row in self.rows:
            if not row.billed:
                continue
            assert row.usage is not None
            key = (row.provider, row.model)
            calls, usage, cost = totals.get(key, (0, NO_USAGE, 0.0))
            if cost is not None:
                cost = None if row.cost is None else cost + row.cost
            totals[key] = (calls + 1, usage + row.usage, cost)
        return [ModelTotal(p, m, *value) for (p, m), value in totals.items()]

    def turns(self) -> list[TurnUsage]:
        """Usage per user turn; calls before the first input belong to no turn."""
        turns: list[TurnUsage] = []
        first = last = calls = 0
        usage, cost, unpriced = NO_USAGE, 0.0, False
        models: dict[str, None] = {}  # ordered, unique

        def close() -> None:
            if first:
                turns.append(TurnUsage(
                    len(turns) + 1, first, last, calls, usage, cost, unpriced, tuple(models)
                ))  # fmt: skip

        for row in self.rows:
            if row.kind == "model_input":
                close()
                first = last = row.seq
                calls, usage, cost, unpriced = 0, NO_USAGE, 0.0, False
                models = {}
                continue
            last = row.seq
            if row.usage is not None and row.usage != NO_USAGE:
                calls += 1
                usage = usage + row.usage
                cost += row.cost or 0.0
                unpriced = unpriced or row.cost is None
                models[f"{row.provider}:{row.model}"] = None
        close()
        return turns


def _statuses(history: History) -> dict[int, tuple[Note, ...]]:
    """Why compressions are not in use: retracted, superseded, or unusable."""
    outline = outline_of(history)
    _, notes = outline.claims()
    statuses: dict[int, tuple[Note, ...]] = {}
    for seq, why in notes:
        if seq in outline.retracted:
            statuses[seq] = (RowStatus(cause="retracted", seq=outline.retracted[seq]),)
        else:
            statuses[seq] = (_unused(why),)
    return statuses


def _unused(why: CompressionUnused) -> RowStatus:
    if why.cause == "out_of_range":
        return RowStatus(cause="out_of_range", first=why.first, last=why.last)
    if why.cause == "empty":
        return RowStatus(cause="empty")
    return RowStatus(cause="superseded" if why.cause == "superseded" else "retracted", seq=why.by)


def ledger(history: History, prices: PriceTable, *, keep_first_input: bool = False) -> Ledger:
    """One row per entry, in one pass (dispatching on the exact type: entry kinds are final).

    ``keep_first_input``: the policy carries the first user message always, so it is not
    marked as summarised even where a compression's range includes it."""
    outline = outline_of(history)
    claims, _ = outline.claims()  # sorted by start, never overlapping
    kept = outline.first_input if keep_first_input else None
    statuses = _statuses(history)
    on_path = outline.on_path
    found: dict[tuple[str, str], Price | None] = {}
    rows: list[Row] = []
    append = rows.append
    total_tokens, total_cost, unpriced = 0, 0.0, False
    claim_index, claim_count = 0, len(claims)
    last_output: int | None = None  # row index of the turn's latest reply, for retries
    standing: dict[type, int] = {}  # the latest system instruction's and notebook's row index
    for entry in history:
        seq, kind = entry.seq, type(entry)
        provider = model = ""
        usage: Usage | None = None
        cost: float | None = None
        latency = first_token = None
        covered_by: int | None = None
        covers: tuple[int, int] | None = None
        status: tuple[Note, ...] = NONE
        if kind is ModelOutput or kind is ModelInput or kind is ToolResults:
            while claim_index < claim_count and claims[claim_index].last < seq:
                claim_index += 1
            if claim_index < claim_count and claims[claim_index].start <= seq and seq != kept:
                covered_by = claims[claim_index].compression.seq
            if isinstance(entry, ModelOutput):
                provider, model, usage = entry.provider, entry.model, entry.usage
                if meta := entry.meta:
                    latency, first_token = meta.get("latency_ms"), meta.get("first_token_ms")
                    latency = latency if type(latency) is int else None
                    first_token = first_token if type(first_token) is int else None
                if entry.error is None:
                    status = PARTIAL if entry.partial else NONE
                elif entry.partial and entry.error == STOPPED:
                    status = STOPPED_PARTIAL
                else:  # the turn keeps what arrived (partial) when the call breaks: failed
                    why = Failure.kept(entry.error, entry.meta.get("failure"))
                    status = (Failed(error=why),)
                if last_output is not None and history.parent_of(seq) == rows[last_output].seq:
                    _mark_retried(rows, last_output, seq)  # a retry written as a line
                elif (redone := history.seq_of(entry.meta.get("regenerates", ""))) is not None:
                    _mark_retried(rows, redone - 1, seq)  # one row per entry, in seq order
                last_output = None if entry.tool_calls and entry.error is None else len(rows)
            else:
                last_output = None
        elif kind is SystemInstruction or kind is MemoryNotebook:  # only the latest is sent
            if (replaced := standing.get(kind)) is not None:
                rows[replaced] = msgspec.structs.replace(
                    rows[replaced], statuses=(RowStatus(cause="replaced", seq=seq),)
                )
            standing[kind] = len(rows)
        elif isinstance(entry, Compression):
            covers = (entry.covers[0], entry.covers[1])
            if entry.strategy == RETRACT:
                status = (RowStatus(cause="undoes", first=covers[0], last=covers[1]),)
            else:
                provider, model, usage = entry.provider, entry.model, entry.usage
                status = statuses.get(seq, NONE)
        elif kind is DebugLog and (call := rewrite_call(entry)) is not None:
            (provider, _, model), usage = call[0].partition(":"), call[1]
        if usage is not None:
            key = (provider, model)
            if key in found:
                price = found[key]
            else:
                match = prices.match(provider, model)
                price = found[key] = match.price if match else None
            total_tokens += usage.input + usage.output
            if price is not None:
                cost = price.cost(usage)
                total_cost += cost
            elif usage != NO_USAGE:
                unpriced = True
        if (kind is ModelOutput or kind is ModelInput or kind is ToolResults) and (
            seq not in on_path
        ):
            status = (*status, OFF_PATH) if status else OFF_PATH_ONLY
        append(Row(
            seq, entry.ts, KINDS[kind], provider, model, usage, cost, latency, first_token,
            total_tokens, total_cost, unpriced, covered_by, covers, status,
        ))  # fmt: skip
    return Ledger(rows)


# the statuses most rows have, made once: a 10,000-row ledger makes no note for them
NONE: tuple[Note, ...] = ()
PARTIAL: tuple[Note, ...] = (RowStatus(cause="partial"),)
STOPPED_PARTIAL: tuple[Note, ...] = (RowStatus(cause="stopped"),)
OFF_PATH = RowStatus(cause="other_branch")  # a message not on the active path: never sent
OFF_PATH_ONLY: tuple[Note, ...] = (OFF_PATH,)


def _mark_retried(rows: list[Row], index: int, by: int) -> None:
    """A reply followed by another reply in the same turn was answered again (a retry)."""
    row = rows[index]
    statuses = (*row.statuses, RowStatus(cause="retried", seq=by))
    rows[index] = msgspec.structs.replace(row, statuses=statuses)


_WORDS = re.compile(r"\S+")
_KEY_MARGIN = 256  # longer than any key shape, so a key is redacted before the line is cut


def preview(entry: AnyEntry, width: int = 80) -> str:
    """One line of the entry's text, whitespace collapsed, keys redacted, cut to ``width``."""
    words: list[str] = []
    length = 0
    for match in _WORDS.finditer(_text(entry)):
        words.append(match.group())
        length += len(words[-1]) + 1
        if length > width + _KEY_MARGIN:
            break
    line = redact_text(" ".join(words))
    return line if len(line) <= width else line[: width - 1] + "…"


def _text(entry: AnyEntry) -> str:
    match entry:
        case ModelInput(text=text, attachments=attachments):
            if attachments:
                names = ", ".join(a.name for a in attachments)
                return f"{text} [attached: {names}]"
            return text
        case ModelOutput(text=text, tool_calls=calls, reasoning=reasoning):
            parts = [text] if text else []
            if not text and reasoning:
                parts.append("[thinking] " + " ".join(r.text for r in reasoning if r.text))
            parts += [f"→ {call.name}({call.arguments})" for call in calls]
            return " ".join(parts)
        case ToolResults(results=results):
            return " ".join(
                f"{r.name}{' (error)' if r.is_error else ''}: {r.content}" for r in results
            )
        case Compression(strategy=strategy, covers=(first, last), summary=summary):
            if strategy == RETRACT:
                return f"undo the compressions at seq {first}-{last}"
            return f"[{strategy}, entries {first}-{last}] {summary}"
        case SystemInstruction(text=text) | Title(text=text):
            return text
        case MemoryNotebook(content=content):
            return content
        case DebugLog(category=category, message=message):
            return f"{category}: {message}"
    return ""


def entry_json(entry: AnyEntry) -> str:
    """The entry's full JSON, as the transcript holds it, indented and with keys redacted."""
    return json.dumps(redact(msgspec.to_builtins(entry)), indent=2, ensure_ascii=False)
