"""Search in any script (docs/search.md): a corpus of Japanese, Chinese, Korean, accented Latin,
Cyrillic and code, and the exact conversations and messages each query must find; the index
built both ways, upgraded from the previous release, and properties over any text."""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from app.errors import CrosstalkError
from app.history import AnyEntry, ModelInput, ModelOutput, Title, ToolResult, ToolResults, Usage
from app.history.entries import searchable_text
from app.paths import DataDir
from app.store import ConversationHits, Library, search, transcript
from app.store.index import (
    LIST_COLUMNS,
    Index,
    _usage_rows,
    fold_entry,
    initial_row,
    message_id,
)
from app.store.index_schema import migrations
from app.store.search_query import QueryError, highlight_terms, parse
from app.store.search_text import fold, fold_mapped, words
from app.store.transcript import FORMAT, VERSION, Header

# Each conversation on a day of its own (noon UTC: the same day in most time zones), its
# entries a minute apart: (kind, text) or ("reply", "provider:model", text).
CORPUS: dict[str, tuple[str, list[tuple[str, ...]]]] = {
    "tokyo": ("2026-03-01", [
        ("user", "東京の天気は晴れですか？"),  # noqa: RUF001
        ("reply", "anthropic:claude-sonnet-4", "はい、東京の天気は晴れです。気温は20度です。"),
        ("title", "東京の天気"),
    ]),
    "migration": ("2026-03-02", [
        ("user", "数据库迁移计划怎么写？"),  # noqa: RUF001
        ("reply", "openai:gpt-4o", "数据库迁移计划：先备份，再迁移。"),  # noqa: RUF001
        ("user", "迁移需要多久？"),  # noqa: RUF001
    ]),
    "seoul": ("2026-03-03", [
        ("user", "서울에서 만나요"),
        ("reply", "local:smollm2", "네, 서울역에서 봐요."),
    ]),
    "cafe": ("2026-03-04", [
        ("user", "Un café crème, s'il vous plaît"),
        ("reply", "openai:gpt-4o-mini", "CAFÉ AU LAIT is also nice. Naïve question?"),
    ]),
    "russian": ("2026-03-05", [
        ("user", "Привет! Ёлка стоит в углу."),
        ("reply", "local:smollm2", "Привет, как дела?"),
    ]),
    "code": ("2026-03-06", [
        ("user", "Why does args = parser.parse_args() fail?"),
        ("reply", "openai:gpt-4o", "Use std::vector<int> and call parse_args once."),
        ("tool", "Traceback: parse_args() got an unexpected keyword argument"),
    ]),
    "capital": ("2026-03-07", [
        ("user", "What is the capital of France?"),
        ("reply", "anthropic:claude-sonnet-4",
         "The capital of France is Paris;\n\nParis is also its largest city."),
        ("user", "And capitalism?"),
    ]),
    "cats": ("2026-03-08", [
        ("user", "猫が好きです。"),
        ("reply", "local:smollm2", "我也喜欢猫。"),
        ("user", "Do you like cats? I go to the cat café on Ｍａｉｎ street."),  # noqa: RUF001
    ]),
    "symbols": ("2026-03-10", [
        ("user", "Is C# like C++? ok 👍"),
    ]),
}  # fmt: skip

