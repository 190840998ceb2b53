"""Indexing speed: how fast a message's search terms are made, one at a time (the definition,
``search_text.index_terms``) and many at once (``terms_batch``, what the index uses), and what
that does to filling the index (docs/indexing-speed.md).

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/index_terms.py                  # 20,000 messages of the corpus
    .venv/bin/python bench/index_terms.py --messages 200000

The messages are bench/search_corpus.py's (English, accented Latin, Japanese, Chinese, Korean,
code; 270 characters on average). Times are CPU seconds of this process (the machine is
shared: wall time wanders with the other work on it), the best of ``--runs``.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_corpus import conversations

from app.store import search
from app.store.search_text import index_terms, warm
from app.store.terms_batch import batched

BATCHES = (10, 100, 2000)  # a conversation put whole; a migration's or a rebuild's batches
LONG = 200_000  # characters of one long message (a pasted log or file)


def corpus(count: int) -> list[str]:
    texts: list[str] = []
    for conversation in conversations(count // 9 + 1, 10):
        texts += [m.text for m in conversation.messages[:9]]
    return texts[:count]


def best(runs: int, work: Callable[[], object]) -> float:
    """The least CPU time of ``runs`` runs of ``work``."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def one_at_a_time(texts: Sequence[str]) -> None:
    for text in texts:
        index_terms(text)


def in_batches(texts: Sequence[str], size: int) -> None:
    for at in range(0, len(texts), size):
        batched(texts[at : at + size])


def fill(texts: Sequence[str], make: Callable[[list[str]], list[str]]) -> None:
    """The index's table filled with these messages, 2,000 a transaction (as a migration)."""
    db = sqlite3.connect(":memory:")
    db.execute(search.SCHEMA)
    sql = f"INSERT INTO {search.TABLE} (rowid, body) VALUES (?, ?)"
    for at in range(0, len(texts), 2000):
        chunk = list(texts[at : at + 2000])
        with db:
            db.executemany(sql, enumerate(make(chunk), start=at + 1))
    db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    texts = corpus(args.messages)
    chars = sum(map(len, texts))
    warm()
    batched(texts[:2000])  # the tables, made once per process
    print(f"{len(texts):,} messages, {chars / len(texts):.0f} characters each on average")
    print("\nterms only                      messages/s   us/message   vs one at a time")
    before = best(args.runs, lambda: one_at_a_time(texts))
    rate = len(texts) / before
    print(f"  one at a time (index_terms)   {rate:>10,.0f}   {1e6 / rate:>10.1f}")
    for size in BATCHES:
        took = best(args.runs, lambda size=size: in_batches(texts, size))
        print(
            f"  batches of {size:<5,} (batched)  {len(texts) / took:>10,.0f}"
            f"   {1e6 * took / len(texts):>10.1f}   {before / took:>6.1f}x"
        )
    long = " ".join(texts)[:LONG]
    single = best(args.runs, lambda: index_terms(long))
    many = best(args.runs, lambda: batched([long]))
    print(f"\none message of {LONG:,} characters: {1000 * single:.0f} ms one at a time, "
          f"{1000 * many:.0f} ms batched ({single / many:.1f}x)")  # fmt: skip
    print("\nterms and the FTS5 table (in memory, 2,000 a transaction)   messages/s")
    old = best(args.runs, lambda: fill(texts, lambda chunk: [index_terms(t) for t in chunk]))
    new = best(args.runs, lambda: fill(texts, batched))
    print(f"  one at a time   {len(texts) / old:>10,.0f}")
    print(f"  batched         {len(texts) / new:>10,.0f}   ({old / new:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
