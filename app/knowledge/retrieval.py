"""What a turn took from the user's documents, as recorded (docs/knowledge-answers.md).

Before a question is answered from the user's documents, the question is rewritten into a
standalone query (or not, and why), the query searched, and the passages that fit the budget
sent with it, each labelled [n]. All of that is one ``debug_log`` of category ``knowledge`` in
the conversation, its ``meta`` a ``Retrieval``: a debug log, not a kind of its own, for the
reason ``app/store/project_state.py`` gives (an older Crosstalk refuses a transcript with a
kind it does not know). The record is what was sent, exactly: a regenerated answer to the same
input sends the same passages again, and an answer's citations are read back from it.

This module only reads and writes the record's shape; ``app.turn.knowledge`` makes it.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from app.history import AnyEntry, DebugLog, History, ModelInput, ModelOutput, ToolResults, Usage
from app.history.entries import entry_id
from app.history.history import ROOT

CATEGORY = "knowledge"  # the debug log's category
# in the meta of an input as a request carries it: {"chars": where its own text starts,
# "tokens": the passages block's} (``app.context.service.with_passages``)
KNOWLEDGE_META = "knowledge"
BLOCK_HEAD = "Passages from the user's documents:"
BLOCK_TAIL = (
    "Cite the passages you use as [1], [2] (their labels above). If they do not hold the "
    "answer, say so rather than guessing."
)


class Retrieved(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One passage a search found: where it is, how it scored, and whether it was sent."""

    n: int = 0  # its label [n] in the request if it was sent, else 0
    source: int = 0  # the knowledge source's id
    path: str
    page: int | None = None
    first_line: int | None = None
    last_line: int | None = None
    heading: str | None = None
    lexical: float | None = None  # the words' score (BM25 negated: higher is better)
    vector: float | None = None  # the embedding's similarity, when there is one
    score: float = 0.0  # the fused score the passages were ranked by
    sent: bool = False
    tokens: int = 0  # its tokens as sent (or as it would have been)
    text: str = ""  # the text as sent; empty for a passage not sent

    @property
    def where(self) -> str:
        """``path, page 3`` or ``path, lines 10-24``: the citation as a person reads it."""
        if self.page is not None:
            return f"{self.path}, page {self.page}"
        if self.first_line is not None:
            last = self.last_line if self.last_line is not None else self.first_line
            if last == self.first_line:
                return f"{self.path}, line {self.first_line}"
            return f"{self.path}, lines {self.first_line}-{last}"
        return self.path

    @property
    def label(self) -> str:
        """``file:page N`` or ``file:FIRST-LAST`` as the request's block names it."""
        return place(self.path, self.page, self.first_line, self.last_line)


