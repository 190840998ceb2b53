"""The next-request preview is what the turn then sends: byte for byte, after JSON parsing.

One conversation crosses Anthropic (thinking, parallel tool calls), OpenAI Responses (reasoning,
a call), Gemini (a signed thought and call) and OpenAI Chat (a call under an id OpenAI-compatible
servers make), is compressed, and then each wire protocol is previewed with a draft and asked
that same question through the real SDK against a WireServer: the body the server received
equals the preview's body, and the turn's replay notes equal the preview's notes.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from app.composition import Services, build_models
from app.context import compress, parse_strategy
from app.history import ModelOutput
from app.inspect.next_request import NextRequest, next_request, prepare, wire_json
from app.keys import Keys
from app.notes import english
from app.paths import DataDir
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library
from tests.helpers import anthropic_events as ae
from tests.helpers import gemini_events as ge
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

ANTHROPIC = "anthropic:claude-sonnet-4-6"
RESPONSES = "responses:gpt-5"
GEMINI = "gemini:gemini-2.5-flash"
CHAT = "openai:gpt-4.1"
SECRETS = {
    "OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789",
    "GEMINI_API_KEY": "AIzaDummyGEMINIsecret0123456789abcdef",
}
TOOLS = ["current_time", "search_conversations"]
SIG_A = "EqQBCkYIBRgCIkB0aGlua2luZy1zaWduYXR1cmUtQQ=="
SIG_G = base64.b64encode(b"\xfa\xfb gemini signature \xfe\xff").decode()
KIMI_ID = "functions.current_time:0"  # refused by Anthropic's id pattern and OpenAI's as it is
DRAFT = "the next question"


@dataclass
class Servers:
    anthropic: WireServer
    responses: WireServer
    gemini: WireServer
    chat: WireServer

    def of(self, spec: str) -> WireServer:
        name = spec.partition(":")[0]
        return {"anthropic": self.anthropic, "responses": self.responses,
                "gemini": self.gemini, "openai": self.chat}[name]  # fmt: skip


@pytest.fixture
def servers() -> Iterator[Servers]:
    with WireServer() as a, WireServer() as r, WireServer() as g, WireServer() as c:
        yield Servers(a, r, g, c)


def services_for(servers: Servers, data: DataDir, library: Library) -> Services:
    """The real composition; Chat's base URL from the environment, as OPENAI_BASE_URL would."""
    settings = Settings(
        title_model=ANTHROPIC,
        reasoning="low",
        providers={
            "anthropic": ProviderConfig(
                kind="anthropic", base_url=servers.anthropic.url, models=["claude-sonnet-4-6"]
            ),
            "responses": ProviderConfig(
                kind="openai-responses", base_url=f"{servers.responses.url}/v1", models=["gpt-5"]
            ),
            "gemini": ProviderConfig(
                kind="gemini", base_url=servers.gemini.url, models=["gemini-2.5-flash"]
            ),
        },
    )
    environ = {**SECRETS, "OPENAI_BASE_URL": f"{servers.chat.url}/v1"}
    keys = Keys(environ)
    models = build_models(settings, keys, environ)
    return Services(data, settings, keys, library, models, environ=environ)


def gemini_reply(*parts: dict[str, Any]) -> Reply:
    *first, last = parts
    chunks = [ge.chunk(part) for part in first]
    chunks.append(ge.chunk(last, finish="STOP", usage=ge.usage(40, 8)))
    return Reply(chunks=chunks)


