"""Walking a conversation's tree: switching branches and removing messages from the context.

Each is one appended entry (``select``, ``exclude``); nothing is rewritten (docs/architecture.md,
"Branches"). ``leaves`` describes the branches for `crosstalk branches` and the window.
"""

from __future__ import annotations

import msgspec

from app.errors import NotFound
from app.history import AnyEntry, Exclude, History, ModelOutput, Select
from app.history.entries import searchable_text
from app.store.library import Conversation, Library


def message(history: History, seq: int, conversation_id: str) -> AnyEntry:
    """The message at ``seq``, or NotFound that says where to look."""
    if not (1 <= seq <= history.version and history.is_message(seq)):
        raise NotFound(cause="no_message", conversation=conversation_id, seq=seq)
    return history.at(seq)


def select(library: Library, conversation: Conversation, seq: int) -> bool:
    """Make the branch holding message ``seq`` the active one. False if it already was (then
    nothing is appended)."""
    history = conversation.history
    message(history, seq, conversation.id)
    if history.on_active_path(seq) and history.leaf_under(seq) == history.active_leaf:
        return False
    library.append(conversation, Select(target=history.id_of(seq)))
    return True


def exclude(library: Library, conversation: Conversation, seq: int, excluded: bool = True) -> bool:
    """Remove message ``seq`` from the live context (or put it back); it stays in the history.
    False if it already was so (then nothing is appended)."""
    history = conversation.history
    message(history, seq, conversation.id)
    if history.is_excluded(seq) == excluded:
        return False
    library.append(conversation, Exclude(target=history.id_of(seq), excluded=excluded))
    return True


class Leaf(msgspec.Struct, frozen=True):
    """One branch, described by its last message."""

    seq: int
    active: bool
    model: str  # of the branch's last reply ("" if it has none)
    text: str  # the last message's words
    fork: int  # the seq of the message where this branch left the active path (0: a root)
    messages: int  # messages on the branch, from its root

    def as_json(self) -> dict[str, object]:
        return {
            "seq": self.seq,
            "active": self.active,
            "model": self.model,
            "text": self.text,
            "fork": self.fork,
            "messages": self.messages,
        }


def leaves(history: History) -> list[Leaf]:
    """Every branch of the conversation, oldest first."""
    active = set(history.active_path())
    found: list[Leaf] = []
    for leaf in sorted(history.leaves()):
        path = history.path_to(leaf)
        shared = [seq for seq in path if seq in active]
        model = ""
        for seq in reversed(path):
            entry = history.at(seq)
            if isinstance(entry, ModelOutput):
                model = f"{entry.provider}:{entry.model}"
                break
        found.append(
            Leaf(
                seq=leaf,
                active=leaf == history.active_leaf,
                model=model,
                text=" ".join(words(history.at(leaf)).split()),
                fork=shared[-1] if shared else 0,
                messages=len(path),
            )
        )
    return found


def words(entry: AnyEntry) -> str:
    """What a message says, for a one-line description."""
    if isinstance(entry, ModelOutput) and not entry.text and entry.tool_calls:
        return "calls " + ", ".join(call.name for call in entry.tool_calls)
    if isinstance(entry, ModelOutput) and entry.error:
        return f"[failed: {entry.error}] {entry.text}"
    return searchable_text(entry)


class Marks(msgspec.Struct, frozen=True):
    """What the window and `crosstalk show` say about a message beside its text."""

    position: int  # 1-based among its siblings
    siblings: int  # how many alternatives there are (1: none)
    edited: bool  # an input that replaces an earlier one
    regenerated: bool  # a reply that answers again what another answered
    excluded: bool  # removed from the live context by the user
    compared: tuple[str, ...] = ()  # the models asked at once, for a compared reply


def marks(history: History, seq: int) -> Marks:
    entry = history.at(seq)
    siblings = history.siblings(seq)
    compared = entry.meta.get("compare", ()) if isinstance(entry, ModelOutput) else ()
    return Marks(
        position=siblings.index(seq) + 1,
        siblings=len(siblings),
        edited="edit_of" in entry.meta,
        regenerated=isinstance(entry, ModelOutput) and "regenerates" in entry.meta,
        excluded=history.is_excluded(seq),
        compared=tuple(compared),
    )
