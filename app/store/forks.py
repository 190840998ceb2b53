"""What a fork of a conversation holds (docs/architecture.md, "Branches").

A fork copies the path to one message into a new conversation: the messages of that path, the
conversation-wide entries written before it (instructions, notebook, titles, logs) and the
compressions and exclusions that apply on the path, numbered 1, 2, 3 ... afresh, with their
ids kept. Pure: ``Library.fork`` writes what this module picks.
"""

from __future__ import annotations

import msgspec

from app.errors import NotFound
from app.history import AnyEntry, Compression, Exclude, History, Select
from app.history.outline import RETRACT


def entries(history: History, at_seq: int, conversation_id: str) -> list[AnyEntry]:
    """The entries of a fork at message ``at_seq``, renumbered; NotFound if there is no
    message there."""
    if not (1 <= at_seq <= history.version and history.is_message(at_seq)):
        raise NotFound(cause="no_message_to_fork", conversation=conversation_id, seq=at_seq)
    path = set(history.path_to(at_seq))
    kept = [
        entry
        for entry in history.upto(at_seq)
        if entry.seq in path or (not history.is_message(entry.seq) and _kept(history, entry, path))
    ]
    return _renumbered(kept)


def _kept(history: History, entry: AnyEntry, path: set[int]) -> bool:
    """Whether a fork of ``path`` keeps this entry: the conversation-wide ones, and the
    compressions and exclusions of the path (not selections: a fork has one branch)."""
    if isinstance(entry, Compression):
        return history.anchor_of(entry.seq) in path
    if isinstance(entry, Exclude):
        return history.seq_of(entry.target) in path
    return not isinstance(entry, Select)


def _renumbered(kept: list[AnyEntry]) -> list[AnyEntry]:
    """The entries numbered 1, 2, 3 ... with what names seqs following them: a compression's
    ``covers`` becomes the range of the kept messages it covered (it is dropped if it covered
    none of them), and a retraction's, the kept compressions it undid."""
    messages = [e.seq for e in kept if not isinstance(e, Compression)]
    summaries: list[int] = []
    staying: list[AnyEntry] = []
    for entry in kept:
        if isinstance(entry, Compression):
            first, last = entry.covers
            pool = summaries if entry.strategy == RETRACT else messages
            if not any(first <= seq <= last for seq in pool):
                continue  # what it covered is not in the fork
            if entry.strategy != RETRACT:
                summaries.append(entry.seq)
        staying.append(entry)
    new_of = {entry.seq: n for n, entry in enumerate(staying, start=1)}
    result: list[AnyEntry] = []
    for entry in staying:
        if isinstance(entry, Compression):
            first, last = entry.covers
            pool = summaries if entry.strategy == RETRACT else messages
            inside = [new_of[seq] for seq in pool if first <= seq <= last and seq in new_of]
            meta = dict(entry.meta)
            if "undoes" in meta:
                meta["undoes"] = [new_of[s] for s in meta["undoes"] if s in new_of]
            entry = msgspec.structs.replace(entry, covers=(min(inside), max(inside)), meta=meta)
        result.append(msgspec.structs.replace(entry, seq=new_of[entry.seq]))
    return result
