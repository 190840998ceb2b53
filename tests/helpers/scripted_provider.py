"""A provider that plays back a script: events, pauses and errors, for turn and UI tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from app.notes import Text
from app.providers import Rendered, Request, StreamEvent


@dataclass(frozen=True)
class Pause:
    seconds: float


Step = StreamEvent | Pause | BaseException


@dataclass
class ScriptedProvider:
    name: str = "scripted"
    model_names: Sequence[str] = ("echo",)
    scripts: list[list[Step]] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)

    def models(self) -> Sequence[str]:
        return list(self.model_names)

    def render(self, request: Request) -> Rendered:
        notes = (Text(text="scripted: nothing is sent anywhere"),)
        return Rendered({"model": request.model, "entries": len(request.context.entries)}, notes)

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        for step in self.scripts.pop(0):
            if isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, BaseException):
                raise step
            else:
                yield step

    async def aclose(self) -> None:
        pass
