"""Damage never bricks a library: bytes flipped in and lines cut from transcripts, index.db and
settings.toml, then every reading command runs. No traceback, ever; and after `crosstalk
reindex` every conversation whose transcript was not damaged is there whole."""

from __future__ import annotations

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

from app.cli import main
from app.history import ModelInput, ModelOutput, Title, Usage
from app.paths import DataDir
from app.store import Library

CONVERSATIONS = 4
TEMPLATE: dict[str, object] = {}


def template() -> tuple[Path, list[str]]:
    """A library made once (copied for each example): 4 conversations of 7 entries."""
    if not TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="crosstalk-fuzz-template-"))
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


damage = st.lists(
    st.tuples(
        st.sampled_from(["transcript", "index.db", "settings.toml"]),
        st.sampled_from(["flip", "cut-line", "truncate", "garbage-line"]),
        st.integers(min_value=0, max_value=CONVERSATIONS - 1),
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=255),
    ),
    min_size=1,
    max_size=4,
)


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


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(damage)
def test_damage_never_bricks_the_library(
    monkeypatch: pytest.MonkeyPatch, damages: list[tuple[str, str, int, float, int]]
) -> None:
    source, ids = template()
    root = Path(tempfile.mkdtemp(prefix="crosstalk-fuzz-"))
    try:
        home = root / "home"
        shutil.copytree(source, home)
        monkeypatch.setenv("CROSSTALK_HOME", str(home))
        data = DataDir(home)
        damaged: set[str] = set()
        for target, how, which, where, byte in damages:
            if target == "transcript":
                damaged.add(ids[which])
                path = data.conversations / f"{ids[which]}.jsonl"
            else:
                path = home / target
            spoil(path, how, where, byte)

        commands = [["list"], ["list", "--json"], ["search", "quokka"], ["usage"], ["trash"]]
        for conversation_id in ids:
            commands += [["show", conversation_id], ["show", conversation_id, "--entries"],
                         ["export", conversation_id]]  # fmt: skip
        for command in commands:
            code, _out, err = run(*command)  # an exception here fails the test: a traceback
            assert code in (0, 1), (command, code, err)
            if code == 1:
                assert err.startswith("crosstalk: ") and "Traceback" not in err

        assert run("reindex")[0] == 0
        for conversation_id in set(ids) - damaged:
            code, out, err = run("show", conversation_id, "--json")
            assert code == 0, err
            shown = json.loads(out)
            assert [e["kind"] for e in shown["entries"]].count("model_output") == 3
            assert len(shown["entries"]) == 7
        code, out, _ = run("list", "--json")
        assert code == 0
        assert set(ids) - damaged <= {row["id"] for row in json.loads(out)}
    finally:
        shutil.rmtree(root, ignore_errors=True)
        os.environ.pop("CROSSTALK_HOME", None)
