"""A damaged or foreign line never costs the entries around it.

A conversation with two branches is damaged one way at a time (garbage inserted, a line cut in
half, a byte flipped, two lines swapped, a line duplicated), at its start, middle and end; then
the real `crosstalk` commands read it. Every entry whose line is still readable is shown
(`show --all`), sent (`context`: the next request's messages) and exported (`export`), once
each, and the warnings name the file and line of what could not be read.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from app.history import DAMAGED, DebugLog, ModelInput, ModelOutput, Title, Usage, encode
from app.history.context import NO_QUESTION
from app.notes import english
from app.paths import DataDir
from app.store import Library, transcript

ROOT = Path(__file__).resolve().parents[2]
GARBAGE = b'{"kind": "model_output", garbage \x00 here\n'
HEADER_FOR_MIX = transcript.Header(
    format=transcript.FORMAT, version=transcript.VERSION, id="01MIX000000000000000000000",
    created_at="2026-01-01T00:00:00Z",
)  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # export writes to .buffer
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    out.flush()
    return code, out.buffer.getvalue().decode(), err.getvalue()  # type: ignore[attr-defined]


def reply(text: str) -> ModelOutput:
    return ModelOutput(provider="local", model="smollm2", text=text, usage=Usage(input=3))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CROSSTALK_HOME", str(tmp_path))
    return tmp_path


def branched(home: Path) -> tuple[str, Path]:
    """Seven entries: two turns, a title, and an edit of the second question (a branch after
    the first reply, now the active one)."""
    library = Library(DataDir(home))
    conversation = library.create()
    library.append(conversation, ModelInput(text="alpha question"))
    first = library.append(conversation, reply("alpha answer"))
    library.append(conversation, ModelInput(text="beta question"))
    library.append(conversation, reply("beta answer"))
    library.append(conversation, Title(text="Branchy", source="user"))
    library.append(conversation, ModelInput(text="gamma question"), after=first.seq)
    library.append(conversation, reply("gamma answer"))
    library.close()
    return conversation.id, conversation.path


TEXTS = [
    "alpha question", "alpha answer", "beta question", "beta answer", "Branchy",
    "gamma question", "gamma answer",
]  # fmt: skip
ACTIVE = {"alpha question", "alpha answer", "gamma question", "gamma answer"}


def damage(path: Path, how: str, at: int) -> set[str]:
    """Damage entry line ``at`` (0-based, after the header); returns the texts whose lines
    can no longer be read."""
    header, *lines = path.read_bytes().split(b"\n")[:-1]
    lost: set[str] = set()
    if how == "garbage":
        lines.insert(at, GARBAGE.rstrip(b"\n"))
    elif how == "cut":
        lines[at] = lines[at][: len(lines[at]) // 2]
        lost.add(TEXTS[at])
    elif how == "flip":
        lines[at] = bytes([lines[at][0] ^ 0x01]) + lines[at][1:]  # "{" -> "z": not JSON
        lost.add(TEXTS[at])
    elif how == "swap":
        other = at + 1 if at + 1 < len(lines) else at - 1
        lines[at], lines[other] = lines[other], lines[at]
    elif how == "duplicate":
        lines.insert(at + 1, lines[at])
    path.write_bytes(b"\n".join([header, *lines]) + b"\n")
    return lost


def texts_of(entries: list[dict[str, object]]) -> list[str]:
    return [str(e["text"]) for e in entries if e.get("kind") != "debug_log"]


PLACES = {"start": 0, "middle": 3, "end": 6}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("how", ["garbage", "cut", "flip", "swap", "duplicate"])
def test_every_readable_entry_is_shown_sent_and_exported(home: Path, how: str, place: str) -> None:
    conversation_id, path = branched(home)
    lost = damage(path, how, PLACES[place])
    readable = [text for text in TEXTS if text not in lost]

    code, out, err = run("show", conversation_id, "--all", "--json")
    assert code == 0, err
    shown = json.loads(out)["entries"]
    assert texts_of(shown) == readable  # each once, in seq order
    assert [e["seq"] for e in shown] == list(range(1, len(shown) + 1))
    stand_ins = [e for e in shown if e["kind"] == "debug_log"]
    # a stand-in only for a seq no readable line holds; the last line, torn, has none
    assert len(stand_ins) == (1 if lost and place != "end" else 0)
    assert all(e["category"] == DAMAGED for e in stand_ins)
    if lost and place != "end":
        assert f"{path} line {PLACES[place] + 2}" in err  # the header is line 1
    if how == "garbage" and place != "end":
        assert f"{path} line {PLACES[place] + 2} is not valid JSON" in err

    code, out, err = run("context", conversation_id, "--json")
    assert code == 0, err
    report = json.loads(out)
    sent = {row["text"] for row in report["carried"]}
    text_at = {e["seq"]: e.get("text") for e in shown}
    said = {  # left out, and why: a reply whose question could not be read answers nothing
        text_at[seq]: o["reason"]
        for o in report["omitted"]
        for seq in range(o["first_seq"], o["last_seq"] + 1)
    }
    assert ACTIVE - lost <= sent | set(said)
    assert set(said.values()) <= {english(NO_QUESTION)}  # as the command line says it
    assert set(said) == ({"alpha answer"} if "alpha question" in lost else set())

    code, out, err = run("export", conversation_id)
    assert code == 0, err
    exported = json.loads(out)
    assert sorted(texts_of(exported["entries"])) == sorted(readable)


def test_a_garbage_line_between_two_turns_hides_neither(home: Path) -> None:
    """The issue's case, with the installed command in its own process."""
    library = Library(DataDir(home))
    conversation = library.create()
    for turn in ("first", "second"):
        library.append(conversation, ModelInput(text=f"{turn} question"))
        library.append(conversation, reply(f"{turn} answer"))
        if turn == "first":
            library.append(conversation, Title(text="Two turns", source="user"))
    library.close()
    header, *lines = conversation.path.read_bytes().split(b"\n")[:-1]
    lines.insert(3, GARBAGE.rstrip(b"\n"))
    conversation.path.write_bytes(b"\n".join([header, *lines]) + b"\n")

    shown = subprocess.run(
        [sys.executable, "-m", "app.cli", "show", conversation.id],
        capture_output=True, text=True, cwd=ROOT, check=True,
        env=os.environ | {"CROSSTALK_HOME": str(home)},
    )  # fmt: skip
    for text in ("first question", "first answer", "second question", "second answer"):
        assert text in shown.stdout
    assert "debug_log" not in shown.stdout
    assert f"{conversation.path} line 5 is not valid JSON" in shown.stderr
    assert "out of order" not in shown.stderr


