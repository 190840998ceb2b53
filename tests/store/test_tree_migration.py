"""Transcripts written by the release before branches (format 1: no ids, no parents) load as
one linear branch, render as they did, and take new entries as a tree (format 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.history import ModelInput, ModelOutput, legacy_id, render_context
from app.paths import DataDir
from app.store import Library
from app.store import branches as tree

OLD = Path(__file__).with_name("release_v1_retry.jsonl")  # written by commit af53582's library


def installed(data_dir: DataDir) -> str:
    data_dir.ensure()
    conversation_id = OLD.read_text().split('"id":"', 1)[1][:26]
    shutil.copy(OLD, data_dir.conversations / f"{conversation_id}.jsonl")
    return conversation_id


def test_an_old_transcript_is_one_branch_and_renders_as_before(data_dir: DataDir) -> None:
    conversation_id = installed(data_dir)
    library = Library(data_dir)
    try:
        history = library.open(conversation_id).history
        assert [e.id for e in history] == [""] * 11  # read as written: nothing is rewritten
        assert history.active_path() == [1, 2, 3, 5, 6, 7, 8, 10, 11]  # every message, in order
        assert history.leaves() == [11]
        context = render_context(history, None)
        # the old retry (2 then 3, one after the other) still supersedes the failed reply, and
        # the compression made then still stands in for seq 1-3
        assert [e.seq for e in context.entries] == [9, 5, 6, 7, 8, 10, 11]
        assert history.parent_of(3) == 2 and history.id_of(3) == legacy_id(3)
    finally:
        library.close()
    assert OLD.read_bytes() == (data_dir.conversations / f"{conversation_id}.jsonl").read_bytes()


def test_an_old_transcript_grows_as_a_tree_and_reloads_the_same(data_dir: DataDir) -> None:
    conversation_id = installed(data_dir)
    library = Library(data_dir)
    try:
        conversation = library.open(conversation_id)
        # edit "Another prime?" (seq 10): the edit follows seq 8, as the original did
        edited = library.append(conversation, ModelInput(text="A bigger prime?"), after=8)
        reply = library.append(conversation, ModelOutput(provider="p", model="m", text="101"))
        assert edited.parent == legacy_id(8) and reply.parent == edited.id and edited.id
        history = conversation.history
        assert history.siblings(12) == [10, 12] and history.active_leaf == 13
        assert tree.select(library, conversation, 11)
        assert history.active_leaf == 11
    finally:
        library.close()
    library = Library(data_dir)
    try:
        reloaded = library.open(conversation_id).history
        assert reloaded.active_leaf == 11 and sorted(reloaded.leaves()) == [11, 13]
        assert [e.seq for e in render_context(reloaded, None).entries][-2:] == [10, 11]
        assert [e.seq for e in render_context(reloaded, None, at=13).entries][-2:] == [12, 13]
    finally:
        library.close()
    first_line = (data_dir.conversations / f"{conversation_id}.jsonl").read_text().split("\n")[0]
    assert '"version":1' in first_line  # the header is never rewritten; the lines say enough


def test_a_fork_of_a_branched_conversation_keeps_its_compression_on_the_same_messages(
    data_dir: DataDir,
) -> None:
    from app.history import Compression, History

    library = Library(data_dir)
    try:
        conversation = library.create()
        out = [ModelOutput(provider="p", model="m", text=t) for t in ("a1", "a1'", "a2", "a3")]
        library.append(conversation, ModelInput(text="q1"))  # 1
        library.append(conversation, out[0])  # 2
        library.append(conversation, out[1], after=1)  # 3: a regenerated sibling, active
        for n, reply in ((2, out[2]), (3, out[3])):
            library.append(conversation, ModelInput(text=f"q{n}"))
            library.append(conversation, reply)  # q2=4 a2=5, q3=6 a3=7
        library.append(
            conversation,
            Compression(strategy="whole", covers=(4, 5), summary="s", provider="p", model="m"),
        )  # 8 fmt: skip
        library.append(conversation, ModelInput(text="q4"))
        library.append(conversation, ModelOutput(provider="p", model="m", text="a4"))
        original = render_context(conversation.history, None)
        fork = library.fork(conversation.id, conversation.history.active_leaf)
        forked = render_context(fork.history, None)

        def said(context: object) -> list[str]:  # a summary's own words, not its seq range
            return [e.text.split("\n")[-1] for e in context.entries]  # type: ignore[attr-defined]

        assert said(forked) == said(original) == ["q1", "a1'", "s", "q3", "a3", "q4", "a4"]
        assert isinstance(fork.history, History)
    finally:
        library.close()
