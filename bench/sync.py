"""Sync benchmark: first and incremental syncs between two devices through S3 (issue 24).

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/sync.py            # 1,000 and 10,000 conversations
    .venv/bin/python bench/sync.py --quick    # 1,000 only
    .venv/bin/python bench/sync.py --conversations 500 --entries 4

Each size gets a fresh bucket on moto's S3 server on 127.0.0.1 (``tests/helpers/sync_servers.py``),
run in a process of its own (the server's work does not share the bench's interpreter), and
two devices, A and B, each a data dir of its own with the real engine
(``tests/helpers/sync_devices.py``). A's library is N conversations of ``--entries`` entries
(questions and replies, a title), written through ``Library.receive_many`` (``create_from``
where there is none: the code of before). Then, in order:

- first push: A's first sync sends everything;
- first pull: B's first sync receives everything;
- incremental: ``--changed`` conversations get a turn on A; A pushes, B pulls;
- no change: A, then B, sync again with nothing new.

Per step: wall time of ``engine.sync`` (the remote opened beforehand), remote requests by kind
(list, get, put, delete) and bytes each way. An incremental sync should cost what changed, not
what the library holds: the ``flat`` lines compare the incremental and no-change steps across
sizes.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import ids
from app.history import History, ModelInput, ModelOutput, Title, Usage
from app.settings_sync import SyncConfig
from app.store.transcript import FORMAT, VERSION, Header
from app.sync import engine
from tests.helpers.sync_devices import Device, FaultyRemote, set_up_remote
from tests.helpers.sync_servers import ACCESS_KEY, SECRET_KEY, s3_server

SIZES = (1_000, 10_000)


@dataclass
class Row:
    size: int
    step: str
    seconds: float
    calls: dict[str, int]
    up: int  # bytes put
    down: int  # bytes got
    summary: str

    @property
    def requests(self) -> int:
        return sum(self.calls.values())


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


def fill(device: Device, count: int, entries: int) -> list[str]:
    """``count`` conversations of ``entries`` entries each on ``device``; their ids."""
    made = []
    batch: list[tuple[Header, list[Any]]] = []
    for n in range(count):
        history = History()
        for k in range(entries - 1):
            if k % 2 == 0:
                entry = ModelInput(text=f"question {k} of conversation {n}: " + "words " * 20)
            else:
                entry = ModelOutput(
                    provider="openai",
                    model="gpt-4o-mini",
                    text="an answer " * 40,
                    finish_reason="stop",
                    usage=Usage(input=100 + k, output=80),
                )
            history.append(history.stamp(entry))
        history.append(history.stamp(Title(text=f"Conversation {n}", source="generated")))
        header = Header(
            format=FORMAT, version=VERSION, id=ids.new_id(), created_at=next(iter(history)).ts
        )
        batch.append((header, list(history)))
        made.append(header.id)
        if len(batch) == 500 or n == count - 1:
            if hasattr(device.library, "receive_many"):  # (batched where the store can)
                device.library.receive_many(batch)
            else:
                for one in batch:
                    device.library.create_from(*one)
            batch = []
    return made


def step(device: Device, size: int, name: str) -> Row:
    vault = device.vault()  # opened outside the timing: the marker read, the client made
    remote: FaultyRemote = vault.remote  # type: ignore[assignment]
    started = time.perf_counter()
    report = engine.sync(device.library, vault)
    seconds = time.perf_counter() - started
    row = Row(
        size, name, seconds, dict(remote.calls), remote.sent, remote.received, report.summary()
    )
    progress(f"{size:,} {name}: {seconds:.2f} s, {row.requests} requests; {row.summary}")
    return row


def run_size(
    endpoint: str, make_bucket: object, size: int, entries: int, changed: int, base: Path
) -> list[Row]:
    bucket = f"bench-{secrets.token_hex(4)}"
    make_bucket(bucket)  # type: ignore[operator]
    environ = {"CROSSTALK_SYNC_SECRET": SECRET_KEY}
    configs = [
        SyncConfig(
            url=f"s3://{bucket}/crosstalk",
            endpoint_url=endpoint,
            user=ACCESS_KEY,
            device=secrets.token_hex(8),
        )
        for _ in range(2)
    ]
    set_up_remote(configs[0], SECRET_KEY)
    a = Device(base / f"a-{size}", configs[0], environ)
    b = Device(base / f"b-{size}", configs[1], environ)
    for device in (a, b):
        device.wrap = FaultyRemote
    progress(f"writing {size:,} conversations of {entries} entries on A")
    started = time.perf_counter()
    made = fill(a, size, entries)
    progress(f"written in {time.perf_counter() - started:.1f} s")
    rows = [step(a, size, "first push (A)"), step(b, size, "first pull (B)")]
    for cid in made[:: max(1, size // changed)][:changed]:
        a.say(a.library.open(cid), "one more question")
    rows += [
        step(a, size, f"incremental push (A, {changed} changed)"),
        step(b, size, "incremental pull (B)"),
        step(a, size, "no change (A)"),
        step(b, size, "no change (B)"),
    ]
    a.close()
    b.close()
    return rows


def table(rows: list[Row]) -> str:
    head = f"{'conversations':>13}  {'step':<34} {'seconds':>8} {'requests':>9}  {'list/get/put/del':<18} {'KB up':>9} {'KB down':>9}"  # noqa: E501
    lines = [head, "-" * len(head)]
    for r in rows:
        kinds = "/".join(str(r.calls.get(k, 0)) for k in ("list", "get", "put", "delete"))
        lines.append(
            f"{r.size:>13,}  {r.step:<34} {r.seconds:>8.2f} {r.requests:>9,}  {kinds:<18} "
            f"{r.up / 1024:>9,.1f} {r.down / 1024:>9,.1f}"
        )
    return "\n".join(lines)


def flatness(rows: list[Row]) -> list[str]:
    sizes = sorted({r.size for r in rows})
    if len(sizes) < 2:
        return []
    lines = []
    for name in {r.step for r in rows if not r.step.startswith("first")}:
        small = next(r for r in rows if r.size == sizes[0] and r.step == name)
        big = next(r for r in rows if r.size == sizes[-1] and r.step == name)
        lines.append(
            f"flat? {name}: requests {small.requests} -> {big.requests}, "
            f"seconds {small.seconds:.2f} -> {big.seconds:.2f}, "
            f"KB {(small.up + small.down) / 1024:.1f} -> {(big.up + big.down) / 1024:.1f}"
        )
    return sorted(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 conversations only")
    parser.add_argument("--conversations", type=int, nargs="*", help="sizes to run")
    parser.add_argument("--entries", type=int, default=10, help="entries per conversation")
    parser.add_argument("--changed", type=int, default=5, help="conversations changed on A")
    args = parser.parse_args()
    sizes = args.conversations or (SIZES[:1] if args.quick else SIZES)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_SESSION_TOKEN"):
        os.environ.pop(name, None)
    os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
    base = Path(tempfile.mkdtemp(prefix="crosstalk-bench-sync-"))
    rows: list[Row] = []
    try:
        with s3_server(own_process=True) as s3:
            for size in sizes:
                rows += run_size(
                    s3.endpoint, s3.make_bucket, size, args.entries, args.changed, base
                )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(
        f"sync through moto's S3 on 127.0.0.1; {args.entries} entries per conversation; "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print(table(rows))
    for line in flatness(rows):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
