"""Receiving many conversations (a first pull): fetched on a few threads at once, merged in
batches (``Library.receive_many``: one sync of the file system and one index transaction
each), the state saved now and then so that a sync cut short resumes where it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from app.history import AnyEntry
from app.store.transcript import Header
from app.sync import state as states
from app.sync.packs import Packs
from app.sync.run import Run
from app.sync.state import Peer

WORKERS = 8  # objects fetched at once
BATCH = 200  # conversations merged together
SAVE_EVERY = 2_000  # conversations merged between saves of the state (when there are many)


@dataclass
class Fetched:
    key: str  # the conversation's name on the remote
    header: Header
    entries: list[AnyEntry]


Wanted = dict[str, list[tuple[str, int, int]]]  # conversation key -> (device, batch, pack)
Fetch = Callable[[Run, Packs, str, list[tuple[str, int, int]]], Fetched]
Apply = Callable[[Run, list[Fetched]], set[str]]


def receive(run: Run, wanted: Wanted, fetch: Fetch, apply: Apply) -> set[tuple[str, str]]:
    """Fetch and merge each conversation's batches, a batch of conversations fetched while
    the one before is merged; the (device, key) not applied whole."""
    # those in the same pack together, so that a pack is fetched once and let go soon
    keys = sorted(wanted, key=lambda key: min(pack or 0 for _, _, pack in wanted[key]))
    packs = Packs(run.vault, Counter((d, p) for ws in wanted.values() for d, _, p in ws if p))
    total = sum(len(batches) for batches in wanted.values())
    held_back: set[tuple[str, str]] = set()
    if not keys:
        return held_back
    chunks = [keys[n : n + BATCH] for n in range(0, len(keys), BATCH)]
    done = since_saved = 0
    with ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="sync-fetch") as pool:

        def submit(chunk: list[str]) -> list[Future[Fetched]]:
            return [pool.submit(fetch, run, packs, key, wanted[key]) for key in chunk]

        pending = submit(chunks[0])
        try:
            for n in range(len(chunks)):
                run.check_cancel()
                fetched = [future.result() for future in pending]
                pending = submit(chunks[n + 1]) if n + 1 < len(chunks) else []
                held = apply(run, fetched)
                for one in fetched:
                    batches = wanted[one.key]
                    done += len(batches)
                    if one.key in held:
                        held_back.update((device, one.key) for device, _, _ in batches)
                    elif not run.dry_run:
                        for device, number, _ in batches:
                            peer = run.state.peers.setdefault(device, Peer())
                            last = peer.conversations.get(one.key, 0)
                            peer.conversations[one.key] = max(last, number)
                run.progress("receiving", done, total)
                since_saved += len(fetched)
                if since_saved >= SAVE_EVERY and not run.dry_run:  # a kill keeps what it did
                    states.save(run.library.data, run.state)
                    since_saved = 0
        finally:
            for future in pending:
                future.cancel()
    return held_back
