"""The Next request tab gets the adapter of the model picked ready off the window's thread:
importing an adapter's module on the event loop held the window."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from app.composition import Services
from app.history import ModelInput
from tests.helpers.ui_driver import OpenWindow
from tests.ui.test_inspector import ANTHROPIC, inspect, provider, services, wait_request
from ui.inspector.dock import NEXT_REQUEST

__all__ = ["provider", "services"]  # the fixtures the test below uses


def test_the_adapter_of_the_model_picked_is_built_on_the_inspectors_worker(
    open_window: OpenWindow, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation = services.library.create()
    services.library.append(conversation, ModelInput(text="hello"))
    threads: list[threading.Thread] = []
    renderer = services.renderer

    def recorded(spec: str) -> Any:
        if spec == ANTHROPIC:
            threads.append(threading.current_thread())
        return renderer(spec)

    monkeypatch.setattr(services, "renderer", recorded)
    harness = open_window()
    dock = inspect(harness, conversation.id, NEXT_REQUEST)
    harness.window.composer.set_model(ANTHROPIC)
    wait_request(harness, dock, ANTHROPIC)
    assert threads and threads[0] is not threading.main_thread()
