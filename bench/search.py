"""Search benchmark: the first page of hits for each kind of query, and the index's size before
(schema m001-m003, an FTS5 word index) and after (m004, docs/search.md).

A benchmark, not a test: it prints figures next to their targets and always exits 0.

    .venv/bin/python bench/search.py                       # 100,000 conversations, 1M messages
    .venv/bin/python bench/search.py --conversations 10000 # 100k messages, a few minutes

The corpus (bench/search_corpus.py: English, accented Latin, Japanese, Chinese, Korean, code)
is written straight into the index with ``Index.put``, the path ``crosstalk reindex`` takes,
without transcripts. The index is kept in a cache folder and reused while the corpus and the
search code are the same (``--rebuild`` makes it again): building 1M messages takes a while.

A first page is ``Index.search(query)`` with its defaults: 50 conversations, up to 20 matching
messages each, snippets made. Warm: the median of ``--runs`` runs. Cold: the first run on a new
connection after the file was dropped from the OS page cache (``posix_fadvise``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_corpus import RARE, RARE_HITS, Conversation, conversations
from sqlite_utils import Database

from app.history import AnyEntry, ModelInput, ModelOutput, Title, Usage
from app.history.entries import searchable_text
from app.private_apis import migration_names
from app.store import search
from app.store.index import (
    USAGE_COLUMNS,
    Index,
    _usage_rows,
    fold_entry,
    initial_row,
    message_id,
)
from app.store.index_schema import migrations
from app.store.search_text import index_terms
from app.store.transcript import FORMAT, VERSION, Header

PER = 10  # entries per conversation: 9 messages, a title
QUERIES = (  # (what, query, target ms)
    ("common word", "time", 50),
    ("rare word", RARE, 50),
    ("2-char CJK", "東京", 150),
    ("2-char CJK", "迁移", 150),
    ("1-char CJK", "猫", 150),
    ("3+-char CJK", "数据库迁移", 50),
    ("3+-char CJK", "東京タワー", 50),
    ("prefix", "capit", 50),
    ("phrase", '"of the"', 50),
    ("filtered", "model:claude kind:assistant after:2025-06-01 data", 50),
    ("code", "parse_args", 50),
    ("1-2 symbols", "::", 150),
    ("1-2, absent", "c#", 150),
)
BATCH = 500


def entries(conversation: Conversation) -> list[AnyEntry]:
    made: list[AnyEntry] = []
    for m in conversation.messages[: PER - 1]:
        if m.kind == "model_input":
            made.append(ModelInput(seq=m.seq, ts=m.ts, text=m.text))
        else:
            usage = Usage(input=len(m.text) // 3, output=len(m.text) // 4)
            made.append(
                ModelOutput(
                    seq=m.seq, ts=m.ts, provider=m.provider, model=m.model, text=m.text, usage=usage
                )
            )
    last = made[-1]
    made.append(
        Title(seq=PER, ts=last.ts, text=" ".join(made[0].text.split()[:5]), source="generated")
    )
    return made


def header(conversation: Conversation) -> Header:
    return Header(format=FORMAT, version=VERSION, id=conversation.id,
                  created_at=conversation.created_at, forked_from=None)  # fmt: skip


def build_new(path: Path, count: int) -> float:
    """The index as this Crosstalk makes it; seconds taken."""
    started = time.perf_counter()
    index = Index(path)
    made = conversations(count, PER)
    done = 0
    while done < count:
        with index.transaction():
            for conversation in _take(made, BATCH):
                index.put(header(conversation), entries(conversation), 0, 0)
                done += 1
        _say(f"  built {done:,}/{count:,} conversations", end="\r")
    index.optimize()
    index.conn.execute("VACUUM")
    index.close()
    return time.perf_counter() - started


def build_old(path: Path, count: int) -> None:
    """The index of the release before m004: its migrations alone, its rows."""
    db = Database(path)
    db.execute("PRAGMA journal_mode=WAL")
    migrations.apply(db, stop_before="m004_search_in_any_script")
    columns = set(db.table("conversations").columns_dict)  # the columns of then
    with db.conn:
        for conversation in conversations(count, PER):
            made = entries(conversation)
            row = initial_row(header(conversation))
            for entry in made:
                fold_entry(row, entry)
            row = {k: v for k, v in row.items() if k in columns}
            db.table("conversations").insert(row | {"file_size": 0, "file_mtime_ns": 0})
            rows = [
                (old_id(e.ts, conversation.id, e.seq), conversation.id, e.seq, e.kind, text)
                for e in made
                if (text := searchable_text(e))
            ]
            db.conn.executemany(
                "INSERT INTO messages (id, conversation_id, seq, kind, text) VALUES (?,?,?,?,?)",
                rows,
            )
            db.conn.executemany(
                f"INSERT INTO usage (conversation_id, seq, ts, kind, provider, model, "
                f"{USAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _usage_rows(conversation.id, made),
            )
    db.execute("INSERT INTO messages_fts(messages_fts) VALUES('optimize')")
    db.execute("VACUUM")
    db.close()


def old_id(ts: str, conversation_id: str, seq: int) -> int:
    """A message's id as that release made it: its millisecond shifted 20 bits."""
    millis = message_id(ts, conversation_id, seq) >> search.TIME_SHIFT
    return millis << 20 | zlib.crc32(f"{conversation_id}:{seq}".encode()) & 0xFFFFF


