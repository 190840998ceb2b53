"""A writer process that dies between writing a transcript and indexing it.

Tests that write a transcript behind the index's back stand for such a crash. What a real one
leaves on disk, besides the write, is its writer lease (``app/store/writers.py``): the file
stays, its lock goes with the process. ``leave_dead_writer`` makes exactly that, with a real
process that takes a lease mid-write and is killed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.paths import DataDir

CHILD = """
import os, signal, sys
from pathlib import Path
from app.store.writers import Lease
lease = Lease(Path(sys.argv[1]), Path(sys.argv[2]))
with lease.writing():
    os.kill(os.getpid(), signal.SIGKILL)
"""


def leave_dead_writer(data: DataDir) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(data.writers), f"{data.index_db}-wal"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == -9, done.stderr
    assert list(data.writers.glob("*.lease")), "the killed writer left no lease"
