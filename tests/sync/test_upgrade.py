"""A remote in the layout of a Crosstalk from before heads and changes (one manifest per commit
naming everything: ``tests/helpers/sync_v1``, that version's engine frozen) is upgraded in
place by the first device that updates (docs/sync.md, "Upgrading a remote"). A device not yet
updated is refused whole, with words that say to update, and loses nothing, also when it
synced while the other upgraded; once updated it syncs everything. A kill at any point of the
upgrade is finished by the next sync."""

from __future__ import annotations

import contextlib
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.sync.errors import NewerRemote, RemoteError
from tests.helpers.sync_devices import Device, Held, folder_config, set_up_remote
from tests.sync.test_faults import (
    A_ID,
    B_ID,
    ROOT,
    child,
    ended,
    finished,
    fresh,
    grow,
    reopened,
    sent_twice,
    settled,
)

UPDATE = r"newer Crosstalk.*update Crosstalk"


class Meanwhile:
    """A remote that runs ``action`` (another device's sync) just before its call ``at``."""

    def __init__(self, inner: Any, at: int, action: Callable[[], object]) -> None:
        self.inner = inner
        self.description = inner.description
        self.at = at
        self.action: Callable[[], object] | None = action
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def call(*args: Any) -> Any:
            self.calls += 1
            if self.calls == self.at and self.action is not None:
                action, self.action = self.action, None
                action()
            return method(*args)

        return call


def _old_remote(base: Path) -> tuple[Path, Device, Device]:
    """Two devices that synced with each other the old way, then each made more."""
    remote = base / "remote"
    a = Device(base / "a", folder_config(remote, A_ID))
    b = Device(base / "b", folder_config(remote, B_ID))
    set_up_remote(a.config)
    rng = random.Random(31)
    a_made = grow(a, rng, 4, "a")
    a.sync_v1()
    b_made = grow(b, rng, 3, "b")
    b.sync_v1()
    a.sync_v1()
    a.say(a.library.open(b_made[0]), "a on b's, before updating")
    grow(a, rng, 2, "a-later")
    b.say(b.library.open(a_made[0]), "b on a's, not updated yet")
    b.library.rename(b_made[1], "renamed by the older b")
    grow(b, rng, 2, "b-later")
    assert not (remote / "heads").exists()
    return remote, a, b


def _manifest_names(remote: Path) -> list[str]:
    return sorted(p.name for p in (remote / "manifests").iterdir())


