"""The window's loop closes async generators left unfinished (an SDK's stream, when a reply is
stopped) on the loop itself, as asyncio's own loop does (ui/shell/event_loop.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import qasync


def test_an_unfinished_async_generator_is_closed_on_the_loop(
    qasync_loop: qasync.QEventLoop,
) -> None:
    closed_on: list[object] = []

    async def stream() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:  # httpcore's stream needs a running loop here
            try:
                closed_on.append(asyncio.get_running_loop())
            except RuntimeError:
                closed_on.append(None)

    async def first() -> AsyncIterator[int]:
        chunks = stream()
        await chunks.__anext__()
        return chunks

    chunks = qasync_loop.run_until_complete(first())
    del chunks  # dropped outside the loop, as the garbage collector may do it
    qasync_loop.run_until_complete(asyncio.sleep(0.05))
    assert closed_on == [qasync_loop]