# query -> the conversations it finds, newest match first, each with its matching seqs
# (newest first)
FINDS: list[tuple[str, list[tuple[str, list[int]]]]] = [
    ("東京", [("tokyo", [3, 2, 1])]),
    ("天気は晴れ", [("tokyo", [2, 1])]),
    ("迁移", [("migration", [3, 2, 1])]),
    ("数据库迁移计划", [("migration", [2, 1])]),
    ("서울", [("seoul", [2, 1])]),
    ("서울역", [("seoul", [2])]),
    ("猫", [("cats", [2, 1])]),
    ("喜欢猫", [("cats", [2])]),
    ("capit", [("capital", [3, 2, 1])]),
    ("CAPITAL", [("capital", [3, 2, 1])]),
    ("cafe", [("cats", [3]), ("cafe", [2, 1])]),
    ("CAFÉ", [("cats", [3]), ("cafe", [2, 1])]),
    ("creme", [("cafe", [1])]),
    ("naive", [("cafe", [2])]),
    ("main", [("cats", [3])]),  # full-width letters
    ("ёлка", [("russian", [1])]),
    ("елка", [("russian", [1])]),
    ("прив", [("russian", [2, 1])]),
    ("parse_args", [("code", [3, 2, 1])]),
    ("parse_args()", [("code", [3, 1])]),
    ("std::vector", [("code", [2])]),
    ("vector<int>", [("code", [2])]),
    ("args", [("code", [3, 2, 1])]),  # a word of parse_args
    ("go", [("cats", [3])]),  # a short word is a whole word: not "got" in code
    ("cat", [("cats", [3])]),
    ('"capital of france"', [("capital", [2, 1])]),
    ('"is paris"', [("capital", [2])]),
    ('"france is paris; paris"', [("capital", [2])]),  # whitespace runs are one space
    ('"apit"', [("capital", [3, 2, 1])]),  # quoted: any part of a word
    ("capital -paris", [("capital", [3, 1])]),
    ('capital -"of france"', [("capital", [3])]),
    ("paris OR 迁移", [("capital", [2]), ("migration", [3, 2, 1])]),
    ("猫 OR cat café", [("cats", [3])]),
    ("model:gpt-4o", [("code", [2]), ("cafe", [2]), ("migration", [2])]),
    ("model:claude", [("capital", [2]), ("tokyo", [2])]),
    ("model:openai:gpt-4o-mini", [("cafe", [2])]),
    ("provider:local kind:assistant", [("cats", [2]), ("russian", [2]), ("seoul", [2])]),
    ("kind:user 猫", [("cats", [1])]),
    ("kind:reply 猫", [("cats", [2])]),
    ("kind:tool parse", [("code", [3])]),
    ("kind:title", [("tokyo", [3])]),
    ("-kind:user 東京", [("tokyo", [3, 2])]),
    ("-model:gpt 数据库", [("migration", [1])]),
    ("after:2026-03-07 capit", [("capital", [3, 2, 1])]),
    ("before:2026-03-07 capit", []),
    ("after:2026-03-04 before:2026-03-05 cafe", [("cafe", [2, 1])]),
    ("-capital -東京 -猫 kind:user", [
        ("symbols", [1]), ("cats", [3]), ("code", [1]), ("russian", [1]), ("cafe", [1]),
        ("seoul", [1]), ("migration", [3, 1]),
    ]),
    ("zanzibar", []),
    ("c#", [("symbols", [1])]),
    ("C++", [("symbols", [1])]),
    ("👍", [("symbols", [1])]),
    ('"ok"', [("symbols", [1])]),
    ("c# -👍", []),
    ("f#", []),
]  # fmt: skip


def entries_of(day: str, said: list[tuple[str, ...]]) -> list[AnyEntry]:
    made: list[AnyEntry] = []
    for minute, item in enumerate(said):
        ts = f"{day}T12:{minute:02d}:00.000Z"
        kind, text = item[0], item[-1]
        if kind == "user":
            made.append(ModelInput(text=text, ts=ts))
        elif kind == "reply":
            provider, model = item[1].split(":", 1)
            usage = Usage(input=5, output=7)
            made.append(ModelOutput(provider=provider, model=model, text=text, ts=ts, usage=usage))
        elif kind == "tool":
            made.append(
                ToolResults(results=[ToolResult(call_id="c", name="run", content=text)], ts=ts)
            )
        else:
            made.append(Title(text=text, source="user", ts=ts))
    return made


def fill(library: Library) -> dict[str, str]:
    """The corpus, appended entry by entry; its conversations' ids by name."""
    ids = {}
    for name, (day, said) in CORPUS.items():
        conversation = library.create()
        for entry in entries_of(day, said):
            library.append(conversation, entry)
        ids[name] = conversation.id
    return ids


def found(
    library: Library | Index, names: dict[str, str], query: str
) -> list[tuple[str, list[int]]]:
    by_id = {cid: name for name, cid in names.items()}
    return [(by_id[f.conversation["id"]], [h.seq for h in f.hits]) for f in library.search(query)]


@pytest.fixture
def corpus(library: Library) -> dict[str, str]:
    return fill(library)