def test_the_first_updated_device_upgrades_and_an_older_one_is_refused_until_updated(
    tmp_path: Path,
) -> None:
    remote, a, b = _old_remote(tmp_path)
    before_a, before_b = a.held(), b.held()
    a.sync()  # updated: reads b's manifest as it always could, and upgrades the remote
    assert f"{A_ID}-999999999999" in _manifest_names(remote)
    assert any((remote / "heads").iterdir()) and any((remote / "changes").iterdir())
    objects = sorted(p.relative_to(remote) for p in remote.rglob("*") if p.is_file())
    with pytest.raises(NewerRemote, match=UPDATE):
        b.sync_v1()
    assert b.held() == before_b  # nothing applied
    assert sorted(p.relative_to(remote) for p in remote.rglob("*") if p.is_file()) == objects
    with pytest.raises(NewerRemote, match=UPDATE):  # and again: nothing was noted as done
        b.sync_v1()
    held = settled(a, b)  # b updated: everything, both ways
    assert set(held) == set(before_a) | set(before_b)
    for cid, holding in {**before_a, **before_b}.items():
        assert holding.ids <= held[cid].ids
    assert sent_twice(remote) == []
    a.close()
    b.close()


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The old remote and both devices, made in ``work`` and kept aside in ``template``, to
    be copied back to ``work`` for each case (the same paths: the sync state names the
    remote's path)."""
    base = tmp_path_factory.mktemp("old")
    work, template = base / "work", base / "template"
    _, a, b = _old_remote(work)
    a.close()
    b.close()
    shutil.copytree(work, template)
    return work, template


def _b_calls(work: Path, template: Path) -> int:
    """How many remote calls the older b's sync makes on the old remote."""
    fresh(work, template)
    b = reopened(work / "b", work / "remote", B_ID)
    b.wrap = lambda inner: Meanwhile(inner, 0, lambda: None)
    b.sync_v1()
    calls: int = b.last_remote.calls
    b.close()
    return calls


def test_an_older_device_syncing_while_another_upgrades_loses_nothing(
    old: tuple[Path, Path],
) -> None:
    """b, not updated, syncs the old way; before each of its remote calls in turn, a (updated)
    syncs whole, upgrading the remote. Whatever b managed is kept and read; its next sync
    is refused; updated, it and a end up holding everything either had."""
    work, template = old
    for at in range(1, _b_calls(work, template) + 1):
        fresh(work, template)
        a = reopened(work / "a", work / "remote", A_ID)
        b = reopened(work / "b", work / "remote", B_ID)
        before = [a.held(), b.held()]
        b.wrap = lambda inner, a=a, at=at: Meanwhile(inner, at, a.sync)  # type: ignore[misc]
        with contextlib.suppress(RemoteError):  # refused, or what b listed was replaced
            b.sync_v1()
        b.wrap = None
        with pytest.raises(NewerRemote, match=UPDATE):
            b.sync_v1()
        held = settled(a, b)
        _kept(before, held, at)
        assert sent_twice(work / "remote") == []
        a.close()
        b.close()


def _kept(before: list[dict[str, Held]], after: dict[str, Held], why: object) -> None:
    """Every conversation and entry either device held is held after."""
    for holding in before:
        assert set(holding) <= set(after), why
        for cid, one in holding.items():
            assert one.ids <= after[cid].ids, (why, cid)


def test_an_upgrade_killed_at_any_remote_call_is_finished_by_the_next_sync(
    old: tuple[Path, Path],
) -> None:
    """a's first sync after its update, in a process of its own, killed before each of its
    remote calls in turn (a real SIGKILL: it notes nothing); a fresh process finishes; b is
    refused until updated, then both hold the same as after an upgrade never cut short."""
    work, template = old
    fresh(work, template)
    total = finished(child(work))["calls"]
    assert isinstance(total, int) and total > 5
    expected = _after(work)
    for k in range(1, total + 1):
        fresh(work, template)
        code, _, err = ended(child(work, "--kill-at", str(k)))
        assert code == -signal.SIGKILL, (k, err)
        finished(child(work))
        assert _after(work) == expected, f"killed before remote call {k}"


def _after(work: Path) -> dict[str, Held]:
    b = reopened(work / "b", work / "remote", B_ID)
    with pytest.raises(NewerRemote, match=UPDATE):
        b.sync_v1()
    a = reopened(work / "a", work / "remote", A_ID)
    try:
        held = settled(a, b)
    finally:
        a.close()
        b.close()
    assert sent_twice(work / "remote") == []
    return held


def test_an_older_device_killed_mid_sync_then_the_remote_upgraded(
    old: tuple[Path, Path],
) -> None:
    """b's old sync killed before each of its remote calls in turn (what it wrote is not
    committed), a upgrades, b is refused, and once updated sends what it had."""
    work, template = old
    for k in range(1, _b_calls(work, template) + 1):
        fresh(work, template)
        b = reopened(work / "b", work / "remote", B_ID)
        before = [b.held()]
        b.close()
        code, _, err = ended(_child_of(work, "b", B_ID, "--v1", "--kill-at", str(k)))
        assert code == -signal.SIGKILL, (k, err)
        a = reopened(work / "a", work / "remote", A_ID)
        before.append(a.held())
        a.sync()
        b = reopened(work / "b", work / "remote", B_ID)
        with pytest.raises(NewerRemote, match=UPDATE):
            b.sync_v1()
        _kept(before, settled(a, b), k)
        assert sent_twice(work / "remote") == []
        a.close()
        b.close()


def _child_of(work: Path, name: str, device: str, *options: str) -> subprocess.Popen[str]:
    """``child`` for another device than a."""
    command = [sys.executable, "-m", "tests.helpers.sync_killed", str(work / name),
               str(work / "remote"), device, *options]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