def _take(it: Iterator[Conversation], n: int) -> list[Conversation]:
    return [c for _, c in zip(range(n), it, strict=False)]


def _say(text: str, end: str = "\n") -> None:
    print(text, end=end, file=sys.stderr, flush=True)


def cached(cache: Path, count: int, rebuild: bool) -> tuple[Path, float | None]:
    """The big index, built unless one with the same contents is in the cache (same corpus,
    schema and terms)."""
    digest = hashlib.sha256(search.SCHEMA.encode())
    digest.update(" ".join(migration_names(migrations)).encode())
    digest.update((Path(__file__).resolve().parent / "search_corpus.py").read_bytes())
    for conversation in conversations(3, PER):  # what the index holds for some messages
        for entry in entries(conversation):
            digest.update(index_terms(searchable_text(entry)).encode())
    path = cache / f"search-{count}x{PER}-{digest.hexdigest()[:12]}.db"
    if path.exists() and not rebuild:
        return path, None
    cache.mkdir(parents=True, exist_ok=True)
    for stale in cache.glob(f"search-{count}x{PER}-*"):
        stale.unlink()
    partial = path.with_suffix(".partial")
    seconds = build_new(partial, count)
    os.replace(partial, path)
    return path, seconds


def drop_from_page_cache(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        name = Path(f"{path}{suffix}")
        if name.exists():
            fd = os.open(name, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def first_page(index: Index, query: str) -> tuple[float, int, int]:
    started = time.perf_counter()
    found = index.search(query)
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, len(found), sum(f.count for f in found)


def time_queries(path: Path, runs: int) -> None:
    print(f"\n{'query':<16}{'':<52}{'convs':>6}{'msgs':>7}{'warm ms':>9}{'cold ms':>9}  target")
    for what, query, target in QUERIES:
        drop_from_page_cache(path)
        index = Index(path)
        cold, convs, msgs = first_page(index, query)
        warm = statistics.median(first_page(index, query)[0] for _ in range(runs))
        index.close()
        ok = "ok" if warm < target else "OVER"
        print(
            f"{what:<16}{query:<52}{convs:>6}{msgs:>7}{warm:>9.1f}{cold:>9.1f}  < {target} ms {ok}"
        )


def sizes(cache: Path, big: Path, count: int) -> None:
    """Index size per 100k messages: before and after, on the same 100k-message corpus."""
    small = min(count, 10_000)
    folder = Path(tempfile.mkdtemp(dir=cache))
    try:
        old, new = folder / "old.db", folder / "new.db"
        build_old(old, small)
        build_new(new, small)
        per = small * PER / 100_000
        before, after = old.stat().st_size / per, new.stat().st_size / per
        print(f"\nindex size per 100k messages ({small * PER:,} messages built both ways):")
        print(f"  before (m001-m003, FTS5 words) {before / 1e6:8.1f} MB")
        print(f"  after  (m004, terms)           {after / 1e6:8.1f} MB  "
              f"= {after / before:.2f}x  (target <= 3x)")  # fmt: skip
        if count > small:
            whole = big.stat().st_size / (count * PER / 100_000)
            print(f"  after, in the {count * PER:,}-message index {whole / 1e6:8.1f} MB "
                  f"= {whole / before:.2f}x")  # fmt: skip
    finally:
        shutil.rmtree(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7, help="warm runs per query (median)")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "crosstalk-bench-search"
    )
    parser.add_argument("--rebuild", action="store_true", help="build the index even if cached")
    args = parser.parse_args()
    count = args.conversations
    print(f"{count:,} conversations, {count * PER:,} messages (search_corpus.py), rare word "
          f"{RARE!r} in {RARE_HITS} messages")  # fmt: skip
    path, seconds = cached(args.cache, count, args.rebuild)
    if seconds is None:
        print(f"index: {path} (cached)")
    else:
        print(f"index: {path} built in {seconds:.0f} s ({seconds / (count * PER) * 1e6:.0f} µs "
              "per message)")  # fmt: skip
    time_queries(path, args.runs)
    sizes(args.cache, path, count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
