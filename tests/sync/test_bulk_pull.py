"""A first pull of many conversations (docs/sync.md, "A first pull"): fetched a few at once,
written and indexed in batches (``Library.receive_many``). A real SIGKILL at any remote call
or state write of it leaves whole conversations only and an index that agrees with the files
once the library is opened again; the next sync resumes it and nothing arrives twice."""

from __future__ import annotations

import random
import shutil
import signal
from pathlib import Path

import pytest

from app.history import entry_id
from app.paths import DataDir
from app.store import transcript
from app.store.library import Library
from app.sync import push
from tests.helpers.sync_devices import Device, Held, folder_config, set_up_remote
from tests.sync.test_faults import (
    A_ID,
    B_ID,
    _kill_points,
    ended,
    finished,
    fresh,
    grow,
    reopened,
    settled,
)
from tests.sync.test_upgrade import _child_of

COUNT = push.PACK_AT + 30  # sent in one commit: a pack; then a few more, one object each


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Held]]:
    """a sent everything (a pack, then single segments); b has nothing yet. Made in ``work``,
    kept in ``template`` (the same paths: the sync state names the remote's path)."""
    base = tmp_path_factory.mktemp("bulk")
    work, template = base / "work", base / "template"
    a = Device(work / "a", folder_config(work / "remote", A_ID))
    set_up_remote(a.config)
    rng = random.Random(17)
    grow(a, rng, COUNT, "first")
    a.sync()
    grow(a, rng, 4, "then")
    a.sync()
    assert any((work / "remote" / "packs").rglob("*"))
    held = a.held()
    a.close()
    shutil.copytree(work, template)
    return work, template, held


def _pull(work: Path, *options: str) -> tuple[int, str, str]:
    return ended(_child_of(work, "b", B_ID, "--bulk", "20", *options))


def _whole_and_indexed(work: Path, theirs: dict[str, Held]) -> None:
    """What a killed pull left: each conversation whole (as a sent it, pins and trash
    aside: they come last), and, once opened (reconcile), listed exactly as the files."""
    folder = work / "b" / "conversations"
    files = sorted(folder.glob(f"*{transcript.SUFFIX}")) if folder.exists() else []
    for path in files:
        loaded = transcript.load(path)
        assert not loaded.problems, path
        ids = {entry_id(e) for e in loaded.entries}
        assert ids == theirs[path.stem].ids, path
    library = Library(DataDir(work / "b"))
    try:
        listed = {row["id"] for row in library.newest(limit=10_000)}
        trashed = set(library.trashed())
    finally:
        library.close()
    assert listed == {path.stem for path in files} - trashed


def _finish(work: Path, theirs: dict[str, Held]) -> None:
    code, _, err = _pull(work)
    assert code == 0, err
    a = reopened(work / "a", work / "remote", A_ID)
    b = reopened(work / "b", work / "remote", B_ID)
    try:
        assert settled(a, b) == theirs
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_first_pull_killed_at_any_remote_call_resumes_and_loses_nothing(
    pushed: tuple[Path, Path, dict[str, Held]], every: bool
) -> None:
    work, template, theirs = pushed
    fresh(work, template)
    done = finished(_child_of(work, "b", B_ID, "--bulk", "20"))
    total = done["calls"]
    assert isinstance(total, int)
    report = done["report"]
    assert isinstance(report, dict) and report["created"] == len(theirs)
    for k in _kill_points(total, every):
        fresh(work, template)
        code, _, err = _pull(work, "--kill-at", str(k))
        assert code == -signal.SIGKILL, (k, err)
        _whole_and_indexed(work, theirs)
        _finish(work, theirs)


def test_a_first_pull_killed_at_each_state_write_resumes_and_loses_nothing(
    pushed: tuple[Path, Path, dict[str, Held]],
) -> None:
    """The state is saved every two batches during a long pull: killed at each save (and so
    between the batches it notes), the next sync takes up from there."""
    work, template, theirs = pushed
    for n in range(1, 20):
        fresh(work, template)
        code, _, err = _pull(work, "--kill-at-save", str(n))
        if code == 0:
            break
        assert code == -signal.SIGKILL, (n, err)
        _whole_and_indexed(work, theirs)
        _finish(work, theirs)
    else:
        raise AssertionError("the pull wrote its state 20 times")
    assert n > 2  # (saved during the pull, not only at its end)


def test_packs_are_sealed_like_every_other_object(tmp_path: Path) -> None:
    """On an encrypted remote a pack opens only with the passphrase, names no conversation,
    and a device new to the remote receives all of it."""
    remote = tmp_path / "remote"
    env = {"CROSSTALK_SYNC_PASSPHRASE": "correct horse"}
    a = Device(tmp_path / "a", folder_config(remote, A_ID, encrypt=True), env)
    b = Device(tmp_path / "b", folder_config(remote, B_ID, encrypt=True), env)
    set_up_remote(a.config, passphrase="correct horse")
    made = grow(a, random.Random(3), push.PACK_AT, "sealed")
    a.sync()
    [pack] = [p for p in (remote / "packs").rglob("*") if p.is_file()]
    data = pack.read_bytes()
    assert not any(cid.encode() in data for cid in made) and b"crosstalk" not in data
    assert b.sync().created == len(made)
    assert settled(a, b) == a.held()
    a.close()
    b.close()
