"""The built-in model's figures: load, first token, tokens per second, memory, Stop.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/local_model.py                 # both ways, 5 runs each
    .venv/bin/python bench/local_model.py --in-process    # llama.cpp in this process only

"in process" is how Crosstalk ran the model before it got a process of its own: the same
``local_worker.Model`` called directly here. "worker" goes through ``LocalProvider`` as the
window and the command line do: JSON lines over pipes to ``local_worker``. Each run asks for
the same 128 tokens at temperature 0, so both ways compute the same thing. "cold" is the first
request, which starts the process (load and self-test included); "Stop" is the time from
cancelling a reply to the worker saying it stopped generating.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.providers.local_worker import Model

PROMPT = "Count from 1 to 100 in words, one per line."
TOKENS = 128
MESSAGES = [{"role": "user", "content": PROMPT}]


def model_path() -> str:
    from app.providers.local import bundled_model_path

    return str(bundled_model_path())


def rss_mb(pid: int) -> float:
    from app.providers.local_process import rss_bytes

    return (rss_bytes(pid) or 0) / 2**20


class Timing:
    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.first: float | None = None
        self.count = 0

    def send(self, **message: Any) -> None:
        if message.get("event") == "text":
            self.first = self.first or time.perf_counter()
            self.count += 1


def in_process(runs: int, threads: int) -> dict[str, float]:
    before = rss_mb(os.getpid())
    started = time.perf_counter()
    model = Model(model_path(), 8192, threads)
    load = time.perf_counter() - started
    first, rates = [], []
    for _ in range(runs):
        timing = Timing()
        job = {"id": 1, "messages": MESSAGES, "max_tokens": TOKENS, "temperature": 0.0}
        done = model.generate(job, threading.Event(), timing)  # type: ignore[arg-type]
        end = time.perf_counter()
        assert timing.first is not None
        first.append(timing.first - timing.start)
        rates.append(done["output"] / (end - timing.start))
    return {
        "load_ms": load * 1000,
        "first_ms": statistics.median(first) * 1000,
        "tok_s": statistics.median(rates),
        "rss_mb": rss_mb(os.getpid()) - before,
    }


async def through_worker(runs: int, threads: int) -> dict[str, float]:
    from app.history import Context, ModelInput
    from app.providers import Request, TextDelta, UsageReport
    from app.providers.local import LocalProvider

    provider = LocalProvider(threads=threads)
    context = Context(None, None, (ModelInput(text=PROMPT, seq=1, ts="t"),))
    request = Request("smollm2", context, max_tokens=TOKENS, temperature=0.0)

    async def one() -> tuple[float, float]:
        started = time.perf_counter()
        first = None
        output = 0
        async for event in provider.stream(request):
            if isinstance(event, TextDelta) and first is None:
                first = time.perf_counter()
            if isinstance(event, UsageReport):
                output = event.usage.output
        assert first is not None
        return first - started, output / (time.perf_counter() - started)

    cold_first, _ = await one()
    process = provider.worker.process
    assert process is not None
    first, rates = [], []
    for _ in range(runs):
        f, r = await one()
        first.append(f)
        rates.append(r)
    stops = [await stop_latency(provider, request) for _ in range(3)]
    figures = {
        "cold_ms": cold_first * 1000,
        "load_ms": float(process.info["load_ms"]),
        "selftest_ms": float(process.info["selftest_ms"]),
        "first_ms": statistics.median(first) * 1000,
        "tok_s": statistics.median(rates),
        "rss_mb": rss_mb(process.proc.pid),
        "stop_ms": max(stops) * 1000,
    }
    await provider.aclose()
    return figures


async def stop_latency(provider: Any, request: Any) -> float:
    long = type(request)(request.model, request.context, max_tokens=2000, temperature=0.0)
    stream = provider.stream(long)
    await anext(stream)
    process = provider.worker.process
    [job] = process._jobs.values()
    stopped = time.perf_counter()
    await stream.aclose()  # what Stop does to the reply's stream
    await asyncio.to_thread(job.done.wait, 5)
    return time.perf_counter() - stopped


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--in-process", action="store_true", help="skip the worker")
    args = parser.parse_args()
    from llama_cpp import llama_print_system_info

    print(f"llama.cpp: {llama_print_system_info().decode().strip()}")
    print(f"{TOKENS} tokens at temperature 0, median of {args.runs}, {args.threads} threads\n")
    rows = [("in process", in_process(args.runs, args.threads))]
    if not args.in_process:
        rows.append(("worker", asyncio.run(through_worker(args.runs, args.threads))))
    columns = ["load_ms", "cold_ms", "selftest_ms", "first_ms", "tok_s", "rss_mb", "stop_ms"]
    print(f"{'':12}" + "".join(f"{c:>12}" for c in columns))
    for name, figures in rows:
        cells = "".join(f"{figures[c]:>12.1f}" if c in figures else f"{'-':>12}" for c in columns)
        print(f"{name:12}{cells}")


if __name__ == "__main__":
    main()
