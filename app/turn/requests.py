"""What one model call sends: the tools it declares, the context it carries, the attachments
fitted to the model, and the ``Request`` made of them. A turn declares its tools once per
model and renders the context once per call; the inspector's preview of the next request
goes through the same ``Requests.request``, so what it shows is what a call sends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.context.service import ContextSource, Named
from app.history import Context, ModelInput
from app.notes import Note, ToolsLeftOut
from app.providers import Request, ToolSpec
from app.store import Conversation
from app.tools import Chosen, ToolBox
from app.turn.points import used_tools
from app.turn.settings import TurnSettings


class Fitting(Protocol):
    """Attachments as each model takes them (``app.attachments.sending.Sending``)."""

    def check(self, entry: ModelInput, provider: Any, model: str) -> None:
        """Refuse, before anything is written, what cannot be sent to this model."""
        ...

    def prepare(
        self, context: Context, provider: Any, model: str
    ) -> tuple[Context, tuple[Note, ...]]:
        """The context with every attachment as this model will get it, and the notes."""
        ...


class AsStored:
    """Attachments sent as they are stored: nothing refused, nothing changed."""

    def check(self, entry: ModelInput, provider: Any, model: str) -> None:
        return None

    def prepare(
        self, context: Context, provider: Any, model: str
    ) -> tuple[Context, tuple[Note, ...]]:
        return context, ()


@dataclass(frozen=True)
class Requests:
    contexts: ContextSource  # the context policy, token budget and compression
    sending: Fitting  # fits attachments to each provider
    toolbox: ToolBox  # the tools there are

    def declare(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        enabled: Sequence[str],
        settings: TurnSettings,
        *,
        at: int | None = None,
    ) -> Chosen:
        """The tools a request declares: every enabled one, unless their definitions would
        take more than ``settings.tool_share`` of the token budget (then ``Chosen.left_out``:
        the built-ins and the tools the path to ``at`` has called are kept first)."""
        limit = self.contexts.tool_limit(
            conversation.id, provider, model, settings.max_tokens, settings.tool_share
        )
        used = used_tools(conversation.history, at)
        return self.toolbox.choose(enabled, used, limit, exact=settings.exact_counts)

    def render(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        settings: TurnSettings,
        tools: Sequence[ToolSpec],
        *,
        at: int | None = None,
    ) -> Context:
        """The context of the path to message ``at`` (the active path by default) by the
        conversation's policy, with room kept for ``tools``."""
        return self.contexts.render(
            conversation, provider, model, tools=tools, max_tokens=settings.max_tokens, at=at,
            result_chars=settings.tool_result_chars, exact=settings.exact_counts,
        )  # fmt: skip

    async def fit(
        self, context: Context, provider: Named, model: str
    ) -> tuple[Context, tuple[Note, ...]]:
        """``context`` with its attachments as this model takes them, and the notes: reading
        and scaling images, off the event loop."""
        return await asyncio.to_thread(self.sending.prepare, context, provider, model)

    def request(
        self,
        conversation: Conversation,
        provider: Named,
        model: str,
        enabled: Sequence[str],
        settings: TurnSettings,
        *,
        at: int | None = None,
        fit: bool = True,
    ) -> Request:
        """What one call to ``provider:model`` would send now for the path to ``at``: the
        inspector's preview. ``fit`` off leaves attachments as stored (counting needs no image
        scaled)."""
        chosen = self.declare(conversation, provider, model, enabled, settings, at=at)
        context = self.render(conversation, provider, model, settings, chosen.specs, at=at)
        notes: tuple[Note, ...] = ()
        if fit:
            context, notes = self.sending.prepare(context, provider, model)
        return request_of(model, context, chosen, settings, notes)


def request_of(
    model: str,
    context: Context,
    chosen: Chosen,
    settings: TurnSettings,
    notes: tuple[Note, ...] = (),
) -> Request:
    """The request of a call: the context (its attachments fitted, ``notes`` saying how), the
    tools chosen and the settings' limits."""
    left_out = left_out_note(chosen, settings)
    return Request(
        model,
        context,
        chosen.specs,
        settings.max_tokens,
        settings.temperature,
        settings.reasoning,
        (*notes, left_out) if left_out else notes,
        chosen.left_out,
    )


def left_out_note(chosen: Chosen, settings: TurnSettings) -> ToolsLeftOut | None:
    """The tools not declared, over their share of the budget: the first five named."""
    left_out = chosen.left_out
    if not left_out:
        return None
    return ToolsLeftOut(
        count=len(left_out), share=settings.tool_share, names=tuple(left_out[:5]),
        more=len(left_out) > 5,
    )  # fmt: skip
