"""The append-only history of one conversation; ``seq`` is its version.

Its messages (inputs, replies, tool results) form a tree: each names the message it follows
(``parent``, an id). Editing an input or regenerating a reply appends a sibling; nothing is ever
overwritten. Which branch is shown and sent, the *active path*, runs from a root to the active
leaf: at each fork it takes the child whose subtree was touched last, by a message appended
there or by a ``select`` entry naming a message in it. So the newest branch is active until the
user switches, and a switch is one appended entry (docs/architecture.md, "Branches").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

import msgspec

from app.errors import TranscriptError
from app.history.entries import (
    MESSAGE_KINDS,
    AnyEntry,
    Compression,
    DebugLog,
    Exclude,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Select,
    SystemInstruction,
    Title,
    Usage,
    entry_id,
    utc_now,
)
from app.ids import new_id

E = TypeVar("E", bound=AnyEntry)
ROOT = 0  # the parent of a conversation's first messages
# the debug logs of a turn's knowledge step (``app.knowledge.retrieval.CATEGORY``, which
# imports this module): they record the call that rewrote the question before the search
KNOWLEDGE_LOG = "knowledge"


class History:
    """Entries in order, seq 1, 2, 3 ... Nothing is ever edited or removed."""

    def __init__(self, entries: Iterable[AnyEntry] = ()) -> None:
        self._entries: list[AnyEntry] = []
        self._seq_of: dict[str, int] = {}  # entry id -> seq
        self._parent: dict[int, int] = {}  # message seq -> the message it follows (ROOT)
        self._children: dict[int, list[int]] = {ROOT: []}  # message seq -> its followers
        self._anchor: dict[int, int] = {}  # compression seq -> the message it was made at
        self._selects: list[tuple[int, int]] = []  # (select seq, selected message seq)
        self._excluded: dict[int, bool] = {}  # message seq -> removed from context
        self._last_message = ROOT  # in file order: what a message without an id follows
        self._leaf: int | None = ROOT  # the active leaf; None: to be worked out again
        self._path: tuple[int, list[int], set[int]] = (ROOT, [], set())  # of the active leaf
        self._title: Title | None = None
        for expected, entry in enumerate(entries, start=1):
            if entry.seq != expected:
                raise TranscriptError(
                    f"entry seq {entry.seq} where {expected} was expected; the history has a gap"
                )
            self._add(entry)

    @property
    def version(self) -> int:
        return len(self._entries)

    def stamp(self, entry: E, after: int | None = None) -> E:
        """The entry as it will be appended next: with the next seq, the current time, an id,
        and for a message or compression, the message it follows (``after``, a seq; ROOT for
        none; by default the active leaf)."""
        if isinstance(entry, (*MESSAGE_KINDS, Compression)):
            at = self.active_leaf if after is None else after
            parent = self.id_of(at) if at != ROOT else None
        else:
            parent = None
        return msgspec.structs.replace(
            entry,
            seq=self.version + 1,
            ts=entry.ts or utc_now(),
            id=entry.id or new_id(),
            parent=parent,
        )

    def append(self, entry: AnyEntry) -> None:
        if entry.seq != self.version + 1:
            raise ValueError(f"append of seq {entry.seq} to a history at version {self.version}")
        self._add(entry)

    def _add(self, entry: AnyEntry) -> None:
        self._entries.append(entry)
        seq = entry.seq
        self._seq_of[entry_id(entry)] = seq
        if isinstance(entry, MESSAGE_KINDS):
            parent = self._resolve(entry)
            self._parent[seq] = parent
            self._children.setdefault(parent, []).append(seq)
            self._children[seq] = []
            self._last_message = seq
            self._leaf = seq  # the newest message is the newest branch's leaf
        elif isinstance(entry, Compression):
            self._anchor[seq] = self._resolve(entry)
        elif isinstance(entry, Select):
            if (target := self._message(entry.target)) is not None:
                self._selects.append((seq, target))
                self._leaf = None
        elif isinstance(entry, Exclude) and (target := self._message(entry.target)) is not None:
            self._excluded[target] = entry.excluded
        elif isinstance(entry, Title) and (
            self._title is None or (entry.ts, entry.id) >= (self._title.ts, self._title.id)
        ):
            self._title = entry

    def _resolve(self, entry: AnyEntry) -> int:
        """The seq of the message an entry follows. One written before ids existed follows the
        message before it, as does one whose parent is unknown (a damaged line)."""
        if not entry.id:
            return self._last_message
        if entry.parent is None:
            return ROOT
        parent = self._message(entry.parent)
        return self._last_message if parent is None else parent

    def _message(self, entry_id_: str) -> int | None:
        seq = self._seq_of.get(entry_id_)
        return seq if seq is not None and seq in self._parent else None

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

    # --- the tree --------------------------------------------------------------------------

    def id_of(self, seq: int) -> str:
        return entry_id(self.at(seq))

    def seq_of(self, entry_id_: str) -> int | None:
        return self._seq_of.get(entry_id_)

    def has(self, entry_id_: str) -> bool:
        return entry_id_ in self._seq_of

    def is_message(self, seq: int) -> bool:
        return seq in self._parent

    def parent_of(self, seq: int) -> int:
        """The message a message follows (ROOT for a first message)."""
        return self._parent[seq]

    def anchor_of(self, compression_seq: int) -> int:
        """The message a compression was made at: it applies to the paths through it."""
        return self._anchor[compression_seq]

    def children(self, seq: int) -> list[int]:
        return self._children.get(seq, [])

    def siblings(self, seq: int) -> list[int]:
        """The messages that follow the same message as ``seq`` (itself included), oldest
        first: the alternatives a "2/3" switcher moves between."""
        return self._children[self._parent[seq]]

    def leaves(self) -> list[int]:
        return [seq for seq in self._parent if not self._children[seq]]

    def path_to(self, seq: int) -> list[int]:
        """The message seqs from a root to ``seq``, in order (empty for ROOT)."""
        path: list[int] = []
        while seq != ROOT:
            path.append(seq)
            seq = self._parent[seq]
        path.reverse()
        return path

    def is_excluded(self, seq: int) -> bool:
        """Whether the user removed this message from the live context."""
        return self._excluded.get(seq, False)

    @property
    def excluded(self) -> set[int]:
        return {seq for seq, out in self._excluded.items() if out}

    @property
    def active_leaf(self) -> int:
        """The last message of the branch that is shown and sent (ROOT: no messages yet)."""
        if self._leaf is None:
            self._leaf = self.leaf_under(ROOT)
        return self._leaf

    def leaf_under(self, seq: int) -> int:
        """The leaf the active path reaches from ``seq`` down: at each fork, the child whose
        subtree was touched last (a message appended in it, or a select naming one)."""
        touched = {message: message for message in self._parent}
        for select_seq, target in self._selects:
            touched[target] = max(touched[target], select_seq)
        for message in sorted(self._parent, reverse=True):  # children before their parents
            parent = self._parent[message]
            if parent != ROOT and touched[message] > touched[parent]:
                touched[parent] = touched[message]
        while children := self._children.get(seq):
            seq = max(children, key=touched.__getitem__)
        return seq

    def active_path(self) -> list[int]:
        leaf = self.active_leaf
        if self._path[0] != leaf:
            path = self.path_to(leaf)
            self._path = (leaf, path, set(path))
        return self._path[1]

    def on_active_path(self, seq: int) -> bool:
        self.active_path()
        return seq in self._path[2]

    def active_entries(self) -> list[AnyEntry]:
        """The entries of the active branch, in order: its messages and the entries that are
        not messages, less compressions made on another branch."""
        return self.path_entries()

    def path_entries(self, leaf: int | None = None) -> list[AnyEntry]:
        """The entries of the path to message ``leaf`` (by default the active branch)."""
        if leaf is None or leaf == self.active_leaf:
            self.active_path()
            on_path = self._path[2]
        else:
            on_path = set(self.path_to(leaf))
        return [
            entry
            for entry in self._entries
            if (
                entry.seq in on_path
                if entry.seq in self._parent
                else self._anchor.get(entry.seq, ROOT) in on_path
                or self._anchor.get(entry.seq, ROOT) == ROOT
            )
        ]

    # --- derived facts, each from the latest entry that sets them -------------------------

    def _latest(self, kind: type[E]) -> E | None:
        for entry in reversed(self._entries):
            if isinstance(entry, kind):
                return entry
        return None

    @property
    def title(self) -> str | None:
        """The newest title by time, not by place in the file: devices that synced each
        other's renames hold them in different orders, and agree (docs/sync.md)."""
        return self._title.text if self._title else None

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
        """The last reply on the active path."""
        for seq in reversed(self.active_path()):
            entry = self._entries[seq - 1]
            if isinstance(entry, ModelOutput):
                return entry
        return None

    @property
    def turn_count(self) -> int:
        return sum(isinstance(e, ModelInput) for e in self._entries)

    def usage(self) -> Usage:
        """Every call's usage, on every branch: what the conversation cost. The calls are the
        replies, the compressions and the rewrites of a question before the user's documents
        were searched (``rewrite_call``), as the ledger counts them (``app.inspect.ledger``)."""
        total = Usage()
        for entry in self._entries:
            if isinstance(entry, ModelOutput | Compression):
                total = total + entry.usage
            elif (call := rewrite_call(entry)) is not None:
                total = total + call[1]
        return total


def rewrite_call(entry: AnyEntry) -> tuple[str, Usage] | None:
    """The call a knowledge step's debug log records (``Retrieval.rewrite_model`` and
    ``rewrite_usage``): the "provider:model" that rewrote the question and its usage; None
    for another entry, a question not rewritten by a model, or a call that reported no
    tokens. Read from the meta as written, not the whole record (the passages' texts)."""
    if not isinstance(entry, DebugLog) or entry.category != KNOWLEDGE_LOG:
        return None
    spec, used = entry.meta.get("rewrite_model"), entry.meta.get("rewrite_usage")
    if not isinstance(spec, str) or not isinstance(used, dict):
        return None
    try:
        usage = msgspec.convert(used, Usage)
    except msgspec.ValidationError:
        return None
    return (spec, usage) if usage != Usage() else None
