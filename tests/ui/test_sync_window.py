"""Sync in the window: Settings > Sync sets it up against a real folder remote, the background
sync runs the real engine, the status line says how it went, and a branch that another device
(a second data dir syncing through the same folder) added is pointed out."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from msgspec.structs import replace
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from app.composition import Services
from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.providers import Models
from app.settings import load_settings
from app.settings_store import update_settings
from app.sync.setup import set_up
from tests.helpers.sync_devices import Device, folder_config
from tests.helpers.ui_driver import GatedProvider, Harness, OpenWindow, services_for, top_level
from ui.settings.dialog import SettingsDialog
from ui.settings.sync_tab import SyncTab
from ui.sync.status import SyncLine

TIMING = {"debounce": 0.3, "every": 3600.0, "first": 3600.0, "first_retry": 240.0}


# Buttons are pressed with click() while the loop is not running: qtbot.mouseClick processes
# Qt events, which may fire the loop's timers outside it (the app's loop always runs).


@pytest.fixture
def services(data_dir: DataDir) -> Services:
    return services_for(data_dir, Models.of(GatedProvider()))


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    folder = tmp_path / "remote"
    folder.mkdir()
    return folder


@pytest.fixture
def window(open_window: OpenWindow) -> Iterator[Harness]:
    """A window whose background sync waits 0.3 s after a change and is stopped after."""
    harness = open_window()
    harness.window.sync_runner.timing = dict(TIMING)
    yield harness
    harness.loop.run_until_complete(harness.window.sync_runner.stop())


def set_up_here(services: Services, remote: Path) -> None:
    """Sync set up as Settings > Sync (or `crosstalk sync setup`) leaves it."""
    config = folder_config(remote, device="")
    result = set_up(services.data, services.settings, config, None, None,
                    keep_secret=False, keep_passphrase=False)  # fmt: skip
    services.settings = replace(services.settings, sync=result.config)


def say(services: Services, conversation_id: str, text: str) -> None:
    library = services.library
    conversation = library.open(conversation_id)
    library.append(conversation, ModelInput(text=text))
    library.append(conversation, ModelOutput(provider="fake", model="m", text=f"re: {text}"))


def test_set_up_in_settings_then_changes_and_sync_now_are_sent(
    qtbot: QtBot, window: Harness, services: Services, remote: Path, tmp_path: Path
) -> None:
    w = window.window
    assert not w.sync_line.isVisible()  # sync is not set up
    w.sync_action.trigger()  # File > Sync now, with sync off: Settings at Sync
    (dialog,) = top_level(SettingsDialog)
    tab = dialog.sync_tab
    assert tab is not None and dialog.tabs.currentWidget() is tab
    qtbot.keyClicks(tab.url, str(remote))
    assert not tab.user.isVisible() and not tab.endpoint.isVisible()  # a folder takes neither
    tab.set_up_button.click()
    window.until(lambda: tab.pages.currentIndex() == 1, "the tab to show sync set up")
    saved = load_settings(services.data).sync
    assert saved is not None and saved.url == remote.as_uri() and len(saved.device) == 16
    assert tab.device_label.text() == saved.device
    assert "first device" in tab.busy.text()
    # the window syncs at once with the new remote
    window.until(lambda: w.sync_line.text().startswith("Synced"), "the first sync")
    assert w.sync_line.isVisible() and tab.last_label.text() != "Never"
    # a change here is sent once changes settle
    chat = services.library.create()
    say(services, chat.id, "hello")
    window.until(lambda: "to send" in w.sync_line.text(), "the change counted as pending")
    window.until(lambda: w.sync_line.text() == "Synced just now", "the change sent")
    other = Device(tmp_path / "other", folder_config(remote))
    assert other.sync().created == 1
    # Sync now: the menu action (Ctrl+Shift+S) and the tab's button
    background = w.sync_runner.background
    assert background is not None and w.sync_action.shortcut().toString() == "Ctrl+Shift+S"
    count = background.syncs
    w.sync_action.trigger()
    window.until(lambda: background.syncs == count + 1 and not background.status.syncing, "sync")
    tab.sync_now_button.click()
    window.until(lambda: background.syncs == count + 2 and not background.status.syncing, "sync")
    w.sync_line.click()  # a click on the status line
    window.until(lambda: background.syncs == count + 3 and not background.status.syncing, "sync")
    for combo in (dialog.default_model, dialog.title_model):  # (the test's model is unknown)
        combo.setCurrentText("local:smollm2")
    assert dialog.settings().sync == saved  # OK keeps sync as set up
    other.close()


def test_a_new_encrypted_remote_needs_the_passphrase_twice(
    qtbot: QtBot, window: Harness, services: Services, remote: Path
) -> None:
    from tests.helpers.memory_keyring import memory_keyring

    with memory_keyring() as keyring:
        window.window.open_settings(sync=True)
        (dialog,) = top_level(SettingsDialog)
        tab = dialog.sync_tab
        assert tab is not None
        qtbot.keyClicks(tab.url, str(remote))
        tab.encrypt.setChecked(True)
        qtbot.keyClicks(tab.passphrase, "correct horse")
        qtbot.keyClicks(tab.again, "correct hose")
        qtbot.keyClick(tab.again, Qt.Key.Key_Return)
        window.until(lambda: tab.error.isVisible(), "the mismatch said")
        assert "same passphrase twice" in tab.error.text()
        assert load_settings(services.data).sync is None and list(remote.iterdir()) == []
        tab.again.clear()
        qtbot.keyClicks(tab.again, "correct horse")
        tab.set_up_button.click()
        window.until(lambda: tab.pages.currentIndex() == 1, "set up")
        assert tab.encrypted_label.text() == "Yes"
        assert list(keyring.passwords.values()) == ["correct horse"]
        assert tab.passphrase.text() == tab.again.text() == ""  # never shown again
        window.until(lambda: window.window.sync_line.text().startswith("Synced"), "a sync")
        # Turn off: forgotten here, the remote untouched
        tab.turn_off_button.click()
        window.until(lambda: tab.pages.currentIndex() == 0, "sync turned off")
        assert load_settings(services.data).sync is None and keyring.passwords == {}
        assert (remote / "crosstalk-sync.json").exists()
        window.until(lambda: not window.window.sync_line.isVisible(), "the line hidden")
        assert window.window.sync_runner.background is None


def until_idle(window: Harness, what: str) -> None:
    """Until a sync has run and none is running; then the loop runs on a moment, so the
    background's wait for the next sync begins inside it (not in Qt events handled outside)."""

    def idle() -> bool:
        background = window.window.sync_runner.background
        return background is not None and background.syncs > 0 and not background.status.syncing

    window.until(idle, what)
    window.loop.run_until_complete(asyncio.sleep(0.05))


