"""A rehearsal of a provider's first request (``CloudAdapter.prepare(rehearse=True)``): one
request and its streamed reply through the SDK, to a transport on this thread that answers
at once with a canned reply (no network), so what the SDK builds at its first request and
first reply is built on a worker, not on the window's event loop (docs/performance.md).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from app.history import Context, ModelInput
from app.providers.base import Request, ToolSpec

if TYPE_CHECKING:
    from app.providers.base import Provider

STAND_IN_URL = "http://rehearsal.invalid"  # never reached: the transport answers


def http_client(reply: bytes) -> Any:
    """An SDK's HTTP client whose every request is answered with ``reply`` as an event
    stream."""
    import httpx2

    def answer(request: httpx2.Request) -> httpx2.Response:
        headers = {"content-type": "text/event-stream"}
        return httpx2.Response(200, headers=headers, content=reply)

    return httpx2.AsyncClient(transport=httpx2.MockTransport(answer))


def stream_once(stand_in: Provider) -> None:
    """A request with a message and a tool through ``stand_in``'s own ``stream`` (a copy of an
    adapter whose client answers through ``http_client``), read to its end, then closed."""
    context = Context(None, None, (ModelInput(text="rehearsal"),))
    tool = ToolSpec("f", "d", {"type": "object"})
    request = Request("rehearsal", context, (tool,), max_tokens=1)

    async def once() -> None:
        try:
            async for _event in stand_in.stream(request):
                pass
        finally:
            await stand_in.aclose()

    asyncio.run(once())
