"""Many new conversations at once (an import's batches, docs/indexing-speed.md): written to
disk in one step and indexed in another, maybe on another thread; an import stopped between
the two leaves nothing unseen."""

from __future__ import annotations

from app.history import AnyEntry, ModelInput, ModelOutput, Title, Usage
from app.ids import new_id
from app.paths import DataDir
from app.store import Library
from app.store.bulk_create import index_files, write_files
from app.store.transcript import FORMAT, VERSION, Header


def batch(count: int) -> list[tuple[Header, list[AnyEntry]]]:
    made: list[tuple[Header, list[AnyEntry]]] = []
    for n in range(count):
        ts = f"2025-05-{n + 1:02d}T10:00:00.000Z"
        header = Header(format=FORMAT, version=VERSION, id=new_id(), created_at=ts)
        made.append((header, [
            ModelInput(seq=1, ts=ts, text=f"where do wombats {n} sleep"),
            ModelOutput(seq=2, ts=ts, provider="local", model="smollm2", text="in burrows",
                        usage=Usage(input=4, output=2)),
            Title(seq=3, ts=ts, text=f"Wombats {n}", source="generated"),
        ]))  # fmt: skip
    return made


def test_written_and_indexed_in_two_steps_is_as_one(data_dir: DataDir) -> None:
    library = Library(data_dir)
    items = batch(5)
    written = write_files(library, items)
    assert library.newest() == []  # on disk, not listed yet
    index_files(library, written.batch)
    assert written.done() == [True] * 5
    assert sorted(r["title"] for r in library.newest()) == [f"Wombats {n}" for n in range(5)]
    assert [f.count for f in library.search("wombats 3")] == [2]  # the question, the title
    assert library.reconcile().updated == 0  # the index holds the files as they are
    library.close()


def test_written_but_never_indexed_is_indexed_by_the_next_opening(data_dir: DataDir) -> None:
    """As an import stopped between the two steps (its process then ends cleanly): the
    folders' stamps were not moved on, so the next reconcile looks and finds them."""
    library = Library(data_dir)
    items = batch(3)
    write_files(library, items)
    library.close()

    again = Library(data_dir)
    assert sorted(r["id"] for r in again.newest()) == sorted(h.id for h, _ in items)
    assert [f.count for f in again.search("wombats 2")] == [2]
    again.close()