def script_crossing(servers: Servers) -> None:
    servers.anthropic.enqueue(
        Reply(
            chunks=ae.reply(
                ae.thinking(0, "The date, and earlier chats.", signature=SIG_A),
                ae.text(1, "Checking two things."),
                ae.tool_use(2, "toolu_01A", "current_time", {}),
                ae.tool_use(3, "toolu_01B", "search_conversations", {"query": "migration"}),
                stop_reason="tool_use",
            )
        )
    )
    servers.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Copy, verify, switch."))))
    servers.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Migration plan"))))  # the title
    servers.responses.enqueue(
        Reply(
            chunks=oe.ResponsesScript()
            .reasoning("rs_1", ["Step one needs the time."], encrypted="ENC-1")
            .function_call("fc_1", "call_R1", "current_time", "{}")
            .completed()
        )
    )
    servers.responses.enqueue(
        Reply(chunks=oe.ResponsesScript().message("msg_1", "INSERT INTO new SELECT *;").completed())
    )
    servers.gemini.enqueue(
        gemini_reply(ge.thought("Check the clock."), ge.call("current_time", {}, signature=SIG_G))
    )
    servers.gemini.enqueue(gemini_reply(ge.text("Looks right.")))
    servers.chat.enqueue(
        Reply(
            chunks=[
                oe.tool_call(0, KIMI_ID, "current_time", "{}"),
                oe.chunk(finish="tool_calls"),
                oe.DONE,
            ]
        )
    )
    servers.chat.enqueue(Reply(chunks=oe.chat_reply("Tonight at ten.")))
    servers.chat.enqueue(Reply(chunks=oe.chat_reply("Plan agreed: copy, verify, switch.")))


async def cross(services: Services, conversation: Conversation) -> None:
    """Four turns on four protocols, then the oldest compressed (by OpenAI Chat)."""
    library, models, runner = services.library, services.models, services.runner
    try:
        await runner.run(conversation, ANTHROPIC, "Plan a migration", system="You are careful.",
                         tools=TOOLS)  # fmt: skip
        await runner.run(conversation, RESPONSES, "Write step 1")
        await runner.run(conversation, GEMINI, "Review it")
        await runner.run(conversation, CHAT, "When?")
        summariser, model = models.resolve(CHAT)
        await compress(library, conversation, summariser, model, parse_strategy("whole"),
                       keep_recent=3)  # fmt: skip
    finally:
        await models.aclose()


def reply_for(spec: str) -> Reply:
    if spec == ANTHROPIC:
        return Reply(chunks=ae.reply(ae.text(0, "Fine.")))
    if spec == RESPONSES:
        return Reply(chunks=oe.ResponsesScript().message("msg_9", "Fine.").completed())
    if spec == GEMINI:
        return gemini_reply(ge.text("Fine."))
    return Reply(chunks=oe.chat_reply("Fine."))


async def preview_then_send(
    services: Services, conversation: Conversation, spec: str
) -> tuple[NextRequest, ModelOutput]:
    await prepare(services, spec)
    preview = next_request(services, conversation, spec, draft=DRAFT)
    try:
        output = await services.runner.run(conversation, spec, DRAFT)
    finally:
        await services.models.aclose()
    return preview, output


def test_the_preview_is_the_body_each_protocol_then_sends(
    servers: Servers, data_dir: DataDir
) -> None:
    library = Library(data_dir)
    try:
        services = services_for(servers, data_dir, library)
        conversation = library.create()
        script_crossing(servers)
        asyncio.run(cross(services, conversation))
        assert [e.kind for e in conversation.history].count("compression") == 1
        for spec in (ANTHROPIC, RESPONSES, GEMINI, CHAT):
            server = servers.of(spec)
            server.enqueue(reply_for(spec))
            version = conversation.history.version
            preview, output = asyncio.run(preview_then_send(services, conversation, spec))
            received = server.requests[-1]
            assert preview.body is not None, preview.body_error
            assert json.loads(received.body) == json.loads(wire_json(preview.body)), spec
            assert preview.body == received.json
            said = [english(note) for note in preview.notes]
            assert said == output.meta.get("replay_notes", []), spec
            # the draft was the pending input, and nothing of it was stored before the turn
            assert preview.carried[-1].kind == "draft" and preview.carried[-1].text == DRAFT
            assert conversation.history.at(version + 1).kind == "model_input"
            assert any(part.kind == "summary" for part in preview.carried)
            assert not preview.would_compress and preview.provider == spec.partition(":")[0]
        sent = {spec: servers.of(spec).requests[-1].body for spec in (ANTHROPIC, GEMINI, CHAT)}
        # the crossing left its marks, each shown in the preview as it was sent
        assert b"toolu_01A" not in sent[GEMINI]  # Gemini pairs calls by order
        assert KIMI_ID.encode() not in sent[ANTHROPIC] and KIMI_ID.encode() not in sent[CHAT]
        assert SIG_G.encode() in sent[GEMINI] and SIG_G.encode() not in sent[ANTHROPIC]
    finally:
        library.close()
