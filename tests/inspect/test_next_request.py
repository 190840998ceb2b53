"""The next-request preview without keys or network: every provider kind renders, the draft is
counted and shown but never stored, replay notes and redaction, unknown models, compression."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from app.composition import Services, build_models
from app.context import count_entry
from app.errors import AuthFailed
from app.history import (
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    ToolCall,
    ToolResult,
    ToolResults,
)
from app.inspect.next_request import (
    NextRequest,
    next_request,
    prepare,
    provider_count,
    wire_json,
)
from app.inspect.redact import REDACTED
from app.keys import Keys
from app.notes import CallIds, Counting, Covered, ReasoningDropped, english
from app.paths import DataDir
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library

ANTHROPIC = "anthropic:claude-sonnet-4-6"
CHAT = "openai:gpt-4.1"
RESPONSES = "responses:gpt-5"
GEMINI = "gemini:gemini-2.5-flash"
SERVER = "ollama:llama3.2"
LOCAL = "local:smollm2"
EVERY_KIND = (ANTHROPIC, CHAT, RESPONSES, GEMINI, SERVER, LOCAL)
KIMI_ID = "functions.current_time:0"
PASTED = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
REPO = Path(__file__).resolve().parents[2]


def settings(**more: Any) -> Settings:
    return Settings(
        providers={
            "responses": ProviderConfig(kind="openai-responses", models=["gpt-5"]),
            "ollama": ProviderConfig(
                kind="openai-compatible", base_url="http://127.0.0.1:9/v1", models=["llama3.2"]
            ),
        },
        **more,
    )


def keyless(data: DataDir, library: Library, **more: Any) -> Services:
    """No key anywhere: the environment is empty and the keyring fails (conftest)."""
    chosen = settings(**more)
    keys = Keys({})
    return Services(data, chosen, keys, library, build_models(chosen, keys, {}), environ={})


def crossed(library: Library) -> Conversation:
    """Anthropic thought and called a tool under an id an OpenAI-compatible server made."""
    conversation = library.create()
    thinking = Reasoning(provider="anthropic", model="claude-sonnet-4-6", text="Hm.",
                         signature="sig-A")  # fmt: skip
    call = ToolCall(id=KIMI_ID, name="current_time", arguments="{}")
    for entry in (
        SystemInstruction(text="Be brief."),
        MemoryNotebook(content="The user likes tea."),
        ModelInput(text="What time is it?", meta={"tools": ["current_time"]}),
        ModelOutput(
            provider="anthropic",
            model="claude-sonnet-4-6",
            reasoning=[thinking],
            tool_calls=[call],
            finish_reason="tool_calls",
        ),
        ToolResults(results=[ToolResult(call_id=KIMI_ID, name="current_time", content="noon")]),
        ModelOutput(provider="anthropic", model="claude-sonnet-4-6", text="It is noon."),
    ):
        library.append(conversation, entry)
    return conversation


def text_of(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


def test_every_provider_kind_renders_with_no_key(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    version = conversation.history.version
    for spec in EVERY_KIND:
        preview = next_request(services, conversation, spec, draft="and in Tokyo?")
        assert preview.body_error is None, spec
        assert preview.body is not None and "and in Tokyo?" in text_of(preview.body), spec
        assert "It is noon." in text_of(preview.body)
        assert (preview.provider, preview.model) == tuple(spec.split(":"))
        assert preview.window > 0 and preview.budget is not None and preview.tokens
    assert conversation.history.version == version  # the draft was never appended
    with pytest.raises(Exception, match="OPENAI_API_KEY"):
        services.models.resolve(CHAT)  # a turn would still need the key


def test_the_providers_own_count_needs_the_key_and_says_where_to_set_it(
    data_dir: DataDir, library: Library
) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    with pytest.raises(AuthFailed, match="crosstalk key set anthropic"):
        asyncio.run(provider_count(services, conversation, ANTHROPIC, draft="Next?"))
    local = asyncio.run(provider_count(services, conversation, LOCAL, draft="Next?"))
    assert local is None  # no counting endpoint: the estimate is all there is


def test_the_draft_counts_and_is_counted_afresh_each_time(
    data_dir: DataDir, library: Library
) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    bare = next_request(services, conversation, CHAT)
    assert [part.kind for part in bare.carried] == [
        "system_instruction", "memory_notebook",
        "model_input", "model_output", "tool_results", "model_output",
    ]  # fmt: skip
    assert bare.body is not None and bare.body["messages"][-1]["content"] == "It is noon."
    assert bare.tokens == sum(part.tokens for part in bare.carried)
    for draft in ("short", "a much longer draft, " * 20):
        preview = next_request(services, conversation, CHAT, draft=draft)
        last = preview.carried[-1]
        expected = count_entry(ModelInput(text=draft), "o200k_base")
        assert (last.seq, last.kind, last.text, last.tokens) == (None, "draft", draft, expected)
        assert preview.tokens == bare.tokens + expected  # nothing else changed
        assert preview.body is not None
        assert preview.body["messages"][-1] == {"role": "user", "content": draft}
    assert not bare.estimate and bare.counting == Counting(cause="exact", encoding="o200k_base")
    assert english(bare.counting) == "exact (OpenAI's own tokenizer, o200k_base)"
    gemini = next_request(services, conversation, GEMINI, draft="short")
    assert gemini.estimate
    assert gemini.counting == Counting(cause="estimated", encoding="o200k_base", who="Gemini")
    anthropic = next_request(services, conversation, ANTHROPIC)
    assert english(anthropic.counting) == "estimated with o200k_base (Anthropic counts differently)"
    server = next_request(services, conversation, SERVER)
    assert server.counting == Counting(cause="estimated", encoding="o200k_base", who=SERVER)


def test_what_is_not_stored_yet_is_never_cached(data_dir: DataDir, library: Library) -> None:
    """A changed system instruction takes the seq the turn's next entry will have: counted
    afresh each time, so the entry really appended there is counted as itself."""
    services = keyless(data_dir, library)
    conversation = crossed(library)
    next_request(services, conversation, CHAT)
    cached = len(services.contexts.counter)
    changed = next_request(services, conversation, CHAT, draft="q", system="Be verbose " * 30)
    assert changed.carried[0].tokens == count_entry(SystemInstruction(text="Be verbose " * 30))
    assert len(services.contexts.counter) == cached
    library.append(conversation, ModelInput(text="hi"))  # the seq the system would have had
    after = next_request(services, conversation, CHAT)
    assert after.carried[-1].tokens == count_entry(ModelInput(text="hi"))


def test_a_new_chat_shows_its_first_request(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    for spec in EVERY_KIND:
        empty = next_request(services, None, spec)
        assert empty.carried == () and empty.tokens == 0 and empty.body is not None, spec
        assert empty.body_error is None and empty.budget is not None and empty.window > 0
    first = next_request(services, None, ANTHROPIC, draft="Plan a trip", system="Be brief.")
    assert [(p.seq, p.kind, p.text) for p in first.carried] == [
        (1, "system_instruction", "Be brief."),
        (None, "draft", "Plan a trip"),
    ]
    assert first.tokens == count_entry(SystemInstruction(text="Be brief.")) + count_entry(
        ModelInput(text="Plan a trip")
    )
    assert first.body is not None and first.body["system"] == "Be brief."
    assert first.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Plan a trip"}]}
    ]
    tools = next_request(services, None, CHAT, draft="q", tools=["current_time"])
    assert tools.tool_tokens > 0 and tools.body is not None and "tools" in tools.body
    assert library.newest() == [] and not any(data_dir.conversations.iterdir())  # none saved
    eager = keyless(data_dir, library, auto_compress=True, context_windows={CHAT: 300})
    assert next_request(eager, None, CHAT, draft="word " * 400).would_compress  # the defaults


def test_without_rendering_the_counts_are_the_same(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    for spec in (CHAT, GEMINI):
        full = next_request(services, conversation, spec, draft="q")
        counted = next_request(services, conversation, spec, draft="q", render=False)
        assert (counted.body, counted.body_error, counted.notes) == (None, None, ())
        assert dataclasses.replace(counted, body=full.body, notes=full.notes) == full


def test_tools_and_system_as_the_turn_would_be_given_them(
    data_dir: DataDir, library: Library
) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    remembered = next_request(services, conversation, CHAT, draft="q")
    assert remembered.body is not None
    assert [t["function"]["name"] for t in remembered.body["tools"]] == ["current_time"]
    assert remembered.tool_tokens > 0
    none = next_request(services, conversation, CHAT, draft="q", tools=[])
    assert none.body is not None and "tools" not in none.body and none.tool_tokens == 0
    assert none.budget is not None and remembered.budget is not None
    assert none.budget - remembered.budget == remembered.tool_tokens  # reserved for tools
    changed = next_request(services, conversation, ANTHROPIC, draft="q", system="Be verbose.")
    assert (
        changed.body is not None and changed.body["system"] == "Be verbose.\n\nThe user likes tea."
    )
    assert changed.carried[0].kind == "system_instruction" and changed.carried[-1].kind == "draft"


def test_notes_say_what_replaying_to_another_provider_changes(
    data_dir: DataDir, library: Library
) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    seq = next(e.seq for e in conversation.history if isinstance(e, ModelOutput) and e.tool_calls)
    chat = next_request(services, conversation, CHAT, draft="q")
    assert any(
        isinstance(n, ReasoningDropped) and n.seq == seq and ANTHROPIC in n.reasons[0].makers
        for n in chat.notes
    )
    assert any(isinstance(n, CallIds) and n.seq == seq for n in chat.notes)
    assert chat.body is not None and KIMI_ID not in text_of(chat.body)
    anthropic = next_request(services, conversation, ANTHROPIC, draft="q")
    assert tuple(english(note) for note in anthropic.notes) == (
        f"tool call id rewritten (seq {seq}): {KIMI_ID!r} -> 'functions_current_time_0'",
    )
    assert anthropic.body is not None and "sig-A" in text_of(anthropic.body)  # its own, kept
    gemini = next_request(services, conversation, GEMINI, draft="q")
    assert any(isinstance(n, ReasoningDropped) and n.seq == seq for n in gemini.notes)
    assert gemini.body is not None and "sig-A" not in text_of(gemini.body)


def test_a_key_pasted_into_a_message_never_shows(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    library.append(conversation, ModelInput(text=f"my key is {PASTED}"))
    for spec in EVERY_KIND:
        preview = next_request(services, conversation, spec, draft=f"again: {PASTED}")
        assert preview.body is not None
        shown = wire_json(preview.body) + repr(preview.carried) + repr(preview.notes)
        assert PASTED not in shown, spec
        assert wire_json(preview.body).count(REDACTED) == 2
        assert preview.carried[-1].text == f"again: {REDACTED}"
    counted = next_request(services, conversation, CHAT, draft=f"again: {PASTED}")
    assert counted.carried[-1].tokens == count_entry(ModelInput(text=f"again: {PASTED}"))


def test_an_unknown_model_says_what_models_exist(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    for spec in ("nope:x", "openai:", "local:other"):
        preview = next_request(services, conversation, spec, draft="q")
        assert preview.body is None and preview.notes == ()
        assert preview.body_error is not None and "available:" in preview.body_error
        assert CHAT in preview.body_error and RESPONSES in preview.body_error
        assert preview.carried[-1].kind == "draft"  # what would be carried is still shown


def test_would_compress_and_what_is_left_out(data_dir: DataDir, library: Library) -> None:
    small = {"context_windows": {CHAT: 400}, "reply_tokens": 100}
    conversation = crossed(library)
    for n in range(6):
        library.append(conversation, ModelInput(text=f"question {n} " + "word " * 40))
        library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1",
                                                 text=f"answer {n} " + "word " * 40))  # fmt: skip
    off = next_request(keyless(data_dir, library, **small), conversation, CHAT, draft="q")
    assert off.window == 400 and not off.would_compress
    assert any(o.reason.startswith("budget") for o in off.omitted)
    on = next_request(
        keyless(data_dir, library, auto_compress=True, **small), conversation, CHAT, draft="q"
    )
    assert on.would_compress
    roomy = keyless(data_dir, library, auto_compress=True)
    assert not next_request(roomy, conversation, CHAT, draft="q").would_compress


def test_a_standing_compression_is_carried_as_its_summary(
    data_dir: DataDir, library: Library
) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)
    library.append(conversation, ModelInput(text="Later question"))
    library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text="Later."))
    compression = Compression(covers=(4, 6), summary="Anthropic said noon.", strategy="whole",
                              provider="openai", model="gpt-4.1")  # fmt: skip
    library.append(conversation, compression)
    preview = next_request(services, conversation, CHAT, draft="q")
    summary = next(part for part in preview.carried if part.kind == "summary")
    assert summary.covers == (4, 6) and summary.text == "Anthropic said noon."
    assert summary.seq == conversation.history.version
    assert any(isinstance(o.why, Covered) for o in preview.omitted)
    assert preview.body is not None and "Anthropic said noon." in text_of(preview.body)
    assert not any(isinstance(n, ReasoningDropped) for n in preview.notes)  # covered


def test_wire_json_keeps_the_order_sent() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "café"}], "stream": True}
    text = wire_json(body)
    assert json.loads(text) == body and list(json.loads(text)) == ["model", "messages", "stream"]
    assert "café" in text and '\n  "messages": [' in text


def test_prepare_imports_what_rendering_needs_and_local_never_loads_its_model(
    tmp_path: Path,
) -> None:
    """In a fresh interpreter: the Anthropic SDK comes in by ``prepare``, off the event loop;
    the built-in model's library never does."""
    script = textwrap.dedent(
        """
        import asyncio, json, sys, threading
        from app.composition import build
        from app.history import ModelInput
        from app.inspect.next_request import next_request, prepare

        services = build(environ={})
        conversation = services.library.create()
        services.library.append(conversation, ModelInput(text="hello"))
        before = "anthropic" in sys.modules
        threads = []
        real = asyncio.to_thread
        async def spy(func, *args):
            threads.append(func.__name__)
            return await real(func, *args)
        asyncio.to_thread = spy
        asyncio.run(prepare(services, "anthropic:claude-sonnet-4-6"))
        asyncio.run(prepare(services, "local:smollm2"))
        asyncio.run(prepare(services, "nope:x"))
        local = next_request(services, conversation, "local:smollm2", draft="hi")
        print(json.dumps({"before": before, "after": "anthropic" in sys.modules,
                          "threads": threads, "llama": "llama_cpp" in sys.modules,
                          "messages": local.body["messages"]}))
        services.close()
        """
    )
    env = {"CROSSTALK_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}  # fmt: skip
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO, env=env, timeout=120, check=True)  # fmt: skip
    seen = json.loads(result.stdout)
    assert seen["before"] is False and seen["after"] is True
    assert seen["threads"] == ["_warm", "_warm"] and not seen["llama"]  # not for "nope:x"
    assert seen["messages"] == [
        {"role": "user", "content": "hello"},
        {"role": "user", "content": "hi"},
    ]


