"""Projects and tags between two simulated devices through a real folder remote: a project is
a transcript of its own and a conversation's project and tags are debug logs in it, so the
sync engine carries them as it carries any conversation (docs/projects.md, docs/sync.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from app.history import ModelOutput
from app.store.projects import Projects
from app.store.transcript import PROJECT, PROJECT_VERSION
from app.sync import layout
from tests.helpers.sync_devices import Device, folder_config, set_up_remote


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    remote = tmp_path / "remote"
    a_config, b_config = folder_config(remote), folder_config(remote)
    set_up_remote(a_config)
    a, b = Device(tmp_path / "a", a_config), Device(tmp_path / "b", b_config)
    yield a, b
    a.close()
    b.close()


def _both_ways(a: Device, b: Device) -> None:
    a.sync()
    b.sync()
    a.sync()


def test_a_project_reaches_the_other_device_with_its_settings(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    made = Projects(a.library).create(
        "Thesis", instructions="Answer as a careful reviewer.", model="openai:gpt-4o",
        tools=["calculator"], temperature=0.3,
    )  # fmt: skip
    chat = a.library.create()
    a.say(chat, "chapter one")
    Projects(a.library).move([chat.id], made.id)
    Projects(a.library).tag(chat.id, add=["draft", "Urgent"])
    _both_ways(a, b)
    there = Projects(b.library)
    got = there.get(made.id)
    assert got == made
    header = b.library.open(made.id).header
    assert (header.kind, header.version) == (PROJECT, PROJECT_VERSION)
    assert [(r["id"], r["name"], r["count"]) for r in there.rows()] == [(made.id, "Thesis", 1)]
    assert there.members(made.id) == [chat.id]
    assert there.of(b.library.open(chat.id).history) == made
    assert b.library.newest(project=made.id)[0]["id"] == chat.id
    assert b.library.newest(tag="urgent")[0]["id"] == chat.id
    # the project is no conversation in the other device's list either
    assert [r["id"] for r in b.library.newest()] == [chat.id]
    # a later edit travels too
    Projects(a.library).edit(made.id, instructions="Be brief.", model=None)
    a.sync()
    b.sync()
    edited = there.get(made.id)
    assert (edited.instructions, edited.model, edited.tools) == ("Be brief.", None, ["calculator"])


def test_a_rename_here_and_a_move_there_hold_both(devices: tuple[Device, Device]) -> None:
    a, b = devices
    project = Projects(a.library).create("Old name")
    chat = a.library.create()
    a.say(chat, "start")
    _both_ways(a, b)
    # apart: A renames the project and goes on in the chat; B moves the chat in and goes on
    Projects(a.library).rename(project.id, "New name")
    a.say(a.library.open(chat.id), "from the laptop")
    assert Projects(b.library).move([chat.id], project.id) == [chat.id]
    b.say(b.library.open(chat.id), "from the desktop")
    _both_ways(a, b)
    for device in (a, b):
        projects = Projects(device.library)
        assert projects.get(project.id).name == "New name"
        assert [r["name"] for r in projects.rows()] == ["New name"]
        assert projects.members(project.id) == [chat.id]
        assert device.library.newest(project=project.id)[0]["id"] == chat.id
        history = device.library.open(chat.id).history
        assert len(history.leaves()) == 2  # both continuations, as branches
        replies = {e.text for e in history if isinstance(e, ModelOutput)}
        assert {"reply to from the laptop", "reply to from the desktop"} <= replies
    assert a.ids(chat.id) == b.ids(chat.id)
    assert a.ids(project.id) == b.ids(project.id)


def test_the_newest_tags_win_on_both(devices: tuple[Device, Device]) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "x")
    _both_ways(a, b)
    Projects(a.library).tag(chat.id, add=["older"])
    time.sleep(0.002)  # times are kept to the millisecond
    Projects(b.library).tag(chat.id, add=["newer", "Second"])
    # B syncs first, then A: the order the two changes arrive in does not matter
    b.sync()
    a.sync()
    b.sync()
    for device in (a, b):
        assert Projects(device.library).tags() == [("newer", 1), ("Second", 1)]
        assert device.library.newest(tag="older") == []
        assert device.library.newest(tag="second")[0]["id"] == chat.id


def test_a_project_deleted_here_goes_to_the_trash_there_and_comes_back(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    projects_a = Projects(a.library)
    project = projects_a.create("Doomed")
    inside, outside = a.library.create(), a.library.create()
    a.say(inside, "in it")
    a.say(outside, "not in it")
    projects_a.move([inside.id], project.id)
    _both_ways(a, b)
    assert projects_a.delete(project.id) == [inside.id]
    a.sync()
    b.sync()
    for cid in (project.id, inside.id):
        assert b.library.in_trash(cid)
    assert not b.library.in_trash(outside.id)
    assert Projects(b.library).rows() == []
    assert [r["id"] for r in b.library.newest()] == [outside.id]
    # restoring on B brings the project and what it took along back, on both
    assert Projects(b.library).restore(project.id) == [inside.id]
    b.sync()
    a.sync()
    for device in (a, b):
        assert not device.library.in_trash(project.id)
        assert not device.library.in_trash(inside.id)
        projects = Projects(device.library)
        assert projects.get(project.id).name == "Doomed"
        assert projects.members(project.id) == [inside.id]


def test_a_project_is_named_apart_so_a_crosstalk_without_projects_never_fetches_it(
    devices: tuple[Device, Device], tmp_path: Path
) -> None:
    """A Crosstalk from before projects reads a manifest's ``conversations`` only: a
    project's transcript (version 3) listed there stopped its every sync at NewerFormat."""

    a, b = devices
    project = Projects(a.library).create("Apart")
    chat = a.library.create()
    a.say(chat, "in it")
    Projects(a.library).move([chat.id], project.id)
    a.sync()
    [name] = [p for p in (tmp_path / "remote" / "manifests").iterdir()]
    manifest = msgspec.json.decode(name.read_bytes(), type=layout.Manifest)
    assert list(manifest.conversations) == [chat.id]
    assert list(manifest.projects) == [project.id]
    older = msgspec.json.decode(name.read_bytes(), type=_ManifestBeforeProjects)
    assert list(older.conversations) == [chat.id]  # what an older Crosstalk fetches
    # later changes go the same way, and a device that lost its state finds its own again
    Projects(a.library).rename(project.id, "Apart still")
    (a.data.sync_dir / "state.json").unlink()
    a.sync()
    b.sync()
    assert Projects(b.library).get(project.id).name == "Apart still"
    assert Projects(b.library).members(project.id) == [chat.id]
    [name] = [p for p in (tmp_path / "remote" / "manifests").iterdir()]
    manifest = msgspec.json.decode(name.read_bytes(), type=layout.Manifest)
    assert (list(manifest.conversations), list(manifest.projects)) == ([chat.id], [project.id])


class _ManifestBeforeProjects(msgspec.Struct, kw_only=True):
    """``layout.Manifest`` as a Crosstalk from before projects declares it."""

    format: str
    version: int
    device: str
    number: int = 0
    conversations: dict[str, int] = {}
    events: int = 0
    written_at: str = ""
