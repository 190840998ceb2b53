"""The built-in model's own process: llama.cpp runs here, never in the window's process.

``python -m app.providers.local_worker --model PATH`` loads the GGUF, runs a tiny self-test
(a crash there means the llama.cpp build does not suit this CPU), says it is ready, then answers
requests one at a time. The protocol is one JSON object per line (docs/local-model.md):

    in:  {"op": "generate", "id": 1, "messages": [...], "max_tokens": 64, "temperature": 0.7}
         {"op": "cancel", "id": 1}
    out: {"event": "ready", "pid": ..., "load_ms": ..., "selftest_ms": ..., "system_info": ...}
         {"event": "text", "id": 1, "text": "Par"}
         {"event": "done", "id": 1, "finish": "stop", "input": 42, "output": 7}
         {"event": "error", "id": 1, "kind": "bad_request", "message": "..."}

The end of its standard input (the parent exited or died) ends the process at once. Anything
llama.cpp prints goes to standard error, never into the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import threading
import time
from typing import IO, Any

CANCELLED = "cancelled"


class Protocol:
    """The one writer of protocol lines (the reader thread answers cancels of queued jobs)."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._lock = threading.Lock()

    def send(self, **message: Any) -> None:
        line = json.dumps(message, ensure_ascii=False).encode() + b"\n"
        with self._lock:
            self._out.write(line)
            self._out.flush()


class Model:
    """SmolLM2 (or any chat GGUF) with the chat template stored in the file."""

    def __init__(self, path: str, n_ctx: int, threads: int | None) -> None:
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self.n_ctx = n_ctx
        self.llama = Llama(model_path=path, n_ctx=n_ctx, n_threads=threads, verbose=False)
        llama = self.llama
        self.formatter = Jinja2ChatFormatter(
            template=llama.metadata["tokenizer.chat_template"],
            eos_token=llama.detokenize([llama.token_eos()], special=True).decode(),
            bos_token=llama.detokenize([llama.token_bos()], special=True).decode(),
        )

    def generate(
        self, job: dict[str, Any], cancelled: threading.Event, protocol: Protocol
    ) -> dict[str, Any]:
        from llama_cpp import StoppingCriteriaList

        formatted = self.formatter(messages=job["messages"])
        prompt = self.llama.tokenize(formatted.prompt.encode(), add_bos=False, special=True)
        if len(prompt) >= self.n_ctx:
            raise PromptTooLong(len(prompt))
        generated = 0

        def stop_when_cancelled(tokens: Any, logits: Any) -> bool:
            nonlocal generated
            generated = len(tokens) - len(prompt)
            return cancelled.is_set()

        chunks: Any = self.llama.create_completion(
            prompt=prompt,
            stream=True,
            stop=formatted.stop,
            max_tokens=min(int(job["max_tokens"]), self.n_ctx - len(prompt)),
            temperature=float(job["temperature"]),
            stopping_criteria=StoppingCriteriaList([stop_when_cancelled]),
        )
        finish = "stop"
        for chunk in chunks:
            choice = chunk["choices"][0]
            if choice["text"]:
                protocol.send(event="text", id=job["id"], text=choice["text"])
            finish = choice.get("finish_reason") or finish
        if cancelled.is_set():
            finish = CANCELLED
        return {"finish": finish, "input": len(prompt), "output": max(generated, 0)}


class PromptTooLong(Exception):
    def __init__(self, tokens: int) -> None:
        super().__init__(tokens)
        self.tokens = tokens


class Jobs:
    """Requests read from standard input by a thread, so a cancel arrives mid-generation."""

    def __init__(self, protocol: Protocol) -> None:
        self.protocol = protocol
        self.pending: queue.Queue[dict[str, Any]] = queue.Queue()
        self.cancelled: set[int] = set()
        self.current: tuple[int, threading.Event] | None = None
        self.lock = threading.Lock()

    def read(self, stdin: IO[bytes]) -> None:
        for raw in stdin:
            try:
                message = json.loads(raw)
            except ValueError:
                print(f"local worker: not JSON, ignored: {raw[:80]!r}", file=sys.stderr)
                continue
            if message.get("op") == "generate":
                self.pending.put(message)
            elif message.get("op") == "cancel":
                with self.lock:
                    self.cancelled.add(message["id"])
                    if self.current is not None and self.current[0] == message["id"]:
                        self.current[1].set()
        os._exit(0)  # the parent is gone (or closed the pipe): nobody to answer

    def next(self) -> tuple[dict[str, Any], threading.Event] | None:
        """The next job to run; jobs cancelled while queued are answered here."""
        job = self.pending.get()
        with self.lock:
            if job["id"] in self.cancelled:
                self.cancelled.discard(job["id"])
                self.protocol.send(event="done", id=job["id"], finish=CANCELLED, input=0, output=0)
                return None
            event = threading.Event()
            self.current = (job["id"], event)
        return job, event

    def finished(self, job_id: int) -> None:
        with self.lock:
            self.current = None
            self.cancelled.discard(job_id)


def self_test(model: Model) -> None:
    """Decode a few tokens: a build whose kernels crash on this CPU dies here, not mid-reply."""
    silent = Protocol(open(os.devnull, "wb"))  # noqa: SIM115 (lives as long as the process)
    job = {"id": 0, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 2}
    model.generate(job | {"temperature": 0.0}, threading.Event(), silent)


def serve(model: Model, jobs: Jobs) -> None:
    while True:
        taken = jobs.next()
        if taken is None:
            continue
        job, cancelled = taken
        try:
            done = model.generate(job, cancelled, jobs.protocol)
        except PromptTooLong as exc:
            jobs.protocol.send(event="error", id=job["id"], kind="bad_request", tokens=exc.tokens)
        except Exception as exc:  # llama.cpp failures are reported, and the worker goes on
            message = f"{type(exc).__name__}: {exc}"
            jobs.protocol.send(event="error", id=job["id"], kind="failed", message=message)
        else:
            jobs.protocol.send(event="done", id=job["id"], **done)
        finally:
            jobs.finished(job["id"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="crosstalk-local-worker")
    parser.add_argument("--model", required=True)
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    # Ctrl-C and the terminal's hang-up are for the parent, which stops replies itself.
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    # The protocol gets its own copy of standard output; fd 1 then points at standard error,
    # so nothing native code prints can break a protocol line.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    protocol = Protocol(out)
    jobs = Jobs(protocol)
    threading.Thread(target=jobs.read, args=(sys.stdin.buffer,), daemon=True).start()
    started = time.perf_counter()
    try:
        model = Model(args.model, args.n_ctx, args.threads)
    except Exception as exc:
        protocol.send(event="failed", message=f"{type(exc).__name__}: {exc}")
        return 1
    loaded = time.perf_counter()
    self_test(model)
    from llama_cpp import llama_print_system_info

    protocol.send(
        event="ready",
        pid=os.getpid(),
        load_ms=round((loaded - started) * 1000),
        selftest_ms=round((time.perf_counter() - loaded) * 1000),
        system_info=llama_print_system_info().decode(errors="replace").strip(),
    )
    serve(model, jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
