"""Damage never bricks a library: bytes flipped in and lines cut from transcripts, index.db and
settings.toml, then every reading command runs. No traceback, ever: a failure is one line (a
damaged index: one that says to run `crosstalk reindex`). Every conversation whose transcript
was not damaged is shown whole, field for field: at once when the index was not damaged (a
bad transcript or settings file costs no other conversation), and after `crosstalk reindex`
in any case."""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import output as cli_output
from app.cli.main import main
from app.history import ModelInput, ModelOutput, Title, Usage
from app.paths import DataDir
from app.store import Library

CONVERSATIONS = 4
TEMPLATE: dict[str, object] = {}


def template() -> tuple[Path, list[str]]:
    """A library made once (copied for each example): 4 conversations of 7 entries."""
    if not TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="crosstalk-fuzz-template-"))
        atexit.register(shutil.rmtree, root, True)  # made once per run, removed at its end
        library = Library(DataDir(root))
        made = []
        for n in range(CONVERSATIONS):
            conversation = library.create()
            for turn in range(3):
                library.append(conversation, ModelInput(text=f"quokka {n}.{turn} café 東京"))
                reply = ModelOutput(provider="p", model="m", text="ok", usage=Usage(input=3))
                library.append(conversation, reply)
            library.append(conversation, Title(text=f"Chat {n}", source="user"))
            made.append(conversation.id)
        library.close()
        (root / "settings.toml").write_text('window_turns = 5\ndefault_model = "local:smollm2"\n')
        TEMPLATE["root"], TEMPLATE["ids"] = root, made
    return TEMPLATE["root"], TEMPLATE["ids"]  # type: ignore[return-value]


def damages_of(target: str) -> st.SearchStrategy[list[tuple[str, str, int, float, int]]]:
    """One to three damages to one target (which transcript: the integer)."""
    return st.lists(
        st.tuples(
            st.just(target),
            st.sampled_from(["flip", "cut-line", "truncate", "garbage-line"]),
            st.integers(min_value=0, max_value=CONVERSATIONS - 1),
            st.floats(min_value=0, max_value=1),
            st.integers(min_value=0, max_value=255),
        ),
        min_size=1,
        max_size=3,
    )


# Each mix of targets gets its share of the examples (a drawn mix would favour one).
TARGETS = [
    ("transcript",),
    ("index.db",),
    ("settings.toml",),
    ("transcript", "settings.toml"),
    ("transcript", "index.db", "settings.toml"),
]


def spoil(path: Path, how: str, where: float, byte: int) -> None:
    data = bytearray(path.read_bytes())
    if not data:
        return
    at = min(int(where * len(data)), len(data) - 1)
    if how == "flip":
        data[at] ^= byte or 0xFF
    elif how == "truncate":
        del data[at:]
    elif how == "cut-line":
        lines = bytes(data).split(b"\n")
        del lines[min(int(where * len(lines)), len(lines) - 1)]
        data = bytearray(b"\n".join(lines))
    else:
        data[at:at] = b"\n" + bytes([byte]) * 7 + b"\xff\xfe{not json\n"
    path.write_bytes(bytes(data))


def run(*args: str) -> tuple[int, str, str]:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # export writes bytes to .buffer
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    out.flush()
    return code, out.buffer.getvalue().decode(), err.getvalue()  # type: ignore[attr-defined]


READING = [["list"], ["list", "--json"], ["search", "quokka"], ["usage"], ["trash"]]
PER_CONVERSATION = [["show", "{id}"], ["show", "{id}", "--entries"], ["export", "{id}"]]


def expected_shows(ids: list[str]) -> dict[str, object]:
    """``show ID --json`` of each conversation of the undamaged template (run on a copy)."""
    if "shows" not in TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="crosstalk-fuzz-expected-"))
        try:
            shutil.copytree(TEMPLATE["root"], root / "home")  # type: ignore[arg-type]
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("CROSSTALK_HOME", str(root / "home"))
                TEMPLATE["shows"] = {i: json.loads(run("show", i, "--json")[1]) for i in ids}
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return TEMPLATE["shows"]  # type: ignore[return-value]


def assert_one_line_at_most(code: int, err: str, command: list[str]) -> None:
    """Warnings may come first; a failure is then exactly one line more, and never a
    traceback."""
    assert code in (0, 1), (command, code, err)
    assert "Traceback" not in err, (command, err)
    failures = [line for line in err.splitlines() if not line.startswith("crosstalk: warning: ")]
    assert len(failures) == code, (command, err)
    assert all(line.startswith("crosstalk: ") for line in failures), (command, err)


@pytest.mark.parametrize("targets", TARGETS, ids="+".join)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_damage_never_bricks_the_library(
    monkeypatch: pytest.MonkeyPatch, targets: tuple[str, ...], data: st.DataObject
) -> None:
    damages = [d for target in targets for d in data.draw(damages_of(target), label=target)]
    source, ids = template()
    expected = expected_shows(ids)
    root = Path(tempfile.mkdtemp(prefix="crosstalk-fuzz-"))
    try:
        home = root / "home"
        shutil.copytree(source, home)
        monkeypatch.setenv("CROSSTALK_HOME", str(home))
        cli_output._warned.clear()  # each example as a process of its own: warnings come again
        library = DataDir(home)
        damaged: set[str] = set()
        for target, how, which, where, byte in damages:
            if target == "transcript":
                damaged.add(ids[which])
                path = library.conversations / f"{ids[which]}.jsonl"
            else:
                path = home / target
            spoil(path, how, where, byte)
        intact = [i for i in ids if i not in damaged]
        index_spoiled = any(target == "index.db" for target, *_ in damages)

        commands = READING + [[a.format(id=i) for a in c] for i in ids for c in PER_CONVERSATION]
        for command in commands:
            code, _out, err = run(*command)  # an exception here fails the test: a traceback
            assert_one_line_at_most(code, err, command)
            if code and "index" in err:
                assert "run `crosstalk reindex`" in err, (command, err)
            if not index_spoiled:  # bad transcripts or settings cost no other conversation
                assert code == 0 or (command[1:2] and command[1] in damaged), (command, err)
        for conversation_id in intact if not index_spoiled else []:
            assert (
                json.loads(run("show", conversation_id, "--json")[1]) == expected[conversation_id]
            )

        assert run("reindex")[0] == 0
        for conversation_id in intact:
            code, out, err = run("show", conversation_id, "--json")
            assert code == 0, err
            assert json.loads(out) == expected[conversation_id]  # every entry, every field
        code, out, _ = run("list", "--json")
        assert code == 0
        assert set(intact) <= {row["id"] for row in json.loads(out)}
    finally:
        shutil.rmtree(root, ignore_errors=True)
        os.environ.pop("CROSSTALK_HOME", None)
