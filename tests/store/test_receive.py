"""Entries from another device joining a conversation (``Library.receive``; docs/sync.md)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from app.history import Compression, History, ModelInput, ModelOutput, Title, entry_id
from app.paths import DataDir
from app.store import merge
from app.store.events import Appended, Arrived, Imported, StoreEvent
from app.store.library import Library


def _other_device(tmp_path: Path) -> Library:
    return Library(DataDir(tmp_path / "other"))


def _turn(library: Library, conversation, text: str) -> None:  # type: ignore[no-untyped-def]
    library.append(conversation, ModelInput(text=text))
    library.append(conversation, ModelOutput(provider="p", model="m", text=f"re {text}"))


def test_receiving_twice_changes_nothing(library: Library, tmp_path: Path) -> None:
    other = _other_device(tmp_path)
    chat = other.create()
    _turn(other, chat, "one")
    heard: list[StoreEvent] = []
    library.subscribe(heard.append)
    first = library.receive(chat.header, list(chat.history))
    assert first.created and len(first.appended) == 2
    assert [type(e) for e in heard] == [Imported, Arrived]
    again = library.receive(chat.header, list(chat.history))
    assert again.appended == [] and library.open(chat.id).history.version == 2
    _turn(other, chat, "two")
    heard.clear()
    more = library.receive(chat.header, list(chat.history))
    assert [e.seq for e in more.appended] == [3, 4]
    assert [type(e) for e in heard] == [Appended, Appended, Arrived]
    assert all(e.by_other for e in heard if isinstance(e, Appended))
    mine = [entry_id(e) for e in library.open(chat.id).history]
    assert mine == [entry_id(e) for e in other.open(chat.id).history]
    other.close()


def test_an_entry_whose_parent_is_missing_waits_for_it(library: Library, tmp_path: Path) -> None:
    other = _other_device(tmp_path)
    chat = other.create()
    _turn(other, chat, "one")
    _turn(other, chat, "two")
    entries = list(chat.history)
    got = library.receive(chat.header, entries[:2] + entries[3:])  # the second input is missing
    assert [entry_id(e) for e in got.held] == [entry_id(entries[3])]
    assert library.open(chat.id).history.version == 2
    got = library.receive(chat.header, entries[2:])
    assert not got.held and library.open(chat.id).history.version == 4
    other.close()


def test_received_entries_join_a_conversation_in_the_trash(
    library: Library, tmp_path: Path
) -> None:
    other = _other_device(tmp_path)
    chat = other.create()
    _turn(other, chat, "one")
    library.receive(chat.header, list(chat.history))
    library.delete(chat.id)
    _turn(other, chat, "two")
    got = library.receive(chat.header, list(chat.history))
    assert len(got.appended) == 2 and library.in_trash(chat.id)
    assert library.restore(chat.id).history.version == 4
    other.close()


def test_a_summary_covers_the_same_entries_where_seqs_differ() -> None:
    history = History()
    for text in ("a", "b", "c"):
        history.append(history.stamp(ModelInput(text=text)))
    summary = history.stamp(
        Compression(strategy="whole", covers=(2, 3), summary="b and c", provider="p", model="m")
    )
    sent = merge.with_covers_ids(summary, [*history, summary])
    assert sent.meta["covers_ids"] == [history.id_of(2), history.id_of(3)]
    # here the same three entries sit at 5-7, after two of this device's own
    seqs = {history.id_of(n): n + 4 for n in (1, 2, 3)}
    (placed,) = merge.renumbered([sent], 8, seqs.get)
    assert isinstance(placed, Compression) and placed.covers == (6, 7) and placed.seq == 8


def test_the_newest_title_by_time_wins_whatever_the_order() -> None:
    history = History()
    newer = msgspec.structs.replace(
        Title(text="newer", source="user"), ts="2026-02-01T00:00:00.000Z"
    )
    older = msgspec.structs.replace(
        Title(text="older", source="user"), ts="2026-01-01T00:00:00.000Z"
    )
    history.append(history.stamp(newer))
    history.append(history.stamp(older))  # arrived later from a device that renamed earlier
    assert history.title == "newer"