class Retrieval(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The knowledge step of one turn: the input it served, the query, the passages."""

    input: str  # the id of the input entry it serves
    question: str
    query: str  # what was searched
    rewritten: bool = False  # the query is the rewrite model's, not the question
    rewrite_model: str | None = None  # "provider:model" asked to rewrite (even if it failed)
    why_not: str = ""  # why the question was searched as it was (skipped, failed, unusable)
    rewrite_ms: float | None = None
    rewrite_usage: Usage | None = None
    rewrite_cost: float | None = None  # dollars, when the price is known
    search_ms: float = 0.0
    vector_problem: str = ""  # why the search was by words alone (the query not embedded)
    sources: list[int] = []  # the knowledge sources searched
    passages: list[Retrieved] = []  # every passage found, best first
    budget: int = 0  # tokens the passages could take

    @property
    def sent(self) -> list[Retrieved]:
        """The passages sent, in label order."""
        return sorted((p for p in self.passages if p.sent), key=lambda p: p.n)

    def block(self) -> str:
        """The labelled block the request carries, or "" when nothing was sent."""
        return passages_block(self.sent)

    def message(self) -> str:
        """The debug log's one line."""
        query = " ".join(self.query.split())
        query = query if len(query) <= 120 else query[:119] + "…"
        how = f"'{query}' (rewritten)" if self.rewritten else f"'{query}'"
        return f"searched {how}: {len(self.passages)} found, {len(self.sent)} sent"

    def entry(self) -> DebugLog:
        """The record as a debug log entry to append."""
        meta = msgspec.to_builtins(self)
        return DebugLog(category=CATEGORY, message=self.message(), meta=meta)


def passage_text(passage: Retrieved) -> str:
    """One passage as the block shows it: its label, where it is, its heading, its text."""
    head = f"[{passage.n}] {passage.label}"
    if passage.heading:
        head += f" ({passage.heading})"
    return f"{head}\n{passage.text.strip()}"


def passages_block(sent: Iterable[Retrieved]) -> str:
    parts = [passage_text(p) for p in sent]
    if not parts:
        return ""
    return "\n\n".join([BLOCK_HEAD, *parts, BLOCK_TAIL])


def read(entry: AnyEntry) -> Retrieval | None:
    """The retrieval a debug log records, or None (another category, or a record this
    version cannot read)."""
    if not isinstance(entry, DebugLog) or entry.category != CATEGORY:
        return None
    try:
        return msgspec.convert(entry.meta, Retrieval)
    except msgspec.ValidationError:
        return None


def retrievals(history: History | Iterable[AnyEntry]) -> dict[str, Retrieval]:
    """Each input's retrieval by the input's id: the last recorded for it."""
    found: dict[str, Retrieval] = {}
    for entry in history:
        record = read(entry)
        if record is not None:
            found[record.input] = record
    return found


def input_of(history: History, entry: AnyEntry) -> ModelInput | None:
    """The input an entry answers: itself for an input; for a reply (or tool results), the
    nearest input above it on its path."""
    seq = history.seq_of(entry_id(entry))
    if seq is None or not history.is_message(seq):
        return None
    for step in reversed(history.path_to(seq)):
        found = history.at(step)
        if isinstance(found, ModelInput):
            return found
    return None


def retrieval_for(history: History, entry: AnyEntry) -> Retrieval | None:
    """The retrieval the reply ``entry`` was answered with (or an input's own), or None."""
    question = input_of(history, entry)
    if question is None:
        return None
    return retrievals(history).get(entry_id(question))


def cited(history: History, output: ModelOutput) -> list[Retrieved]:
    """The passages sent with the input a reply answered, in label order: its sources."""
    record = retrieval_for(history, output)
    return record.sent if record is not None else []


def sources_lines(passages: Iterable[Retrieved]) -> list[str]:
    """``[1] path, page 3`` for each passage: a reply's sources as listed under it."""
    return [f"[{p.n}] {p.where}" for p in passages]


def record_of(history: History, input_seq: int) -> Retrieval | None:
    """The retrieval recorded for the input at ``input_seq``: the last written after it (a
    record always follows its input, so only the entries after it are read)."""
    input_id = history.id_of(input_seq)
    for seq in range(history.version, input_seq, -1):
        record = read(history.at(seq))
        if record is not None and record.input == input_id:
            return record
    return None


def answering(history: History, at: int | None = None) -> tuple[int, Retrieval] | None:
    """The input a request for the path to message ``at`` (the active path by default)
    answers, and its retrieval, when that request carries passages: the path's newest input
    is still being answered (it ends at the input, at tool results or a reply with tool calls,
    or at a reply cut at its length limit, to be continued) and its record sent some. A path
    ending with an answer carries none: the next question brings its own."""
    leaf = history.active_leaf if at is None else at
    if leaf == ROOT or not history.is_message(leaf):
        return None
    seq = leaf
    while seq != ROOT:
        entry = history.at(seq)
        if isinstance(entry, ModelInput):
            record = record_of(history, seq)
            return (seq, record) if record is not None and record.sent else None
        if isinstance(entry, ModelOutput) and seq == leaf:
            if not entry.tool_calls and entry.finish_reason != "length":
                return None  # answered
        elif not isinstance(entry, ModelOutput | ToolResults):
            return None
        seq = history.parent_of(seq)
    return None


def sources_of(entries: Iterable[AnyEntry]) -> dict[str, list[Retrieved]]:
    """Each reply's sources among ``entries`` (a branch, or several): the passages sent with
    the input it answered, by the reply's id, for every reply with text whose input had some.
    A reply's input is found up its parents (through tool rounds)."""
    listed = list(entries)
    by_id = {entry_id(e): e for e in listed}
    records = retrievals(listed)
    found: dict[str, list[Retrieved]] = {}
    if not records:
        return found
    for entry in listed:
        if not isinstance(entry, ModelOutput) or not entry.text:
            continue
        parent = entry.parent
        for _ in range(len(listed)):
            above = by_id.get(parent) if parent else None
            if above is None or isinstance(above, ModelInput):
                break
            parent = above.parent
        record = records.get(parent) if parent else None
        if record is not None and record.sent:
            found[entry_id(entry)] = record.sent
    return found


def place(path: str, page: int | None, first_line: int | None, last_line: int | None) -> str:
    """``file:page N`` or ``file:FIRST-LAST`` (lines): a passage's place, as a citation names
    it (a search's ``Passage.where``, a record's ``Retrieved.label``)."""
    if page is not None:
        return f"{path}:page {page}"
    if first_line is not None:
        last = last_line if last_line is not None else first_line
        lines = str(first_line) if last == first_line else f"{first_line}-{last}"
        return f"{path}:{lines}"
    return path