def lines_of(path: Path) -> tuple[bytes, list[bytes]]:
    header, *lines = path.read_bytes().split(b"\n")[:-1]
    return header, lines


def write_lines(path: Path, header: bytes, lines: list[bytes]) -> None:
    path.write_bytes(b"\n".join([header, *lines]) + b"\n")


def test_a_seq_changed_by_a_flipped_byte_is_read_in_the_free_place(home: Path) -> None:
    _, path = branched(home)
    header, lines = lines_of(path)
    assert b'"seq":4,' in lines[3]
    lines[3] = lines[3].replace(b'"seq":4,', b'"seq":5,')  # "4" ^ 0x01: entry 5 is there too
    write_lines(path, header, lines)
    loaded = transcript.load(path)
    assert [getattr(e, "text", None) for e in loaded.entries] == TEXTS
    assert [e.seq for e in loaded.entries] == list(range(1, 8))
    assert loaded.problems == [
        f"{path} line 5 says entry 5, whose place is taken; read as entry 4, the free place "
        "between its neighbours"
    ]


def test_a_flipped_letter_in_the_kind_is_damage_not_a_newer_crosstalk(home: Path) -> None:
    conversation_id, path = branched(home)
    header, lines = lines_of(path)
    lines[2] = lines[2].replace(b'"model_input"', b'"model_inpet"')
    write_lines(path, header, lines)
    code, out, err = run("show", conversation_id, "--all", "--json")
    assert code == 0, err
    assert texts_of(json.loads(out)["entries"]) == [t for t in TEXTS if t != "beta question"]
    assert "one letter" not in err and f"{path} line 4 is not a Crosstalk entry" in err


def test_an_unknown_kind_still_refuses_the_file_as_from_a_newer_crosstalk(home: Path) -> None:
    conversation_id, path = branched(home)
    header, lines = lines_of(path)
    lines[2] = lines[2].replace(b'"model_input"', b'"hologram"')
    write_lines(path, header, lines)
    code, _, err = run("show", conversation_id)
    assert code == 1 and "newer Crosstalk" in err


def test_a_foreign_line_with_a_far_seq_makes_no_million_stand_ins(home: Path) -> None:
    _, path = branched(home)
    header, lines = lines_of(path)
    far = json.loads(lines[4]) | {"seq": 10**12, "id": "01FOREIGN000000000000000000", "text": "x"}
    write_lines(path, header, [*lines, json.dumps(far).encode(), lines[0]])  # not the last line
    loaded = transcript.load(path)
    assert len(loaded.entries) == 8  # seven, and the foreign title after them
    assert loaded.entries[7].seq == 8
    assert any("line 9 says entry 1000000000000" in p for p in loaded.problems)
    assert any("line 10: entry 1 again (as on line 2); skipped" in p for p in loaded.problems)


def test_appending_after_damage_keeps_the_damaged_line_and_every_entry(home: Path) -> None:
    conversation_id, path = branched(home)
    damage(path, "garbage", 3)
    damage(path, "swap", 5)
    before = path.read_bytes()
    library = Library(DataDir(home))
    conversation = library.open(conversation_id)
    added = library.append(conversation, ModelInput(text="delta question"))
    assert added.seq == 8
    library.close()
    assert path.read_bytes().startswith(before)  # never rewritten: appended to
    reread = transcript.load(path)
    assert [getattr(e, "text", None) for e in reread.entries] == [*TEXTS, "delta question"]


