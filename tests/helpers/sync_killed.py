"""A device's sync in a process of its own, to be killed with SIGKILL part-way (the sync's fault
tests, tests/sync/test_faults.py): nothing of the engine's runs on the way out, as when a laptop
loses power.

    python -m tests.helpers.sync_killed DATA FOLDER DEVICE [--kill-at K] [--kill-at-save S]
                                        [--slow SECONDS] [--batch N] [--bulk N] [--v1]

Syncs the library in DATA with the folder remote FOLDER as DEVICE. ``--kill-at K``: the
process kills itself just before its K-th remote call (1-based); ``--kill-at-save S``: just
before the S-th write of its sync state (e.g. after the manifest went out, before the state
says so); ``--slow``: every remote call waits that long first, so that a kill from outside
after a random delay lands mid-sync; ``--batch``: conversations per commit; ``--bulk``:
conversations received per batch (and the state saved every two); ``--v1``: the sync of a
Crosstalk from before heads and changes (``tests/helpers/sync_v1``). On a finished sync it
prints one JSON line: the number of remote calls and the report.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from app.paths import DataDir
from app.settings_sync import SyncConfig
from app.store.library import Library
from app.sync import engine
from app.sync import state as states
from app.sync.remote import Remote


class Dying:
    """The remote, with a death before call ``kill_at``."""

    def __init__(self, inner: Remote, kill_at: int | None, slow: float) -> None:
        self.inner = inner
        self.description = inner.description
        self.kill_at = kill_at
        self.slow = slow
        self.calls = 0
        self._counting = threading.Lock()  # (a pull fetches on several threads)

    def _before(self) -> None:
        with self._counting:
            self.calls += 1
            mine = self.calls
        if mine == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        if self.slow:
            time.sleep(self.slow)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def call(*args: Any) -> Any:
            self._before()
            return method(*args)

        return call


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("device")
    parser.add_argument("--kill-at", type=int)
    parser.add_argument("--kill-at-save", type=int)
    parser.add_argument("--slow", type=float, default=0.0)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--bulk", type=int, help="conversations received per batch")
    parser.add_argument("--v1", action="store_true", help="sync as before heads and changes")
    args = parser.parse_args()
    sync_engine: Any = engine
    sync_states: Any = states
    if args.v1:
        from tests.helpers.sync_v1 import engine as v1_engine
        from tests.helpers.sync_v1 import state as v1_states

        sync_engine, sync_states = v1_engine, v1_states
    if args.batch:
        sync_engine.BATCH = args.batch
    if args.bulk:  # a batch of received conversations, and a save of the state every two
        from app.sync import bulk

        bulk.BATCH, bulk.SAVE_EVERY = args.bulk, 2 * args.bulk
    if args.kill_at_save:
        save, saves = sync_states.save, [0]

        def dying_save(data: DataDir, state: states.State) -> None:
            saves[0] += 1
            if saves[0] == args.kill_at_save:
                os.kill(os.getpid(), signal.SIGKILL)
            save(data, state)

        sync_states.save = dying_save
    config = SyncConfig(url=args.folder.as_uri(), device=args.device)
    library = Library(DataDir(args.data))
    vault = sync_engine.open_vault(config, {})
    remote = Dying(vault.remote, args.kill_at, args.slow)
    vault.remote = remote  # type: ignore[assignment]
    print("syncing", file=sys.stderr, flush=True)  # a kill from outside is timed from here
    report = sync_engine.sync(library, vault)
    library.close()
    print(json.dumps({"calls": remote.calls, "report": report.as_json()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
