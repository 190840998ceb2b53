"""Other apps' exports, from fixtures written after their documented structure."""

from __future__ import annotations

import base64
import shutil
import zipfile
from pathlib import Path

import msgspec
import pytest

from app.history import (
    AnyEntry,
    History,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    ToolResults,
    render_context,
)
from app.notes import ImportSkipped
from app.store import Library
from app.transfer import import_paths
from tests.helpers.llm_logs import FORK, LEGACY, PNG, SINGLE, THREAD, make_logs_db
from tests.transfer.conftest import FIXTURES

CHATGPT = FIXTURES / "chatgpt" / "conversations.json"
CLAUDE = FIXTURES / "claude" / "conversations.json"
OPENWEBUI = FIXTURES / "openwebui" / "chat-export.json"

# the conversations each export holds (ChatGPT's third, "New chat", has no messages: skipped)
TITLES = {
    "chatgpt": ["Three days in Rome", "Quick question"],
    "claude": ["Schema review", "Translate 'good morning' into Italian"],
    "openwebui": ["🌙 Moon photo tips", "Old chat"],
    "llm": ["Name a colour", "Weather in Paris", "Sky or sea", "Sky or sea (fork)"],
}


def export_of(kind: str, tmp_path: Path) -> Path:
    path = {"chatgpt": CHATGPT, "claude": CLAUDE, "openwebui": OPENWEBUI}.get(kind)
    return path or make_logs_db(tmp_path / "logs.db")


def imported(library: Library, path: Path, **options: str) -> dict[str, list[AnyEntry]]:
    """Titles of the imported conversations -> the entries of their active branch."""
    report = import_paths(library, [path], **options)  # type: ignore[arg-type]
    assert not report.failed, report.failed
    return {
        title: [e for e in library.open(cid).history.active_entries() if e.kind != "select"]
        for cid, title, _ in report.imported
    }


def tree(library: Library, title: str) -> History:
    row = next(r for r in library.newest(100) if r["title"] == title)
    return library.open(row["id"]).history


def branch(history: History) -> list[AnyEntry]:
    """The path to the one leaf that is not active."""
    [leaf] = [leaf for leaf in history.leaves() if leaf != history.active_leaf]
    return [history.at(seq) for seq in history.path_to(leaf)]


def bare(entry: AnyEntry) -> AnyEntry:
    return msgspec.structs.replace(entry, id="", parent=None)


def kinds(entries: list[AnyEntry]) -> list[str]:
    return [e.kind for e in entries]


def forked_from(library: Library, title: str) -> tuple[str, int]:
    row = next(r for r in library.newest(100) if r["title"] == title)
    fork = library.open(row["id"]).header.forked_from
    assert fork is not None
    return fork.id, fork.seq


# --- ChatGPT -------------------------------------------------------------------------------


def test_chatgpt_current_branch_tools_images_and_odd_content(library: Library) -> None:
    conversations = imported(library, CHATGPT)
    rome = conversations["Three days in Rome"]
    assert kinds(rome) == [
        "system_instruction",  # custom instructions
        "model_input",
        "model_output",  # thoughts + recap + answer, one output
        "model_input",
        "model_output",  # a call to the browser
        "tool_results",
        "model_output",
        "model_input",  # a voice message
        "model_output",  # a call to DALL-E
        "tool_results",
        "memory_notebook",  # ChatGPT's memory
        "model_output",
        "title",
    ]
    system, question, answer = rome[0], rome[1], rome[2]
    assert isinstance(system, SystemInstruction) and "I live in Lyon" in system.text
    assert isinstance(question, ModelInput) and question.text.startswith("Plan three days")
    [photo] = question.attachments
    assert photo.mime_type == "image/png" and base64.b64decode(photo.data).startswith(b"\x89PNG")
    assert isinstance(answer, ModelOutput)
    assert (answer.provider, answer.model, answer.finish_reason) == ("chatgpt", "o3", "stop")
    assert answer.reasoning[0].text == "Reading the photo\n\nIt shows the Colosseum."
    assert answer.meta["reasoning_recap"] == "Thought for 4 seconds"
    call, results = rome[4], rome[5]
    assert isinstance(call, ModelOutput) and isinstance(results, ToolResults)
    assert [(c.name, c.arguments) for c in call.tool_calls] == [
        ("browser", 'search("Rome weather this week")')
    ]
    assert results.results[0].call_id == call.tool_calls[0].id
    assert "Sunny, 24°C" in results.results[0].content
    voice = rome[7]
    assert isinstance(voice, ModelInput) and voice.text.startswith("Draw me the Colosseum")
    assert [p["type"] for p in voice.meta["placeholders"]] == ["audio", "future_part_type"]
    assert "[audio not included in the export: sediment://file_00000000voice]" in voice.text
    image = rome[9]
    assert (
        isinstance(image, ToolResults)
        and "file-service://file-NightShot" in image.results[0].content
    )
    assert image.meta["placeholders"][0]["type"] == "image"
    notebook = rome[10]
    assert isinstance(notebook, MemoryNotebook) and "night photos" in notebook.content
    assert rome[-1].meta["import"]["conversation"] == "6740e2a0-1111-8000-9000-00000000rome"
    assert rome[0].ts == "2024-11-21T09:06:40.200Z"


