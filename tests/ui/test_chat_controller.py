"""ChatController: which model a conversation goes on with, through the whole window."""

from __future__ import annotations

from typing import Any

import pytest

from app.composition import Services
from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.providers import Models
from app.transfer import import_paths
from tests.helpers.ui_driver import (
    DEFAULT,
    GatedProvider,
    OpenWindow,
    click_row,
    reply,
    services_for,
)
from tests.transfer.conftest import FIXTURES


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def test_an_imported_chat_goes_on_with_the_default_model_and_keeps_its_replies(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    report = import_paths(services.library, [FIXTURES / "chatgpt" / "conversations.json"])
    [chat_id] = [id_ for id_, title, _ in report.imported if title == "Quick question"]
    imported = services.library.open(chat_id).history.last_output
    assert imported is not None and imported.provider == "chatgpt"  # the app that wrote it
    harness = open_window()
    assert harness.controller.last_model(chat_id) is None  # not a provider here: the default

    click_row(qtbot, harness, chat_id)
    assert harness.window.composer.model() == DEFAULT
    assert f"chatgpt:{imported.model}" in harness.chat_text()  # shown as it was made
    provider.scripts = [reply("Going on.")]
    harness.send(qtbot, "And then?")
    harness.finish(chat_id)
    outputs = harness.saved(chat_id, ModelOutput)
    assert [(o.provider, o.model) for o in outputs[-2:]] == [
        ("chatgpt", imported.model),
        ("scripted", "echo"),
    ]
    assert harness.controller.last_model(chat_id) == DEFAULT


def test_a_reply_by_a_provider_that_is_gone_leaves_the_default_model(
    open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    beta = GatedProvider(name="beta", model_names=("b1",))
    library = services.library
    conversation = library.create()
    library.append(conversation, ModelInput(text="Hi"))
    library.append(conversation, ModelOutput(provider="beta", model="b1", text="Hello"))
    harness = open_window()
    assert harness.controller.last_model(conversation.id) is None  # beta is not configured
    services.models = Models.of(provider, beta)  # as the settings dialog rebuilds them
    assert harness.controller.last_model(conversation.id) == "beta:b1"
