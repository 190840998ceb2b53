"""Crossing providers: one conversation crosses Anthropic, OpenAI and Gemini with tool calls and
reasoning, each request valid for its provider; it reloads from its transcript and replays validly
to each provider again; the CLI does the same, and a missing key fails before anything is written.

Real SDKs against one WireServer per provider on 127.0.0.1, through the real composition
(``build_models``, ``Keys``), the turn runner and its tool loop, and a real ``Library``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.composition import build_models
from app.context.service import FixedWindow
from app.history import (
    Context,
    History,
    ModelInput,
    ModelOutput,
    ToolResult,
    ToolResults,
    render_context,
)
from app.keys import Keys
from app.paths import DataDir
from app.providers import Models, Request
from app.providers.gemini_replay import STAND_IN_SIGNATURE
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library
from app.tools import specs
from app.turn import TurnRunner
from tests.helpers import anthropic_events as ae
from tests.helpers import gemini_events as ge
from tests.helpers import openai_events as oe
from tests.helpers.anthropic_events import Chunk
from tests.helpers.cross_provider import (
    Body,
    anthropic_thinking,
    check_anthropic,
    check_gemini,
    check_openai,
    check_request,
    current_turn,
    gemini_calls,
    is_stand_in,
)
from tests.helpers.turns import runner
from tests.helpers.wire_server import Reply, WireServer

REPO = Path(__file__).resolve().parent.parent
ANTHROPIC = "anthropic:claude-sonnet-4-6"
OPENAI = "openai:gpt-4.1"
GEMINI = "gemini:gemini-2.5-flash"
SECRETS = {
    "OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789",
    "GEMINI_API_KEY": "AIzaDummyGEMINIsecret0123456789abcdef",
}
TOOLS = ["current_time", "search_conversations", "update_notebook"]
SYSTEM = "You are a careful data engineer."
NOTEBOOK = "Plan: copy, verify, switch. Step 1 SQL written."

# Turn 1, Anthropic: signed thinking, redacted thinking, text, two parallel calls.
SIG_A = "EqQBCkYIBRgCIkB0aGlua2luZy1zaWduYXR1cmUtQQ=="
REDACTED = "RW5jcnlwdGVkIHJlZGFjdGVkIHRoaW5raW5n"
THINKING_A = {
    "type": "thinking",
    "thinking": "A plan needs the date and any earlier migration chats.",
    "signature": SIG_A,
}
REDACTED_BLOCK = {"type": "redacted_thinking", "data": REDACTED}
LOOKING = {"type": "text", "text": "Let me check two things first."}
CALL_TIME = {"type": "tool_use", "id": "toolu_01A", "name": "current_time", "input": {}}
CALL_SEARCH = {
    "type": "tool_use",
    "id": "toolu_01B",
    "name": "search_conversations",
    "input": {"query": "migration"},
}
PLAN = "1. Copy the tables. 2. Verify the counts. 3. Switch the readers."
# Turn 2, OpenAI: one call, under an id as OpenAI-compatible servers make them (Kimi, e.g.):
# fine for OpenAI's replay after rewriting, refused by Anthropic's id pattern as it stands.
OPENAI_CALL_ID = "functions.search_conversations:0"
SQL = "INSERT INTO accounts_new SELECT * FROM accounts;"
# Turn 3, Gemini: a thought, then a call with a signature (standard base64, '+' and '/').
SIG_G = base64.b64encode(b"\xfa\xfb gemini signature \xfe\xff").decode()
GEMINI_THOUGHT = ge.thought("Worth keeping the plan in the notebook.")
GEMINI_CALL = ge.call("update_notebook", {"content": NOTEBOOK}, signature=SIG_G)
REVIEW = "Looks right; add a rollback step."
# Turn 4, Anthropic again: signed thinking and one more call.
SIG_D = "EqQBCkYIBRgCIkB0aGlua2luZy1zaWduYXR1cmUtRA=="
THINKING_D = {"type": "thinking", "thinking": "Check the time once more.", "signature": SIG_D}
DONE = "All set: run step 1 tonight."


@dataclass
class Servers:
    anthropic: WireServer
    openai: WireServer
    gemini: WireServer

    def base_urls(self) -> dict[str, str]:
        return {
            "ANTHROPIC_BASE_URL": self.anthropic.url,
            "OPENAI_BASE_URL": f"{self.openai.url}/v1",
            "GOOGLE_GEMINI_BASE_URL": self.gemini.url,
        }

    def settings(self) -> Settings:
        """The default providers, pointed at the servers; titles from Anthropic."""
        return Settings(
            title_model=ANTHROPIC,
            providers={
                "anthropic": ProviderConfig(
                    kind="anthropic", base_url=self.anthropic.url, models=["claude-sonnet-4-6"]
                ),
                "openai": ProviderConfig(
                    kind="openai", base_url=f"{self.openai.url}/v1", models=["gpt-4.1"]
                ),
                "gemini": ProviderConfig(
                    kind="gemini", base_url=self.gemini.url, models=["gemini-2.5-flash"]
                ),
            },
        )


@pytest.fixture
def servers() -> Iterator[Servers]:
    with WireServer() as anthropic, WireServer() as openai, WireServer() as gemini:
        yield Servers(anthropic, openai, gemini)


def bodies(server: WireServer) -> list[Body]:
    return [request.json for request in server.requests]


def models_for(servers: Servers) -> Models:
    """The real composition: settings with base URLs, keys from an environment."""
    return build_models(servers.settings(), Keys(SECRETS), SECRETS)


def turn_runner(library: Library, models: Models, settings: Settings) -> TurnRunner:
    return runner(
        library,
        models,
        contexts=FixedWindow(settings.window_turns),
        title_model=settings.title_model,
        max_tool_rounds=settings.max_tool_rounds,
    )


def outputs(history: History, provider: str) -> list[ModelOutput]:
    return [e for e in history if isinstance(e, ModelOutput) and e.provider == provider]


def notes(output: ModelOutput) -> list[str]:
    return list(output.meta.get("replay_notes", []))


def has_note(output: ModelOutput, start: str) -> bool:
    return any(note.startswith(start) for note in notes(output))


def result_block(result: ToolResult) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": result.content,
        "is_error": result.is_error,
    }


def tool_results(history: History) -> list[ToolResults]:
    return [e for e in history if isinstance(e, ToolResults)]


def seq_of_call(history: History, call_id: str) -> int:
    return next(
        e.seq
        for e in history
        if isinstance(e, ModelOutput) and any(c.id == call_id for c in e.tool_calls)
    )


def crosstalk(
    env: dict[str, str], *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"crosstalk {args} exited {result.returncode}: {result.stderr}")
    return result


def gemini_reply(*parts: dict[str, Any]) -> Reply:
    *first, last = parts
    chunks: list[Chunk] = [ge.chunk(part) for part in first]
    chunks.append(ge.chunk(last, finish="STOP", usage=ge.usage(40, 8)))
    return Reply(chunks=chunks)


# --- the four scripted turns --------------------------------------------------------------------


def script_first_four_turns(servers: Servers) -> None:
    anthropic, openai, gemini = servers.anthropic, servers.openai, servers.gemini
    anthropic.enqueue(
        Reply(
            chunks=ae.reply(
                ae.thinking(
                    0, "A plan needs the date ", "and any earlier migration chats.", signature=SIG_A
                ),
                ae.redacted(1, REDACTED),
                ae.text(2, "Let me check ", "two things first."),
                ae.tool_use(3, "toolu_01A", "current_time", {}),
                ae.tool_use(4, "toolu_01B", "search_conversations", {"query": "migration"}),
                stop_reason="tool_use",
            )
        )
    )
    anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, PLAN[:20], PLAN[20:]))))
    anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Data migration plan"))))  # the title
    openai.enqueue(
        Reply(
            chunks=[
                oe.chunk({"role": "assistant", "content": None}),
                oe.tool_call(0, OPENAI_CALL_ID, "search_conversations"),
                oe.tool_call(0, arguments='{"query": '),
                oe.tool_call(0, arguments='"accounts"}'),
                oe.chunk(finish="tool_calls"),
                oe.usage_chunk(),
                oe.DONE,
            ]
        )
    )
    openai.enqueue(Reply(chunks=oe.chat_reply(SQL[:12], SQL[12:])))
    gemini.enqueue(gemini_reply(GEMINI_THOUGHT, GEMINI_CALL))
    gemini.enqueue(gemini_reply(ge.text(REVIEW[:12]), ge.text(REVIEW[12:])))
    anthropic.enqueue(
        Reply(
            chunks=ae.reply(
                ae.thinking(0, THINKING_D["thinking"], signature=SIG_D),
                ae.tool_use(1, "toolu_04A", "current_time", {}),
                stop_reason="tool_use",
            )
        )
    )
    anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, DONE))))


async def first_four_turns(library: Library, conversation: Conversation, models: Models) -> None:
    turns = turn_runner(library, models, Settings(title_model=ANTHROPIC))
    try:
        await turns.run(
            conversation, ANTHROPIC, "Plan a 3-step data migration", system=SYSTEM, tools=TOOLS
        )
        await turns.run(conversation, OPENAI, "Now write step 1 as SQL")
        await turns.run(conversation, GEMINI, "Review it")
        await turns.run(conversation, ANTHROPIC, "Ready to go?")
    finally:
        await models.aclose()


def check_turn_1(sent: list[Body], history: History) -> None:
    """Anthropic: thinking and both calls replayed verbatim, both results in ONE user message."""
    first, second = sent
    check_anthropic(first)
    check_anthropic(second)
    assert first["system"] == SYSTEM
    assert [tool["name"] for tool in first["tools"]] == TOOLS
    assert second["messages"][1:] == [
        {
            "role": "assistant",
            "content": [THINKING_A, REDACTED_BLOCK, LOOKING, CALL_TIME, CALL_SEARCH],
        },
        {"role": "user", "content": [result_block(r) for r in tool_results(history)[0].results]},
    ]
    results = second["messages"][2]["content"]
    assert [block["tool_use_id"] for block in results] == ["toolu_01A", "toolu_01B"]
    asked, answer = outputs(history, "anthropic")[:2]
    assert [call.id for call in asked.tool_calls] == ["toolu_01A", "toolu_01B"]
    assert answer.text == PLAN and history.title == "Data migration plan"


def check_turn_2(sent: list[Body], history: History) -> None:
    """OpenAI: one tool message per call right after its assistant message; thinking dropped,
    and the drop recorded in the stored output."""
    first, second = sent
    check_openai(first)
    check_openai(second)
    roles = [m["role"] for m in first["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "assistant", "user"]
    replayed = first["messages"][2]
    assert replayed["content"] == LOOKING["text"]
    assert [c["id"] for c in replayed["tool_calls"]] == ["toolu_01A", "toolu_01B"]
    assert [m["tool_call_id"] for m in first["messages"][3:5]] == ["toolu_01A", "toolu_01B"]
    own_call, own_result = second["messages"][-2:]
    (wire_call,) = own_call["tool_calls"]
    assert wire_call["id"] != OPENAI_CALL_ID and own_result["tool_call_id"] == wire_call["id"]
    assert json.loads(wire_call["function"]["arguments"]) == {"query": "accounts"}
    for body in sent:
        assert SIG_A not in json.dumps(body) and REDACTED not in json.dumps(body)
    thinker = outputs(history, "anthropic")[0]
    for output in outputs(history, "openai"):
        assert has_note(output, f"reasoning dropped (seq {thinker.seq}): made by {ANTHROPIC}")
    assert outputs(history, "openai")[-1].text == SQL


def check_turn_3(sent: list[Body], history: History) -> None:
    """Gemini: user/model roles, responses paired in order; foreign calls with no signature of
    their own provider; its own signed call replayed verbatim."""
    first, second = sent
    check_gemini(first)
    check_gemini(second)
    roles = [c["role"] for c in first["contents"]]
    assert roles == ["user", "model", "user", "model", "user", "model", "user", "model", "user"]
    foreign = gemini_calls(first)
    assert [p["functionCall"]["name"] for p in foreign] == [
        "current_time",
        "search_conversations",
        "search_conversations",
    ]
    # turns 1-2 are past turns: Gemini validates signatures of the current turn only, so a
    # foreign call there may go without one, and must never carry another provider's
    assert all("thoughtSignature" not in p or is_stand_in(p) for p in foreign)
    assert all("id" not in p["functionCall"] for p in foreign)
    own_turn = current_turn(second["contents"])
    assert own_turn[1] == {"role": "model", "parts": [GEMINI_THOUGHT, GEMINI_CALL]}
    assert own_turn[2]["parts"] == [
        {
            "functionResponse": {
                "name": "update_notebook",
                "response": {"output": f"Notebook saved ({len(NOTEBOOK)} characters)."},
            }
        }
    ]
    assert second["systemInstruction"] == {"parts": [{"text": f"{SYSTEM}\n\n{NOTEBOOK}"}]}
    for body in sent:
        assert SIG_A not in json.dumps(body) and THINKING_A["thinking"] not in json.dumps(body)
    thinker = outputs(history, "anthropic")[0]
    (output, final) = outputs(history, "gemini")
    assert has_note(output, f"reasoning dropped (seq {thinker.seq}): made by {ANTHROPIC}")
    assert has_note(output, "tool call ids not sent")
    assert history.notebook == NOTEBOOK and final.text == REVIEW


def check_anthropic_again(body: Body, history: History, own: list[dict[str, Any]]) -> None:
    """Anthropic after OpenAI and Gemini: valid, only its own thinking, foreign ids sanitised."""
    check_anthropic(body)
    assert anthropic_thinking(body) == own
    assert [tool["name"] for tool in body["tools"]] == TOOLS
    assert body["system"] == f"{SYSTEM}\n\n{NOTEBOOK}"
    text = json.dumps(body)
    assert GEMINI_THOUGHT["text"] not in text and SIG_G not in text
    assert OPENAI_CALL_ID not in text
    uses = [b["id"] for m in body["messages"] for b in m["content"] if b["type"] == "tool_use"]
    assert "functions_search_conversations_0" in uses  # the OpenAI-compatible id, sanitised
    (gemini_call,) = next(e for e in outputs(history, "gemini") if e.tool_calls).tool_calls
    assert gemini_call.id in uses  # a synthesised id, already valid
    assert body["messages"][1]["content"] == [
        THINKING_A,
        REDACTED_BLOCK,
        LOOKING,
        CALL_TIME,
        CALL_SEARCH,
    ]


def check_turn_4(sent: list[Body], history: History) -> None:
    first, second = sent
    check_anthropic_again(first, history, [THINKING_A, REDACTED_BLOCK])
    check_anthropic_again(second, history, [THINKING_A, REDACTED_BLOCK, THINKING_D])
    asked = outputs(history, "anthropic")[-2]
    assert has_note(asked, "reasoning dropped")  # Gemini's, for sure
    assert has_note(asked, f"tool call id rewritten (seq {seq_of_call(history, OPENAI_CALL_ID)})")
    assert outputs(history, "anthropic")[-1].text == DONE


# --- after the reload ---------------------------------------------------------------------------


def next_requests(conversation: Conversation, models: Models) -> dict[str, Body]:
    """What each provider would be sent for one more question, rendered without sending."""
    context = render_context(conversation.history)
    question = ModelInput(text="One more thing?", seq=conversation.history.version + 1)
    context = Context(context.system, context.notebook, (*context.entries, question))
    rendered: dict[str, Body] = {}
    for spec in (ANTHROPIC, OPENAI, GEMINI):
        provider, model = models.resolve(spec)
        rendered[provider.name] = provider.render(Request(model, context, specs(TOOLS))).body
    return rendered


def script_after_reload(servers: Servers) -> None:
    servers.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Yes: keep a backup."))))
    servers.openai.enqueue(
        Reply(
            chunks=[
                oe.tool_call(0, "call_T6", "current_time", "{}"),
                oe.chunk(finish="tool_calls"),
                oe.DONE,
            ]
        )
    )
    servers.openai.enqueue(Reply(chunks=oe.chat_reply("Tonight at 22:00.")))
    servers.gemini.enqueue(gemini_reply(ge.text("Tonight, after the backup.")))  # the retry
    servers.gemini.enqueue(gemini_reply(ge.text("Done.")))


async def three_more_turns(library: Library, conversation: Conversation, models: Models) -> None:
    """One more turn to each provider, and turn 6 (OpenAI's tool call) retried on Gemini."""
    turns = turn_runner(library, models, Settings(title_model=ANTHROPIC))
    try:
        await turns.run(conversation, ANTHROPIC, "Anything to add?")
        await turns.run(conversation, OPENAI, "When do we start?")
        await turns.regenerate(conversation, GEMINI)
        await turns.run(conversation, GEMINI, "Thanks.")
    finally:
        await models.aclose()


def check_after_reload(servers: Servers, history: History) -> None:
    (anthropic,) = bodies(servers.anthropic)
    check_anthropic(anthropic)
    assert anthropic_thinking(anthropic) == [THINKING_A, REDACTED_BLOCK, THINKING_D]
    for body in bodies(servers.openai):
        check_openai(body)
    retried, last = bodies(servers.gemini)
    check_gemini(retried)
    check_gemini(last)
    # the retried turn's OpenAI call is in Gemini's current turn: it gets the stand-in, as text
    (stood_in,) = [
        p for c in current_turn(retried["contents"]) for p in c["parts"] if "functionCall" in p
    ]
    assert stood_in["thoughtSignature"] == STAND_IN_SIGNATURE
    assert f'"thoughtSignature": "{STAND_IN_SIGNATURE}"' in servers.gemini.requests[0].body.decode()
    assert [c["role"] for c in current_turn(retried["contents"])] == ["user", "model", "user"]
    # Gemini's own signed call of turn 3 is still replayed verbatim
    assert {"role": "model", "parts": [GEMINI_THOUGHT, GEMINI_CALL]} in last["contents"]
    retry_output = outputs(history, "gemini")[-2]
    assert has_note(retry_output, "stand-in thought signature")
    assert retry_output.text == "Tonight, after the backup."


def assert_no_secret_stored(data: DataDir, history: History, servers: Servers) -> None:
    stored = msgspec.json.encode(list(history))
    files = [path for path in data.root.rglob("*") if path.is_file()]
    assert any(path.name == "index.db" for path in files)
    for secret in SECRETS.values():
        assert secret.encode() not in stored
        for path in files:
            assert secret.encode() not in path.read_bytes(), f"{secret} in {path}"
    for server in (servers.anthropic, servers.openai, servers.gemini):
        for request in server.requests:  # the key went in a header, never in a body
            assert any(v.endswith(tuple(SECRETS.values())) for v in request.headers.values())
            assert not any(secret.encode() in request.body for secret in SECRETS.values())


def test_a_conversation_crosses_three_providers_and_replays_after_reload(
    servers: Servers, data_dir: DataDir
) -> None:
    library = Library(data_dir)
    conversation = library.create()
    script_first_four_turns(servers)
    asyncio.run(first_four_turns(library, conversation, models_for(servers)))
    history = conversation.history
    check_turn_1(bodies(servers.anthropic)[:2], history)
    check_turn_2(bodies(servers.openai), history)
    check_turn_3(bodies(servers.gemini), history)
    check_turn_4(bodies(servers.anthropic)[3:], history)
    before = next_requests(conversation, models_for(servers))
    library.close()

    library = Library(data_dir)  # a fresh start: everything comes from the transcript
    try:
        reloaded = library.open(conversation.id)
        assert list(reloaded.history) == list(history)
        after = next_requests(reloaded, models_for(servers))
        assert after == before
        for provider, body in after.items():
            check_request(provider, body)
        assert anthropic_thinking(after["anthropic"]) == [THINKING_A, REDACTED_BLOCK, THINKING_D]
        assert {"role": "model", "parts": [GEMINI_THOUGHT, GEMINI_CALL]} in after["gemini"][
            "contents"
        ]
        for server in (servers.anthropic, servers.openai, servers.gemini):
            server.requests.clear()
        script_after_reload(servers)
        asyncio.run(three_more_turns(library, reloaded, models_for(servers)))
        check_after_reload(servers, reloaded.history)
        assert_no_secret_stored(data_dir, reloaded.history, servers)
        kinds = {entry.kind for entry in reloaded.history}
    finally:
        library.close()

    env = {**os.environ, "CROSSTALK_HOME": str(data_dir.root), **servers.base_urls()}
    shown = crosstalk(env, "show", conversation.id, "--json")
    listed = json.loads(shown.stdout)
    assert {entry["kind"] for entry in listed["entries"]} == kinds
    assert kinds == {
        "system_instruction",
        "model_input",
        "model_output",
        "tool_results",
        "title",
        "memory_notebook",
    }
    # the retried reply is a sibling of the failed one: the active branch leaves that one out
    assert len(listed["entries"]) == len(reloaded.history.active_entries())
    everything = json.loads(crosstalk(env, "show", conversation.id, "--json", "--all").stdout)
    assert len(everything["entries"]) == len(list(reloaded.history))
    assert not any(secret in shown.stdout for secret in SECRETS.values())


# --- the command line ---------------------------------------------------------------------------


def listed_row(env: dict[str, str]) -> dict[str, Any]:
    [row] = json.loads(crosstalk(env, "list", "--json").stdout)
    return row  # type: ignore[no-any-return]


def test_the_cli_switches_provider_every_turn(servers: Servers, data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.settings_file.write_text(f'title_model = "{ANTHROPIC}"\n')
    env = {**os.environ, **servers.base_urls(), **SECRETS}
    plan = ae.reply(
        ae.thinking(0, "Copy, verify, switch.", signature="sig-cli"),
        ae.text(1, "1. Copy. ", "2. Verify. ", "3. Switch."),
    )
    servers.anthropic.enqueue(Reply(chunks=plan))
    servers.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Three-step migration"))))
    first = crosstalk(env, "ask", "--new", "-m", ANTHROPIC, "Plan a 3-step data migration")
    assert first.stdout == "1. Copy. 2. Verify. 3. Switch.\n"
    assert "Copy, verify, switch." in first.stderr  # thinking shows, out of the answer
    # the title is asked for once the command has exited, by a process of its own
    deadline = time.monotonic() + 60
    while not (row := listed_row(env))["title"]:
        assert time.monotonic() < deadline, "the title never came"
        time.sleep(0.1)
    conversation_id = row["id"]
    assert row["title"] == "Three-step migration"

    servers.openai.enqueue(Reply(chunks=oe.chat_reply("INSERT INTO new ", "SELECT * FROM old;")))
    second = crosstalk(env, "ask", "-c", conversation_id, "-m", OPENAI, "Now write step 1 as SQL")
    assert second.stdout == "INSERT INTO new SELECT * FROM old;\n"

    servers.gemini.enqueue(gemini_reply(ge.text("Looks "), ge.text("fine.")))
    third = crosstalk(env, "ask", "-c", conversation_id, "-m", GEMINI, "Review it")
    assert third.stdout == "Looks fine.\n"
    assert f"{conversation_id} · {GEMINI}" in third.stderr

    (to_openai,) = bodies(servers.openai)
    check_openai(to_openai)
    assert "sig-cli" not in json.dumps(to_openai)
    (to_gemini,) = bodies(servers.gemini)
    check_gemini(to_gemini)
    assert [c["role"] for c in to_gemini["contents"]] == ["user", "model"] * 2 + ["user"]
    check_anthropic(bodies(servers.anthropic)[0])

    listing = crosstalk(env, "models").stdout
    for spec in (ANTHROPIC, OPENAI, GEMINI):
        assert f"    {spec}" in listing
    for provider, variable in (
        ("anthropic", "ANTHROPIC"),
        ("openai", "OPENAI"),
        ("gemini", "GEMINI"),
    ):
        assert f"{provider}  ({provider}, key from {variable}_API_KEY" in listing
    for secret in SECRETS.values():
        for result in (first, second, third):
            assert secret not in result.stdout + result.stderr
        assert secret not in listing
        for path in data_dir.root.rglob("*"):
            assert not path.is_file() or secret.encode() not in path.read_bytes()


def test_a_model_without_a_key_fails_before_anything_is_written(
    servers: Servers, data_dir: DataDir
) -> None:
    env = {**os.environ, **servers.base_urls()}  # and no key: conftest removed them all
    result = crosstalk(env, "ask", "-m", OPENAI, "hi", check=False)
    assert result.returncode == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "OPENAI_API_KEY" in line and "`crosstalk key set openai`" in line
    assert not servers.openai.requests
    assert list(data_dir.conversations.iterdir()) == []
    assert json.loads(crosstalk(env, "list", "--json").stdout) == []
