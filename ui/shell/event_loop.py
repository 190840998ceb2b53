"""asyncio on Qt's event loop (qasync), with what asyncio's own loop would set up.

qasync runs Qt's loop rather than asyncio's ``run_forever``, so it never installs asyncio's
hooks for async generators. Without them, a generator left unfinished (an SDK's stream, when a
reply is stopped) is finalized wherever the garbage collector happens to run, outside any loop:
httpcore then fails with "Exception ignored ... AsyncLibraryNotFoundError" (bench/session.py
found it). With them the loop closes such generators itself. The hooks are the loop's private
methods (listed, with their test, in ``app/private_apis.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def asyncgen_hooks(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While inside: async generators first iterated are finalized on ``loop``, as
    ``BaseEventLoop.run_forever`` arranges for its own; the previous hooks come back after."""
    previous = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(
        firstiter=loop._asyncgen_firstiter_hook,  # type: ignore[attr-defined]
        finalizer=loop._asyncgen_finalizer_hook,  # type: ignore[attr-defined]
    )
    try:
        yield
    finally:
        sys.set_asyncgen_hooks(*previous)
