"""``Library.receive_many`` (a first pull's batches, docs/sync.md "Receiving many
conversations") writes and indexes what ``Library.receive`` one by one would: the same
transcripts, the same list, the same search hits and usage; conversations already here or in
the trash are received one by one, and entries that refer to ones not here wait."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app import ids
from app.history import AnyEntry, History, ModelInput, ModelOutput, Title, Usage, entry_id
from app.paths import DataDir
from app.store import transcript
from app.store.library import Library
from app.store.transcript import FORMAT, VERSION, Header


def _conversation(n: int) -> tuple[Header, list[AnyEntry]]:
    history = History()
    history.append(history.stamp(ModelInput(text=f"question {n} about otters")))
    history.append(history.stamp(ModelOutput(provider="p", model="m", text=f"answer {n}",
                                              usage=Usage(input=10, output=n))))  # fmt: skip
    history.append(history.stamp(Title(text=f"Otters {n}", source="generated")))
    header = Header(format=FORMAT, version=VERSION, id=ids.new_id(),
                    created_at=next(iter(history)).ts)  # fmt: skip
    return header, list(history)


def _listed(library: Library) -> list[dict[str, Any]]:
    keep = ("id", "title", "message_count", "file_size", "created_at", "updated_at")
    return sorted(({k: row.get(k) for k in keep} for row in library.newest(limit=100)),
                  key=lambda row: row["id"])  # fmt: skip


def test_many_at_once_as_one_by_one(tmp_path: Path) -> None:
    items = [_conversation(n) for n in range(30)]
    header, entries = items[5]
    orphan = ModelInput(text="after something not here", id=ids.new_id(), parent=ids.new_id())
    items[6] = (items[6][0], [*items[6][1], orphan])
    one, many = Library(DataDir(tmp_path / "one")), Library(DataDir(tmp_path / "many"))
    for library in (one, many):  # here already: part of one, another in the trash
        library.receive(header, entries[:1])
        library.receive(*items[7])
        library.delete(items[7][0].id)
    singly = [one.receive(*item) for item in items]
    together = many.receive_many(items)
    assert [r.created for r in together] == [r.created for r in singly]
    assert not together[5].created and together[4].created and not together[7].created
    assert [len(r.held) for r in together] == [len(r.held) for r in singly]
    assert [entry_id(e) for e in together[6].held] == [entry_id(orphan)]
    for (h, _), a, b in zip(items, singly, together, strict=True):
        assert [entry_id(e) for e in a.appended] == [entry_id(e) for e in b.appended]
        path = many.trashed_file(h.id) if many.in_trash(h.id) else many.open(h.id).path
        assert transcript.load(path).size == b.size or not b.created
    assert _listed(many) == _listed(one)
    hits = [
        sorted((c.conversation["id"], c.count) for c in lib.search("otters")) for lib in (one, many)
    ]
    assert hits[0] == hits[1] and len(hits[0]) == 29  # (the one in the trash is not listed)
    ids_ = [h.id for h, _ in items]
    assert many.usage_by_model(ids_) == one.usage_by_model(ids_)
    one.close()
    many.close()
    reopened = Library(DataDir(tmp_path / "many"))  # reconcile finds nothing to do
    assert _listed(reopened) == _listed(one)
    reopened.close()