@pytest.mark.parametrize(("query", "expected"), FINDS, ids=[q for q, _ in FINDS])
def test_each_query_finds_exactly_these_messages(
    library: Library, corpus: dict[str, str], query: str, expected: list[tuple[str, list[int]]]
) -> None:
    assert found(library, corpus, query) == expected


def test_a_substring_of_one_repeated_trigram_is_checked(library: Library) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="zzz and zzz"))
    assert [f.count for f in library.search('"zzz"')] == [1]
    assert library.search('"zzzz"') == [] and library.search("zzzz") == []


def test_hits_carry_their_conversation_row_and_count(
    library: Library, corpus: dict[str, str]
) -> None:
    [hits] = library.search("迁移")
    assert isinstance(hits, ConversationHits)
    assert set(hits.conversation) == {c.strip() for c in LIST_COLUMNS.split(",")}
    assert hits.conversation["id"] == corpus["migration"] and hits.count == 3
    assert [(h.seq, h.kind) for h in hits.hits] == [
        (3, "model_input"), (2, "model_output"), (1, "model_input")
    ]  # fmt: skip


def test_marks_point_at_the_matched_text(library: Library, corpus: dict[str, str]) -> None:
    expected = {
        "東京": {"東京"},
        "cafe": {"café", "CAFÉ"},
        "capit": {"capit"},
        "parse_args": {"parse_args"},
        '"capital of france"': {"capital of France"},
        "main": {"Ｍａｉｎ"},  # noqa: RUF001
        "ёлка": {"Ёлка"},
        "paris OR 迁移": {"Paris", "迁移"},
    }
    finds = dict(FINDS)
    for query, texts in expected.items():
        assert found(library, corpus, query) == finds[query]  # the loop below has them all
        for conversation in library.search(query):
            for hit in conversation.hits:
                assert hit.marks, (query, hit)
                assert {hit.snippet[a:b] for a, b in hit.marks} <= texts, (query, hit)


def test_snippets_are_one_line_around_the_match(library: Library) -> None:
    conversation = library.create()
    before = "Opening words.\n\n" + "filler text " * 40
    library.append(
        conversation, ModelInput(text=before + "the Straße\tcafe\u0301 here " + "tail " * 60)
    )
    [hit] = library.search("strasse café")[0].hits
    assert hit.snippet.startswith("…") and hit.snippet.endswith("…")
    assert "\n" not in hit.snippet and "\t" not in hit.snippet and len(hit.snippet) < 200
    assert [hit.snippet[a:b] for a, b in hit.marks] == ["Straße", "cafe\u0301"]
    assert hit.marked("[", "]").count("[") == 2 and "[Straße] [cafe\u0301]" in hit.marked("[", "]")


def test_count_is_every_match_and_hits_stop_at_per_conversation(library: Library) -> None:
    busy, quiet = library.create(), library.create()
    for n in range(30):
        library.append(busy, ModelInput(text=f"common word {n}", ts=f"2026-01-01T10:{n:02d}:00Z"))
    library.append(quiet, ModelInput(text="common ground", ts="2026-01-02T10:00:00Z"))
    [first, second] = library.search("common", per_conversation=5)
    assert (first.conversation["id"], first.count) == (quiet.id, 1)
    assert (second.conversation["id"], second.count) == (busy.id, 30)
    assert [h.seq for h in second.hits] == [30, 29, 28, 27, 26]
    assert [f.conversation["id"] for f in library.search("common", limit=1)] == [quiet.id]
    assert library.search("word 7")[0].count == 1  # "7" a whole word: not 17 or 27


def test_hits_of_one_millisecond_are_newest_first_by_seq(library: Library) -> None:
    """Row ids of one millisecond differ by a hash; the hits still come newest first."""
    conversation = library.create()
    for n in range(12):
        library.append(conversation, ModelInput(text=f"same {n}", ts="2026-01-01T10:00:00.000Z"))
    [hits] = library.search("same", per_conversation=12)
    assert [h.seq for h in hits.hits] == list(range(12, 0, -1))


