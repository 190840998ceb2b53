from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from app.errors import NewerFormat, StorageError, TranscriptError
from app.history import DAMAGED, AnyEntry, ModelInput, ModelOutput, Title, decode_lines, encode
from app.store import transcript
from app.store.transcript import FORMAT, Appender, ForkRef, Header
from tests.helpers.strategies import histories

GOLDEN = Path(__file__).with_name("golden_v1.jsonl")
HEADER = Header(format=FORMAT, version=1, id="01KAGR6Z4N7W2X8Q3M5T9V0B1C", created_at="t")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=50)
@given(histories())
def test_created_then_appended_transcripts_load_back_equal(
    tmp_path: Path, entries: list[AnyEntry]
) -> None:
    path = tmp_path / f"{HEADER.id}.jsonl"
    path.unlink(missing_ok=True)
    half = len(entries) // 2
    size = transcript.create(path, HEADER, entries[:half])
    appender = Appender(path, size)
    for entry in entries[half:]:
        appender.append(entry)
    appender.close()
    loaded = transcript.load(path)
    assert (loaded.header, loaded.entries, loaded.problems) == (HEADER, entries, [])
    assert loaded.size == path.stat().st_size


def test_golden_v1_transcript_keeps_loading() -> None:
    loaded = transcript.load(GOLDEN)
    assert loaded.header.forked_from == ForkRef(id="01KAGR0000000000000000000A", seq=2)
    kinds = [e.kind for e in loaded.entries]
    assert kinds == [
        "system_instruction",
        "memory_notebook",
        "model_input",
        "model_output",
        "tool_results",
        "model_output",
        "compression",
        "title",
        "debug_log",
    ]
    output = loaded.entries[3]
    assert isinstance(output, ModelOutput)
    assert output.reasoning[0].signature == "c2lnbmF0dXJl"
    assert output.usage.cached == 100
    assert loaded.problems == []


def test_files_are_private(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    transcript.create(path, HEADER)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_create_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    transcript.create(path, HEADER, [ModelInput(text="keep me", seq=1, ts="t")])
    before = path.read_bytes()
    with pytest.raises(StorageError, match="already exists"):
        transcript.create(path, HEADER)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.jsonl"]


@pytest.mark.parametrize("tail", [b'{"kind":"model_in', b"\x00\x00\x00\x00\n", b"{broken\n"])
def test_a_torn_last_line_is_left_by_readers_and_set_aside_by_the_next_writer(
    tmp_path: Path, tail: bytes
) -> None:
    path = tmp_path / "x.jsonl"
    shutil.copy(GOLDEN, path)
    good = path.read_bytes()
    path.write_bytes(good + tail)
    loaded = transcript.load(path)
    assert len(loaded.entries) == 9 and loaded.size == len(good)
    assert path.read_bytes() == good + tail  # a reader changes nothing: it may be a live write
    appender = Appender(path, loaded.size, loaded.lines)
    caught = appender.append(Title(text="after the crash", source="user", seq=10, ts="t"))
    assert caught.set_aside is not None and ".torn-" in caught.set_aside.name
    assert caught.set_aside.read_bytes() == tail
    assert transcript.load(path).entries[-1].seq == 10
    assert path.read_bytes() == good + encode(transcript.load(path).entries[-1]) + b"\n"


def test_a_bad_line_in_the_middle_is_skipped_reported_and_the_file_untouched(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.jsonl"
    lines = GOLDEN.read_bytes().split(b"\n")
    lines[3] = b'{"kind":"model_input","seq":3}'
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    loaded = transcript.load(path)
    assert [e.seq for e in loaded.entries] == list(range(1, 10))
    stand_in = loaded.entries[2]
    assert stand_in.kind == "debug_log" and stand_in.category == DAMAGED  # type: ignore[union-attr]
    problem, stood_in = loaded.problems
    assert "line 4 is not a valid model_input" in problem
    assert problem.endswith("set aside (the line is kept in the file)")
    assert stood_in == f"{path}: no readable line holds entry 3; stood in for"
    assert path.read_bytes() == before


def test_invalid_utf8_is_read_with_replacements_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    size = transcript.create(path, HEADER, [ModelInput(text="café", seq=1, ts="t")])
    data = path.read_bytes()
    path.write_bytes(data.replace("é".encode(), b"\xff"))
    loaded = transcript.load(path)
    assert [e.text for e in loaded.entries] == ["caf\ufffd"]  # type: ignore[union-attr]
    assert loaded.problems == [
        f"{path} line 2 has bytes that are not UTF-8; read with replacements"
    ]
    assert loaded.size == size - 1


def test_a_missing_line_is_stood_in_for_so_seqs_stay_whole(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    entries = [ModelInput(text=str(n), seq=n, ts="t") for n in (1, 2, 3)]
    transcript.create(path, HEADER, entries)
    lines = path.read_bytes().split(b"\n")
    del lines[2]  # seq 2
    path.write_bytes(b"\n".join(lines))
    loaded = transcript.load(path)
    assert [e.kind for e in loaded.entries] == ["model_input", "debug_log", "model_input"]
    assert loaded.problems == [f"{path}: no readable line holds entry 2; stood in for"]


def test_a_newer_version_is_refused_whole(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(GOLDEN.read_text().replace('"version":1', '"version":99', 1))
    with pytest.raises(NewerFormat, match=r"version 99.*upgrade Crosstalk"):
        transcript.load(path)


@pytest.mark.parametrize(
    "content",
    [b"", b"hello world\n", b'{"format":"other","version":1,"id":"x","created_at":"t"}\n'],
)
def test_foreign_files_are_not_transcripts(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    with pytest.raises(TranscriptError, match="not a Crosstalk transcript"):
        transcript.load(path)
    assert path.read_bytes() == content


def test_an_append_after_another_writer_catches_up_first(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    size = transcript.create(path, HEADER)
    mine, theirs = Appender(path, size), Appender(path, size)
    theirs.append(ModelInput(text="theirs", seq=1, ts="t"))
    caught = mine.append(ModelInput(text="mine", seq=2, ts="t"))
    assert len(caught.lines) == 1 and mine.lines == 2 and mine.size == path.stat().st_size
    assert [e.text for e in transcript.load(path).entries] == ["theirs", "mine"]  # type: ignore[union-attr]


@pytest.mark.parametrize("damage", ["none", "garbled", "missing", "repeated"])
def test_a_long_transcript_read_in_parts_equals_one_read_whole(tmp_path: Path, damage: str) -> None:
    """``load`` decodes ``DECODED_AT_ONCE`` lines at a time; damage at a part's edge reads as
    it would in one part (the same entries, stand-ins and problems)."""
    path = tmp_path / "x.jsonl"
    per = transcript.DECODED_AT_ONCE
    entries = [ModelInput(text=f"m{n}", seq=n, ts="t") for n in range(1, 2 * per + 50)]
    transcript.create(path, HEADER, entries)
    header, *lines = path.read_bytes().split(b"\n")[:-1]
    edge = per  # the first line of the second part (0-based among the entry lines)
    if damage == "garbled":
        lines[edge] = b'{"kind":"model_input","seq":'
    elif damage == "missing":
        del lines[edge - 1 : edge + 1]
    elif damage == "repeated":
        lines.insert(edge, lines[edge - 1])
    path.write_bytes(b"\n".join([header, *lines]) + b"\n")
    whole = decode_lines(lines, str(path), first_line=2)
    loaded = transcript.load(path)
    assert (loaded.entries, loaded.problems) == whole
    assert [e.seq for e in loaded.entries] == list(range(1, len(loaded.entries) + 1))
    assert bool(loaded.problems) == (damage != "none")
