"""Chunks made from real files: the size they keep to, what they keep whole, their headings,
pages and line ranges, and the overlap of prose cut inside a section."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from app.knowledge.chunks import Chunk, chunks
from app.knowledge.extract import extract
from tests.knowledge import write_pdf

WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa")


def prose(n: int, seed: int = 0) -> str:
    """``n`` words in lines of about 70 characters, every word numbered to be found again."""
    words = [f"{WORDS[(i + seed) % len(WORDS)]}{i}" for i in range(n)]
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) > 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def spanned(path: Path, chunk: Chunk) -> str:
    assert chunk.first_line is not None and chunk.last_line is not None
    lines = path.read_text(encoding="utf-8").split("\n")
    return "\n".join(lines[chunk.first_line - 1 : chunk.last_line])


def assert_located(path: Path, chunk: Chunk) -> None:
    """The chunk's text is what its line range holds: its first line may start inside the
    file's line (an overlap starts at a word), the rest is the file's own, blank lines between
    paragraphs as one."""
    text = spanned(path, chunk)
    text = re.sub(r"\n(?:[ \t]*\n)+", "\n\n", text)
    first, _, rest = chunk.text.partition("\n")
    file_first, _, file_rest = text.partition("\n")
    assert file_first.endswith(first)
    assert file_rest == rest


def test_sections_are_packed_under_their_heading_path_and_never_mixed(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(
        "# Install\n\nShort intro.\n\nAnother short paragraph.\n\n"
        "## Linux\n\nUse apt.\n\n```sh\napt install x\n```\n\n## Windows\n\nRun setup.\n",
        encoding="utf-8",
    )
    got = chunks(extract(path), size=1200)
    assert [(c.heading, c.first_line, c.last_line) for c in got] == [
        ("Install", 1, 5),
        ("Install > Linux", 7, 13),
        ("Install > Windows", 15, 17),
    ]
    assert got[1].text == "## Linux\n\nUse apt.\n\n```sh\napt install x\n```"
    for chunk in got:
        assert_located(path, chunk)


def test_long_prose_is_cut_within_the_size_with_an_overlap(tmp_path: Path) -> None:
    paragraphs = [prose(60, seed) for seed in range(30)]  # about 500 characters each
    paragraphs.insert(10, prose(700))  # one paragraph longer than a chunk
    path = tmp_path / "essay.md"
    path.write_text("# Essay\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    got = chunks(extract(path), size=1200, overlap=150)
    assert len(got) > 10
    for chunk in got:
        assert chunk.heading == "Essay"
        assert len(chunk.text) <= 1200 and chunk.text == chunk.text.strip()
        assert_located(path, chunk)
    # each chunk after the first starts with words the one before ends with
    overlapped = 0
    for before, after in itertools.pairwise(got):
        head = after.text.split()[:3]
        if " ".join(head) in before.text[-200:]:
            overlapped += 1
    assert overlapped >= len(got) - 2
    # nothing is lost: every numbered word is in some chunk
    every = set(" ".join(c.text for c in got).split())
    assert set(path.read_text(encoding="utf-8").split()) <= every


def test_a_code_block_is_kept_whole_up_to_twice_the_size(tmp_path: Path) -> None:
    block = "\n".join(f"    value_{i} = compute({i})  # step" for i in range(40))  # ~1,500
    long_block = "\n".join(f"    other_{i} = compute({i})  # step" for i in range(120))
    path = tmp_path / "code.md"
    path.write_text(
        f"# Code\n\nBefore.\n\n```py\n{block}\n```\n\nBetween.\n\n```py\n{long_block}\n```\n",
        encoding="utf-8",
    )
    got = chunks(extract(path), size=1200, overlap=150)
    whole = [c for c in got if "value_0 " in c.text]
    assert len(whole) == 1 and "value_39 " in whole[0].text  # 1,500 characters, one chunk
    assert whole[0].text.startswith("```py") and whole[0].text.endswith("```")
    pieces = [c for c in got if "other_" in c.text]
    assert len(pieces) >= 3
    for chunk in pieces:
        assert len(chunk.text) <= 1200
        assert_located(path, chunk)
        # cut at line ends: every line of a piece is a whole line of the file
        for line in chunk.text.split("\n"):
            assert line in {"```py", "```"} or line.startswith("    other_")


def test_a_heading_stays_with_the_code_block_after_it(tmp_path: Path) -> None:
    block = "\n".join(f"x_{i} = {i}" for i in range(150))  # ~1,400 characters
    path = tmp_path / "h.md"
    path.write_text(f"# Top\n\nIntro.\n\n## Example\n\n```\n{block}\n```\n", encoding="utf-8")
    got = chunks(extract(path), size=1200)
    assert [c.heading for c in got] == ["Top", "Top > Example"]
    assert got[1].text.startswith("## Example\n\n```")
    assert (got[1].first_line, got[1].last_line) == (5, 158)  # the closing fence's line


def test_pdf_pages_are_never_mixed_and_a_long_page_is_cut(tmp_path: Path) -> None:
    long_page = [f"Line {i} of the long page, with some words to fill it." for i in range(60)]
    path = write_pdf(
        tmp_path / "book.pdf", [["Page one."], ["Page two."], long_page, ["Page four."]]
    )
    got = chunks(extract(path), size=1200, overlap=150)
    assert [c.page for c in got[:2]] == [1, 2] and got[-1].page == 4
    assert [c.text for c in got[:2]] == ["Page one.", "Page two."]
    third = [c for c in got if c.page == 3]
    assert len(third) >= 3  # about 3,300 characters: more than twice the size
    assert all(len(c.text) <= 1200 and c.first_line is None for c in third)
    assert third[0].text.startswith("Line 0 ") and third[-1].text.endswith(
        "Line 59 of the long page, with some words to fill it."
    )


def test_a_page_that_fits_in_twice_the_size_is_one_chunk(tmp_path: Path) -> None:
    page = [f"Sentence number {i} on this page says a little." for i in range(40)]  # ~1,900
    got = chunks(extract(write_pdf(tmp_path / "p.pdf", [page])), size=1200)
    assert len(got) == 1 and got[0].page == 1 and len(got[0].text) > 1200


def test_source_code_blocks_are_packed_with_their_line_ranges(tmp_path: Path) -> None:
    functions = [
        f"def f{i}(x):\n" + "".join(f"    x = x * {j} + {i}\n" for j in range(8)) + "    return x\n"
        for i in range(30)
    ]
    path = tmp_path / "many.py"
    path.write_text("\n\n".join(functions), encoding="utf-8")
    got = chunks(extract(path), size=1200, overlap=150)
    assert len(got) > 3
    for chunk in got:
        assert len(chunk.text) <= 1200
        assert chunk.text.startswith("def f")  # blocks are packed whole
        assert_located(path, chunk)
    assert got[0].first_line == 1 and got[-1].last_line == path.read_text().count("\n")


def test_one_long_line_is_cut_at_words(tmp_path: Path) -> None:
    path = tmp_path / "one-line.txt"
    path.write_text(prose(2000).replace("\n", " "), encoding="utf-8")
    got = chunks(extract(path), size=1000, overlap=100)
    assert len(got) > 10
    for chunk in got:
        assert len(chunk.text) <= 1000
        assert (chunk.first_line, chunk.last_line) == (1, 1)
        assert chunk.text.split()[0] in path.read_text().split()  # no word cut in two
    assert chunks(extract(path), size=1000, overlap=0)[1].text.split()[0] != got[1].text.split()[0]
