"""Indexing an import's batches in a process of its own (``app/transfer/batch_indexer.py``),
so the next batch is read, converted and written to disk while the last one is indexed, each
process on a core of its own (docs/indexing-speed.md).

One batch at a time, after the one before; a thread of this process waits for each answer,
so the importer holds a ``Future`` for it. If the indexer ends unexpectedly, the batch it was
indexing fails with a ``StorageError`` (the importer removes what that batch wrote: importing
again brings it), and the next batch starts a new indexer.
"""

from __future__ import annotations

import contextlib
import pickle
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from typing import IO, cast

from app.errors import StorageError
from app.own_processes import describe_exit, python_command
from app.paths import DataDir
from app.store.bulk_create import Written

CLOSE_TIMEOUT = 60.0  # closing the indexer's library: its log made durable


class BatchWriter:
    def __init__(self, data: DataDir) -> None:
        self.data = data
        self.process: subprocess.Popen[bytes] | None = None
        self.warnings: list[str] = []
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-indexer")

    def submit(self, written: Written) -> Future[list[bool]]:
        """Index these conversations, written (``bulk_create.write_files``), after the batch
        before; the future's result: ``written.done()``."""
        return self.pool.submit(self._index, written)

    def _index(self, written: Written) -> list[bool]:
        try:
            process = self._started()
        except OSError as exc:  # no Python to run it, no processes left, ...
            raise StorageError(cause="indexer_not_started", reason=str(exc)) from exc
        requests, replies = cast(IO[bytes], process.stdin), cast(IO[bytes], process.stdout)
        try:
            # pickled whole, then written in one call: written as it is pickled, a piece at a
            # time, each piece waited for Python's lock again, held by the reading thread
            requests.write(pickle.dumps(written.batch, protocol=pickle.HIGHEST_PROTOCOL))
            requests.flush()
            reply = pickle.load(replies)  # noqa: S301 (our child, over its pipe)
        except Exception as exc:  # gone, or its answer unreadable: it is not asked again
            raise self._ended() from exc
        if isinstance(reply, BaseException):
            raise reply
        return written.done()

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            command = python_command("app.transfer.batch_indexer", "--import-indexer")
            # a session of its own: a Ctrl-C at the terminal is the importer's alone, which
            # stops between batches; the indexer finishes the one it has
            self.process = subprocess.Popen(
                [*command, str(self.data.root)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=sys.platform != "win32",
                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
            )
        return self.process

    def _ended(self) -> StorageError:
        """The indexer is gone (killed, out of memory): why, as an error; the next batch
        starts another."""
        process, self.process = self.process, None
        assert process is not None
        if process.poll() is None:  # alive, but what it said could not be read
            process.kill()
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                cast(IO[bytes], pipe).close()
        return StorageError(cause="indexer_ended", status=describe_exit(_waited(process)))

    def close(self) -> list[str]:
        """Wait for the batch being indexed, end the indexer; the warnings it gathered."""
        self.pool.submit(self._close).result()
        self.pool.shutdown()
        return self.warnings

    def _close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        requests, replies = cast(IO[bytes], process.stdin), cast(IO[bytes], process.stdout)
        try:
            pickle.dump(None, requests)
            requests.close()
            self.warnings += pickle.load(replies)  # noqa: S301 (as above)
        except Exception:  # it ended before (every batch it answered is in the index), or
            process.kill()  # what it said cannot be read: its warnings are lost
        replies.close()
        returncode = _waited(process)
        if returncode:
            ended = StorageError(cause="indexer_ended", status=describe_exit(returncode))
            self.warnings.append(str(ended))


def _waited(process: subprocess.Popen[bytes]) -> int:
    """The process's return code, once it has ended (killed if it does not end in time)."""
    try:
        return process.wait(timeout=CLOSE_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()
