"""The MCP thread: one asyncio loop on a daemon thread named "mcp", where every server's
session runs, and the sessions running on it.

Each session is one task on this loop (the SDK's anyio scopes must be left by the task that
entered them), parked until it is stopped. Callers on any loop await futures of coroutines
run here (``run``); cancelling the caller cancels the call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from app.mcp.values import ServerInfo

if TYPE_CHECKING:
    from app.mcp.connection import Client

T = TypeVar("T")
CLOSE_SECONDS = 10  # for the servers to stop, then for the thread to end


@dataclass
class Running:
    """One server's open session: ``stopped`` set ends it (its task leaves the session)."""

    client: Client
    info: ServerInfo
    stopped: asyncio.Event
    task: asyncio.Task[None]
    log: Path

    @property
    def alive(self) -> bool:
        return not self.stopped.is_set()


@dataclass
class LoopThread:
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    running: dict[str, Running] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)  # one start at a time

    @classmethod
    def start(cls) -> LoopThread:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="mcp", daemon=True)
        thread.start()
        return cls(loop, thread)

    def run(self, coro: Coroutine[Any, Any, T]) -> Awaitable[T]:
        """Run ``coro`` on this loop; await the result on the caller's loop."""
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def close(self) -> None:
        """Stop every session, then the loop and the thread (called from another thread)."""
        stopping = asyncio.run_coroutine_threadsafe(self._stop_all(), self.loop)
        with contextlib.suppress(concurrent.futures.TimeoutError, Exception):
            stopping.result(CLOSE_SECONDS)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(CLOSE_SECONDS)
        if not self.thread.is_alive():
            self.loop.close()

    async def _stop_all(self) -> None:
        lives = list(self.running.values())
        self.running.clear()
        for live in lives:
            live.stopped.set()
        await asyncio.gather(*(live.task for live in lives), return_exceptions=True)
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
