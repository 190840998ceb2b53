"""What a sync costs follows what changed, not what the library holds (docs/sync.md, "Costs"):
counted at the remote (requests and bytes each way, ``FaultyRemote``), never timed. A sync
with nothing new is two listings whatever the library; one of a few changed conversations
moves the same requests and bytes, to within a constant, at ten times the library."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app import ids
from app.history import History, ModelInput, ModelOutput, Title
from app.store.transcript import FORMAT, VERSION, Header
from tests.helpers.sync_devices import Device, FaultyRemote, folder_config, set_up_remote

CHANGED = 5
SLACK = 1_024  # bytes: numbers in names and objects grow a digit or two with the library


@dataclass(frozen=True)
class Cost:
    requests: int
    up: int
    down: int


def fill(device: Device, count: int) -> list[str]:
    """``count`` conversations of a few entries, written in batches (``receive_many``)."""
    made: list[str] = []
    for start in range(0, count, 500):
        items = []
        for n in range(start, min(count, start + 500)):
            history = History()
            history.append(history.stamp(ModelInput(text=f"question {n}")))
            history.append(history.stamp(ModelOutput(provider="p", model="m", text="an answer")))
            history.append(history.stamp(Title(text=f"chat {n}", source="generated")))
            header = Header(format=FORMAT, version=VERSION, id=ids.new_id(),
                            created_at=next(iter(history)).ts)  # fmt: skip
            items.append((header, list(history)))
            made.append(header.id)
        device.library.receive_many(items)
    return made


def _counted(device: Device) -> Cost:
    remote: FaultyRemote = device.last_remote
    return Cost(remote.total, remote.sent, remote.received)


def costs(base: Path, count: int) -> dict[str, Cost]:
    """Two devices with ``count`` conversations in sync; then what each step costs."""
    remote = base / "remote"
    a = Device(base / "a", folder_config(remote))
    b = Device(base / "b", folder_config(remote))
    set_up_remote(a.config)
    made = fill(a, count)
    a.sync()
    assert b.sync().received_conversations == count
    a.wrap = b.wrap = FaultyRemote
    found = {}
    for cid in made[:: count // CHANGED][:CHANGED]:
        a.say(a.library.open(cid), "one more question")
    assert a.sync().sent_conversations == CHANGED
    found["push"] = _counted(a)
    assert b.sync().received_conversations == CHANGED
    found["pull"] = _counted(b)
    for name, device in (("nothing (a)", a), ("nothing (b)", b)):
        assert device.sync().summary().startswith("up to date")
        found[name] = _counted(device)
    a.close()
    b.close()
    return found


def test_a_sync_costs_what_changed_not_what_the_library_holds(tmp_path: Path) -> None:
    small, big = (costs(tmp_path / str(size), size) for size in (1_000, 10_000))
    for step in ("push", "pull"):
        assert big[step].requests == small[step].requests, step
        assert abs(big[step].up - small[step].up) <= SLACK, step
        assert abs(big[step].down - small[step].down) <= SLACK, step
        assert small[step].requests <= CHANGED + 6, step  # one per conversation, a few more
    for step in ("nothing (a)", "nothing (b)"):
        assert small[step] == big[step] == Cost(2, 0, 0), step  # heads/ and manifests/
