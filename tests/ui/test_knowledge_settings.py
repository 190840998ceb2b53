"""Settings > Documents in a real window over a data folder: the embedding model, the model
that rewrites follow-ups, the passages and their share are saved to settings.toml and read
back; what cannot be used is refused with the dialog's words and nothing is saved; the
window's indexing embeds with a model chosen there (the real SDK against a local embeddings
server); and This chat… opens the chat's documents."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QSpinBox
from pytestqt.qtbot import QtBot

from app.composition import Services
from app.paths import DataDir
from app.providers import Models
from app.settings import ProviderConfig, Settings, load_settings
from app.settings_store import save_settings
from app.store import Library
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.ui_driver import Harness, OpenWindow, seed, top_level
from tests.helpers.wire_server import WireServer
from tests.knowledge.embedding_wire import keys, serve
from ui.composer.chat_settings import ChatSettingsDialog
from ui.knowledge.dialog import KnowledgeDialog
from ui.knowledge.indexing import close
from ui.settings.dialog import SettingsDialog
from ui.shell.knowledge_actions import KnowledgeActions


@pytest.fixture
def server() -> Iterator[WireServer]:
    with serve(WireServer()) as running:
        yield running


@pytest.fixture
def services(data_dir: DataDir, server: WireServer) -> Services:
    """settings.toml with an OpenAI-compatible server (``lab``) that has an embedding model,
    and no embedding model chosen yet."""
    lab = ProviderConfig(
        kind="openai-compatible", base_url=f"{server.url}/v1", models=["fake-embed", "chat"]
    )
    save_settings(data_dir, Settings(providers={"lab": lab}))
    return Services(
        data_dir, load_settings(data_dir), keys(), Library(data_dir), Models.of(ScriptedProvider())
    )


def open_settings(harness: Harness) -> SettingsDialog:
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    dialog.tabs.setCurrentWidget(dialog.knowledge_tab)
    return dialog


def press_ok(qtbot: QtBot, dialog: SettingsDialog) -> None:
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


def retype(spin: QSpinBox, text: str) -> None:
    """Replace what the box shows, as typing over it does (its own validator reads it)."""
    spin.lineEdit().setText(spin.prefix() + text + spin.suffix())


def test_the_documents_settings_are_saved_to_settings_toml_and_read_back(
    qtbot: QtBot, open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    harness = open_window()
    tab = open_settings(harness).knowledge_tab
    combo = tab.embedding_model
    offered = [combo.itemText(i) for i in range(combo.count())]
    assert offered[0] == "None: search by words only" and combo.currentIndex() == 0
    # the providers that can embed, a server's models that say "embed"; Anthropic has none
    assert {"openai:text-embedding-3-small", "gemini:gemini-embedding-001", "lab:fake-embed"} <= (
        set(offered)
    )
    assert "lab:chat" not in offered and not any(o.startswith("anthropic:") for o in offered)
    assert tab.recall_model.currentText() == "The title model"
    assert (tab.passages.value(), tab.share.value()) == (6, 25)  # the defaults
    # a long-lived knowledge base of the window's (the watcher's is one), made before
    knowledge = harness.window.findChild(KnowledgeActions).indexer.make()  # type: ignore[union-attr]
    assert knowledge.embedder is None

    assert not tab.embed_again.isVisible()
    combo.setCurrentIndex(offered.index("lab:fake-embed"))
    assert tab.embed_again.isVisible()
    assert tab.embed_again.text() == (
        "Your documents will be embedded again with lab:fake-embed when they are next indexed."
    )
    tab.recall_model.setCurrentText("lab:chat")
    retype(tab.passages, "3")
    retype(tab.share, "40")
    dialog = tab.window()
    assert isinstance(dialog, SettingsDialog)
    press_ok(qtbot, dialog)
    assert not dialog.isVisible() and not dialog.error.isVisible()

    saved = load_settings(services.data)
    assert saved.embedding_model == "lab:fake-embed" and saved.recall_model == "lab:chat"
    assert (saved.knowledge_passages, saved.knowledge_share) == (3, 0.4)
    assert services.settings == saved
    text = services.data.settings_file.read_text(encoding="utf-8")
    assert 'embedding_model = "lab:fake-embed"' in text and "knowledge_share = 0.4" in text
    again = open_settings(harness).knowledge_tab  # read back from the settings saved
    assert again.embedding_model.currentText() == "lab:fake-embed"
    assert again.recall_model.currentText() == "lab:chat"
    assert (again.passages.value(), again.share.value()) == (3, 40)
    again.window().close()

    # the knowledge base made before embeds with the model chosen, at its next update
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe harbour opens at dawn.\n", encoding="utf-8")
    try:
        knowledge.add(folder)
        report = knowledge.update()
        assert knowledge.embedder is not None and knowledge.embedder.model == "lab:fake-embed"
    finally:
        close(knowledge)
    assert report.vectors == report.chunks == 1
    (request,) = [r for r in server.requests if r.path.endswith("/embeddings")]
    assert request.json["model"] == "fake-embed"


def test_back_to_words_only_and_the_title_model(
    qtbot: QtBot, open_window: OpenWindow, services: Services
) -> None:
    edited = services.settings
    chosen = Settings(
        providers=edited.providers, embedding_model="lab:fake-embed", recall_model="lab:chat"
    )
    save_settings(services.data, chosen)
    services.settings = chosen
    tab = open_settings(open_window()).knowledge_tab
    tab.embedding_model.setCurrentIndex(0)
    assert tab.embed_again.text() == "Your documents will be searched by words only."
    tab.recall_model.setCurrentIndex(0)
    dialog = tab.window()
    assert isinstance(dialog, SettingsDialog)
    press_ok(qtbot, dialog)
    saved = load_settings(services.data)
    assert saved.embedding_model is None and saved.recall_model is None
    assert "embedding_model" not in services.data.settings_file.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [
        ("share", "0", "the passages' share of the token budget should be 1 to 100 percent"),
        ("passages", "0", "the passages sent with a question should be 1 or more"),
        ("embedding", "anthropic:voyage-3", "anthropic has no embedding models"),
        ("embedding", "nowhere:embed", "names no provider “nowhere”"),
        ("recall", "nowhere:small", "the model that rewrites questions 'nowhere:small' should"),
    ],
)
def test_what_cannot_be_used_is_refused_with_the_dialogs_words_and_nothing_saved(
    qtbot: QtBot, open_window: OpenWindow, services: Services, field: str, typed: str, said: str
) -> None:
    before = services.data.settings_file.read_bytes()
    dialog = open_settings(open_window())
    tab = dialog.knowledge_tab
    dialog.tabs.setCurrentIndex(0)  # the refusal shows the tab the field is on
    if field == "share":
        retype(tab.share, typed)
    elif field == "passages":
        retype(tab.passages, typed)
    elif field == "embedding":
        tab.embedding_model.setCurrentText(typed)
    else:
        tab.recall_model.setCurrentText(typed)
    press_ok(qtbot, dialog)
    assert dialog.isVisible() and dialog.error.isVisible()
    assert said in dialog.error.text()
    assert dialog.tabs.currentWidget() is tab
    assert services.data.settings_file.read_bytes() == before
    dialog.close()


def test_this_chat_offers_the_chats_documents(
    qtbot: QtBot, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = seed(services.library, "Harbour", "Hello", "Hi")
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    composer = harness.window.composer
    qtbot.mouseClick(composer.chat_button, Qt.MouseButton.LeftButton)
    harness.until(lambda: top_level(ChatSettingsDialog), "This chat", timeout=20)
    (chat,) = top_level(ChatSettingsDialog)
    assert chat.documents_button.isVisible() and chat.documents_button.text() == "Documents…"
    qtbot.mouseClick(chat.documents_button, Qt.MouseButton.LeftButton)
    harness.until(lambda: top_level(KnowledgeDialog), "the Knowledge dialog", timeout=20)
    (dialog,) = top_level(KnowledgeDialog)
    assert dialog.scope.conversation == conversation_id and dialog.isVisible()
    assert not chat.isVisible()  # closed: the Knowledge dialog takes input
    assert chat.result() == ChatSettingsDialog.DialogCode.Accepted


def test_this_chat_offers_no_documents_where_the_window_gives_none(qtbot: QtBot) -> None:
    dialog = ChatSettingsDialog({})
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.documents_button.isVisible()
