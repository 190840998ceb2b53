"""Running a compression: a summary for each job of the strategy, then append them all, or none.

Each summary is written so that even a small model gets there (``summaries.py``: pieces that fit
its window, whole sentences of a reply cut off, else an extractive summary, labelled). If the
provider fails (no key, no network), the run raises ``CompressionError`` with one line saying
why and nothing is appended, so the context stays as it was. A redo over entries that standing
compressions already cover (whole, then chunked:2) covers the raw entries again and supersedes
them; the older ones stay in the history. Undoing appends a ``compression`` entry of strategy
``retract`` whose ``covers`` names the seqs of the compression entries it undoes.

What is CPU work over the whole history (rendering the path, planning the jobs, cutting and
writing out the excerpts) runs on a worker thread (``asyncio.to_thread``), reading the history
under the conversation's lock: a window's event loop keeps turning while a 10,000-entry
conversation is read, and appends wait until it is read. The appends run on a worker thread too.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from app.context.events import Compressed, Compressing, OnContext, ignore
from app.context.strategies import Job, Strategy, is_summary, plan
from app.context.summaries import BY_MODEL, SummaryFailed, write_summary
from app.errors import CrosstalkError
from app.history import Compression, History, ModelInput, Usage, render_context
from app.history.context import ConversationEntry
from app.history.outline import RETRACT, outline_of
from app.providers import Provider
from app.store import Conversation, Library


class CompressionError(CrosstalkError):
    """A compression could not be made or undone; nothing was appended. A cause of
    ``SUMMARY`` is a ``SummaryFailed`` of the same data."""

    SUMMARY = "summary_"  # + a cause of SummaryFailed
    TEMPLATES: ClassVar[Mapping[str, str]] = {
        **{"summary_" + cause: text for cause, text in SummaryFailed.TEMPLATES.items()},
        "already_appended": "this compression was already appended",
        "not_a_compression": "seq {seq} is not a compression; `crosstalk show` lists them",
        "already_undone": "the compression at seq {seq} was already undone",
    }


class NothingToCompress(CompressionError):
    """Every message a strategy may cover is already summarised, or too few are left."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "too_few": (
            "nothing to compress in {conversation} with {strategy}: the messages not yet "
            "summarised are too few"
        ),
    }


@dataclass(frozen=True)
class Summary:
    job: Job
    text: str
    usage: Usage
    method: str = BY_MODEL  # how it was made: model, trimmed, pieces, extractive


@dataclass(frozen=True)
class Outcome:
    strategy: Strategy
    spec: str  # provider:model that wrote the summaries
    summaries: tuple[Summary, ...]
    appended: tuple[Compression, ...] = ()  # empty for a preview
    at: int | None = None  # the message the path compressed ends at (None: the active leaf)
    superseded: tuple[int, ...] = ()  # older compressions the appended ones replace


def compressible(
    history: History,
    keep_first_input: bool,
    keep_recent: int,
    at: int | None = None,
    redo: bool = False,
) -> list[ConversationEntry]:
    """What a compression may cover: the whole carried context of the path to ``at`` (the
    active path by default), less the first input (when it is always carried anyway) and the
    newest ``keep_recent`` turns. ``redo``: the raw entries, as if no compression stood."""
    context = render_context(
        history, None, at=at, keep_first_input=keep_first_input, summaries=not redo
    )
    items = list(context.entries)
    if keep_first_input and items and not is_summary(items[0]):
        items = items[1:]
    cut, turns = len(items), 0
    while keep_recent and cut > 0 and turns < keep_recent:
        cut -= 1
        item = items[cut]
        turns += isinstance(item, ModelInput) and not is_summary(item)
    return items[:cut]


