"""The window's background sync (app/sync/background.py) with the real engine: devices are data
dirs with real libraries, syncing through a real folder remote (and moto's S3). Times are
shortened: a debounce of a fraction of a second, retries from a fifth of a second."""

from __future__ import annotations

import asyncio
import itertools
import shutil
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.sync import state as states
from app.sync.background import BackgroundSync, Status
from tests.helpers.sync_devices import Device, folder_config, set_up_remote

DEBOUNCE = 0.3
NEVER = 3600.0


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    remote = tmp_path / "remote"
    a_config, b_config = folder_config(remote), folder_config(remote)
    set_up_remote(a_config)
    a, b = Device(tmp_path / "a", a_config), Device(tmp_path / "b", b_config)
    yield a, b
    a.close()
    b.close()


def background(device: Device, **options: float) -> BackgroundSync:
    timing = {"debounce": DEBOUNCE, "every": NEVER, "first": NEVER} | options
    return BackgroundSync(device.library, device.vault, **timing)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 30))


async def until(check: Callable[[], object], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.01)


def test_a_change_is_sent_once_changes_settle(devices: tuple[Device, Device]) -> None:
    a, b = devices

    async def test() -> None:
        sync = background(a)
        sync.start()
        chat = a.library.create()
        for n in range(5):  # changes closer together than the debounce: no sync between them
            a.say(chat, f"message {n}")
            await asyncio.sleep(DEBOUNCE / 3)
            assert sync.syncs == 0
        await until(lambda: sync.status.pending, "the change to be counted as pending")
        assert sync.status.pending == 1
        began = time.monotonic()
        await until(lambda: sync.status.last_at, "a sync after the last change")
        assert sync.syncs == 1 and time.monotonic() - began < DEBOUNCE + 5
        assert sync.status.pending == 0 and sync.status.error is None
        assert "sent 10 entries in 1 conversation" in (sync.status.summary or "")
        await sync.stop()
        assert b.sync().created == 1
        assert b.ids(chat.id) == a.ids(chat.id)

    run(test)


def test_what_a_sync_receives_starts_no_other_sync(devices: tuple[Device, Device]) -> None:
    a, b = devices
    chat = b.library.create()
    b.say(chat, "from the other device")
    b.sync()

    async def test() -> None:
        sync = background(a)
        reports = []
        sync.report_listeners.append(reports.append)
        sync.start()
        sync.sync_now()
        await until(lambda: reports, "the sync asked for")
        assert reports[0].created == 1 and a.ids(chat.id) == b.ids(chat.id)
        await asyncio.sleep(DEBOUNCE * 3)  # what was received is no change of this device's
        assert sync.syncs == 1
        await sync.stop()

    run(test)


def test_failures_back_off_and_a_success_clears_the_error(
    devices: tuple[Device, Device], tmp_path: Path
) -> None:
    a, _ = devices
    remote, away = tmp_path / "remote", tmp_path / "remote-unplugged"

    async def test() -> None:
        sync = background(a, first_retry=0.2, longest_retry=0.8)
        failed_at: list[float] = []
        retries: list[float] = []

        def heard(status: Status) -> None:
            if status.error and not status.syncing and status.retry_at not in retries:
                failed_at.append(time.monotonic())
                retries.append(status.retry_at or 0)

        sync.status_listeners.append(heard)
        sync.start()
        shutil.move(remote, away)  # the drive is unplugged
        sync.sync_now()
        await until(lambda: len(failed_at) >= 1, "the first failure")
        assert "remote" in (sync.status.error or "")
        assert states.last_sync(a.data).error == sync.status.error  # `sync status` says it too
        a.say(a.library.create(), "written while failing")  # waits for the retry, not sooner
        await until(lambda: len(failed_at) >= 5, "five failures")
        gaps = [later - earlier for earlier, later in itertools.pairwise(failed_at)]
        for gap, wait in zip(gaps, (0.2, 0.4, 0.8, 0.8), strict=True):
            assert wait * 0.9 <= gap < wait + 1.0, gaps
        assert sync.syncs == 5
        shutil.move(away, remote)  # plugged in again
        await until(lambda: sync.status.last_at, "the retry that works", timeout=5)
        assert sync.status.error is None and sync.status.retry_at is None
        assert sync.status.pending == 0
        await sync.stop()

    run(test)


