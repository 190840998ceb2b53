"""The knowledge index on real folders of real files: adding, searching with locations,
updating what changed (and only that), deletions, renames, files that cannot be read, a kill
in the middle of an update, any script, and a folder of 2,000 files."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from app.errors import CrosstalkError
from app.knowledge.index import KNOWLEDGE_DB, TERMS
from app.knowledge.index_terms import chunk_terms
from app.knowledge.service import Knowledge, Passage
from app.paths import DataDir
from app.store.search_query import QueryError
from app.store.search_text import index_terms
from tests.knowledge import write_pdf

GUIDE = """\
# Installing

Download the installer and run it.

## On Linux

Unpack the tarball into /opt and add its bin folder to PATH.

## On Windows

Run the MSI package; the capital letters in the path do not matter.
"""

CODE = '''\
import argparse


def parse_args(argv):
    """Read the command line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--frobnicate", action="store_true")
    return parser.parse_args(argv)
'''


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "src").mkdir(parents=True)
    (folder / "notes").mkdir()
    (folder / "guide.md").write_text(GUIDE, encoding="utf-8")
    (folder / "src" / "cli.py").write_text(CODE, encoding="utf-8")
    (folder / "notes" / "cafe.txt").write_text(
        "Le Café de Flore sert une crème brûlée.\nIt is in Paris.\n", encoding="utf-8"
    )
    (folder / "notes" / "tokyo.md").write_text(
        "# 東京の旅\n\n東京タワーは港区にあります。数据库迁移计划は来週です。\n", encoding="utf-8"
    )
    for hidden in (".git", "node_modules", ".cache"):
        (folder / hidden).mkdir()
        (folder / hidden / "secret.md").write_text("frobnicate hidden", encoding="utf-8")
    (folder / ".env.md").write_text("frobnicate dotfile", encoding="utf-8")
    (folder / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    return folder


@pytest.fixture
def knowledge(data_dir: DataDir) -> Knowledge:
    k = Knowledge(data_dir)
    yield k  # type: ignore[misc]
    k.close()


def found(passages: list[Passage]) -> list[str]:
    return [Path(p.path).name for p in passages]


def test_add_and_search_finds_the_chunk_with_its_location(
    knowledge: Knowledge, docs: Path, data_dir: DataDir
) -> None:
    source = knowledge.add(docs)
    assert (source.kind, source.path, source.files) == ("folder", str(docs.resolve()), 0)
    report = knowledge.update(source.id)
    assert (report.files_read, report.files_unchanged, report.problems) == (4, 0, [])
    assert report.chunks >= 4 and report.bytes > 0
    assert (data_dir.root / KNOWLEDGE_DB).is_file()

    [windows] = knowledge.search("msi package")
    assert Path(windows.path).name == "guide.md"
    assert "Windows" in (windows.heading or "") and windows.page is None
    assert windows.first_line is not None and windows.last_line is not None
    lines = GUIDE.splitlines()[windows.first_line - 1 : windows.last_line]
    assert any("MSI" in line for line in lines)
    assert windows.score > 0 and "MSI" in windows.snippet and windows.marks

    [code] = knowledge.search("parse_args")  # a term with punctuation: a substring
    assert Path(code.path).name == "cli.py" and code.where.endswith(
        f"cli.py:{code.first_line}-{code.last_line}"
    )
    assert found(knowledge.search("frobnic")) == ["cli.py"]  # a prefix; hidden ones skipped
    assert knowledge.search("secret") == []
    [listed] = knowledge.sources()
    assert (listed.files, listed.problems) == (4, 0) and listed.chunks == report.chunks


def test_any_script_and_accents_find_what_conversation_search_finds(
    knowledge: Knowledge, docs: Path
) -> None:
    knowledge.update(knowledge.add(docs).id)
    for query in ("cafe", "CAFÉ", "creme brulee", "Crème", '"de flore"'):
        assert found(knowledge.search(query)) == ["cafe.txt"], query
    for query in ("東京", "東", "東京タワー", "迁移", "数据库迁移", "港区"):
        assert found(knowledge.search(query)) == ["tokyo.md"], query
    assert found(knowledge.search("東京 -タワー")) == []
    assert found(knowledge.search("paris OR 港区")) in (
        ["cafe.txt", "tokyo.md"], ["tokyo.md", "cafe.txt"]
    )  # fmt: skip


def test_terms_are_the_conversation_search_terms_with_words_whole() -> None:
    """The conversation search keeps a word by its first three letters; BM25 here needs it
    whole (up to 40 letters)."""
    from app.store.search_text import WORD_MARK

    for text in (GUIDE, CODE, "東京タワーは港区 café \uff30\uff23 Straße", "x" * 60, ""):
        words, grams = chunk_terms(text)
        terms = set(f"{words} {grams}".split())
        assert WORD_MARK + "x" * 40 in terms or text != "x" * 60
        assert {t[:4] if t[0] == WORD_MARK else t for t in terms} == set(index_terms(text).split())


def test_bm25_ranks_the_chunk_that_says_it_most(knowledge: Knowledge, tmp_path: Path) -> None:
    folder = tmp_path / "ranked"
    folder.mkdir()
    (folder / "once.txt").write_text("zebra " + "filler words here " * 30, encoding="utf-8")
    (folder / "often.txt").write_text("zebra zebra zebra stripes zebra", encoding="utf-8")
    for n in range(8):
        (folder / f"other{n}.txt").write_text(f"nothing to see {n}", encoding="utf-8")
    knowledge.update(knowledge.add(folder).id)
    passages = knowledge.search("zebra")
    assert found(passages) == ["often.txt", "once.txt"]
    assert passages[0].score > passages[1].score > 0  # higher is better


def test_an_update_reads_only_what_changed_and_forgets_what_is_gone(
    knowledge: Knowledge, docs: Path
) -> None:
    source = knowledge.add(docs)
    knowledge.update(source.id)
    again = knowledge.update(source.id)
    assert (again.files_read, again.files_unchanged, again.chunks) == (0, 4, 0)

    cafe = docs / "notes" / "cafe.txt"
    cafe.write_text("Le Café de Flore ferme à minuit; quetzal.\n", encoding="utf-8")
    seen: list[str] = []
    changed = knowledge.update(source.id, lambda done, total, path: seen.append(path))
    assert (changed.files_read, changed.files_unchanged) == (1, 3)
    assert seen[0] == str(cafe.resolve())
    assert found(knowledge.search("quetzal")) == ["cafe.txt"]
    assert knowledge.search("brulee") == []  # the old text's chunks went

    (docs / "src" / "cli.py").unlink()
    gone = knowledge.update(source.id)
    assert (gone.files_read, gone.files_removed) == (0, 1)
    assert knowledge.search("parse_args") == []

    (docs / "guide.md").rename(docs / "notes" / "install.md")
    renamed = knowledge.update(source.id)
    assert (renamed.files_read, renamed.files_removed) == (1, 1)
    assert found(knowledge.search("tarball")) == ["install.md"]
    assert knowledge.sources()[0].files == 3

    full = knowledge.update(source.id, full=True)
    assert (full.files_read, full.files_unchanged) == (3, 0)
    assert found(knowledge.search("tarball")) == ["install.md"]  # once, not twice


def test_a_file_that_cannot_be_read_is_listed_with_why(knowledge: Knowledge, docs: Path) -> None:
    (docs / "notes" / "binary.txt").write_bytes(b"\x00\x01\x02 not text \x00" * 20)
    (docs / "notes" / "empty.md").write_text("", encoding="utf-8")
    source = knowledge.add(docs)
    report = knowledge.update(source.id)
    problems = {Path(path).name: why for path, why in report.problems}
    assert set(problems) == {"binary.txt", "empty.md"}
    assert all(problems.values())
    assert knowledge.sources()[0].problems == 2
    assert {Path(p).name for p, _ in knowledge.problems(source.id)} == set(problems)
    # tried again at the next update (its permissions may have been fixed since)
    (docs / "notes" / "empty.md").write_text("now with okapi", encoding="utf-8")
    os.utime(docs / "notes" / "empty.md", ns=(0, 0))
    later = knowledge.update(source.id)
    assert later.files_read == 2 and [Path(p).name for p, _ in later.problems] == ["binary.txt"]
    assert found(knowledge.search("okapi")) == ["empty.md"]


def test_pdf_pages_and_docx_headings(knowledge: Knowledge, tmp_path: Path) -> None:
    import docx

    folder = tmp_path / "office"
    folder.mkdir()
    write_pdf(folder / "report.pdf", [["The summary page"], [], ["Appendix: the aardvark table"]])
    document = docx.Document()
    document.add_heading("Handbook", level=1)
    document.add_heading("Ports", level=2)
    document.add_paragraph("The gateway listens on port 8443.")
    document.save(str(folder / "handbook.docx"))
    source = knowledge.add(folder)
    report = knowledge.update(source.id)
    assert report.files_read == 2
    assert [(Path(p).name, "no text layer" in why) for p, why in report.problems] == [
        ("report.pdf", True)  # its page 2: the rest is read, and not read again
    ]
    [page] = knowledge.search("aardvark")
    assert (Path(page.path).name, page.page, page.where.endswith("report.pdf:page 3")) == (
        "report.pdf", 3, True
    )  # fmt: skip
    [port] = knowledge.search("gateway 8443")
    assert Path(port.path).name == "handbook.docx" and "Ports" in (port.heading or "")
    assert knowledge.update(source.id).files_read == 0


def test_a_single_file_scopes_and_removal(knowledge: Knowledge, docs: Path, tmp_path: Path) -> None:
    everything = knowledge.add(docs)
    one = knowledge.add(docs / "guide.md", project="01PROJECT")
    chat = knowledge.add(docs / "notes" / "cafe.txt", conversation="01CHAT")
    assert one.kind == "file" and knowledge.add(docs / "guide.md", project="01PROJECT") == one
    knowledge.update()
    assert found(knowledge.search("tarball")) == ["guide.md", "guide.md"]
    assert found(knowledge.search("tarball", project="01PROJECT")) == ["guide.md"]
    assert knowledge.search("tarball", conversation="01CHAT") == []
    assert found(knowledge.search("flore", conversation="01CHAT")) == ["cafe.txt"]
    assert knowledge.search("tarball", project="01OTHER") == []

    knowledge.remove(everything.id)
    assert [s.id for s in knowledge.sources()] == [one.id, chat.id]
    assert found(knowledge.search("tarball")) == ["guide.md"]
    assert (docs / "guide.md").read_text(encoding="utf-8") == GUIDE  # never touched
    with pytest.raises(CrosstalkError, match="knowledge list"):
        knowledge.remove(everything.id)
    with pytest.raises(CrosstalkError, match="does not exist: give a folder or a file"):
        knowledge.add(tmp_path / "nowhere")
    with pytest.raises(CrosstalkError, match="searching conversations"):
        knowledge.search("model:gpt tarball")
    with pytest.raises(QueryError):
        knowledge.search("tarball OR -rain")
    # the index holds nothing of the removed source's files
    db = sqlite3.connect(knowledge.index.path)
    assert db.execute("SELECT count(*) FROM files").fetchone()[0] == 2
    chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
    assert db.execute(f"SELECT count(*) FROM {TERMS}").fetchone()[0] == chunks
    db.close()


def test_bm25_needs_full_detail_and_column_sizes() -> None:
    """What ``index.py`` says of FTS5: contentless tables score 0 unless detail=full."""
    db = sqlite3.connect(":memory:")
    scores = {}
    for detail in ("full", "column", "none"):
        db.execute(f"CREATE VIRTUAL TABLE t_{detail} USING fts5(body, content='', detail={detail})")
        rows = ["cat cat cat dog", "cat dog bird bird bird", *["emu"] * 20]
        db.executemany(f"INSERT INTO t_{detail} (rowid, body) VALUES (?, ?)", enumerate(rows, 1))
        scores[detail] = [
            r[0] for r in db.execute(f"SELECT bm25(t_{detail}) FROM t_{detail}('cat')")
        ]
    assert all(score < 0 for score in scores["full"])
    assert all(score == 0 for score in scores["column"] + scores["none"])


KILLED = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from app.knowledge import service
    from app.paths import DataDir
    service.BATCH_FILES = 5
    knowledge = service.Knowledge(DataDir(Path(sys.argv[1])))
    source = knowledge.add(sys.argv[2])
    def progress(done, total, path):
        print(done, flush=True)
    knowledge.update(source.id, progress)
    print("finished", flush=True)
    """
)


def test_a_kill_mid_update_keeps_whole_files_and_the_next_update_completes(
    data_dir: DataDir, tmp_path: Path
) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    total = 300
    for n in range(total):
        body = "\n\n".join(f"Paragraph {p} of file {n}: " + "lorem ipsum " * 40 for p in range(6))
        (folder / f"f{n:03}.md").write_text(f"# File {n}\n\nmarker{n:03}x\n\n{body}\n", "utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED, str(data_dir.root), str(folder)],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert child.stdout is not None
    lines = []
    for line in child.stdout:
        lines.append(line.strip())
        assert lines[-1] != "finished", "the update ended before it was killed"
        if int(line) >= 40:
            break
    assert lines, "the child did not start updating"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()

    db = sqlite3.connect(data_dir.root / KNOWLEDGE_DB)
    files = db.execute("SELECT id, chunks FROM files").fetchall()
    db.close()
    assert 0 < len(files) < total
    knowledge = Knowledge(data_dir)
    for file_id, count in files:  # whole files only: each with all its chunks
        kept = knowledge.index.conn.execute("SELECT count(*) FROM chunks WHERE file = ?", [file_id])
        assert kept.fetchone()[0] == count > 0
    report = knowledge.update()
    assert report.files_read == total - len(files)
    assert report.files_unchanged == len(files)
    for n in (0, len(files) - 1, len(files), total - 1):
        assert found(knowledge.search(f"marker{n:03}x")) == [f"f{n:03}.md"]
    knowledge.close()


def test_two_thousand_small_files_index_and_a_query_stays_fast(
    knowledge: Knowledge, tmp_path: Path
) -> None:
    folder = tmp_path / "small"
    for n in range(2000):
        sub = folder / f"d{n // 100:02}"
        sub.mkdir(parents=True, exist_ok=True)
        topic = ("otters", "beavers", "herons", "東京の川")[n % 4]
        (sub / f"note{n:04}.md").write_text(
            f"# Note {n}\n\nA note about {topic}, number {n}; serial{n:04}q.\n", "utf-8"
        )
    started = time.perf_counter()
    report = knowledge.update(knowledge.add(folder).id)
    indexed = time.perf_counter() - started
    assert (report.files_read, report.problems) == (2000, [])
    timings = {}
    for query in ("otters", "serial1234q", "東京", "beav", '"number 19"'):
        started = time.perf_counter()
        passages = knowledge.search(query)
        timings[query] = (time.perf_counter() - started) * 1000
        assert passages, query
    assert found(knowledge.search("serial1234q")) == ["note1234.md"]
    again = knowledge.update()
    assert again.files_unchanged == 2000 and again.files_read == 0
    print(f"\n2,000 files indexed in {indexed:.1f} s; an unchanged update in {again.seconds:.2f} s")
    print("query ms: " + ", ".join(f"{q} {ms:.1f}" for q, ms in timings.items()))


def test_a_query_of_trigrams_only_ranks_as_fts5_bm25_without_it(
    knowledge: Knowledge, tmp_path: Path
) -> None:
    """A phrase (or a substring of a script without spaces) is ranked by the chunks' lengths
    (``index_lengths``): the same order and scores as FTS5's ``bm25()``, also after files
    change and go, in a scope, and with a -word."""
    from app.knowledge.index_query import compiled

    folder = tmp_path / "lengths"
    folder.mkdir()
    for n in range(12):
        filler = " ".join(f"w{n}x{i}" for i in range(n * 7))
        phrase = "the river bank" if n % 3 else "the river"
        (folder / f"doc{n:02}.txt").write_text(f"{filler} {phrase} 数据库迁移 {filler}\n")
    (folder / "other.txt").write_text("no match here\n")
    source = knowledge.add(folder)
    knowledge.update(source.id)
    (folder / "doc05.txt").unlink()
    (folder / "doc07.txt").write_text("the river bank, short now 数据库迁移\n")
    knowledge.update(source.id)
    index = knowledge.index
    for query in ('"the river bank"', "数据库迁移", '"river bank" "the river"', '"river" -w3x1'):
        plan = compiled(query)
        assert plan is not None and plan.grams, query
        for sources in (None, [source.id]):
            scored = index.hits(plan.match, sources, 0, 50)
            fast = index.hits(plan.match, sources, 0, 50, plan.grams)
            assert [h.chunk for h in fast] == [h.chunk for h in scored], query
            assert [h.bm25 for h in fast] == pytest.approx([h.bm25 for h in scored]), query
            assert len(fast) >= 3 and index.hits(plan.match, sources, 2, 1, plan.grams) == fast[2:3]
    for query in ("river", '"river" OR "bank"', "東京"):
        plan = compiled(query)
        assert plan is not None and plan.grams is None, query  # BM25 of its own decides
    [short] = knowledge.search('"bank, short"')
    assert Path(short.path).name == "doc07.txt"


def test_a_word_prefix_is_one_phrase_that_finds_the_words_it_starts(
    knowledge: Knowledge, tmp_path: Path
) -> None:
    """Beyond the three letters the index keeps, a prefix is one FTS5 phrase (the words that
    start with it), and finds what the conversation search's terms find: words that start so,
    not words it is inside; a prefix longer than the longest word kept is checked."""
    from app.knowledge.index_query import compiled
    from app.store.search_text import LONGEST_WORD, WORD_MARK

    folder = tmp_path / "prefixes"
    folder.mkdir()
    long_word = "q" * (LONGEST_WORD + 5) + "end"
    texts = {
        "capitals.txt": "Capitals and capitalism.",
        "inside.txt": "Let me recapitulate.",
        "exact.txt": "capit",
        "accented.txt": "Capitão do time.",
        "long.txt": f"a {long_word} b",
        "longer.txt": f"a {long_word[:-3]}xyz b",
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    knowledge.update(knowledge.add(folder).id)
    plan = compiled("capit")
    assert plan is not None and plan.match == f'("{WORD_MARK}capit"*)'
    assert sorted(found(knowledge.search("capit"))) == ["accented.txt", "capitals.txt", "exact.txt"]
    assert found(knowledge.search("capitalis")) == ["capitals.txt"]
    assert found(knowledge.search(long_word[:-1])) == ["long.txt"]
