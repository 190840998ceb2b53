"""Index queries off the UI thread: one worker thread, with its own SQLite connection to the
process's one library.

SQLite connections belong to the thread that made them, and a search over 100,000
conversations may take tens of milliseconds, so the window asks here and awaits the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from app.store import ConversationHits, Library, ReconcileReport
from app.store.index import ModelUsage

T = TypeVar("T")
USAGE_BATCH = 500  # ids per usage query: SQLite limits the parameters of one statement


class LibraryReader:
    def __init__(self, library: Library) -> None:
        self._library = library
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="library-reader")

    async def _ask(self, job: Callable[[Library], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: job(self._library))

    async def newest(
        self, limit: int, offset: int = 0, *, project: str | None = None
    ) -> list[dict[str, Any]]:
        """A page of the list; only a project's (an id, or ``NO_PROJECT``), if given."""
        return await self._ask(lambda lib: lib.newest(limit, offset, project=project))

    async def projects(self) -> list[dict[str, Any]]:
        """Every project (archived too), by name, each with how many conversations it holds:
        one query (the projects section shows no other count)."""
        return await self._ask(lambda lib: lib.index.projects())

    async def search(
        self, query: str, limit: int = 50, per_conversation: int = 20
    ) -> list[ConversationHits]:
        """The conversations whose messages match, each with its matching messages; a query
        that cannot run (e.g. an unknown filter) raises CrosstalkError saying what is accepted."""
        return await self._ask(lambda lib: lib.search(query, limit, per_conversation))

    async def usage_by_model(self, conversation_ids: list[str]) -> dict[str, list[ModelUsage]]:
        """What each model used in each conversation: one query per page of the list."""

        def job(lib: Library) -> dict[str, list[ModelUsage]]:
            found: dict[str, list[ModelUsage]] = {}
            for start in range(0, len(conversation_ids), USAGE_BATCH):
                found |= lib.usage_by_model(conversation_ids[start : start + USAGE_BATCH])
            return found

        return await self._ask(job)

    async def run(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the reader's thread: work on rows that would hold the window's."""
        return await self._ask(lambda _lib: job())

    async def count(self) -> int:
        return await self._ask(lambda lib: lib.index.count())

    async def reconcile(self) -> ReconcileReport:
        """Bring the index up to date with the files (at start, after the window is shown)."""
        return await self._ask(lambda lib: lib.reconcile())

    def close(self) -> None:
        self._executor.submit(self._library.close).result()  # this thread's connection
        self._executor.shutdown(wait=True)