def open_sync_tab(window: Harness) -> tuple[SettingsDialog, SyncTab]:
    window.window.open_settings(sync=True)
    (dialog,) = top_level(SettingsDialog)
    tab = dialog.sync_tab
    assert tab is not None and dialog.tabs.currentWidget() is tab
    for combo in (dialog.default_model, dialog.title_model):  # (the test's model is unknown)
        combo.setCurrentText("local:smollm2")
    return dialog, tab


def test_settings_are_synced_when_the_box_is_ticked(
    qtbot: QtBot, window: Harness, services: Services, remote: Path
) -> None:
    dialog, tab = open_sync_tab(window)
    assert not tab.also_settings.isChecked()  # off unless asked for
    qtbot.keyClicks(tab.url, str(remote))
    tab.also_settings.click()
    tab.set_up_button.click()
    window.until(lambda: tab.pages.currentIndex() == 1, "the tab to show sync set up")
    saved = load_settings(services.data).sync
    assert saved is not None and saved.settings is True
    assert tab.settings_label.text() == "Synced too"
    assert tab.settings_button.text() == "Stop syncing se&ttings"
    window.until(lambda: any((remote / "settings").glob("*")), "settings.toml sent")
    until_idle(window, "the sync done")
    assert dialog.settings().sync == saved  # OK keeps it


