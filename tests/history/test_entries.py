from __future__ import annotations

import msgspec
import pytest
from hypothesis import given

from app.errors import NewerFormat, TranscriptError
from app.history import (
    History,
    ModelInput,
    ModelOutput,
    Title,
    Usage,
    decode,
    decode_many,
    encode,
)
from tests.helpers.strategies import entry_bodies, histories


@given(entry_bodies)
def test_every_kind_round_trips_through_its_json_form(entry: object) -> None:
    assert decode(encode(entry)) == entry  # type: ignore[arg-type]


@given(histories())
def test_many_lines_decode_as_one_and_as_each(entries: list[object]) -> None:
    lines = [encode(e) for e in entries]  # type: ignore[arg-type]
    assert decode_many(lines, "t") == entries


def test_json_form_names_the_kind_and_every_field() -> None:
    raw = msgspec.json.decode(encode(ModelInput(text="hi", seq=1, ts="t", id="A", parent="B")))
    assert raw == {
        "kind": "model_input",
        "seq": 1,
        "ts": "t",
        "id": "A",
        "parent": "B",
        "meta": {},
        "text": "hi",
        "attachments": [],
    }


def test_entries_are_frozen() -> None:
    entry = ModelInput(text="hi")
    with pytest.raises(AttributeError):
        entry.text = "changed"  # type: ignore[misc]


def test_unknown_kind_is_refused_as_newer() -> None:
    with pytest.raises(NewerFormat, match=r"'hologram'.*upgrade"):
        decode(b'{"kind":"hologram","seq":1,"ts":"t","meta":{}}', "x.jsonl line 2")


def test_bad_entry_names_its_line_and_kind() -> None:
    good = encode(ModelInput(text="ok", seq=1, ts="t"))
    bad = b'{"kind":"model_input","seq":2,"ts":"t","meta":{},"text":5}'
    with pytest.raises(TranscriptError, match=r"x\.jsonl line 3 is not a valid model_input"):
        decode_many([good, bad], "x.jsonl", first_line=2)


def test_garbage_is_not_json() -> None:
    with pytest.raises(TranscriptError, match="not valid JSON"):
        decode(b"{nope", "line 9")


def test_history_stamps_consecutive_seqs_and_refuses_gaps() -> None:
    history = History()
    first = history.stamp(ModelInput(text="a"))
    history.append(first)
    assert (first.seq, history.version) == (1, 1)
    assert first.ts.endswith("Z")
    with pytest.raises(ValueError, match="seq 3"):
        history.append(ModelInput(text="b", seq=3, ts="t"))
    with pytest.raises(TranscriptError, match="gap"):
        History([ModelInput(text="a", seq=1, ts="t"), ModelInput(text="b", seq=3, ts="t")])


def test_history_derives_title_and_usage_from_its_entries() -> None:
    history = History()
    for body in (
        ModelInput(text="q"),
        ModelOutput(provider="p", model="m", usage=Usage(input=3, output=4)),
        Title(text="first", source="generated"),
        ModelOutput(provider="p", model="m", usage=Usage(input=5, output=6, cached=2)),
        Title(text="second", source="user"),
    ):
        history.append(history.stamp(body))
    assert history.title == "second"
    assert history.usage() == Usage(input=8, output=10, cached=2)
    assert history.turn_count == 1
