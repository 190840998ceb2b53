"""Settings between devices, only when asked (``[sync] settings``; docs/sync.md)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from app.settings import Settings, load_settings
from app.settings_store import save_settings
from tests.helpers.sync_devices import Device, folder_config, set_up_remote


def _device(root: Path, remote: Path, share: bool) -> Device:
    config = msgspec.structs.replace(folder_config(remote), settings=share)
    device = Device(root, config)
    save_settings(device.data, Settings(sync=config))  # as `sync setup` leaves it
    return device


@pytest.fixture
def sharing(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    remote = tmp_path / "remote"
    a, b = _device(tmp_path / "a", remote, True), _device(tmp_path / "b", remote, True)
    set_up_remote(a.config)
    yield a, b
    a.close()
    b.close()


def _change(device: Device, **fields: object) -> None:
    mine = load_settings(device.data)
    save_settings(device.data, msgspec.structs.replace(mine, **fields))


def test_settings_reach_the_other_device_and_its_own_sync_stays(
    sharing: tuple[Device, Device],
) -> None:
    a, b = sharing
    _change(a, default_model="openai:gpt-4.1-mini", window_turns=12)
    assert a.sync().settings_sent
    report = b.sync()
    assert report.settings_received and "received the settings" in report.summary()
    taken = load_settings(b.data)
    assert (taken.default_model, taken.window_turns) == ("openai:gpt-4.1-mini", 12)
    assert taken.sync == b.config  # its own remote and device id
    # taken settings are not sent back, and nothing more travels
    assert not b.sync().settings_sent
    assert a.sync().summary() == b.sync().summary() == "up to date: nothing to receive or send"


def test_the_newest_change_wins_on_both(sharing: tuple[Device, Device]) -> None:
    a, b = sharing
    _change(a, default_model="anthropic:claude-sonnet-4")
    past = time.time() - 60
    os.utime(a.data.settings_file, (past, past))  # a changed a minute earlier than b
    _change(b, default_model="gemini:gemini-2.5-flash")
    a.sync()
    b.sync()
    a.sync()
    assert load_settings(a.data).default_model == "gemini:gemini-2.5-flash"
    assert load_settings(b.data).default_model == "gemini:gemini-2.5-flash"


def test_settings_stay_home_unless_asked(tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    a, b = _device(tmp_path / "a", remote, False), _device(tmp_path / "b", remote, True)
    set_up_remote(a.config)
    _change(a, default_model="openai:gpt-4.1-mini")
    assert not a.sync().settings_sent
    assert not (remote / "settings").exists()
    b.sync()
    assert load_settings(b.data).default_model == Settings().default_model
    a.close()
    b.close()


def test_a_settings_file_that_cannot_be_read_is_never_replaced(
    sharing: tuple[Device, Device],
) -> None:
    a, b = sharing
    _change(a, default_model="openai:gpt-4.1-mini")
    a.sync()
    broken = b"default_model = [not toml\n"
    b.data.settings_file.write_bytes(broken)
    b.sync()
    assert b.data.settings_file.read_bytes() == broken  # the user's to fix