def jobs_for(
    conversation: Conversation,
    strategy: Strategy,
    at: int,
    keep_first_input: bool,
    keep_recent: int,
    automatic: bool,
    seen: int | None = None,
) -> list[Job]:
    """The jobs of ``strategy`` over the path to ``at``, or a redo's over the raw entries (asked
    for again over what is summarised). Safe on a worker thread: it reads the history under the
    conversation's lock (appends wait), and ``seen`` is the version whose outline the caller's
    thread brought up to date; if entries came since, a copy is read, so that the shared outline
    is never extended from two threads at once."""
    with conversation.lock:
        history = conversation.history
        if seen is None or history.version == seen:
            return _jobs(history, strategy, at, keep_first_input, keep_recent, automatic)
        entries = list(history)
    copy = History(entries)  # its own outline; appends may go on meanwhile
    return _jobs(copy, strategy, at, keep_first_input, keep_recent, automatic)


def _jobs(
    history: History,
    strategy: Strategy,
    at: int,
    keep_first_input: bool,
    keep_recent: int,
    automatic: bool,
) -> list[Job]:
    items = compressible(history, keep_first_input, keep_recent, at)
    jobs = plan(strategy, items, final=not automatic)
    if not jobs and not automatic:  # asked for again over what is summarised: a redo
        items = compressible(history, keep_first_input, keep_recent, at, redo=True)
        jobs = plan(strategy, items, final=True)
    return jobs


async def summarise(
    provider: Provider, model: str, strategy: Strategy, job: Job, limit: int | None = None
) -> Summary:
    """One summary of a job, by the model if it can write one (``summaries.write_summary``),
    else extractive; ``CompressionError`` only if the provider failed."""
    try:
        written = await write_summary(provider, model, strategy, job.items, limit)
    except SummaryFailed as exc:
        raise CompressionError(cause=CompressionError.SUMMARY + exc.cause, **exc.data) from exc
    return Summary(job, written.text, written.usage, written.method)