def test_chatgpt_other_branches_are_branches_of_one_conversation(library: Library) -> None:
    conversations = imported(library, CHATGPT)
    assert "Three days in Rome (branch 2)" not in conversations  # no extra conversation
    history = tree(library, "Three days in Rome")
    other = branch(history)
    assert kinds(other) == ["model_input", "model_output"]  # the system instruction is shared
    old = other[1]
    assert isinstance(old, ModelOutput) and old.model == "gpt-4o" and old.text.startswith("Day 1:")
    # the regenerated answer and the current one answer the same question
    current = conversations["Three days in Rome"][2]
    assert history.siblings(old.seq) == sorted([old.seq, current.seq])
    assert history.active_path()[0] == other[0].seq


def test_chatgpt_empty_conversations_are_reported_not_made(library: Library) -> None:
    report = import_paths(library, [CHATGPT])
    no_messages = ImportSkipped(cause="no_messages")
    assert report.skipped == [('conversations.json [2] "New chat"', no_messages)]


def test_chatgpt_export_zip_with_images_inside(library: Library, tmp_path: Path) -> None:
    archive = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(CHATGPT, "conversations.json")
        zf.write(
            CHATGPT.with_name("file-Rome1xPhoto-colosseum.png"), "file-Rome1xPhoto-colosseum.png"
        )
        zf.writestr("user.json", "{}")
    conversations = imported(library, archive)
    question = conversations["Three days in Rome"][1]
    assert isinstance(question, ModelInput) and len(question.attachments) == 1


def test_chatgpt_without_the_image_files_keeps_a_placeholder(
    library: Library, tmp_path: Path
) -> None:
    shutil.copy(CHATGPT, tmp_path / "conversations.json")
    question = imported(library, tmp_path / "conversations.json")["Three days in Rome"][1]
    assert isinstance(question, ModelInput) and question.attachments == []
    assert (
        "[image not included in the export: file-service://file-Rome1xPhoto (1x1)]" in question.text
    )


# --- Claude --------------------------------------------------------------------------------


def test_claude_thinking_tools_attachments_and_branches(library: Library) -> None:
    conversations = imported(library, CLAUDE)
    review = conversations["Schema review"]
    assert kinds(review) == [
        "model_input",
        "model_output",
        "tool_results",
        "model_output",
        "model_input",
        "title",
    ]
    question, call, results, rest = review[:4]
    assert isinstance(question, ModelInput)
    [schema] = question.attachments
    assert schema.name == "schema.sql" and base64.b64decode(schema.data).startswith(b"create table")
    assert "[file not included in the export: diagram.png]" in question.text
    assert isinstance(call, ModelOutput) and call.provider == "claude.ai"
    assert call.text == "Two remarks. First, let me check the docs."
    assert call.reasoning[0].text.startswith("The email column")
    assert call.tool_calls[0].name == "web_search"
    assert isinstance(results, ToolResults) and results.results[0].call_id == call.tool_calls[0].id
    assert isinstance(rest, ModelOutput) and rest.text.startswith(
        "Add UNIQUE to email.\n[Claude voice_note"
    )
    assert rest.meta["placeholders"][0]["type"] == "Claude voice_note"
    assert "Schema review (branch 2)" not in conversations
    other = branch(tree(library, "Schema review"))
    assert [e.text for e in other] == [question.text, "Looks fine."]  # type: ignore[attr-defined]


def test_claude_older_export_without_content_blocks(library: Library) -> None:
    conversations = imported(library, CLAUDE)
    untitled = conversations["Translate 'good morning' into Italian"]  # named after its question
    assert [e.text for e in untitled[:2]] == ["Translate 'good morning' into Italian", "Buongiorno"]  # type: ignore[attr-defined]


# --- Open WebUI ----------------------------------------------------------------------------


def test_openwebui_branches_models_images_reasoning_and_errors(library: Library) -> None:
    conversations = imported(library, OPENWEBUI)
    moon = conversations["🌙 Moon photo tips"]
    assert kinds(moon) == [
        "system_instruction",
        "model_input",
        "model_output",
        "model_input",
        "model_output",
        "debug_log",  # its tags (meta.tags): docs/projects.md
        "title",
    ]
    question = moon[1]
    assert isinstance(question, ModelInput) and question.attachments[0].name == "image 1.png"
    assert "[file not included in the export: manual.pdf /api/v1/files/9c0d1e2f]" in question.text
    answer, broken = moon[2], moon[4]
    assert isinstance(answer, ModelOutput) and answer.model == "llama3.2:latest"
    assert (answer.usage.input, answer.usage.output) == (31, 22)
    assert (
        isinstance(broken, ModelOutput)
        and broken.partial
        and broken.error == "Ollama: connection reset"
    )
    history = tree(library, "🌙 Moon photo tips")
    qwen = branch(history)[1]
    assert isinstance(qwen, ModelOutput) and qwen.model == "qwen3:8b"
    assert qwen.text == "Expose for the highlights: the moon is sunlit."
    assert qwen.reasoning[0].text == "> The moon is bright: expose for the highlights."
    assert history.siblings(qwen.seq) == sorted([qwen.seq, answer.seq])
    old = conversations["Old chat"]
    assert [e.text for e in old[:2]] == ["Hello", "Hi! How can I help?"]  # type: ignore[attr-defined]


