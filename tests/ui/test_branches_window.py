"""The tree in the window: Edit in place, Regenerate, the "< 2/3 >" switcher, Copy, Remove from
context, Up to edit, Fork, and comparing models side by side; each checked against what the
next request carries (the scripted provider records every request)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication

from app.composition import Services
from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.providers import Finished, Models, TextDelta
from app.turn import CONTINUE_PROMPT
from tests.helpers.ui_driver import GatedProvider, Harness, OpenWindow, reply, services_for
from ui.composer.chat_settings import ChatSettingsDialog
from ui.conversations.model import HIT_ROLE


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider(model_names=("echo", "other"))


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def click(harness: Harness, href: str) -> None:
    harness.window.chat._on_anchor_clicked(QUrl(href))


def sent(provider: GatedProvider) -> list[str]:
    """What the last request carried, as text."""
    return [getattr(e, "text", "") for e in provider.requests[-1].context.entries]


def two_turns(qtbot: Any, harness: Harness, provider: GatedProvider) -> str:
    provider.scripts = [reply("A1"), reply("Title"), reply("A2")]
    conversation_id = harness.send(qtbot, "Q1")
    harness.finish(conversation_id)
    harness.send(qtbot, "Q2")
    harness.finish(conversation_id)
    return conversation_id


def history(harness: Harness, conversation_id: str) -> Any:
    return harness.controller.conversation(conversation_id).history


def test_edit_in_place_sends_a_new_branch_and_the_switcher_goes_back(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    q2 = next(e.seq for e in harness.saved(conversation_id, ModelInput) if e.text == "Q2")
    chat = harness.window.chat
    click(harness, f"edit:{q2}")
    editor = chat.editor
    assert editor.isVisible() and editor.toPlainText() == "Q2"
    editor.selectAll()
    qtbot.keyClicks(editor, "Q2, better")
    provider.scripts = [reply("A2 again")]
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    harness.finish(conversation_id)
    assert sent(provider) == ["Q1", "A1", "Q2, better"]  # none of the replaced branch
    text = harness.chat_text()
    assert "Q2, better" in text and "A2 again" in text and "A2\n" not in text
    assert "2/2" in text and "(edited)" in text
    # the switcher: back to the first version, and the conversation below it follows
    click(harness, f"sibling:{q2}")
    harness.until(lambda: "A2 again" not in harness.chat_text(), "the first branch")
    assert "1/2" in harness.chat_text() and "A2" in harness.chat_text()
    provider.scripts = [reply("A3")]
    harness.send(qtbot, "Q3")
    harness.finish(conversation_id)
    assert sent(provider) == ["Q1", "A1", "Q2", "A2", "Q3"]


def test_esc_cancels_an_edit_and_up_in_an_empty_composer_edits_the_last_input(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    before = history(harness, conversation_id).version
    composer = harness.window.composer
    composer.edit.setFocus()
    qtbot.keyClick(composer.edit, Qt.Key.Key_Up)
    editor = harness.window.chat.editor
    assert editor.isVisible() and editor.toPlainText() == "Q2"
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not editor.isVisible()
    assert history(harness, conversation_id).version == before  # nothing was sent or written


def test_regenerate_with_another_model_carries_only_the_new_sibling(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    a2 = harness.saved(conversation_id, ModelOutput)[-1].seq
    provider.scripts = [reply("A2 by the other model")]
    harness.window.branch_actions.regenerate(a2, "scripted:other")
    harness.finish(conversation_id)
    assert provider.requests[-1].model == "other"
    assert sent(provider) == ["Q1", "A1", "Q2"]
    text = harness.chat_text()
    assert "A2 by the other model" in text and "A2\n" not in text
    assert "2/2" in text and "(regenerated)" in text
    provider.scripts = [reply("A3")]
    harness.send(qtbot, "Q3")
    harness.finish(conversation_id)
    assert sent(provider) == ["Q1", "A1", "Q2", "A2 by the other model", "Q3"]


def test_copy_as_markdown_and_as_text(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    provider.scripts = [reply("Some **bold** words"), reply("Title")]
    conversation_id = harness.send(qtbot, "Q")
    harness.finish(conversation_id)
    answer = harness.saved(conversation_id, ModelOutput)[0].seq
    click(harness, f"copy-markdown:{answer}")
    assert QGuiApplication.clipboard().text() == "Some **bold** words"
    click(harness, f"copy-text:{answer}")
    assert QGuiApplication.clipboard().text().strip() == "Some bold words"


def test_remove_from_context_and_put_back(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    q1 = harness.saved(conversation_id, ModelInput)[0].seq
    click(harness, f"exclude:{q1}")
    harness.until(lambda: "(removed from context)" in harness.chat_text(), "the mark")
    assert "Q1" in harness.chat_text()  # still shown: the text stays in the history
    provider.scripts = [reply("A3")]
    harness.send(qtbot, "Q3")
    harness.finish(conversation_id)
    assert sent(provider) == ["Q2", "A2", "Q3"]  # Q1 and its reply are not sent
    click(harness, f"include:{q1}")
    harness.until(lambda: "(removed from context)" not in harness.chat_text(), "put back")
    provider.scripts = [reply("A4")]
    harness.send(qtbot, "Q4")
    harness.finish(conversation_id)
    assert sent(provider)[:2] == ["Q1", "A1"]


def test_fork_from_a_message_opens_a_conversation_up_to_it(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    a1 = harness.saved(conversation_id, ModelOutput)[0].seq
    click(harness, f"fork:{a1}")
    harness.until(lambda: harness.window.current != conversation_id, "the fork to open")
    text = harness.chat_text()
    assert "A1" in text and "Q2" not in text


def test_compare_streams_replies_side_by_side_and_one_is_chosen(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    composer = harness.window.composer
    composer._compare_actions["scripted:other"].setChecked(True)
    assert composer.compared_models() == ["scripted:echo", "scripted:other"]
    provider.scripts = [reply("from echo"), reply("from other")]
    harness.send(qtbot, "Q3")
    strip = harness.window.compare_strip
    assert strip.isVisible() and list(strip.panes) == ["scripted:echo", "scripted:other"]
    harness.finish(conversation_id)
    harness.until(lambda: all(p.seq for p in strip.panes.values()), "both replies saved")
    texts = {spec: pane.text.toPlainText() for spec, pane in strip.panes.items()}
    assert sorted(texts.values()) == ["from echo", "from other"]
    assert all("in /" in pane.facts.text() for pane in strip.panes.values())  # tokens, cost
    requests = provider.requests[-2:]
    assert [[getattr(e, "text", "") for e in r.context.entries][-1] for r in requests] == [
        "Q3",
        "Q3",
    ]
    chosen = strip.panes["scripted:echo"]
    chosen_seq = chosen.seq
    chosen.use.click()
    assert not strip.isVisible()
    harness.until(lambda: history(harness, conversation_id).active_leaf == chosen_seq, "switch")
    assert texts["scripted:echo"] in harness.chat_text()
    provider.scripts = [reply("A4")]
    harness.send(qtbot, "Q4")
    harness.finish(conversation_id)
    assert sent(provider)[-3:] == ["Q3", texts["scripted:echo"], "Q4"]


def test_a_search_hit_on_another_branch_opens_that_branch(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    conversation_id = two_turns(qtbot, harness, provider)
    q2 = next(e.seq for e in harness.saved(conversation_id, ModelInput) if e.text == "Q2")
    provider.scripts = [reply("zanzibar is the answer")]
    harness.window.branch_actions.send_edit(q2, "Q2 reworded")
    harness.finish(conversation_id)
    click(harness, f"sibling:{q2}")  # back to the first branch: the hit is elsewhere now
    harness.until(lambda: "zanzibar" not in harness.chat_text(), "the first branch")
    window = harness.window
    window.new_chat()
    assert harness.listed_ids() == [conversation_id]  # one row for all its branches
    qtbot.keyClicks(window.conversations.search, "zanzibar")
    model = window.conversations.model
    # the conversation's row, then its matching message's
    harness.until(lambda: model.rowCount() == 2 and model.index(0).data(HIT_ROLE), "the hit")
    window.conversations.view.setCurrentIndex(window.conversations.model.index(0))
    harness.until(lambda: "zanzibar is the answer" in harness.chat_text(), "its branch")
    hit = harness.saved(conversation_id, ModelOutput)[-1].seq
    assert history(harness, conversation_id).active_leaf == hit


def test_a_reply_cut_at_its_length_limit_can_be_continued(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    provider.scripts = [[TextDelta("The first half"), Finished("length")], reply("Title")]
    conversation_id = harness.send(qtbot, "Tell a long story")
    harness.finish(conversation_id)
    cut = harness.saved(conversation_id, ModelOutput)[0]
    text = harness.chat_text()
    assert "(cut off at its length limit)" in text and "Continue" in text  # marked, offered
    provider.scripts = [reply(" and the second half.")]
    click(harness, f"continue:{cut.seq}")
    harness.finish(conversation_id)
    carried = sent(provider)
    assert carried == ["Tell a long story", "The first half", CONTINUE_PROMPT]
    history_ = history(harness, conversation_id)
    rest = harness.saved(conversation_id, ModelOutput)[-1]
    assert history_.parent_of(rest.seq) == cut.seq  # the history keeps both parts
    text = harness.chat_text()
    assert "The first half" in text and "and the second half." in text
    assert "(cut off at its length limit)" not in text  # one reply now, its row at the end
    click(harness, f"copy-markdown:{rest.seq}")
    assert QGuiApplication.clipboard().text() == "The first half and the second half."
    provider.scripts = [reply("The end.")]
    harness.send(qtbot, "And then?")
    harness.finish(conversation_id)
    assert sent(provider) == [
        "Tell a long story",
        "The first half and the second half.",  # both parts, as one reply
        "And then?",
    ]


def test_this_chat_sets_temperature_length_and_thinking_and_they_stay_with_it(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    window = harness.window
    composer = window.composer
    composer.chat_button.click()
    dialog = composer.findChild(ChatSettingsDialog)
    assert dialog is not None
    dialog.own_temperature.setChecked(True)
    dialog.temperature.setValue(0.3)
    dialog.max_tokens.setValue(500)
    dialog.thinking.setCurrentIndex(dialog.thinking.findData("high"))
    dialog.accept()
    assert composer.chat_button.text() == "This chat (3)…"
    provider.scripts = [reply("A1"), reply("Title")]
    conversation_id = harness.send(qtbot, "Q1")
    harness.finish(conversation_id)
    request = provider.requests[0]
    assert (request.temperature, request.max_tokens, request.reasoning) == (0.3, 500, "high")
    window.new_chat()
    assert composer.chat_button.text() == "This chat…"  # a new chat: the settings' defaults
    window.show_conversation(conversation_id)
    assert composer.tuning() == {"temperature": 0.3, "max_tokens": 500, "reasoning": "high"}
    provider.scripts = [reply("A2")]
    harness.send(qtbot, "Q2")
    harness.finish(conversation_id)
    assert provider.requests[-1].temperature == 0.3  # remembered with the chat


def test_a_message_over_the_window_asks_first_and_can_go_trimmed(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    harness = open_window()
    window = harness.window
    huge = " ".join(f"word{n}" for n in range(140_000))  # over the 128k tokens of an unknown cloud
    window.composer.set_draft(huge)
    window.composer.send_button.click()
    box = window.fit_prompt.box
    assert box is not None and box.isVisible() and provider.requests == []
    assert "over the 128,000 tokens scripted:echo can take" in box.text()
    assert window.current is None  # nothing written: not even a conversation
    provider.scripts = [reply("ok"), reply("Title")]
    send = next(b for b in box.buttons() if b.text() == "Send it trimmed")
    send.click()
    conversation_id = window.current
    assert conversation_id is not None
    harness.finish(conversation_id)
    carried = provider.requests[0].context.entries[-1].text  # type: ignore[union-attr]
    assert carried.startswith("word0 word1") and "trimmed here to fit" in carried
    assert window.composer.draft() == ""
