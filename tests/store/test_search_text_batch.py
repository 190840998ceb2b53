"""The terms of many messages at once (``terms_batch``) are the terms ``index_terms`` gives
each, for any text in any script: the index holds the same, and a message indexed one way is
taken out the other way (docs/indexing-speed.md)."""

from __future__ import annotations

import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.store import search
from app.store.search_text import index_terms
from app.store.terms_batch import SEP, batched, index_terms_many

# pieces of text of every kind the folding and the term classes treat apart
PIECES = [
    "capital",
    "Café CAFÉ",
    "cafe\u0301",  # a decomposed accent
    "Straße ﬁ ﬀ Ⅻ ㎞",  # folding to several characters
    "ΆΈΉ ёлка Ёлка",
    "東京タワー",
    "数据库迁移计划",
    "한국어 텍스트",
    "\u1100\u1161\u11a8",  # Hangul jamo, NFC joins them
    "ｶﾞｷﾞ \uff30\uff23",  # halfwidth kana with a voicing mark, full-width letters
    "か\u3099",  # a combining voicing mark
    "ภาษาไทย",
    "ພາສາລາວ",
    "नमस्ते",
    "\u0b47\u0b3e",  # NFC joins two marks of class 0
    "مرحبا بِكُمْ",
    "שָׁלוֹם",
    "😀👍🏽 👨\u200d👩\u200d👧",
    "\U00020000\U0002a6d6\U0002f800",  # CJK extension B, a compatibility ideograph
    "\U0001d400\U00010330",  # astral letters of Unicode 3.2
    "parse_args() std::vector c# ::",
    "x" * 45,
    "a" * 39 + "é" * 5,
    " \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000 ",
    "\x00\x07\x7f\ufeff\u00ad\u200b",
    "\ufdd0\ufffe\uffff\ue000\U000f0000",
    "\ud800 lone \udfff",
    "",
]


def texts() -> st.SearchStrategy[str]:
    piece = st.sampled_from(PIECES) | st.text(max_size=30)
    return st.lists(piece, max_size=6).map(" ".join) | st.lists(piece, max_size=6).map("".join)


def terms(indexed: str) -> set[str]:
    """What the index keeps of a message's terms (the tokenizer splits at spaces)."""
    return set(indexed.split()) - {""}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(texts(), min_size=1, max_size=12))
def test_the_same_terms_as_one_at_a_time(batch: list[str]) -> None:
    many = batched(batch)
    assert len(many) == len(batch)
    for text, made in zip(batch, many, strict=True):
        assert terms(made) == terms(index_terms(text)), text


def test_every_piece_alone_and_together() -> None:
    for batch in [PIECES, *([piece] for piece in PIECES), PIECES[::-1] * 3]:
        for text, made in zip(batch, batched(batch), strict=True):
            assert terms(made) == terms(index_terms(text)), text


def test_a_text_holding_the_separator_is_done_one_at_a_time() -> None:
    batch = ["before", f"a{SEP}b", "after " * 400]
    assert batched(batch) == [index_terms(text) for text in batch]
    assert index_terms_many([]) == batched([]) == []


def test_the_index_holds_the_same_and_lets_go_either_way() -> None:
    batch = [f"{piece} {n} message" for n, piece in enumerate(PIECES * 20)]
    rows = list(enumerate(batch, start=1))

    def vocabulary(db: sqlite3.Connection) -> list[tuple[str, int]]:
        return db.execute("SELECT term, doc FROM vocab ORDER BY term").fetchall()

    made = []
    for way in ("one", "many"):
        db = sqlite3.connect(":memory:")
        db.execute(search.SCHEMA)
        db.execute(f"CREATE VIRTUAL TABLE vocab USING fts5vocab({search.TABLE}, row)")
        sql = f"INSERT INTO {search.TABLE} (rowid, body) VALUES (?, ?)"
        if way == "one":
            db.executemany(sql, [(n, index_terms(text)) for n, text in rows])
        else:
            search.add_terms(db, rows)
        made.append((db, vocabulary(db)))
    (one, by_one), (many, by_many) = made
    assert by_one == by_many
    assert len(by_one) > 1000
    # added one at a time, dropped all at once (the batch way), and the other way round
    search.drop_terms(one, rows)
    delete = f"INSERT INTO {search.TABLE} ({search.TABLE}, rowid, body) VALUES ('delete', ?, ?)"
    many.executemany(delete, [(n, index_terms(text)) for n, text in rows])
    for db in (one, many):
        assert vocabulary(db) == []
