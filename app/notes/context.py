"""What the next request leaves out and why, what a ledger row's status is, how its tokens
were counted and what it sets (app/history/context.py, app/history/outline.py,
app/inspect/ledger.py, app/inspect/next_request.py)."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Failure, Note, Templates


class LeftOut(Note, frozen=True):
    """An entry the next request does not carry, for a reason of its own."""

    TEMPLATES: ClassVar[Templates] = {
        "failed_empty": QT_TRANSLATE_NOOP("Notes", "failed reply with no content"),
        "superseded": QT_TRANSLATE_NOOP("Notes", "superseded by a retry"),
        "broken_calls": QT_TRANSLATE_NOOP("Notes", "tool calls of a broken reply, never run"),
        "removed": QT_TRANSLATE_NOOP("Notes", "removed from context by the user"),
        "before_first_input": QT_TRANSLATE_NOOP(
            "Notes", "before the first input: a reply must answer something"
        ),
    }
    cause: Literal["failed_empty", "superseded", "broken_calls", "removed", "before_first_input"]


class OutsideWindow(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "window: older than the last {turns} turns")
    turns: int


class OverBudget(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP(
        "Notes", "budget: over {tokens} tokens (older turns fall out first)"
    )
    COUNTS = frozenset({"tokens"})
    tokens: int


class Covered(Note, frozen=True):
    """Entries a standing compression's summary stands in for (``covered``), or leaves out
    before its range (``left_out``: a last-n compression summarises only the last)."""

    TEMPLATES: ClassVar[Templates] = {
        "covered": QT_TRANSLATE_NOOP("Notes", "covered by compression seq {seq} ({strategy})"),
        "left_out": QT_TRANSLATE_NOOP(
            "Notes", "left out by compression seq {seq} ({strategy}): only the last are summarised"
        ),
    }
    cause: Literal["covered", "left_out"]
    seq: int
    strategy: str


class FirstInputCut(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP(
        "Notes",
        "first input: only its first part is carried ({tokens} tokens, over half the budget)",
    )
    COUNTS = frozenset({"tokens"})
    tokens: int


class CompressionUnused(Note, frozen=True):
    """A compression that does not stand: undone, superseded by a newer one, or unusable."""

    TEMPLATES: ClassVar[Templates] = {
        "undone": QT_TRANSLATE_NOOP("Notes", "compression undone by seq {by}"),
        "superseded": QT_TRANSLATE_NOOP("Notes", "compression superseded by seq {by}"),
        "empty": QT_TRANSLATE_NOOP("Notes", "compression not used: its summary is empty"),
        "out_of_range": QT_TRANSLATE_NOOP(
            "Notes", "compression not used: it covers seq {first}-{last}, not entries before it"
        ),
    }
    cause: Literal["undone", "superseded", "empty", "out_of_range"]
    by: int = 0
    first: int = 0
    last: int = 0


Status = Literal[
    "partial", "stopped", "other_branch", "retried", "replaced", "undoes", "retracted",
    "superseded", "empty", "out_of_range",
]  # fmt: skip


class RowStatus(Note, frozen=True):
    """A part of a ledger row's status (a row may have several: "partial; other branch")."""

    TEMPLATES: ClassVar[Templates] = {
        "partial": QT_TRANSLATE_NOOP("Notes", "partial"),
        "stopped": QT_TRANSLATE_NOOP("Notes", "partial: stopped by the user"),
        "other_branch": QT_TRANSLATE_NOOP("Notes", "other branch"),
        "retried": QT_TRANSLATE_NOOP("Notes", "retried at seq {seq}"),
        "replaced": QT_TRANSLATE_NOOP("Notes", "replaced by seq {seq}"),
        "undoes": QT_TRANSLATE_NOOP("Notes", "undoes {first}-{last}"),
        "retracted": QT_TRANSLATE_NOOP("Notes", "retracted by seq {seq}"),
        "superseded": QT_TRANSLATE_NOOP("Notes", "superseded by seq {seq}"),
        "empty": QT_TRANSLATE_NOOP("Notes", "not used: its summary is empty"),
        "out_of_range": QT_TRANSLATE_NOOP(
            "Notes", "not used: it covers seq {first}-{last}, not entries before it"
        ),
    }
    cause: Status
    seq: int = 0
    first: int = 0
    last: int = 0


class Failed(Note, frozen=True):
    """A reply whose call failed, and why, as its transcript keeps it."""

    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "failed: {error}")
    error: Failure


class Counting(Note, frozen=True):
    """How a request's tokens were counted: with OpenAI's own tokenizer, or estimated with
    it for a provider (``who``) that counts its own way."""

    TEMPLATES: ClassVar[Templates] = {
        "estimated": QT_TRANSLATE_NOOP(
            "Notes", "estimated with {encoding} ({who} counts differently)"
        ),
        "estimated_local": QT_TRANSLATE_NOOP(
            "Notes", "estimated with {encoding} (the local model counts differently)"
        ),
        "exact": QT_TRANSLATE_NOOP("Notes", "exact (OpenAI's own tokenizer, {encoding})"),
    }
    cause: Literal["estimated", "estimated_local", "exact"]
    encoding: str
    who: str = ""


class Sampling(Note, frozen=True):
    """One thing a request sets instead of leaving it to the model."""

    TEMPLATES: ClassVar[Templates] = {
        "temperature": QT_TRANSLATE_NOOP("Notes", "temperature {temperature}"),
        "max_tokens": QT_TRANSLATE_NOOP("Notes", "at most {tokens} tokens"),
        "thinking_low": QT_TRANSLATE_NOOP("Notes", "thinking low"),
        "thinking_medium": QT_TRANSLATE_NOOP("Notes", "thinking medium"),
        "thinking_high": QT_TRANSLATE_NOOP("Notes", "thinking high"),
        "thinking": QT_TRANSLATE_NOOP("Notes", "thinking {effort}"),
    }
    COUNTS = frozenset({"tokens"})
    cause: Literal["temperature", "max_tokens", "thinking"]
    temperature: float = 0.0
    tokens: int = 0
    effort: str = ""

    def variant(self) -> str:
        if self.cause == "thinking" and f"thinking_{self.effort}" in self.TEMPLATES:
            return f"thinking_{self.effort}"
        return self.cause