async def compress(
    library: Library,
    conversation: Conversation,
    provider: Provider,
    model: str,
    strategy: Strategy,
    *,
    keep_first_input: bool = True,
    keep_recent: int = 0,
    limit: int | None = None,
    preview: bool = False,
    automatic: bool = False,
    on_context: OnContext = ignore,
    at: int | None = None,
    on_summary: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Compress ``conversation`` with ``strategy``; appends nothing on failure or preview.

    The path compressed ends at message ``at`` (by default the active leaf); the compression
    is made there, so it applies to that path and the branches that grow from it.
    ``on_summary(done, total)`` hears each summary written (for a progress bar)."""
    history = conversation.history
    at = history.active_leaf if at is None else at
    outline_of(history)  # up to date here: the worker reads it, and extends it only if it must
    jobs = await asyncio.to_thread(
        jobs_for, conversation, strategy, at, keep_first_input, keep_recent, automatic,
        history.version,
    )  # fmt: skip
    if not jobs:
        raise NothingToCompress(
            cause="too_few", conversation=conversation.id, strategy=strategy.spec
        )
    spec = f"{provider.name}:{model}"
    covers = (jobs[0].covers[0], jobs[-1].covers[1])
    on_context(Compressing(strategy.spec, covers, spec, len(jobs), automatic))
    summaries: list[Summary] = []
    for job in jobs:
        summaries.append(await summarise(provider, model, strategy, job, limit))
        if on_summary is not None:
            on_summary(len(summaries), len(jobs))
    outcome = Outcome(strategy, spec, tuple(summaries), at=at)
    if preview:
        return outcome
    return await commit_async(
        library, conversation, outcome, automatic=automatic, on_context=on_context
    )


def commit(
    library: Library,
    conversation: Conversation,
    outcome: Outcome,
    *,
    automatic: bool = False,
    on_context: OnContext = ignore,
) -> Outcome:
    """Append the summaries of ``outcome`` (a preview, as shown) as ``compression`` entries:
    the last step of ``compress``, so a previewed summary is used as it was read."""
    if outcome.appended:
        raise CompressionError(cause="already_appended")
    stood = {entry.seq for entry in standing(conversation.history)}
    appended = _append(library, conversation, outcome, automatic)
    return _committed(conversation, outcome, stood, appended, on_context)


async def commit_async(
    library: Library,
    conversation: Conversation,
    outcome: Outcome,
    *,
    automatic: bool = False,
    on_context: OnContext = ignore,
) -> Outcome:
    """``commit`` with the appends (an fsync and an index commit each) on a worker thread."""
    if outcome.appended:
        raise CompressionError(cause="already_appended")
    stood = {entry.seq for entry in standing(conversation.history)}
    appended = await asyncio.to_thread(_append, library, conversation, outcome, automatic)
    return _committed(conversation, outcome, stood, appended, on_context)


def _committed(
    conversation: Conversation,
    outcome: Outcome,
    stood: set[int],
    appended: tuple[Compression, ...],
    on_context: OnContext,
) -> Outcome:
    on_context(Compressed(tuple(entry.seq for entry in appended)))
    done = Outcome(outcome.strategy, outcome.spec, outcome.summaries, appended, outcome.at)
    still = {entry.seq for entry in standing(conversation.history)}
    return dataclasses.replace(done, superseded=tuple(sorted(stood - still)))


def _append(
    library: Library, conversation: Conversation, outcome: Outcome, automatic: bool
) -> tuple[Compression, ...]:
    provider, _, model = outcome.spec.partition(":")
    appended: list[Compression] = []
    total = len(outcome.summaries)
    with conversation.lock:  # a run's entries are consecutive: undone together
        for part, summary in enumerate(outcome.summaries, start=1):
            meta: dict[str, object] = {"automatic": automatic, "summary": summary.method}
            if total > 1:
                meta["part"] = [part, total]
            entry = Compression(strategy=outcome.strategy.spec, covers=summary.job.covers,
                                summary=summary.text, provider=provider, model=model,
                                usage=summary.usage, meta=meta)  # fmt: skip
            stamped = library.append(conversation, entry, after=outcome.at)
            assert isinstance(stamped, Compression)
            appended.append(stamped)
    return tuple(appended)


def run_of(history: History, seq: int) -> tuple[int, int]:
    """The seqs of the compression run ``seq`` belongs to (chunked makes several entries)."""
    entry = history.at(seq) if 1 <= seq <= history.version else None
    if not isinstance(entry, Compression) or entry.strategy == RETRACT:
        raise CompressionError(cause="not_a_compression", seq=seq)
    part, total = entry.meta.get("part", [1, 1])
    return seq - part + 1, seq - part + total


def undo(library: Library, conversation: Conversation, seq: int) -> Compression:
    """Retract the compression at ``seq`` (with the rest of its run); the summaries stay in the
    history, out of the context."""
    entry, anchor = _retraction(conversation, seq)
    stamped = library.append(conversation, entry, after=anchor)
    assert isinstance(stamped, Compression)
    return stamped


async def undo_async(library: Library, conversation: Conversation, seq: int) -> Compression:
    """``undo`` with the append on a worker thread."""
    entry, anchor = _retraction(conversation, seq)
    stamped = await library.append_async(conversation, entry, after=anchor)
    assert isinstance(stamped, Compression)
    return stamped


def _retraction(conversation: Conversation, seq: int) -> tuple[Compression, int]:
    """The entry that retracts the run of ``seq``, and the message it is made at."""
    first, last = run_of(conversation.history, seq)
    undone = outline_of(conversation.history).retracted
    if all(s in undone for s in range(first, last + 1)):
        raise CompressionError(cause="already_undone", seq=seq)
    entry = Compression(strategy=RETRACT, covers=(first, last), summary="", provider="",
                        model="", meta={"undoes": list(range(first, last + 1))})  # fmt: skip
    # made where the undone compression was made: undone wherever that one applied
    return entry, conversation.history.anchor_of(first)


def standing(history: History) -> Sequence[Compression]:
    """The compressions that stand in for older entries now (not undone or superseded)."""
    claims, _ = outline_of(history).claims()
    return [claim.compression for claim in claims]
