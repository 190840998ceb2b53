"""One open conversation as the store holds it, and what the store says about its writes.

A ``Conversation`` is the live object ``Library.open`` hands every caller in a process: its
header, its history, the writer of its file, and which of its entries other processes wrote.
This module also owns the rule that decides when a reply written meanwhile starts a branch of
its own (docs/architecture.md, "Stale replies become branches"), and ``Received``, what the
library did with entries from another device.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from app.history import (
    AnyEntry,
    Compression,
    History,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolResults,
)
from app.store.transcript import Appender, Header

# Entries that change what a model is answering: a reply built on a history that has since
# grown by one of these (written by another process) lands on a branch of its own.
CONVERSATIONAL = (ModelInput, ModelOutput, ToolResults, SystemInstruction, MemoryNotebook,
                  Compression)  # fmt: skip


@dataclass
class Conversation:
    """One open conversation: its header, its history, and the writer of its file.

    ``branched_at`` is the seq of the last reply that could not follow the history it was
    written for (another process continued the conversation meanwhile) and so started a
    branch of its own, next to theirs."""

    header: Header
    history: History
    appender: Appender
    branched_at: int | None = None
    # seqs of entries other processes wrote, read since this object was made
    foreign: set[int] = field(default_factory=set)
    # lines of its file that could not be read, or were read with repairs (file and line
    # each): everything readable is in ``history``, and the file is left as it is
    problems: list[str] = field(default_factory=list)
    # appends (from any thread: the window appends on a worker thread) and catch-ups take turns
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def path(self) -> Path:
        return self.appender.path


class Received(msgspec.Struct, frozen=True):
    """What ``Library.receive`` did with entries from another device."""

    conversation_id: str
    appended: list[AnyEntry]  # as written here (with this file's seqs)
    held: list[AnyEntry]  # entries that refer to one not here yet: for a later sync
    created: bool = False
    branches: tuple[int, ...] = ()  # first messages of branches that came with them
    kept: AnyEntry | None = None  # the select that kept this device's branch active (if any)
    size: int = 0  # the file's size just after (its entries then: up to the last appended)


def has_entry(history: History, entry: AnyEntry) -> bool:
    """Whether ``history`` already has ``entry`` (a line repeated further on in its file)."""
    if entry.seq > history.version:
        return False
    had = history.at(entry.seq)
    return had.id == entry.id if entry.id else had == entry


def beside_others(conversation: Conversation, seq: int, based_on: int | None) -> bool:
    """Whether message ``seq`` landed beside a message another process appended after
    ``based_on`` (its siblings of this process's own making, a regenerate's, do not count)."""
    history = conversation.history
    if based_on is None or not history.is_message(seq):
        return False
    return any(
        other > based_on and other in conversation.foreign for other in history.siblings(seq)
    )


def continued(conversation: Conversation, based_on: int) -> bool:
    """Whether other processes wrote entries after ``based_on`` that change what a reply
    written for it answers (this process's own, e.g. a tool's notebook update, do not)."""
    history = conversation.history
    return any(
        seq in conversation.foreign and isinstance(history.at(seq), CONVERSATIONAL)
        for seq in range(based_on + 1, history.version + 1)
    )