def test_lines_another_process_appends_with_damage_are_caught_up(home: Path) -> None:
    conversation_id, path = branched(home)
    library = Library(DataDir(home))
    conversation = library.open(conversation_id)
    header, lines = lines_of(path)
    first = json.loads(lines[0])
    extra = [
        GARBAGE.rstrip(b"\n"),
        json.dumps(first | {"seq": 8, "id": "01EXTRA0000000000000000001", "text": "epsilon"}),
        lines[6].decode(),  # entry 7 again
        json.dumps(first | {"seq": 9, "id": "01EXTRA0000000000000000002", "text": "zeta"}),
    ]
    write_lines(path, header, [*lines, *(e if isinstance(e, bytes) else e.encode() for e in extra)])
    library.refresh(conversation)
    texts = [getattr(e, "text", None) for e in conversation.history]
    assert texts == [*TEXTS, "epsilon", "zeta"]
    assert any("line 11: entry 7 again; skipped" in w for w in library.warnings)
    assert not any(isinstance(e, DebugLog) for e in conversation.history)
    library.close()


DAMAGES = st.lists(
    st.tuples(
        st.sampled_from(["garbage", "cut", "flip", "swap", "duplicate"]),
        st.integers(min_value=0, max_value=200),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(size=st.integers(min_value=1, max_value=40), damages=DAMAGES)
def test_any_mix_of_damage_keeps_every_intact_entry_at_its_own_seq(
    tmp_path_factory: pytest.TempPathFactory, size: int, damages: list[tuple[str, int]]
) -> None:
    """Lines garbled, cut, swapped or repeated anywhere, several at once: every entry whose
    line is intact is read once, at its own seq, and seqs run 1, 2, 3 ..."""
    path = tmp_path_factory.mktemp("mix") / "x.jsonl"
    entries = [
        ModelInput(text=f"m{n}", seq=n, ts="2026-01-01T00:00:00Z", id=f"01MIX{n:021d}")
        for n in range(1, size + 1)
    ]
    transcript.create(path, HEADER_FOR_MIX, entries)
    header, lines = lines_of(path)
    for how, at in damages:
        at %= len(lines)
        if how == "garbage":
            lines.insert(at, GARBAGE.rstrip(b"\n"))
        elif how == "cut":
            lines[at] = lines[at][: len(lines[at]) // 2]
        elif how == "flip":
            lines[at] = bytes([lines[at][0] ^ 0x01]) + lines[at][1:]
        elif how == "swap" and len(lines) > 1:
            other = (at + 1) % len(lines)
            lines[at], lines[other] = lines[other], lines[at]
        elif how == "duplicate":
            lines.insert(at + 1, lines[at])
    write_lines(path, header, lines)
    intact = {entry.id: entry for entry in entries if encode(entry) in lines[:-1]}
    loaded = transcript.load(path)  # the last line may be torn: the writer's to set aside
    assert [e.seq for e in loaded.entries] == list(range(1, len(loaded.entries) + 1))
    read = [e for e in loaded.entries if not isinstance(e, DebugLog)]
    assert len({e.id for e in read}) == len(read)  # none twice
    by_id = {e.id: e for e in read}
    for entry_id, entry in intact.items():
        assert by_id.get(entry_id) == entry  # there, whole, at its own seq


@pytest.mark.parametrize("how", ["flip", "cut", "garbage"])
def test_a_damaged_header_costs_none_of_the_entries(home: Path, how: str) -> None:
    conversation_id, path = branched(home)
    header, lines = lines_of(path)
    header = {
        "flip": bytes([header[0] ^ 0x01]) + header[1:],
        "cut": header[: len(header) // 2],
        "garbage": GARBAGE.rstrip(b"\n"),
    }[how]
    write_lines(path, header, lines)
    assert run("reindex")[0] == 0  # the list finds it again, by its file name
    code, out, err = run("list", "--json")
    assert [row["id"] for row in json.loads(out)] == [conversation_id]
    code, out, err = run("show", conversation_id, "--all", "--json")
    assert code == 0, err
    assert texts_of(json.loads(out)["entries"]) == TEXTS
    assert f"{path} line 1, its header, could not be read" in err
    library = Library(DataDir(home))  # and it can be written to: appended, never rewritten
    library.append(library.open(conversation_id), ModelInput(text="after"))
    library.close()
    assert path.read_bytes().startswith(header + b"\n")


def test_a_file_of_no_entries_named_like_a_transcript_is_still_refused(home: Path) -> None:
    _, path = branched(home)
    path.write_bytes(b'{"hello": "world"}\n{"not": "an entry"}\n')
    code, _, err = run("show", path.stem)
    assert code == 1 and "is not a Crosstalk transcript" in err
