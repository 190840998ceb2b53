"""The row under a message in the chat: its actions (Copy, Edit, Regenerate…, Continue, Fork,
Remove from context), the switcher between its siblings, and its marks (edited, regenerated,
compared, removed from context, cut off); which a message gets, and what a click on one does.

Copying is done here. Edit is asked of the view (``edit_requested``: a box over the message,
``ui.chat.inline_edit``); the rest of the window (``requested``: ``ui.chat.branch_actions``).
The labels come from the view, whose translation context they are in.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication

from app.history import AnyEntry, History, ModelInput, ModelOutput
from app.history.context import CONTINUES
from app.history.entries import searchable_text
from app.store import branches
from app.turn import can_continue
from ui.chat.html import Actions
from ui.chat.markdown import plain_text

MESSAGE_ACTIONS = ("copy-markdown", "copy-text", "edit", "regenerate", "continue", "fork",
                   "exclude", "include", "sibling")  # fmt: skip


class MessageActions(QObject):
    copied = Signal(str)  # the text put on the clipboard
    # "regenerate", "continue", "fork", "exclude", "include", "sibling" (show that sibling's
    # branch); and the message's seq
    requested = Signal(str, int)
    edit_requested = Signal(int)  # the seq of the input to edit in place

    def __init__(self, labels: dict[str, str], parent: QObject) -> None:
        super().__init__(parent)
        self._labels = labels  # by action or mark
        self.history: History | None = None  # of the conversation shown, for its branches

    def row(self, entry: AnyEntry) -> Actions | None:
        """The row under a message: the actions that fit its kind, the switcher, its marks."""
        history = self.history
        if history is None or not isinstance(entry, ModelInput | ModelOutput):
            return None
        if not (1 <= entry.seq <= history.version and history.at(entry.seq) is entry):
            return None  # not from the history shown (a stale fragment)
        continued = any(CONTINUES in history.at(c).meta for c in history.children(entry.seq))
        if continued:
            return None  # the row is under the part that goes on from it
        found = branches.marks(history, entry.seq)
        siblings = history.siblings(entry.seq)
        at = found.position - 1
        names = ["copy-markdown"]
        if isinstance(entry, ModelInput):
            names.append("edit")
        else:
            names += ["copy-text", "regenerate"]
            if can_continue(history, entry):
                names.append("continue")
        names += ["fork", "include" if found.excluded else "exclude"]
        cut = isinstance(entry, ModelOutput) and entry.finish_reason == "length"
        marks = ["cut"] if cut else []
        marks += [
            mark
            for mark, on in (
                ("edited", found.edited),
                ("regenerated", found.regenerated),
                ("compared", bool(found.compared)),
                ("excluded", found.excluded),
            )
            if on
        ]
        return Actions(
            labels=self._labels,
            previous=siblings[at - 1] if at > 0 else None,
            following=siblings[at + 1] if at + 1 < len(siblings) else None,
            position=found.position,
            siblings=found.siblings,
            marks=tuple(marks),
            names=tuple(names),
        )

    def act(self, name: str, seq: int) -> None:
        """A click on action ``name`` (one of ``MESSAGE_ACTIONS``) under message ``seq``."""
        history = self.history
        if history is None or not (1 <= seq <= history.version and history.is_message(seq)):
            return  # a reply may contain a link of its own making: only real messages act
        entry = history.at(seq)
        if name == "copy-markdown":
            self.copy(whole_text(history, entry))
        elif name == "copy-text":
            self.copy(plain_text(whole_text(history, entry)))
        elif name == "edit":
            self.edit_requested.emit(seq)
        else:
            self.requested.emit(name, seq)

    def copy(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)

    def editable(self, seq: int) -> str | None:
        """The text of input ``seq``, to edit in place; None if it is not an input shown."""
        history = self.history
        if history is None or not history.is_message(seq):
            return None
        entry = history.at(seq)
        return entry.text if isinstance(entry, ModelInput) else None


def whole_text(history: History, entry: AnyEntry) -> str:
    """A message's text; for a reply continued from one cut off, both parts as one."""
    parts = [searchable_text(entry)]
    while CONTINUES in entry.meta and (before := history.seq_of(entry.meta[CONTINUES])):
        entry = history.at(before)
        parts.insert(0, searchable_text(entry))
    return "".join(parts)
