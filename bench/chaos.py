"""Chaos: many processes writing and reading one library at once, with SIGKILLs and reindexes.

A benchmark, not a test: it prints figures, and exits 1 when anything was lost, duplicated,
out of order or corrupt, when a reader or a writer met an error, or when the index at the end
is damaged or differs from one rebuilt from the transcripts (issue 34).

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
acknowledged them, "corrupt" lines that could not be read. "reader errors" are calls that
raised; "index errors" are writers' appends whose indexing failed or raised, and the index at
the end failing SQLite's integrity check or differing from one rebuilt from scratch. Targets:
all 0, a reader call p99 under 100 ms and the longest under 250 ms (by call: open, list,
search).
"""

from __future__ import annotations

import argparse
import collections
import itertools
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
CALLS = ("open", "list", "search")


def conversation_ids(home: str) -> list[str]:
    """From the transcripts: the index may be mid-rebuild."""
    return sorted(p.stem for p in DataDir(Path(home)).conversations.glob("*.jsonl"))


def writer(home: str, tag: str) -> None:
    """Prints ``<id> <text>`` for each acknowledged append, ``! <what>`` for an index error."""
    library = Library(DataDir(Path(home)), reconcile=False)
    ids = conversation_ids(home)
    conversations = {cid: library.open(cid) for cid in ids}
    n = 0
    while True:
        cid = random.choice(ids)
        text = f"{tag}-{n} quokka"
        try:
            library.append(conversations[cid], ModelInput(text=text))
        except Exception as exc:  # counted, and the writer goes on as a user's would
            print(f"! {type(exc).__name__}: {exc}", flush=True)
            continue
        print(f"{cid} {text}", flush=True)
        for warning in library.warnings:
            print(f"! {warning}", flush=True)
        library.warnings.clear()
        n += 1
        time.sleep(random.random() * 0.004)


def reader(home: str, seconds: float) -> None:
    library = Library(DataDir(Path(home)), reconcile=False)
    ids = conversation_ids(home)
    timings: dict[str, list[float]] = {name: [] for name in CALLS}
    calls = {
        "open": lambda: library.open(random.choice(ids)),
        "list": lambda: library.newest(50),
        "search": lambda: library.search("quokka", 20),
    }
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        for name, call in calls.items():
            started = time.perf_counter()
            try:
                call()
            except Exception as exc:  # a reader must never fail: count it
                print(json.dumps({"error": f"{name}: {type(exc).__name__}: {exc}"}), flush=True)
            timings[name].append(time.perf_counter() - started)
    print(json.dumps({"timings": timings}), flush=True)


class Writers:
    def __init__(self, home: str) -> None:
        self.home = home
        self.acked: dict[str, list[str]] = collections.defaultdict(list)  # conversation -> texts
        self.errors: list[str] = []  # index errors the writers met
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
                if cid == "!":
                    self.errors.append(text)
                else:
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