def test_prepare_then_preview_in_a_running_loop(data_dir: DataDir, library: Library) -> None:
    services = keyless(data_dir, library)
    conversation = crossed(library)

    async def go() -> NextRequest:
        await prepare(services, GEMINI)
        return next_request(services, conversation, GEMINI, draft="q")

    preview = asyncio.run(go())
    assert preview.body is not None and preview.body["contents"][-1]["parts"] == [{"text": "q"}]


def test_a_projects_instructions_are_a_part_of_their_own_before_the_conversations(
    data_dir: DataDir, library: Library
) -> None:
    from app.store.projects import Projects

    services = keyless(data_dir, library)
    conversation = crossed(library)
    projects = Projects(library)
    project = projects.create("Thesis", instructions="Cite your sources.")
    projects.move([conversation.id], project.id)
    preview = next_request(services, conversation, CHAT)
    first = preview.carried[0]
    assert (first.seq, first.kind, first.text) == (None, "project", "Cite your sources.")
    assert first.tokens == count_entry(SystemInstruction(text="Cite your sources."), "o200k_base")
    assert preview.tokens == sum(part.tokens for part in preview.carried)
    assert preview.body is not None
    system = preview.body["messages"][0]
    assert system["role"] in ("system", "developer")
    assert str(system["content"]).startswith("Cite your sources.\n\n")