def test_sync_now_skips_the_wait_after_a_failure(
    devices: tuple[Device, Device], tmp_path: Path
) -> None:
    a, _ = devices
    remote, away = tmp_path / "remote", tmp_path / "remote-unplugged"

    async def test() -> None:
        sync = background(a, first_retry=NEVER)
        sync.start()
        shutil.move(remote, away)
        sync.sync_now()
        await until(lambda: sync.status.error, "the failure")
        shutil.move(away, remote)
        sync.sync_now()
        await until(lambda: sync.status.last_at, "the sync asked for")
        assert sync.syncs == 2 and sync.status.error is None
        await sync.stop()

    run(test)


def test_no_two_syncs_at_once_and_another_process_s_sync_is_waited_for(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    for n in range(40):
        a.say(a.library.create(), f"chat {n}")

    async def test() -> None:
        sync = background(a, debounce=0.1)
        seen: list[bool] = []
        sync.status_listeners.append(lambda status: seen.append(status.syncing))
        overlaps: list[int] = []
        sync.status_listeners.append(lambda status: overlaps.append(sync.running))
        sync.start()
        with states.exclusive(a.data):  # `crosstalk sync` in a terminal holds the lock
            sync.sync_now()
            await until(lambda: sync.syncs >= 2, "a try, and another after the debounce")
            assert sync.status.error is None and sync.status.last_at is None
        await until(lambda: sync.status.last_at, "the sync once the other has finished")
        for _ in range(10):  # asked again and again, and changes, while syncs run
            sync.sync_now()
            a.say(a.library.create(), "more")
            await asyncio.sleep(0.01)
        await until(lambda: not sync.status.syncing and sync.status.pending == 0, "the rest")
        assert max(overlaps) <= 1
        starts = [
            now for before, now in zip([False, *seen], seen, strict=False) if now and not before
        ]
        assert len(starts) == sync.syncs  # each began after the one before had ended
        count = sync.syncs
        for _ in range(10):  # asked ten times at once: one sync
            sync.sync_now()
        await until(lambda: sync.syncs > count and not sync.status.syncing, "the sync asked for")
        await asyncio.sleep(DEBOUNCE)
        assert sync.syncs == count + 1
        await sync.stop()
        assert b.sync().created == 50

    run(test)


def test_stop_cancels_the_sync_running_and_ends_the_schedule(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    for n in range(120):
        a.say(a.library.create(), f"chat {n}")

    async def test() -> None:
        sync = background(a)
        sync.start()
        sync.sync_now()
        await until(lambda: sync.status.stage == "sending", "the sync to be sending")
        began = time.monotonic()
        await sync.stop()
        assert time.monotonic() - began < 5 and sync.stopped
        count = sync.syncs
        a.say(a.library.create(), "after quitting")
        await asyncio.sleep(DEBOUNCE * 3)
        assert sync.syncs == count and sync.running == 0

    run(test)
    received = b.sync()
    assert received.created < 121  # stopped short; what was committed is whole
    a.sync()
    assert b.sync().created + received.created == 121


def test_through_s3(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from tests.helpers.memory_keyring import memory_keyring
    from tests.helpers.sync_servers import SECRET_KEY
    from tests.sync.conftest import s3_config

    s3, bucket = request.getfixturevalue("s3"), request.getfixturevalue("bucket")
    configs = [msgspec.structs.replace(s3_config(s3, bucket), device=f"{n:016x}") for n in (1, 2)]
    set_up_remote(configs[0], SECRET_KEY)
    env = {"CROSSTALK_SYNC_SECRET": SECRET_KEY}
    a, b = Device(tmp_path / "a", configs[0], env), Device(tmp_path / "b", configs[1], env)

    async def test() -> None:
        sync = background(a)
        sync.start()
        a.say(a.library.create(), "to the bucket")
        await until(lambda: sync.status.last_at, "the sync after the change")
        assert sync.status.error is None and sync.syncs == 1
        await sync.stop()

    with memory_keyring():
        run(test)
        assert b.sync().received_entries == 2
    a.close()
    b.close()