def index_problems(home: str) -> list[str]:
    """The index at the end, opened as a user's next command would (which reconciles after the
    killed writers): SQLite's integrity check, and its rows against an index rebuilt from
    scratch in a copy of the library."""
    import shutil
    import sqlite3

    library = Library(DataDir(Path(home)))
    library.close()
    db = DataDir(Path(home)).index_db
    with sqlite3.connect(db) as conn:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check") if row[0] != "ok"]
    copy = Path(tempfile.mkdtemp(prefix="crosstalk-chaos-check-"))
    shutil.copytree(DataDir(Path(home)).conversations, copy / "conversations")
    rebuilt, _ = Library.rebuilt(DataDir(copy))
    rebuilt.close()
    for table in ("conversations", "messages", "usage"):
        query = f"SELECT * FROM {table} ORDER BY 1, 2"
        with sqlite3.connect(db) as live, sqlite3.connect(DataDir(copy).index_db) as fresh:
            names = [d[1] for d in live.execute(f"PRAGMA table_info({table})")]
            # a message's id: where two of one millisecond collided (writers at once), which
            # moved on to the next id depends on the order they were indexed in
            unordered = ("file_mtime_ns", "id") if table == "messages" else ("file_mtime_ns",)
            keep = [i for i, name in enumerate(names) if name not in unordered]
            ours = [tuple(r[i] for i in keep) for r in live.execute(query)]
            theirs = [tuple(r[i] for i in keep) for r in fresh.execute(query)]
        if table == "messages":
            ours, theirs = sorted(ours), sorted(theirs)
        if ours != theirs:
            problems.append(f"{table}: {len(ours)} rows, {len(theirs)} when rebuilt, "
                            f"{len(set(ours) ^ set(theirs))} differ")  # fmt: skip
    with sqlite3.connect(db) as live:  # and they follow each conversation's order
        query = "SELECT conversation_id, id FROM messages ORDER BY conversation_id, seq"
        rows = live.execute(query).fetchall()
    backwards = sum(a[0] == b[0] and a[1] >= b[1] for a, b in itertools.pairwise(rows))
    if backwards:
        problems.append(f"messages: {backwards} ids not after the one before in their conversation")
    shutil.rmtree(copy, ignore_errors=True)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--writer", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--reader", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        writer(*args.writer)
        return 0
    if args.reader:
        reader(args.reader[0], float(args.reader[1]))
        return 0

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
            command = [sys.executable, "-m", "app.cli", "reindex"]
            done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True,
                                  check=False)  # fmt: skip
            if done.returncode != 0:
                writers.errors.append(f"reindex: {done.stderr.strip()}")
            reindexes += 1
            next_reindex = time.monotonic() + 4
    writers.stop()
    timings: dict[str, list[float]] = {name: [] for name in CALLS}
    errors: list[str] = []
    for process in readers:
        out, _ = process.communicate()
        for line in out.splitlines():
            record = json.loads(line)
            for name, taken in record.get("timings", {}).items():
                timings[name] += taken
            if "error" in record:
                errors.append(record["error"])
    acked = sum(len(texts) for texts in writers.acked.values())
    figures = check(home, writers.acked)
    index_errors = writers.errors + index_problems(home)
    print(f"{args.seconds:.0f} s, {args.writers} writers ({writers.killed} SIGKILLed and "
          f"replaced), {args.readers} readers, {reindexes} reindexes; data dir {home}")  # fmt: skip
    print(f"acknowledged appends     {acked:>8,}")
    for name in ("present", "lost", "duplicated", "out of order", "corrupt"):
        print(f"{name:<24} {figures.get(name, 0):>8,}")
    print(f"{'set aside (torn by a kill)':<24} {figures['set aside (torn by a kill)']:>6,}")
    print(f"reader errors            {len(errors):>8,}")
    print(f"index errors             {len(index_errors):>8,}")
    every = sorted(t for taken in timings.values() for t in taken)
    print(f"reader calls             {len(every):>8,}")
    print(f"{'':<24} {'median':>8} {'p99':>8} {'longest':>8}  (ms)")
    for name, taken in [*timings.items(), ("all", every)]:
        ordered = sorted(taken)
        p99 = ordered[int(len(ordered) * 0.99)] if ordered else 0.0
        median = statistics.median(ordered) if ordered else 0.0
        print(f"  {name:<22} {median * 1000:>8.1f} {p99 * 1000:>8.1f} "
              f"{max(ordered, default=0) * 1000:>8.1f}")  # fmt: skip
    for error in errors[:5]:
        print(f"  reader error: {error}")
    for error in index_errors[:5]:
        print(f"  index error: {error}")
    bad = sum(figures.get(name, 0) for name in ("lost", "duplicated", "out of order", "corrupt"))
    return 1 if bad or errors or index_errors else 0


if __name__ == "__main__":
    sys.exit(main())
