"""Renaming, pinning, forking, deleting and restoring from the window
(ui/shell/conversation_actions.py): each Library write runs off the window's thread, and the
window says how it went as before."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from app.composition import Services
from app.history import Title
from app.paths import DataDir
from app.providers import Models
from tests.helpers.ui_driver import GatedProvider, OpenWindow, click_row, seed, services_for


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def record_threads(
    monkeypatch: pytest.MonkeyPatch, library: Any, names: list[str]
) -> dict[str, list[threading.Thread]]:
    """Wrap each named Library method to note the thread it runs on."""
    ran: dict[str, list[threading.Thread]] = {name: [] for name in names}
    for name in names:
        method = getattr(library, name)

        def wrapper(*args: Any, _name: str = name, _method: Callable[..., Any] = method) -> Any:
            ran[_name].append(threading.current_thread())
            return _method(*args)

        monkeypatch.setattr(library, name, wrapper)
    return ran


def test_renaming_pinning_forking_deleting_and_restoring_write_off_the_window_thread(
    qtbot: Any, open_window: OpenWindow, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    teapot = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    kettle = seed(services.library, "Kettles", "What do kettles do?", "They boil water.")
    harness = open_window()
    window, listing = harness.window, harness.window.conversations
    ran = record_threads(monkeypatch, services.library, ["rename", "pin", "fork", "delete",
                                                         "restore"])  # fmt: skip
    click_row(qtbot, harness, teapot)

    listing.rename_requested.emit(teapot, "Tea things")  # F2 in the list
    harness.until(lambda: window.heading.text() == "Tea things", "the new title shown")
    assert [(t.text, t.source) for t in harness.saved(teapot, Title)][-1] == ("Tea things", "user")

    listing.pin_requested.emit(kettle, True)
    harness.until(lambda: harness.listed_ids()[0] == kettle, "the pinned row on top")

    listing.fork_requested.emit(teapot)
    harness.until(lambda: window.current not in (None, teapot), "the fork shown")
    fork = window.current
    assert fork is not None and window.heading.text() == "Tea things (fork)"

    listing.delete_requested.emit(fork)
    harness.until(lambda: window.current is None, "the fork gone to the trash")
    assert services.library.trashed() == [fork]
    assert window.banner.message.text() == "Moved “Tea things (fork)” to the trash."
    assert window.banner.action.text() == "Undo"

    window.banner.action_requested.emit("undo")
    harness.until(lambda: window.current == fork, "the fork back, and shown")
    assert services.library.trashed() == []

    window_thread = threading.main_thread()
    assert {name: len(threads) for name, threads in ran.items()} == dict.fromkeys(ran, 1)
    on_window = [name for name, threads in ran.items() if window_thread in threads]
    assert not on_window, f"written on the window's thread: {on_window}"


def test_a_write_that_fails_is_said_in_the_banner(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    teapot = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, teapot)
    window.conversations.rename_requested.emit(teapot, "   ")  # a title cannot be empty
    harness.until(window.banner.isVisible, "the failure said")
    assert window.banner.message.text().startswith("Could not rename the conversation: ")
    assert window.heading.text() == "Teapots"