def test_incremental_and_rebuilt_indexes_find_the_same(data_dir: DataDir) -> None:
    library = Library(data_dir)
    names = fill(library)
    library.append(library.open(names["capital"]), ModelInput(text="capital again"))
    queries = [query for query, _ in FINDS] + ["capital"]
    every = [("capital", [4, 3, 2, 1])]  # seq 4 is "capital again"
    again = {"capit": every, "CAPITAL": every, '"apit"': every, "capital": every,
             "after:2026-03-07 capit": every, "capital -paris": [("capital", [4, 3, 1])],
             'capital -"of france"': [("capital", [4, 3])]}  # fmt: skip
    assert {query: found(library, names, query) for query in queries} == dict(FINDS) | again
    incremental = {query: library.search(query) for query in queries}
    library.close()
    rebuilt, _ = Library.rebuilt(data_dir)
    assert {query: rebuilt.search(query) for query in queries} == incremental
    rebuilt.close()


def test_a_rewritten_conversation_keeps_no_stale_terms(library: Library) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="ephemeral 東京 words"))
    index = library.index
    header = conversation.header
    index.put(header, [ModelInput(seq=1, ts="2026-01-01T00:00:00Z", text="other 大阪 words")], 1, 1)
    assert index.search("ephemeral") == [] and index.search("東京") == []
    assert [f.count for f in index.search("大阪")] == [1]
    library.delete(conversation.id)
    assert index.search("大阪") == [] and index.search("words") == []
    index.optimize()  # the index's own bookkeeping still agrees
    index.conn.execute(
        f"INSERT INTO {search.TABLE}({search.TABLE}, rank) VALUES('integrity-check', 0)"
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("foo:bar", 'unknown filter "foo:"'),
        ("kind:everything", "kind: takes user, assistant"),
        ("after:2026-02-30", "after: takes YYYY-MM-DD"),
        ("before:yesterday", "before: takes YYYY-MM-DD"),
        ("-before:2026-01-01 x", "use after: instead"),
        ("kind:user OR kind:tool", "OR joins words and phrases"),
        ("tokyo OR -kyoto", "OR joins words and phrases"),
    ],
)
def test_bad_queries_say_what_is_accepted(library: Library, query: str, message: str) -> None:
    with pytest.raises(QueryError, match=message) as raised:
        library.search(query)
    assert isinstance(raised.value, CrosstalkError) and "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("query", "seqs"),
    [
        ("", []),
        ("   ", []),
        ("OR", []),  # a dangling OR, let be
        ("-", []),  # a dangling -, let be
        ('""', []),
        ("\u0301", []),  # folds to nothing
        ("\u200d", []),
        ("a OR", [2]),  # the word a
        ("std::", [3]),
        ("http://x.y", [4]),
        ("C:\\x", [5]),
    ],
)
def test_odd_queries_are_taken_as_text_or_nothing(
    library: Library, query: str, seqs: list[int]
) -> None:
    conversation = library.create()
    for text in ("plain words", "a cat", "std::vector", "see http://x.y", "C:\\x drive"):
        library.append(conversation, ModelInput(text=text))
    found = library.search(query)  # no error
    hits = [(f.conversation["id"], f.count, [h.seq for h in f.hits]) for f in found]
    assert hits == ([(conversation.id, len(seqs), seqs)] if seqs else [])


def test_highlight_terms_are_the_words_and_phrases_typed() -> None:
    query = 'Tokyo "capital of France" OR 東京 -rain model:gpt kind:user after:2026-01-01 tokyo'
    assert highlight_terms(query) == ["Tokyo", "capital of France", "東京", "tokyo"]
    assert highlight_terms("kind:user -x") == [] and highlight_terms("foo:bar x") == []


def test_parse_groups_or_before_and() -> None:
    query = parse("a OR b c -d")
    assert [[t.text for t in clause] for clause in query.clauses] == [["a", "b"], ["c"]]
    assert [t.text for t in query.excluded] == ["d"]


# --- the previous release's index ------------------------------------------------------------


def legacy_id(ts: str, conversation_id: str, seq: int) -> int:
    """A message's id as releases before m008 made it: its millisecond shifted 20 bits."""
    compact = message_id(ts, conversation_id, seq)
    low = zlib.crc32(f"{conversation_id}:{seq}".encode()) & 0xFFFFF
    return (compact >> search.TIME_SHIFT) << 20 | low