def test_settings_sync_is_off_by_default_and_switched_afterwards(
    qtbot: QtBot, window: Harness, services: Services, remote: Path
) -> None:
    dialog, tab = open_sync_tab(window)
    qtbot.keyClicks(tab.url, str(remote))
    tab.set_up_button.click()  # the box left as it is
    window.until(lambda: tab.pages.currentIndex() == 1, "the tab to show sync set up")
    before = load_settings(services.data).sync
    assert before is not None and before.settings is False
    assert tab.settings_label.text() == "Not synced"
    until_idle(window, "the first sync")
    assert not (remote / "settings").exists()  # nothing of settings.toml went
    # meanwhile a command changes settings.toml: the tab changes [sync] alone, not putting
    # back the settings it opened with
    update_settings(services.data, lambda now: replace(now, window_turns=9))
    tab.settings_button.click()  # Sync settings too
    saved = load_settings(services.data).sync
    assert saved == replace(before, settings=True)  # nothing else changed
    assert load_settings(services.data).window_turns == 9
    assert tab.settings_label.text() == "Synced too"
    # the window syncs with it at once, settings.toml going too
    window.until(lambda: any((remote / "settings").glob("*")), "settings.toml sent")
    runner = window.window.sync_runner
    assert runner.services.settings.sync == saved
    until_idle(window, "the sync done")
    assert dialog.settings().sync == saved  # OK does not undo it
    tab.settings_button.click()  # Stop syncing settings
    saved = load_settings(services.data).sync
    assert saved == before
    assert tab.settings_label.text() == "Not synced"
    window.until(lambda: runner.services.settings.sync == saved, "the window told")
    until_idle(window, "the sync done")
    dialog.accept()
    window.until(lambda: not dialog.isVisible(), "the dialog closed")
    assert load_settings(services.data).sync == before


def test_sync_turned_off_while_its_set_up_still_stops_stays_off(
    window: Harness, services: Services, remote: Path
) -> None:
    """Two restarts overlapping (set up anew, then off at once): the newest wins. The first
    used to resume after the second and start sync again with the settings it carried."""
    set_up_here(services, remote)
    runner = window.window.sync_runner
    runner.start()
    background = runner.background
    assert background is not None and services.settings.sync is not None
    stop = background.stop

    async def stopping_slowly(timeout: float = 10.0) -> None:  # a sync ending its step
        await asyncio.sleep(0.2)
        await stop(timeout)

    background.stop = stopping_slowly  # type: ignore[method-assign]
    again = replace(services.settings.sync, settings=True)

    async def both() -> None:
        first = asyncio.ensure_future(runner.restart(again))
        await asyncio.sleep(0.05)  # it waits for the sync to stop
        await runner.restart(None)  # Turn off
        await first

    window.loop.run_until_complete(both())
    assert runner.background is None and services.settings.sync is None


def test_the_status_line_says_a_failure_in_words_and_when_it_is_tried_again(
    qtbot: QtBot, window: Harness, services: Services, remote: Path, tmp_path: Path
) -> None:
    set_up_here(services, remote)
    w = window.window
    w.sync_runner.start()
    w.sync_now()
    window.until(lambda: w.sync_line.text() == "Synced just now", "the first sync")
    shutil.move(remote, tmp_path / "unplugged")
    w.sync_now()
    window.until(lambda: w.sync_line.text().startswith("Sync failed:"), "the failure shown")
    assert w.sync_line.text().endswith("(retrying in 4 min)")  # shown however long the error
    assert str(remote) in w.sync_line.full_text  # the error's words name the remote
    assert "Click to sync now" in w.sync_line.toolTip()
    w.open_settings(sync=True)
    (dialog,) = top_level(SettingsDialog)
    tab = dialog.sync_tab
    assert tab is not None and str(remote) in tab.last_error.text()
    shutil.move(tmp_path / "unplugged", remote)
    tab.sync_now_button.click()
    window.until(lambda: w.sync_line.text() == "Synced just now", "the retry that works")
    assert tab.last_error.text() == "None"


