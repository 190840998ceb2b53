"""Crosstalk's own JSON: lossless, so export -> import -> export gives the same document."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import ids
from app.history import AnyEntry, History, render_context
from app.paths import DataDir
from app.store import ForkRef, Header, Library
from app.store.transcript import FORMAT, VERSION
from app.transfer import export, import_paths, native
from app.transfer.base import Malformed
from tests.helpers.strategies import histories

GOLDEN = Path(__file__).parents[1] / "store" / "golden_v1.jsonl"


@st.composite
def headers(draw: st.DrawFn) -> Header:
    forked = draw(st.booleans())
    return Header(
        format=FORMAT,
        version=VERSION,
        id=ids.new_id(),
        created_at=draw(st.sampled_from(["2026-11-21T09:59:00.000Z", "2020-02-29T23:59:59.999Z"])),
        forked_from=ForkRef(id=ids.new_id(), seq=draw(st.integers(1, 50))) if forked else None,
    )


@settings(max_examples=200)
@given(headers(), histories())
def test_a_document_decodes_to_what_was_encoded(header: Header, entries: list[AnyEntry]) -> None:
    document = native.decode(native.encode(header, entries))
    assert (document.header, document.entries) == (header, entries)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(headers(), histories())
def test_export_import_export_gives_the_same_document(
    header: Header, entries: list[AnyEntry]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        here, there = Library(DataDir(root / "here")), Library(DataDir(root / "there"))
        try:
            here.create_from(header, entries)
            first = root / "first.json"
            export(here, [header.id], "json", first)
            report = import_paths(there, [first])
            assert [row[0] for row in report.imported] == [header.id]
            again = root / "again.json"
            export(there, [header.id], "json", again)
            assert again.read_bytes() == first.read_bytes()
            imported = there.open(header.id)
            assert imported.header == header
            for window in (1, 20):  # the same live context, so the same request to any provider
                assert render_context(imported.history, window) == render_context(
                    History(entries), window
                )
        finally:
            here.close()
            there.close()


def test_the_document_names_its_format_version_and_header(library: Library) -> None:
    golden = [line for line in GOLDEN.read_bytes().splitlines() if line]
    header = Header(
        format=FORMAT, version=VERSION, id=ids.new_id(), created_at="2026-11-21T09:00:00.000Z"
    )
    entries = native.decode(
        b'{"format":"crosstalk.conversation","version":1,"header":'
        + json.dumps(
            {"format": FORMAT, "version": 1, "id": header.id, "created_at": header.created_at}
        ).encode()
        + b',"entries":['
        + b",".join(golden[1:])
        + b"]}"
    ).entries
    document = json.loads(native.encode(header, entries))
    assert document["format"] == "crosstalk.conversation" and document["version"] == 1
    assert document["header"]["id"] == header.id
    assert [e["kind"] for e in document["entries"]][:4] == [
        "system_instruction",
        "memory_notebook",
        "model_input",
        "model_output",
    ]
    assert document["entries"][3]["reasoning"][0]["signature"] == "c2lnbmF0dXJl"


def _document(**changes: object) -> bytes:
    header = {"format": FORMAT, "version": 1, "id": "01KAGR6Z4N7W2X8Q3M5T9V0B1C", "created_at": "t"}
    entry = {
        "kind": "model_input",
        "seq": 1,
        "ts": "t",
        "meta": {},
        "text": "hi",
        "attachments": [],
    }
    document = {
        "format": "crosstalk.conversation",
        "version": 1,
        "header": header,
        "entries": [entry],
    }
    for path, value in changes.items():
        target: dict = document  # type: ignore[type-arg]
        *parents, last = path.split("__")
        for key in parents:
            target = target[key] if not key.isdigit() else target[int(key)]  # type: ignore[index]
        target[last] = value
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("data", "place", "expected"),
    [
        (
            _document(version=native.VERSION + 1),
            "at .version",
            "newer Crosstalk; upgrade to import it",
        ),
        (_document(format="something.else"), "at .format", "expected 'crosstalk.conversation'"),
        (_document(header__version=9), "at .header.version", "expected transcript version 1"),
        (_document(header__id="../../etc"), "at .header.id", "expected a conversation id"),
        (
            b'{"format": "crosstalk.conversation", "version": 1,\n "header": [',
            "line 2, the end of the file",
            "expected the rest of the document",
        ),
        (
            b'{"format": "crosstalk.conversation",\n "version": 1 "header": {}}',
            "line 2 column 15",
            "expected valid JSON",
        ),
        (b"[1, 2]", "at the top", "expected `object`, got `array`"),
    ],
)
def test_a_bad_document_says_where_and_what_was_expected(
    data: bytes, place: str, expected: str
) -> None:
    with pytest.raises(Malformed) as caught:
        native.decode(data)
    assert caught.value.place == place
    assert expected in caught.value.expected


def test_a_bad_entry_is_named_by_its_index_and_field() -> None:
    entries = [
        {"kind": "model_input", "seq": 1, "ts": "t", "meta": {}, "text": "hi", "attachments": []},
        {"kind": "model_output", "seq": 2, "ts": "t", "meta": {}, "provider": "x", "model": 5},
    ]
    with pytest.raises(Malformed) as caught:
        native.decode(_document(entries=entries))
    assert caught.value.place == "at .entries[1].model"
    assert "expected `str`, got `int`" in caught.value.expected


def test_an_unknown_entry_kind_or_a_seq_gap_is_refused() -> None:
    unknown = [{"kind": "hologram", "seq": 1, "ts": "t", "meta": {}}]
    with pytest.raises(Malformed, match="hologram"):
        native.decode(_document(entries=unknown))
    gap = [
        {"kind": "model_input", "seq": 2, "ts": "t", "meta": {}, "text": "hi", "attachments": []}
    ]
    with pytest.raises(Malformed) as caught:
        native.decode(_document(entries=gap))
    assert (caught.value.place, caught.value.expected) == (
        "at .entries[0].seq",
        "expected 1, found 2",
    )


def test_an_imported_conversation_renders_the_same_request_for_every_provider(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    import importlib

    from app.composition import ADAPTERS
    from app.providers import Request
    from app.providers.local import LocalProvider
    from app.store import transcript

    golden = transcript.load(GOLDEN).entries  # several providers, reasoning, tools, compression
    original = library.create(golden)
    document = tmp_path / "golden.json"
    export(library, [original.id], "json", document)
    import_paths(other_library, [document])
    imported = other_library.open(original.id)
    providers = [LocalProvider()]
    for kind, (module, name) in ADAPTERS.items():
        adapter = getattr(importlib.import_module(module), name)
        providers.append(adapter(kind, ["m"], "key", "http://127.0.0.1:9"))
    for provider in providers:
        mine = provider.render(Request("m", render_context(original.history)))
        theirs = provider.render(Request("m", render_context(imported.history)))
        assert (mine.body, mine.notes) == (theirs.body, theirs.notes), provider.name
