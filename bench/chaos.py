"""Chaos: many processes writing and reading one library at once, with SIGKILLs and reindexes.

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/chaos.py                    # 20 s, 4 writers, 4 readers
    .venv/bin/python bench/chaos.py --seconds 60 --writers 6 --readers 4

Writers are processes that each open the library (one store each, as `crosstalk ask` does) and
keep appending inputs to randomly chosen conversations of a shared set, printing a line for
every append once it has returned (acknowledged: on disk). About once a second one writer is
killed with SIGKILL (mid-write, sometimes) and a new one takes its place. Readers are processes
that keep opening conversations, listing and searching, timing each call. Every few seconds
`crosstalk reindex` rebuilds the index from the transcripts.

At the end every transcript is read: "lost" counts acknowledged entries that are not there,
"duplicated" entries there twice, "out of order" a writer's entries not in the order it
acknowledged them, "corrupt" lines that could not be read. Targets: 0, 0, 0, 0, and the
longest reader call under 100 ms.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.history import ModelInput, Title  # noqa: E402
from app.paths import DataDir  # noqa: E402
from app.store import Library  # noqa: E402

CONVERSATIONS = 6


def conversation_ids(home: str) -> list[str]:
    """From the transcripts: the index may be mid-rebuild."""
    return sorted(p.stem for p in DataDir(Path(home)).conversations.glob("*.jsonl"))


def writer(home: str, tag: str) -> None:
    library = Library(DataDir(Path(home)), reconcile=False)
    ids = conversation_ids(home)
    conversations = {cid: library.open(cid) for cid in ids}
    n = 0
    while True:
        cid = random.choice(ids)
        text = f"{tag}-{n} quokka"
        library.append(conversations[cid], ModelInput(text=text))
        print(f"{cid} {text}", flush=True)
        n += 1
        time.sleep(random.random() * 0.004)


def reader(home: str, seconds: float) -> None:
    library = Library(DataDir(Path(home)), reconcile=False)
    ids = conversation_ids(home)
    timings: list[float] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        for call in (
            lambda: library.open(random.choice(ids)),
            lambda: library.newest(50),
            lambda: library.search("quokka", 20),
        ):
            started = time.perf_counter()
            try:
                call()
            except Exception as exc:  # a reader must never fail: count it
                print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
            timings.append(time.perf_counter() - started)
    print(json.dumps({"timings": timings}), flush=True)


class Writers:
    def __init__(self, home: str) -> None:
        self.home = home
        self.acked: dict[str, list[str]] = collections.defaultdict(list)  # conversation -> texts
        self.running: list[subprocess.Popen[str]] = []
        self.started = 0
        self.killed = 0
        self.lock = threading.Lock()

    def start(self) -> None:
        tag = f"w{self.started}"
        self.started += 1
        process = subprocess.Popen(
            [sys.executable, __file__, "--writer", self.home, tag],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        self.running.append(process)
        threading.Thread(target=self._collect, args=(process,), daemon=True).start()

    def _collect(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            cid, text = line.rstrip("\n").split(" ", 1)
            with self.lock:
                self.acked[cid].append(text)

    def kill_one(self) -> None:
        victim = random.choice(self.running)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        self.running.remove(victim)
        self.killed += 1
        self.start()

    def stop(self) -> None:
        for process in self.running:
            process.send_signal(signal.SIGKILL)
        for process in self.running:
            process.wait()
        time.sleep(0.2)  # the collectors read what was printed before the kill


def seed(home: str) -> None:
    library = Library(DataDir(Path(home)))
    for n in range(CONVERSATIONS):
        conversation = library.create()
        library.append(conversation, Title(text=f"Chaos {n}", source="user"))
    library.close()


def check(home: str, acked: dict[str, list[str]]) -> dict[str, int]:
    from app.store import transcript

    figures = collections.Counter[str]()
    data = DataDir(Path(home))
    for path in data.conversations.glob("*.jsonl"):
        loaded = transcript.load(path)
        figures["corrupt"] += len(loaded.problems)
        texts = [e.text for e in loaded.entries if isinstance(e, ModelInput)]
        figures["present"] += len(texts)
        counts = collections.Counter(texts)
        figures["duplicated"] += sum(c - 1 for c in counts.values() if c > 1)
        wanted = acked.get(path.stem, [])
        figures["lost"] += sum(1 for text in wanted if text not in counts)
        position = {text: i for i, text in enumerate(texts)}
        by_writer: dict[str, list[int]] = collections.defaultdict(list)
        for text in wanted:
            if text in position:
                by_writer[text.split("-")[0]].append(position[text])
        figures["out of order"] += sum(p != sorted(p) for p in by_writer.values())
    figures["set aside (torn by a kill)"] = len(list(data.conversations.glob("*.torn-*")))
    return dict(figures)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--writer", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--reader", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        writer(*args.writer)
        return
    if args.reader:
        reader(args.reader[0], float(args.reader[1]))
        return

    home = tempfile.mkdtemp(prefix="crosstalk-chaos-")
    seed(home)
    env = os.environ | {"CROSSTALK_HOME": home}
    writers = Writers(home)
    for _ in range(args.writers):
        writers.start()
    reader_command = [sys.executable, __file__, "--reader", home, str(args.seconds)]
    readers = [
        subprocess.Popen(reader_command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        for _ in range(args.readers)
    ]
    reindexes = 0
    deadline = time.monotonic() + args.seconds
    next_reindex = time.monotonic() + 4
    while time.monotonic() < deadline:
        time.sleep(random.uniform(0.5, 1.5))
        writers.kill_one()
        if time.monotonic() >= next_reindex:
            subprocess.run([sys.executable, "-m", "app.cli", "reindex"], env=env, cwd=ROOT,
                           capture_output=True, check=False)  # fmt: skip
            reindexes += 1
            next_reindex = time.monotonic() + 4
    writers.stop()
    timings: list[float] = []
    errors: list[str] = []
    for process in readers:
        out, _ = process.communicate()
        for line in out.splitlines():
            record = json.loads(line)
            timings += record.get("timings", [])
            if "error" in record:
                errors.append(record["error"])
    acked = sum(len(texts) for texts in writers.acked.values())
    figures = check(home, writers.acked)
    print(f"{args.seconds:.0f} s, {args.writers} writers ({writers.killed} SIGKILLed and "
          f"replaced), {args.readers} readers, {reindexes} reindexes; data dir {home}")  # fmt: skip
    print(f"acknowledged appends     {acked:>8,}")
    for name in ("present", "lost", "duplicated", "out of order", "corrupt"):
        print(f"{name:<24} {figures.get(name, 0):>8,}")
    print(f"{'set aside (torn by a kill)':<24} {figures['set aside (torn by a kill)']:>6,}")
    ordered = sorted(timings)
    p99 = ordered[int(len(ordered) * 0.99)] if ordered else 0.0
    median = statistics.median(ordered) if ordered else 0.0
    print(f"reader calls             {len(timings):>8,}  (errors: {len(errors)})")
    print(f"reader call median       {median * 1000:>8.1f} ms")
    print(f"reader call p99          {p99 * 1000:>8.1f} ms")
    print(f"longest reader call      {max(timings, default=0) * 1000:>8.1f} ms")
    for error in errors[:5]:
        print(f"  reader error: {error}")


if __name__ == "__main__":
    main()
