"""An import's indexer: a process of its own that indexes the batches an import writes
(``bulk_create.index_files``), while the importing process reads and writes the next one.

Why a process: building the index is most of an import's work after reading it, and much of it
is Python (a statement per message row, the transcripts read back). On a thread beside the
reading one, the two took turns at Python's lock, and a gigabyte's import was a third slower
than in two processes (docs/indexing-speed.md has the figures).

The parent (``app/transfer/batch_writer.py``) starts it with the data dir's path, then writes
pickled ``Batch``es to its stdin, one at a time, each answered on its stdout: None when indexed,
or the exception that stopped it. None instead of a batch, or the end of its stdin (the parent
is gone), ends it: its library is closed and the warnings it gathered sent back. Ctrl-C is the
parent's to handle: the batch under way is finished all the same.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from pathlib import Path
from typing import IO

from app.paths import DataDir
from app.store import Library
from app.store.bulk_create import Batch, index_files


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the importing process decides when to stop
    args = sys.argv[1:] if argv is None else argv
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(_stray_output(), sys.stdout.fileno())  # a stray print never garbles a reply
    library = Library(DataDir(Path(args[0])), reconcile=False)
    try:
        serve(library, sys.stdin.buffer, replies)
    finally:
        warnings = list(library.warnings)
        library.close()
    with contextlib.suppress(OSError):  # (the parent may be gone)
        pickle.dump(warnings, replies)
        replies.flush()
    return 0


def _stray_output() -> int:
    """Where a print goes: the importer's stderr, or nowhere if it has none (a window started
    from the desktop may have none)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return os.open(os.devnull, os.O_WRONLY)


def serve(library: Library, requests: IO[bytes], replies: IO[bytes]) -> None:
    """Index each batch read from ``requests``, answering on ``replies``, until told to end."""
    while True:
        try:
            batch = pickle.load(requests)  # noqa: S301 (from the parent, over our pipe)
        except EOFError:
            return
        if batch is None:
            return
        assert isinstance(batch, Batch)
        reply: Exception | None = None
        try:
            index_files(library, batch)
        except Exception as exc:  # a bug: the parent raises it as its own
            reply = exc
        try:
            data = pickle.dumps(reply)
        except Exception:  # an exception that cannot be pickled: its words
            data = pickle.dumps(RuntimeError(f"{type(reply).__name__}: {reply}"))
        replies.write(data)
        replies.flush()


if __name__ == "__main__":
    sys.exit(main())