def test_a_branch_from_another_device_is_pointed_out(
    window: Harness, services: Services, remote: Path, tmp_path: Path
) -> None:
    set_up_here(services, remote)
    w = window.window
    chat = services.library.create()
    say(services, chat.id, "start")
    services.library.rename(chat.id, "Trip plans")
    w.sync_runner.start()
    w.sync_now()
    window.until(lambda: w.sync_line.text() == "Synced just now", "the first sync")
    other = Device(tmp_path / "other", folder_config(remote))
    other.sync()
    other.say(other.library.open(chat.id), "from the desktop")  # both continue it
    other.sync()
    w.show_conversation(chat.id)
    say(services, chat.id, "from the laptop")
    w.sync_now()
    window.until(lambda: "another device" in w.statusBar().currentMessage(), "the branch said")
    assert "“Trip plans”" in w.statusBar().currentMessage()
    assert w.banner.isVisible() and "another device" in w.banner.message.text()
    history = services.library.open(chat.id).history
    assert len(history.leaves()) == 2
    window.until(lambda: "from the desktop" not in window.chat_text(), "the chat redrawn")
    assert "from the laptop" in window.chat_text()  # this device's branch stays shown
    other.close()


def test_every_text_of_the_tab_and_the_line_goes_through_translation(
    qtbot: QtBot, qapp: QApplication, data_dir: DataDir
) -> None:
    from PySide6.QtCore import QTranslator

    from app.settings import Settings
    from app.sync.background import Status

    class Mark(QTranslator):
        def translate(
            self, context: str, source: str, disambiguation: str | None = None, n: int = -1
        ) -> str:
            return f"[[{source}]]" if context in ("SyncTab", "SyncLine") else ""

    marking = Mark()
    qapp.installTranslator(marking)
    try:
        tab = SyncTab(data_dir, Settings())
        qtbot.addWidget(tab)
        tab.show()
        texts = [b.text() for b in tab.findChildren(QPushButton)]
        texts += [b.toolTip() for b in tab.findChildren(QPushButton) if b.toolTip()]
        texts += [label.text() for label in tab.findChildren(QLabel) if label.text()]
        texts += [tab.url.placeholderText(), tab.encrypt.text(), tab.encrypt.toolTip()]
        texts += [tab.also_settings.text(), tab.also_settings.toolTip()]
        line = SyncLine()
        qtbot.addWidget(line)
        later = time.monotonic() + 240
        for status in (Status(syncing=True), Status(error="x", retry_at=later), Status(pending=2),
                       Status(last_at="2026-01-01T00:00:00Z"), Status()):  # fmt: skip
            line.show_status(status)
            texts += [line.text(), line.toolTip()]
        assert len(texts) > 25
        assert [text for text in texts if not text.startswith("[[")] == []
    finally:
        qapp.removeTranslator(marking)


def test_the_last_result_is_said_in_the_window_language(qapp: QApplication) -> None:
    from PySide6.QtCore import QLocale

    from ui.common import i18n
    from ui.sync.status import result_words

    counts = {"received": 3, "sent": 1, "branches": 1, "events": 0}
    english = result_words(counts, "received 3 entries in 1 conversation")
    assert english == "received 3 entries; 1 new branch from another device; sent 1 entry"
    installed = i18n.install(qapp, "ja", system=QLocale("de_DE"))
    try:
        japanese = result_words(counts, "received 3 entries in 1 conversation")
        assert "3 件を受信" in japanese and "received" not in japanese
        assert result_words(None, "the engine's words") == "the engine's words"  # no numbers
    finally:
        for translator in installed.translators:
            qapp.removeTranslator(translator)
