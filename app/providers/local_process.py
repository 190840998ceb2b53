"""The parent's side of the built-in model's process (``local_worker``): start it on first use,
send it requests, route its lines to the replies waiting for them, notice when it dies, stop it
when idle or at exit.

Plain threads, not asyncio: one worker serves every event loop of the process (the window's,
and each ``asyncio.run`` of the command line), and a reply's events are handed to its own loop
with ``call_soon_threadsafe``. Why a process and not a thread: docs/local-model.md.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from app.errors import BadRequest, CrosstalkError, Unavailable
from app.own_processes import describe_exit, python_command

START_TIMEOUT = 120.0  # loading and the self-test take well under a second; a slow disk more
CANCEL_GRACE = 0.2  # a reply not stopped by then (a long prompt) is stopped with its process
IDLE_SECONDS = 300.0  # memory goes back to the user after five idle minutes

Sink = Callable[[dict[str, Any] | CrosstalkError], None]


def fix_command() -> str:
    """The one command that installs a llama.cpp build suited to this CPU."""
    if getattr(sys, "frozen", False):
        return "reinstall Crosstalk from its latest package"
    script = Path(__file__).resolve().parents[2] / "scripts" / "install"
    return f"run `{script} --rebuild`" if script.exists() else "reinstall Crosstalk"


def worker_command(model: Path, n_ctx: int, threads: int | None) -> list[str]:
    command = python_command("app.providers.local_worker", "--local-model-worker")
    command += ["--model", str(model), "--n-ctx", str(n_ctx)]
    return command + (["--threads", str(threads)] if threads else [])


def worker_environment() -> dict[str, str]:
    """The worker's environment: llama.cpp's OpenMP threads spin only briefly before they
    sleep. Spinning freely, they fought the window's own thread for the cores (a short reply
    took many times as long beside the window); sleeping at once cost much of the speed on a
    quiet machine. A short spin keeps both (docs/local-model.md has the figures)."""
    return {"GOMP_SPINCOUNT": "20000"} | dict(os.environ)


@dataclass
class Job:
    id: int
    sink: Sink
    done: threading.Event = field(default_factory=threading.Event)


class WorkerProcess:
    """One running ``local_worker``; dead for good once it exits (a new one is started)."""

    def __init__(self, command: list[str], on_idle: Callable[[], None] = lambda: None) -> None:
        self._on_idle = on_idle
        self.ready = threading.Event()
        self.info: dict[str, Any] = {}
        self.failure: CrosstalkError | None = None
        self._jobs: dict[int, Job] = {}
        self._lock = threading.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stopping = False
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # the terminal's Ctrl-C is the parent's to handle
            env=worker_environment(),
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        for target, stream in (
            (self._read, self.proc.stdout),
            (self._drain, self.proc.stderr),
            (self._write, self.proc.stdin),
        ):
            threading.Thread(target=target, args=(stream,), daemon=True).start()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None and self.failure is None

    @property
    def busy(self) -> bool:
        with self._lock:
            return bool(self._jobs)

    def submit(self, job: Job, body: dict[str, Any]) -> None:
        with self._lock:
            if self.failure is not None:
                raise self.failure
            self._jobs[job.id] = job
        self._send({"op": "generate", "id": job.id, **body})

    def cancel(self, job: Job) -> None:
        """Stop a reply at its next token; if the worker has not stopped it within
        ``CANCEL_GRACE`` (a long prompt is evaluated in one go), the worker is stopped."""
        if job.done.is_set():
            return
        self._send({"op": "cancel", "id": job.id})

        def enforce() -> None:
            if not job.done.wait(CANCEL_GRACE):
                self.kill(Unavailable(cause="local_restarted", seconds=CANCEL_GRACE))

        threading.Thread(target=enforce, daemon=True).start()

    def stop(self, timeout: float = 2.0) -> None:
        """Close its input (it exits at once); kill it if it does not."""
        self._stopping = True
        self._outbox.put(None)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def kill(self, failure: Unavailable) -> None:
        with self._lock:
            self.failure = self.failure or failure
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    # --- threads --------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        self._outbox.put(json.dumps(message, ensure_ascii=False).encode() + b"\n")

    def _write(self, stdin: IO[bytes]) -> None:
        while (line := self._outbox.get()) is not None:
            try:
                stdin.write(line)
                stdin.flush()
            except OSError:
                break  # it died; the reader reports how
        with contextlib.suppress(OSError):
            stdin.close()

    def _drain(self, stderr: IO[bytes]) -> None:
        with stderr:
            for raw in stderr:
                self._stderr.append(raw.decode(errors="replace").rstrip())

    def _read(self, stdout: IO[bytes]) -> None:
        with stdout:
            for raw in stdout:
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                self._dispatch(message)
        returncode = self.proc.wait()
        self._died(returncode)

    def _dispatch(self, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "ready":
            self.info = message
            self.ready.set()
            return
        if event == "failed":
            self.failure = Unavailable(cause="local_not_loaded", reason=str(message.get("message")))
            self.ready.set()
            return
        with self._lock:
            job = self._jobs.get(message.get("id", -1))
            ended = job is not None and event in ("done", "error")
            if ended:
                del self._jobs[message["id"]]
            idle = ended and not self._jobs
        if job is None:
            return
        job.sink(_job_error(message) if event == "error" else message)
        if ended:
            job.done.set()
        if idle:
            self._on_idle()

    def _died(self, returncode: int) -> None:
        how = describe_exit(returncode)
        last = next((line for line in reversed(self._stderr) if line.strip()), "")
        said = last[:200] if last and returncode > 0 else ""
        told = {"said": said} if said else {}
        with self._lock:
            if self.failure is not None:
                failure = self.failure
            elif not self.ready.is_set():
                failure = Unavailable(
                    cause="local_self_test_said" if said else "local_self_test",
                    how=how,
                    fix=fix_command(),
                    **told,
                )
            elif self._stopping:
                failure = Unavailable(cause="local_stopped")
            else:
                failure = Unavailable(
                    cause="local_crashed_said" if said else "local_crashed",
                    how=how,
                    fix=fix_command(),
                    **told,
                )
            self.failure = failure
            jobs, self._jobs = list(self._jobs.values()), {}
        self.ready.set()
        for job in jobs:
            job.sink(failure)
            job.done.set()


def _job_error(message: dict[str, Any]) -> CrosstalkError:
    if message.get("kind") == "bad_request":
        return BadRequest(
            f"the request has {message.get('tokens')} tokens, more than the built-in model's "
            "window; fork the conversation or compress it"
        )
    return Unavailable(cause="local_failed", reason=str(message.get("message")))


class LocalWorker:
    """The built-in model as a service: a process started on first use, restarted after it
    dies, stopped after ``idle_seconds`` without requests and when Python exits."""

    def __init__(
        self,
        command: Callable[[], list[str]],
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self._command = command
        self.idle_seconds = idle_seconds
        self._process: WorkerProcess | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._idle_timer: threading.Timer | None = None
        self._registered = False

    @property
    def process(self) -> WorkerProcess | None:
        return self._process

    def start(self) -> WorkerProcess:
        """The running process, started (and waited for) if there is none; blocks: call it
        from a worker thread."""
        with self._lock:
            if self._process is None or not self._process.alive:
                self._process = WorkerProcess(self._command(), self._idle)
                if not self._registered:
                    atexit.register(self.close)
                    self._registered = True
            process = self._process
        if not process.ready.wait(START_TIMEOUT):
            seconds = f"{START_TIMEOUT:.0f}"
            process.kill(Unavailable(cause="local_stopped_slow", seconds=seconds))
            raise Unavailable(cause="local_slow", seconds=seconds)
        if process.failure is not None:
            raise process.failure
        return process

    def warm_up(self) -> None:
        """Start the process ahead of the first reply; it is stopped again if none comes."""
        self.start()
        self._idle()

    def submit(self, body: dict[str, Any], sink: Sink) -> tuple[WorkerProcess, Job]:
        self._cancel_idle_timer()
        process = self.start()
        job = Job(next(self._ids), sink)
        process.submit(job, body)
        return process, job

    def _idle(self) -> None:
        """The last reply ended (called on the reader thread): the idle countdown starts."""
        process = self._process
        if process is None or process.busy or self.idle_seconds <= 0:
            return
        self._cancel_idle_timer()
        timer = threading.Timer(self.idle_seconds, self._stop_if_idle, args=(process,))
        timer.daemon = True
        self._idle_timer = timer
        timer.start()

    def _cancel_idle_timer(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    def _stop_if_idle(self, process: WorkerProcess) -> None:
        with self._lock:
            if self._process is not process or process.busy:
                return
            self._process = None
        process.stop()

    def close(self) -> None:
        self._cancel_idle_timer()
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.proc.poll() is None:
            process.stop()

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.proc.pid if process is not None and process.alive else None


def rss_bytes(pid: int) -> int | None:
    """Resident memory of a process (Linux), for the benchmark and the idle test."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None