def previous_release_index(data: DataDir) -> None:
    """Replace ``data``'s index with one as the release before m004 wrote it from the
    transcripts: migrations m001-m003 only, and that release's rows (messages without their
    writer; search through an FTS5 word index that triggers kept)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{data.index_db}{suffix}").unlink(missing_ok=True)
    db = Database(data.index_db)
    migrations.apply(db, stop_before="m004_search_in_any_script")
    with db.conn:
        for path in sorted(data.conversations.glob("*.jsonl")):
            loaded = transcript.load(path)
            row = initial_row(loaded.header)
            for entry in loaded.entries:
                fold_entry(row, entry)
            state = {"file_size": loaded.size, "file_mtime_ns": path.stat().st_mtime_ns}
            del row["title_at"]  # m006's
            for column in ("kind", "project", "project_at", "tags", "tags_at", "archived",
                           "archived_at"):  # fmt: skip
                del row[column]  # m007's
            db.table("conversations").insert(row | state)
            cid = loaded.header.id
            db.conn.executemany(
                "INSERT INTO messages (id, conversation_id, seq, kind, text) VALUES (?,?,?,?,?)",
                [
                    (legacy_id(e.ts, cid, e.seq), cid, e.seq, e.kind, searchable_text(e))
                    for e in loaded.entries
                    if searchable_text(e)
                ],
            )
            db.conn.executemany(
                "INSERT INTO usage VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _usage_rows(cid, loaded.entries),
            )
    db.close()


def test_an_index_of_the_previous_release_is_upgraded_with_progress(
    data_dir: DataDir, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = Library(data_dir)
    names = fill(library)
    stopped = library.create()  # a reply that reported no tokens: no usage row names its model
    library.append(stopped, ModelInput(text="tell me about Kyoto", ts="2026-03-09T12:00:00Z"))
    cut = ModelOutput(provider="openai", model="o3", text="Kyoto is", ts="2026-03-09T12:01:00Z")
    library.append(stopped, cut)
    names["stopped"] = stopped.id
    expected = {query: found(library, names, query) for query, _ in FINDS}
    users = "-capital -東京 -猫 kind:user"  # the one query that finds "tell me about Kyoto"
    assert expected == dict(FINDS) | {users: [
        ("symbols", [1]), ("stopped", [1]), ("cats", [3]), ("code", [1]), ("russian", [1]),
        ("cafe", [1]), ("seoul", [1]), ("migration", [3, 1]),
    ]}  # fmt: skip
    states = library.index.file_states()
    library.close()

    previous_release_index(data_dir)
    old = Database(data_dir.index_db)
    assert "messages_fts" in old.table_names() and search.TABLE not in old.table_names()
    old.close()

    monkeypatch.setattr(search, "_BATCH", 5)
    told: list[float] = []
    upgraded = Library(data_dir, reconcile=False, progress=told.append)
    assert told and told == sorted(told) and told[-1] == 1.0 and len(told) > 3
    tables = Database(upgraded.index.conn).table_names()
    assert "messages_fts" not in tables and search.TABLE in tables
    free, pages = (upgraded.index.conn.execute(f"PRAGMA {n}").fetchone()[0]
                   for n in ("freelist_count", "page_count"))  # fmt: skip
    assert free * 4 < pages  # the old word index's pages reused, or given back
    upgraded_states = upgraded.index.file_states()
    assert upgraded_states.pop(stopped.id) == (-1, -1)  # indexed again from its file
    assert upgraded_states == {cid: state for cid, state in states.items() if cid != stopped.id}
    assert {query: found(upgraded, names, query) for query, _ in FINDS} == expected
    assert found(upgraded, names, "model:o3") == []
    assert upgraded.reconcile().updated == 1
    assert found(upgraded, names, "model:o3") == [("stopped", [2])]
    assert upgraded.reconcile().updated == 0
    upgraded.close()


# --- properties ---------------------------------------------------------------------------------

# Letters of several scripts, precomposed (a substring never splits what NFC would join), with
# spaces and punctuation.
ALPHABET = (
    "abcxyzABCXYZ019 éÉçñüßøåœ ёЁжЖщ αβΣς 東京都猫の天気は晴 数据库迁移计划 서울에서만나요 "
    "カタカナｶﾀｶﾅＡＢ１ ﬁ …-_:;,.!?()[]{}<>/\\@#$%^&*+=|~'`\n\t😀"
)
texts = st.text(alphabet=st.sampled_from(ALPHABET), min_size=1, max_size=40)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    index = Index(tmp_path_factory.mktemp("search") / "index.db")
    yield index
    index.close()


def put_one(index: Index, text: str) -> str:
    index.clear()
    header = Header(format=FORMAT, version=VERSION, id="01KAGR6Z4N7W2X8Q3M5T9V0B1C",
                    created_at="2026-01-01T00:00:00Z", forked_from=None)  # fmt: skip
    others = [ModelInput(seq=1, ts="2026-01-01T00:00:00Z", text="nothing here")]
    index.put(header, [*others, ModelInput(seq=2, ts="2026-01-01T00:01:00Z", text=text)], 0, 0)
    return header.id


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=200, deadline=None
)
@given(text=texts, data=st.data())
def test_any_substring_in_quotes_finds_its_message(
    scratch: Index, text: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    part = text[start:end]
    assume(fold(part))
    conversation_id = put_one(scratch, text)
    [hits] = scratch.search(f'"{part}"')
    assert hits.conversation["id"] == conversation_id and hits.hits[0].seq == 2
    assert hits.hits[0].marks


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150, deadline=None
)
@given(text=texts, data=st.data())
def test_any_word_start_and_any_no_space_run_finds_its_message_unquoted(
    scratch: Index, text: str, data: st.DataObject
) -> None:
    folded = fold(text)
    spaced = [m for m in words(folded) if m.group(1) is None]
    letters = [m for m in words(folded) if m.group(1) is not None]
    assume(spaced or letters)
    if spaced and (not letters or data.draw(st.booleans())):
        word = data.draw(st.sampled_from(spaced)).group()
        query = word if len(word) < 3 else word[: data.draw(st.integers(3, len(word)))]
    else:
        run = data.draw(st.sampled_from(letters))
        query = folded[run.start() : data.draw(st.integers(run.end(), len(folded)))].split(" ")[0]
    put_one(scratch, text)
    assert 2 in [h.seq for f in scratch.search(query) for h in f.hits], query


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parsing_raises_nothing_but_query_error(query: str) -> None:
    with contextlib.suppress(QueryError):
        parse(query)


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150, deadline=None
)
@given(
    query=st.text(
        alphabet=st.sampled_from(ALPHABET + '"\u201c\u201d\uff02\u201eORkind:model:-'), max_size=30
    )
)
def test_searching_raises_nothing_but_crosstalk_errors(scratch: Index, query: str) -> None:
    conversation_id = put_one(scratch, "東京の天気 capital of France, parse_args()")
    with contextlib.suppress(CrosstalkError):
        found = scratch.search(query)
        # nothing but the one conversation, each of its matches once, newest first
        assert [f.conversation["id"] for f in found] in ([], [conversation_id])
        for hits in found:
            seqs = [h.seq for h in hits.hits]
            assert seqs in ([2], [1], [2, 1]) and hits.count == len(seqs)


@given(st.text())
def test_folding_with_positions_folds_alike(text: str) -> None:
    folded = fold_mapped(text)
    assert folded.text == fold(text)
    for position in range(len(folded.text)):
        start, end = folded.span(position, position + 1)
        assert 0 <= start < end <= len(text)
        character = folded.text[position]
        assert character == " " or character in fold(text[start:end]), (position, start, end)


def test_folding_is_the_same_on_every_python() -> None:
    # the Unicode 3.2 tables, not the running Python's: a character assigned later is kept
    assert fold("\U0001fae8 Ｑ ǅ ﬀ Å İ") == "\U0001fae8 q dz ff a i"  # noqa: RUF001


def test_the_shipped_unicode_classes_are_the_computed_ones() -> None:
    from app.store import unicode_classes
    from app.store.search_text import unicode_ranges

    shipped = (unicode_classes.LETTERS, unicode_classes.WORDS, unicode_classes.JOINING)
    assert unicode_ranges() == shipped, "run `python -m app.store.search_text` to write it again"
