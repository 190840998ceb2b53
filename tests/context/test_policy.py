"""A conversation's own context policy lives in its transcript: it survives a restart, travels
with sync, and the context.json of older releases is read and moved in."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.context import ContextPolicy, PolicyStore
from app.context.policy import CATEGORY, POLICY_FILE
from app.errors import InvalidValue, NotFound, StorageError
from app.history import DebugLog, ModelInput, ModelOutput
from app.paths import DataDir
from app.store import Conversation, Library
from tests.helpers.sync_devices import Device, folder_config, set_up_remote

DEFAULTS = ContextPolicy()


def chat(library: Library, text: str = "hello") -> Conversation:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    library.append(conversation, ModelOutput(provider="p", model="m", text=f"re {text}"))
    return conversation


def changes(library: Library, conversation_id: str) -> list[DebugLog]:
    history = library.open(conversation_id).history
    return [e for e in history if isinstance(e, DebugLog) and e.category == CATEGORY]


def test_a_policy_is_an_entry_of_the_conversation_and_survives_a_restart(
    library: Library, data_dir: DataDir
) -> None:
    conversation, other = chat(library), chat(library, "another")
    store = PolicyStore(library)
    store.set(conversation.id, {"window_turns": 5, "auto_compress": True}, DEFAULTS)
    store.set(conversation.id, {"compress_strategy": "whole"}, DEFAULTS)
    (first, second) = changes(library, conversation.id)
    assert first.meta[CATEGORY] == {"window_turns": 5, "auto_compress": True}
    assert first.message == "set window_turns=5, auto_compress=on"
    assert second.meta[CATEGORY] == {"compress_strategy": "whole"}
    assert not (data_dir.root / POLICY_FILE).exists()  # nothing beside the transcripts
    reopened = Library(data_dir)
    try:
        policy = PolicyStore(reopened).policy(conversation.id, DEFAULTS)
        assert (policy.window_turns, policy.auto_compress) == (5, True)
        assert policy.compress_strategy == "whole"
        assert PolicyStore(reopened).policy(other.id, DEFAULTS) == DEFAULTS
    finally:
        reopened.close()
    # a field the conversation never set follows the settings
    assert store.policy(conversation.id, ContextPolicy(reply_tokens=99)).reply_tokens == 99


def test_a_reset_forgets_and_a_bad_value_writes_nothing(library: Library) -> None:
    conversation = chat(library)
    store = PolicyStore(library)
    store.set(conversation.id, {"window_turns": 5}, DEFAULTS)
    version = library.open(conversation.id).history.version
    with pytest.raises(InvalidValue):
        store.set(conversation.id, {"window_turns": 0}, DEFAULTS)
    assert library.open(conversation.id).history.version == version
    store.set(conversation.id, {}, DEFAULTS)
    assert store.choices(conversation.id) == {}
    assert changes(library, conversation.id)[-1].message == "back to the settings' defaults"
    assert store.policy(conversation.id, DEFAULTS) == DEFAULTS
    with pytest.raises(NotFound):
        store.set("01KAGR0000000000000000000A", {"window_turns": 3}, DEFAULTS)
    assert store.policy("01KAGR0000000000000000000A", DEFAULTS) == DEFAULTS


def test_a_fork_keeps_the_policy_as_it_stood_at_its_message(library: Library) -> None:
    """As the system instruction does: what was set before the message forked at."""
    conversation = library.create()
    store = PolicyStore(library)
    store.set(conversation.id, {"keep_recent_turns": 4}, DEFAULTS)
    library.append(conversation, ModelInput(text="hello"))
    store.set(conversation.id, {"window_turns": 9}, DEFAULTS)
    fork = library.fork(conversation.id, 2)
    assert store.choices(fork.id) == {"keep_recent_turns": 4}


def test_the_policy_travels_with_sync_and_devices_agree(tmp_path: Path) -> None:
    """Set on one device, it is there on the other; changes made on both apply in order of
    time on both, whatever order they arrived in."""
    remote = tmp_path / "remote"
    set_up_remote(folder_config(remote))
    a = Device(tmp_path / "a", folder_config(remote))
    b = Device(tmp_path / "b", folder_config(remote))
    try:
        conversation = chat(a.library)
        PolicyStore(a.library).set(conversation.id, {"window_turns": 5}, DEFAULTS)
        a.sync()
        b.sync()
        assert PolicyStore(b.library).policy(conversation.id, DEFAULTS).window_turns == 5
        PolicyStore(a.library).set(conversation.id, {"window_turns": 8}, DEFAULTS)
        PolicyStore(b.library).set(conversation.id, {"auto_compress": True}, DEFAULTS)
        PolicyStore(a.library).set(conversation.id, {"budget_share": 0.5}, DEFAULTS)
        for device in (a, b, a):
            device.sync()
        here = PolicyStore(a.library).policy(conversation.id, DEFAULTS)
        there = PolicyStore(b.library).policy(conversation.id, DEFAULTS)
        assert here == there
        assert (here.window_turns, here.auto_compress, here.budget_share) == (8, True, 0.5)
    finally:
        a.close()
        b.close()


def legacy_file(data: DataDir, choices: dict[str, dict[str, object]]) -> Path:
    path = data.root / POLICY_FILE
    path.write_text(json.dumps(choices))
    return path


def test_an_old_context_json_is_moved_into_the_transcripts(
    library: Library, data_dir: DataDir
) -> None:
    live, trashed = chat(library), chat(library, "trashed")
    library.delete(trashed.id)
    order = [row["id"] for row in library.newest()]
    path = legacy_file(
        data_dir,
        {
            live.id: {"window_turns": 7, "auto_compress": True},
            trashed.id: {"keep_recent_turns": 3},
            "01KAGR0000000000000000000A": {"window_turns": 2},  # removed for good since
        },
    )
    store = PolicyStore(library)
    assert store.problem is None
    (moved,) = changes(library, live.id)
    assert moved.meta == {CATEGORY: {"window_turns": 7, "auto_compress": True},
                          "from": POLICY_FILE}  # fmt: skip
    assert moved.ts == library.open(live.id).history.at(2).ts  # dated as its newest entry
    assert [row["id"] for row in library.newest()] == order  # the list keeps its order
    assert store.policy(live.id, DEFAULTS).window_turns == 7
    # the one in the trash stays in the file until it is back
    assert json.loads(path.read_text()) == {trashed.id: {"keep_recent_turns": 3}}
    assert store.choices(trashed.id) == {"keep_recent_turns": 3}
    library.restore(trashed.id)
    again = PolicyStore(library)
    assert again.policy(trashed.id, DEFAULTS).keep_recent_turns == 3
    assert len(changes(library, trashed.id)) == 1 and len(changes(library, live.id)) == 1
    assert not path.exists() and path.with_name(f"{POLICY_FILE}.migrated").exists()
    PolicyStore(library)  # nothing left to move: nothing is written again
    assert len(changes(library, live.id)) == 1


def test_choices_that_cannot_be_moved_yet_are_read_from_the_file(
    library: Library, data_dir: DataDir, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation = chat(library)
    path = legacy_file(data_dir, {conversation.id: {"window_turns": 4}})

    def full_disk(*args: object, **kwargs: object) -> None:
        raise StorageError("could not append (No space left on device)")

    with monkeypatch.context() as patched:
        patched.setattr(Library, "append", full_disk)
        store = PolicyStore(library)
    assert changes(library, conversation.id) == [] and path.exists()
    assert store.policy(conversation.id, DEFAULTS).window_turns == 4
    # the first change written carries the file's choices with it
    store.set(conversation.id, {"auto_compress": True}, DEFAULTS)
    (written,) = changes(library, conversation.id)
    assert written.meta[CATEGORY] == {"window_turns": 4, "auto_compress": True}


def test_an_unreadable_context_json_is_said_and_left_alone(
    library: Library, data_dir: DataDir
) -> None:
    conversation = chat(library)
    path = data_dir.root / POLICY_FILE
    path.write_text("{not json")
    store = PolicyStore(library)
    assert store.problem and "fix or delete it" in store.problem
    assert store.policy(conversation.id, DEFAULTS) == DEFAULTS
    store.set(conversation.id, {"window_turns": 3}, DEFAULTS)  # kept in the transcript
    assert store.policy(conversation.id, DEFAULTS).window_turns == 3
    assert path.read_text() == "{not json"
    assert os.listdir(data_dir.root).count(f"{POLICY_FILE}.migrated") == 0
