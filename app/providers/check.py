"""Check that a provider answers: one tiny request, used by Settings' "Test" button."""

from __future__ import annotations

import time

from app.history import Context, ModelInput
from app.providers.base import Finished, Provider, Request, TextDelta


async def ping(provider: Provider, model: str) -> str:
    """Ask for a one-word reply; returns a one-line report, raises the provider's own errors."""
    context = Context(system=None, notebook=None, entries=(ModelInput(text="Say OK."),))
    started = time.monotonic()
    text, finished = "", False
    async for event in provider.stream(Request(model, context, max_tokens=8)):
        if isinstance(event, TextDelta):
            text += event.text
        elif isinstance(event, Finished):
            finished = True
    seconds = time.monotonic() - started
    reply = " ".join(text.split())[:40] or "(no text)"
    state = "answered" if finished else "answered without finishing"
    return f"{provider.name}:{model} {state} in {seconds:.1f} s: {reply}"
