"""Notes are values: every kind says itself in English for the command line, round-trips as
data, and has a template for each of its variants (tests/ui/test_notes.py: in Japanese and
Chinese for the window)."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest

from app.notes import (
    AttachmentLeftOut,
    Failure,
    Note,
    Unsendable,
    decode,
    english,
    kinds,
    mapped,
    tag_of,
    to_raw,
)
from tests.helpers.note_samples import SAMPLES


def _variants(kind: type[Note]) -> set[str]:
    return set(kind.TEMPLATES) if kind.TEMPLATES else {""}


def _within(note: Note) -> Iterator[Note]:
    """The note and the notes in its fields (the reasons of a ReasoningDropped, ...)."""
    yield note
    for _, value in note.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Note):
                yield from _within(item)


@pytest.mark.parametrize("kind", kinds(), ids=tag_of)
def test_each_kind_says_each_of_its_variants_in_english(kind: type[Note]) -> None:
    found = [inner for note, _ in SAMPLES for inner in _within(note) if type(inner) is kind]
    assert found, f"{kind.__name__} has no sample in tests/helpers/note_samples.py"
    covered = {note.variant() if kind.TEMPLATES else "" for note in found}
    assert covered == _variants(kind), f"variants of {kind.__name__} without a sample"
    for note, said in SAMPLES:  # nested kinds are said as part of the note that holds them
        if type(note) is kind:
            assert english(note) == said


@pytest.mark.parametrize(("note", "said"), SAMPLES, ids=[english(n)[:40] for n, _ in SAMPLES])
def test_a_note_is_data_that_reads_back_as_itself(note: Note, said: str) -> None:
    raw = to_raw(note)
    assert raw["kind"] == tag_of(type(note))
    assert decode(msgspec.json.decode(msgspec.json.encode(raw))) == note


def test_each_kind_has_its_own_tag_and_no_field_is_called_kind() -> None:
    tags = [tag_of(kind) for kind in kinds()]
    assert len(tags) == len(set(tags))
    assert all("kind" not in kind.__struct_fields__ for kind in kinds())


def test_what_this_version_cannot_read_decodes_to_nothing() -> None:
    assert decode({"kind": "a_kind_from_a_newer_crosstalk", "seq": 3}) is None
    assert decode({"kind": "outside_window"}) is None  # its field is missing
    assert decode({"kind": "outside_window", "turns": "many"}) is None
    assert decode("window: older than the last 3 turns") is None  # a sentence, not a note


def test_mapped_changes_every_text_nested_ones_included() -> None:
    note = AttachmentLeftOut(name="sk-a.png", seq=2, why=Failure(text="at /home/sk-secret"))
    hidden = mapped(note, lambda text: text.replace("sk-", "[key]-"))
    expected = Failure(text="at /home/[key]-secret")
    assert hidden == AttachmentLeftOut(name="[key]-a.png", seq=2, why=expected)
    failure = Failure(text="t", error="StorageError", cause="c", data={"path": "/sk-1", "n": 3})
    assert mapped(failure, lambda text: text.replace("sk-", "")).data == {"path": "/1", "n": 3}
    same = AttachmentLeftOut(name="a.png", seq=2, why=Unsendable(cause="no_images_local"))
    assert mapped(same, str.strip) is same  # nothing to change: the same value
