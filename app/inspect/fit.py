"""Whether a message fits the chosen model before it is sent, and the message cut to fit.

The next request is counted with the message in it (``next_request``: the same rendering the
turn does). When it is over the model's window, the command line refuses and the window asks,
both with the numbers and the ways out: send the message trimmed, compress the history first,
or pick a model with a larger window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.context.tokens import bound_text, count_text
from app.history import Attachment
from app.inspect.next_request import next_request

if TYPE_CHECKING:
    from app.composition import Services
    from app.store import Conversation

MARGIN = 256  # tokens kept free beyond the count: framing the estimate may miss
TRIMMED = "\n[… trimmed here to fit {spec}'s window of {window:,} tokens]"


@dataclass(frozen=True)
class Fit:
    spec: str
    total: int  # the whole request with the message, as counted
    message: int  # the message's own tokens
    window: int

    @property
    def fits(self) -> bool:
        return self.total + MARGIN <= self.window

    @property
    def room(self) -> int:
        """How many tokens the message may have for the request to fit."""
        return max(self.window - (self.total - self.message) - MARGIN, 0)

    def explain(self) -> str:
        return (
            f"this message is about {self.message:,} tokens; with what the conversation carries "
            f"the request would be about {self.total:,}, over {self.spec}'s window of "
            f"{self.window:,}"
        )


def measure(
    services: Services,
    conversation: Conversation | None,
    spec: str,
    text: str,
    attachments: Sequence[Attachment] = (),
) -> Fit:
    upcoming = next_request(services, conversation, spec, draft=text, render=False,
                            attachments=attachments, exact=False)  # fmt: skip
    if upcoming.tokens is None and upcoming.budget is not None:
        # fits its budget by bounds (no vocabulary loaded): within the window if the budget is
        bound = upcoming.budget + upcoming.tool_tokens
        if bound + MARGIN <= upcoming.window:
            return Fit(spec, bound, bound_text(text), upcoming.window)
        upcoming = next_request(services, conversation, spec, draft=text, render=False,
                                attachments=attachments)  # fmt: skip
    total = (upcoming.tokens or 0) + upcoming.tool_tokens
    return Fit(spec, total, count_text(text), upcoming.window)


def trimmed(text: str, fit: Fit) -> str:
    """The beginning of ``text`` that leaves the request inside the window, cut at a word
    boundary, with a line saying it was cut."""
    if fit.fits or not text:
        return text
    note = TRIMMED.format(spec=fit.spec, window=fit.window)
    keep = int(len(text) * max(fit.room - count_text(note), 0) / max(fit.message, 1))
    head = text[:keep]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head + note
