"""Knowledge index benchmark: indexing a folder of generated documents offline, and lexical
queries over it (docs/knowledge.md).

A benchmark, not a test: it prints figures next to their targets and always exits 0.

    .venv/bin/python bench/knowledge_index.py                # 1,000 files / 100 MB, then 10,000
    .venv/bin/python bench/knowledge_index.py --mb 10 --more 0   # a quick look

The documents are Markdown made from ``bench/search_corpus.py``'s word lists (English, accented
Latin, Japanese, Chinese, Korean, code blocks), each with headings and a word of its own. First
``--files`` files of ``--mb`` MB in all are indexed (``Knowledge.update``, the path of
``crosstalk knowledge add``): files/s and MB/s. Queries are timed on that index (the median of
``--runs`` runs of ``Knowledge.search``, 10 passages); then ``--more`` small files are added
(10,000 files in all by default) and the queries timed again. Targets: 100 MB in under 60 s;
a query under 50 ms at 10,000 files.

Then the vectors (docs/knowledge.md, "Vectors"): ``--vectors`` chunks (100,000 by default) with
a random unit vector each of ``--dims`` dimensions (1,536: OpenAI's text-embedding-3-small;
768 and 3,072 are common too), kept in ``chunk_vectors`` as ``Knowledge.update`` keeps them:
the time to load them into the matrix, its memory (and the process's), and a query's time (the
median of ``--runs``), over every source and over one of ten.

    .venv/bin/python bench/knowledge_index.py --mb 0 --vectors 100000 --dims 768
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from app.knowledge import vectors
from app.knowledge.service import Knowledge
from app.paths import DataDir

_spec = importlib.util.spec_from_file_location(
    "search_corpus", Path(__file__).with_name("search_corpus.py")
)
assert _spec is not None and _spec.loader is not None
corpus = sys.modules["search_corpus"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)

QUERIES = ("time", "capit", "東京", "数据", '"of the"', "uniq0500z", "sort OR filter -zebra")
GENERATORS = (
    (corpus.english, 45), (corpus.latin, 10), (corpus.japanese, 12), (corpus.chinese, 10),
    (corpus.korean, 7), (corpus.code, 16),
)  # fmt: skip


def document(rng: random.Random, number: int, size: int) -> str:
    """A Markdown document of about ``size`` characters: sections under headings."""
    parts = [f"# Document {number}\n\nuniq{number:04}z\n"]
    length = len(parts[0])
    section = 0
    kinds, weights = zip(*GENERATORS, strict=True)
    while length < size:
        section += 1
        make = rng.choices(kinds, weights)[0]
        text = make(rng, rng.randint(60, 220))
        part = f"\n## Section {section}\n\n{text}\n"
        parts.append(part)
        length += len(part.encode("utf-8"))
    return "".join(parts)


def write(folder: Path, first: int, count: int, size: int, seed: int) -> int:
    rng = random.Random(seed)
    written = 0
    for number in range(first, first + count):
        sub = folder / f"part{number // 500:03}"
        sub.mkdir(parents=True, exist_ok=True)
        text = document(rng, number, size)
        (sub / f"doc{number:05}.md").write_text(text, encoding="utf-8")
        written += len(text.encode("utf-8"))
    return written


def queries(knowledge: Knowledge, runs: int) -> None:
    """Each query's median time: on the clock, and on this process's CPU (what it costs: on a
    machine busy with other work the clock's is longer)."""
    for query in QUERIES:
        times, cpu = [], []
        found = 0
        for _ in range(runs):
            started, used = time.perf_counter(), time.process_time()
            found = len(knowledge.search(query))
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
        print(f"  {query:<24} {found:>3} passages  median {statistics.median(times):7.1f} ms"
              f"  (max {max(times):.1f}; CPU {statistics.median(cpu):.1f} ms)")  # fmt: skip


def resident_mb() -> float:
    """This process's resident memory (Linux), in MB."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def vector_bench(work: Path, count: int, dims: int, runs: int) -> None:
    """``count`` chunks with vectors in a knowledge.db of their own: load, memory, queries."""
    knowledge = Knowledge(DataDir(work / f"vectors-{dims}"))
    conn = knowledge.index.conn
    model = f"bench:random-{dims}"
    rng = np.random.default_rng(3)
    started = time.perf_counter()
    with knowledge.index.transaction():
        for source in range(1, 11):
            conn.execute(
                "INSERT INTO sources (id, path, kind, added_at) VALUES (?, ?, 'folder', 0)",
                [source, f"/bench/{source}"],
            )
        per_file = 10
        for file in range(count // per_file):
            conn.execute(
                "INSERT INTO files (id, source, path, size, mtime_ns, status, chunks) "
                "VALUES (?, ?, ?, 0, 0, 'ok', ?)",
                [file + 1, file % 10 + 1, f"/bench/f{file}.md", per_file],
            )
        conn.executemany(
            "INSERT INTO chunks (id, file, seq, text) VALUES (?, ?, ?, 'x')",
            ((i + 1, i // per_file + 1, i % per_file) for i in range(count)),
        )
    for start in range(0, count, 10_000):
        block = rng.standard_normal((min(10_000, count - start), dims), dtype=np.float32)
        with knowledge.index.transaction():
            vectors.put(conn, model, ((start + i + 1, row) for i, row in enumerate(block)))
    kept = time.perf_counter() - started
    db_mb = (work / f"vectors-{dims}" / "knowledge.db").stat().st_size / 1e6
    print(f"{count} vectors of {dims} dimensions kept in {kept:.1f} s; knowledge.db {db_mb:.0f} MB")
    before = resident_mb()
    started, used = time.perf_counter(), time.process_time()
    matrix = knowledge.matrix(model)
    loaded, cpu = time.perf_counter() - started, time.process_time() - used
    grew = resident_mb() - before
    print(f"  loaded into the matrix in {loaded * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms): "
          f"{matrix.nbytes / 1e6:.0f} MB (the process grew {grew:.0f} MB)")  # fmt: skip
    for label, scope in (("every source", None), ("one source of ten", [3])):
        times, cpus = [], []
        for _ in range(runs):
            query = rng.standard_normal(dims, dtype=np.float32)
            started, used = time.perf_counter(), time.process_time()
            matrix.nearest(query, 50, scope)
            times.append((time.perf_counter() - started) * 1000)
            cpus.append((time.process_time() - used) * 1000)
        print(f"  nearest 50, {label:<18} median {statistics.median(times):6.1f} ms"
              f"  (max {max(times):.1f}; CPU {statistics.median(cpus):.1f} ms)")  # fmt: skip
    started = time.perf_counter()
    knowledge.matrix(model)
    print(f"  the matrix again, unchanged index: {(time.perf_counter() - started) * 1000:.2f} ms")
    # a file changed: its 10 chunks' vectors go, 10 new ones come (as an update does)
    with knowledge.index.transaction():
        conn.execute(f"DELETE FROM {vectors.VECTORS} WHERE chunk BETWEEN 11 AND 20")
        block = rng.standard_normal((10, dims), dtype=np.float32)
        vectors.put(conn, model, ((11 + i, row) for i, row in enumerate(block)))
    started, used = time.perf_counter(), time.process_time()
    refreshed = knowledge.matrix(model)
    print(f"  the matrix after a file changed: {(time.perf_counter() - started) * 1000:.0f} ms "
          f"(CPU {(time.process_time() - used) * 1000:.0f} ms), refreshed in place: "
          f"{refreshed is matrix}")  # fmt: skip
    knowledge.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--mb", type=float, default=100.0, help="their size in all")
    parser.add_argument("--more", type=int, default=9000, help="small files added after")
    parser.add_argument("--more-kb", type=float, default=4.0, help="each of them")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--vectors", type=int, default=100_000, help="chunks with vectors")
    parser.add_argument("--dims", type=int, nargs="+", default=[1536], help="their length")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="knowledge-bench-"))
    try:
        if args.mb > 0:
            lexical_bench(work, args)
        for dims in args.dims if args.vectors else ():
            vector_bench(work, args.vectors, dims, args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def lexical_bench(work: Path, args: argparse.Namespace) -> None:
    folder = work / "documents"
    started = time.perf_counter()
    size = int(args.mb * 1_000_000 / args.files)
    written = write(folder, 0, args.files, size, seed=1)
    print(f"wrote {args.files} files, {written / 1e6:.1f} MB in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip

    knowledge = Knowledge(DataDir(work / "data"))
    source = knowledge.add(folder)
    report = knowledge.update(source.id)
    files_s = report.files_read / report.seconds
    mb_s = report.bytes / 1e6 / report.seconds
    print(f"indexed {report.files_read} files, {report.bytes / 1e6:.1f} MB, "
          f"{report.chunks} chunks in {report.seconds:.1f} s: {files_s:.0f} files/s, "
          f"{mb_s:.2f} MB/s (target: 100 MB in under 60 s)")  # fmt: skip
    index_mb = (work / "data" / "knowledge.db").stat().st_size / 1e6
    print(f"knowledge.db: {index_mb:.0f} MB ({index_mb / (report.bytes / 1e6):.1f}x the text)")
    again = knowledge.update(source.id)
    print(f"an update with nothing changed: {again.seconds * 1000:.0f} ms")
    print(f"queries at {args.files} files (target: under 50 ms at 10,000 files):")
    queries(knowledge, args.runs)

    if args.more:
        write(folder, args.files, args.more, int(args.more_kb * 1000), seed=2)
        more = knowledge.update(source.id)
        rate = more.files_read / more.seconds
        print(f"added {more.files_read} files, {more.bytes / 1e6:.1f} MB in "
              f"{more.seconds:.1f} s ({rate:.0f} files/s)")  # fmt: skip
        print(f"queries at {args.files + args.more} files:")
        queries(knowledge, args.runs)
    knowledge.close()


if __name__ == "__main__":
    main()