# --- llm logs.db ---------------------------------------------------------------------------


def test_llm_legacy_responses(library: Library, tmp_path: Path) -> None:
    conversations = imported(library, make_logs_db(tmp_path / "logs.db", new=False))
    paris = conversations["Weather in Paris"]
    assert kinds(paris) == [
        "system_instruction",
        "model_input",
        "model_output",
        "system_instruction",
        "tool_results",
        "model_output",
        "title",
    ]
    system, question, call = paris[:3]
    assert (
        isinstance(system, SystemInstruction)
        and system.text == "You answer in French.\n\nBe brief."
    )
    assert isinstance(question, ModelInput)
    assert question.text.startswith("Context: a trip.\nWhat is the weather in Paris?")
    assert base64.b64decode(question.attachments[0].data) == PNG
    assert question.meta["placeholders"][0]["detail"] == "https://example.com/a.jpg"
    assert isinstance(call, ModelOutput) and call.model == "gpt-4o-mini-2024-07-18"
    assert (call.usage.input, call.usage.output, call.meta["latency_ms"]) == (40, 12, 812)
    assert call.tool_calls[0].id == "call_w1"
    answer = paris[5]
    assert isinstance(answer, ModelOutput) and answer.text == "Il fait 21 °C et beau."
    lone = conversations["Name a colour"]
    assert isinstance(lone[1], ModelOutput) and lone[1].reasoning[0].text == "They want one word."
    assert lone[-1].meta["import"]["conversation"] == SINGLE
    assert paris[-1].meta["import"]["conversation"] == LEGACY


def test_llm_threads_and_forks(library: Library, tmp_path: Path) -> None:
    conversations = imported(library, make_logs_db(tmp_path / "logs.db", legacy=False))
    sky = conversations["Sky or sea"]
    assert kinds(sky) == [
        "system_instruction",
        "model_input",
        "model_output",
        "tool_results",
        "model_output",
        "title",
    ]
    question, call, result, answer = sky[1:5]
    assert (
        isinstance(question, ModelInput) and base64.b64decode(question.attachments[0].data) == PNG
    )
    assert isinstance(call, ModelOutput) and call.reasoning[0].text == "I should look closer."
    assert call.tool_calls[0].arguments == '{"factor": 2}' and call.usage.input == 30
    assert isinstance(result, ToolResults) and result.results[0].call_id == "call_z1"
    assert isinstance(answer, ModelOutput) and answer.usage.output == 9
    assert answer.ts == "2025-06-01T12:00:03.000Z"
    fork = conversations["Sky or sea (fork)"]
    assert [bare(e) for e in sky[:3]] == [bare(e) for e in fork[:3]]  # ids are per conversation
    parent_id, seq = forked_from(library, "Sky or sea (fork)")
    assert (
        seq == 3
        and list(library.open(parent_id).history)[-1].meta["import"]["conversation"] == THREAD
    )
    told = fork[4]
    assert isinstance(told, ModelOutput) and told.meta["placeholders"][0]["type"] == "reasoning"
    assert fork[-1].meta["import"]["conversation"] == FORK


@pytest.mark.parametrize("kind", list(TITLES))
def test_imported_conversations_render_a_live_context(
    library: Library, tmp_path: Path, kind: str
) -> None:
    report = import_paths(library, [export_of(kind, tmp_path)])
    assert [title for _, title, _ in report.imported] == TITLES[kind]
    for cid, _, _ in report.imported:
        context = render_context(library.open(cid).history)
        assert context.entries  # something to send, whichever provider answers next


@pytest.mark.parametrize("kind", ["chatgpt", "claude", "openwebui"])
def test_every_title_entry_marks_the_import(library: Library, tmp_path: Path, kind: str) -> None:
    conversations = imported(library, export_of(kind, tmp_path))
    assert list(conversations) == TITLES[kind]
    for entries in conversations.values():
        assert isinstance(entries[-1], Title) and entries[-1].meta["import"]["key"]


@pytest.mark.parametrize("kind", ["chatgpt", "claude", "openwebui", "llm"])
def test_importing_an_export_again_changes_nothing(
    library: Library, tmp_path: Path, kind: str
) -> None:
    path = export_of(kind, tmp_path)
    first = import_paths(library, [path])
    assert [title for _, title, _ in first.imported] == TITLES[kind] and not first.failed
    before = sorted(p.name for p in library.data.conversations.iterdir())
    assert len([n for n in before if n.endswith(".jsonl")]) == len(TITLES[kind])
    again = import_paths(library, [path])
    assert again.imported == [] and not again.failed
    said = [why for _, why in again.skipped if why.cause != "no_messages"]
    assert said == [ImportSkipped(cause="already", id=cid) for cid, _, _ in first.imported]
    assert sorted(p.name for p in library.data.conversations.iterdir()) == before
