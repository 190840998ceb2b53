"""Three devices, one folder remote, random work and random syncs, some cut short (docs/sync.md,
"How it is tested"): once they have synced until quiet, all three hold the same library, and every
entry any of them wrote is there exactly once.

Each example is a list of steps drawn by hypothesis: a device asks (a turn), answers again
(a branch), renames, deletes, restores, pins or unpins, starts a conversation, or syncs; a
sync may be cut short after a random number of remote calls, either by a kill (a
BaseException: none of the engine's ``except`` clauses runs, nothing is noted) or by a
dropped network (a RemoteError: the engine notes the error and what it had finished)."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import NotFound
from app.history import ModelInput, ModelOutput, entry_id
from app.sync.errors import RemoteError, Unreachable
from tests.helpers.sync_devices import (
    Device,
    FaultyRemote,
    Held,
    Killed,
    folder_config,
    set_up_remote,
)

DEVICES = 3
UP_TO_DATE = "up to date: nothing to receive or send"

device = st.integers(0, DEVICES - 1)
pick = st.integers(0, 1_000)  # which conversation, modulo how many there are
interruption = st.one_of(
    st.none(),
    st.tuples(st.sampled_from(["kill", "drop"]), st.integers(1, 40)),
)
step = st.one_of(
    st.tuples(st.just("new"), device),
    st.tuples(st.just("say"), device, pick),
    st.tuples(st.just("branch"), device, pick),
    st.tuples(st.just("rename"), device, pick, st.sampled_from(["Alpha", "Beta", "Gamma"])),
    st.tuples(st.just("delete"), device, pick),
    st.tuples(st.just("restore"), device, pick),
    st.tuples(st.just("pin"), device, pick, st.booleans()),
    st.tuples(st.just("sync"), device, interruption),
    st.tuples(st.just("sync"), device, interruption),  # (syncs twice as often)
)


@dataclass
class World:
    devices: list[Device]
    written: dict[str, str] = field(default_factory=dict)  # entry id -> conversation id
    counter: int = 0

    def live(self, d: Device, n: int) -> str | None:
        found = sorted(row["id"] for row in d.library.newest(limit=1_000))
        return found[n % len(found)] if found else None

    def trashed(self, d: Device, n: int) -> str | None:
        found = sorted(d.library.trashed())
        return found[n % len(found)] if found else None

    def append(self, d: Device, cid: str, entry: object, **where: int) -> None:
        written = d.library.append(d.library.open(cid), entry, **where)  # type: ignore[arg-type]
        self.written[entry_id(written)] = cid

    def run(self, action: tuple[object, ...]) -> None:
        kind, index, *rest = action
        assert isinstance(index, int)
        d = self.devices[index]
        self.counter += 1
        text = f"words {self.counter} on {index}"
        if kind == "new":
            chat = d.library.create()
            self.append(d, chat.id, ModelInput(text=text))
            return
        if kind == "sync":
            self.sync(d, rest[0])  # type: ignore[arg-type]
            return
        n = rest[0]
        assert isinstance(n, int)
        cid = self.trashed(d, n) if kind == "restore" else self.live(d, n)
        if cid is None:
            return
        if kind == "say":
            self.append(d, cid, ModelInput(text=text))
            self.append(d, cid, ModelOutput(provider="fake", model="m", text=f"reply {text}"))
        elif kind == "branch":  # another answer to the first question, or another first one
            history = d.library.open(cid).history
            first = next((e.seq for e in history if isinstance(e, ModelInput)), None)
            if first is None:
                self.append(d, cid, ModelInput(text=text), after=0)
            else:
                self.append(d, cid, ModelOutput(provider="fake", model="m", text=text), after=first)
        elif kind == "rename":
            d.library.rename(cid, f"{rest[1]} {self.counter}")
        elif kind == "delete":
            d.library.delete(cid)
        elif kind == "restore":
            d.library.restore(cid)
        elif kind == "pin":
            d.library.pin(cid, bool(rest[1]))

    def sync(self, d: Device, interruption: tuple[str, int] | None) -> None:
        if interruption is None:
            d.wrap = None
            d.sync()
            return
        how, after = interruption
        fault: Callable[[], BaseException] = (
            (lambda: Killed("killed")) if how == "kill" else (lambda: Unreachable("dropped"))
        )
        d.wrap = lambda remote: FaultyRemote(remote, fail_at=after, fault=fault)
        try:
            d.sync()
        except (Killed, RemoteError):
            pass
        finally:
            d.wrap = None

    def settle(self) -> list[dict[str, Held]]:
        for _ in range(6):
            if all([d.sync().summary() == UP_TO_DATE for d in self.devices]):  # each syncs
                break
        else:
            raise AssertionError("three devices kept syncing something")
        return [d.held() for d in self.devices]


def check(world: World, held: list[dict[str, Held]]) -> None:
    for n, holding in enumerate(held[1:], start=1):
        for cid in set(holding) | set(held[0]):
            assert holding.get(cid) == held[0].get(cid), f"device {n} differs on {cid}"
    for d in world.devices:
        files = {cid: d.all_ids(cid) for cid in held[0]}
        for cid, ids in files.items():
            assert len(ids) == len(set(ids)), f"an entry twice in {cid}"
        for written, cid in world.written.items():
            assert files[cid].count(written) == 1, f"entry {written} of {cid} lost"


@pytest.fixture
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("three")


def play(root: Path, steps: list[tuple[object, ...]]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    remote = root / "remote"
    configs = [folder_config(remote, f"{n + 1:016x}") for n in range(DEVICES)]
    set_up_remote(configs[0])
    world = World([Device(root / f"d{n}", config) for n, config in enumerate(configs)])
    try:
        for action in steps:
            with contextlib.suppress(NotFound):  # gone meanwhile (a sync moved it): no-op
                world.run(action)
        for d in world.devices:
            d.wrap = None
        check(world, world.settle())
    finally:
        for d in world.devices:
            d.close()


def test_a_pin_made_while_another_device_deleted_survives_the_restore(tmp_path: Path) -> None:
    """Found by the property below: B deleted a conversation that A then pinned; A's pin
    reached B while it was in B's trash and was dropped, so after a restore A showed it
    pinned and B did not."""
    remote = tmp_path / "remote"
    a = Device(tmp_path / "a", folder_config(remote, "a" * 16))
    b = Device(tmp_path / "b", folder_config(remote, "b" * 16))
    set_up_remote(a.config)
    chat = a.library.create()
    a.say(chat, "x")
    a.sync()
    b.sync()
    b.library.delete(chat.id)
    a.library.pin(chat.id)
    b.sync()
    a.sync()
    b.sync()
    assert a.held() == b.held() and a.held()[chat.id].in_trash
    a.library.restore(chat.id)
    a.sync()
    b.sync()
    assert (
        b.held()[chat.id]
        == a.held()[chat.id]
        == Held(in_trash=False, ids=a.held()[chat.id].ids, title=None, pinned=True)
    )
    assert chat.id in b.library.pins.ids
    assert [row["pinned"] for row in b.library.newest() if row["id"] == chat.id] == [True]
    a.close()
    b.close()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=5, max_size=30))
def test_three_devices_end_up_holding_the_same(root: Path, steps: list[tuple[object, ...]]) -> None:
    play(root, steps)


@pytest.mark.slow
@settings(
    max_examples=120,  # ~25 s in CI; raise it when changing the merge
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=10, max_size=80))
def test_three_devices_end_up_holding_the_same_many(
    root: Path, steps: list[tuple[object, ...]]
) -> None:
    play(root, steps)
