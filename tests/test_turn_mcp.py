"""MCP tools in turns: the demo server's tools called by models on the wire fakes, behind the
approval gate, with their results replayed to every provider.

Real SDKs against WireServers on 127.0.0.1, the demo MCP server as a real stdio process, a real
Library and McpManager.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from app.approval import ApprovalRequest, Decision
from app.attachments.sending import Sending
from app.composition import Services, build_contexts, build_models
from app.context.service import FixedWindow
from app.history import (
    Attachment,
    Context,
    ModelInput,
    ModelOutput,
    ToolCall,
    ToolResult,
    ToolResults,
)
from app.inspect.next_request import next_request
from app.keys import Keys
from app.mcp import McpConfig, McpManager
from app.mcp.source import McpSource
from app.notes import ToolsLeftOut, english
from app.paths import DataDir
from app.providers import Models, Request
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library
from app.tools import BuiltinSource, ToolBox
from app.turn import TurnRunner
from tests.helpers import anthropic_events as ae
from tests.helpers import gemini_events as ge
from tests.helpers import openai_events as oe
from tests.helpers.cross_provider import check_request
from tests.helpers.mcp_demo_server import PNG
from tests.helpers.mcp_servers import demo_stdio, write_config
from tests.helpers.turns import runner
from tests.helpers.wire_server import Reply, WireServer

OPENAI = "openai:gpt-4.1"
ANTHROPIC = "anthropic:claude-sonnet-4-6"
GEMINI = "gemini:gemini-2.5-flash"
SECRETS = {
    "OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789",
    "GEMINI_API_KEY": "AIzaDummyGEMINIsecret0123456789abcdef",
}
ADD = "mcp__demo__add"
PNG_B64 = base64.b64encode(PNG).decode()


@dataclass(frozen=True)
class Name:
    name: str


OPENAI_NAME = Name("openai")


@dataclass
class World:
    openai: WireServer
    anthropic: WireServer
    gemini: WireServer
    manager: McpManager
    library: Library
    data: DataDir
    asked: list[ApprovalRequest]

    def settings(self) -> Settings:
        return Settings(
            title_model=OPENAI,
            providers={
                "anthropic": ProviderConfig(
                    kind="anthropic", base_url=self.anthropic.url, models=["claude-sonnet-4-6"]
                ),
                "openai": ProviderConfig(
                    kind="openai", base_url=f"{self.openai.url}/v1", models=["gpt-4.1"]
                ),
                "gemini": ProviderConfig(
                    kind="gemini",
                    base_url=self.gemini.url,
                    models=["gemini-2.5-flash", "gemini-3-pro-preview"],
                ),
            },
        )

    def models(self) -> Models:
        return build_models(self.settings(), Keys(SECRETS), SECRETS)

    def runner(self, *decisions: Decision, **changes: Any) -> TurnRunner:
        """A runner with the demo server's tools, every turn's context whole; asked, the user
        answers ``decisions`` in turn (none: nobody is asked, calls are denied). ``turns``
        runs it with models of its own."""
        answers = list(decisions)

        async def approve(request: ApprovalRequest) -> Decision:
            self.asked.append(request)
            return answers.pop(0)

        box = ToolBox([BuiltinSource(), McpSource(self.manager, "demo")], self.manager.close)
        if decisions:
            changes["approve"] = approve
        changes.setdefault("contexts", FixedWindow(None))
        return runner(self.library, self.models(), toolbox=box, title_model=OPENAI, **changes)


@pytest.fixture
def world(data_dir: DataDir, library: Library) -> Iterator[World]:
    write_config(data_dir, {"demo": demo_stdio()})
    manager = McpManager(data_dir, Keys(SECRETS), os.environ)
    with WireServer() as openai, WireServer() as anthropic, WireServer() as gemini:
        yield World(openai, anthropic, gemini, manager, library, data_dir, [])
    manager.close()


def openai_call(call_id: str, name: str, arguments: dict[str, Any]) -> Reply:
    return Reply(
        chunks=[
            oe.chunk({"role": "assistant", "content": None}),
            oe.tool_call(0, call_id, name),
            oe.tool_call(0, arguments=json.dumps(arguments)),
            oe.chunk(finish="tool_calls"),
            oe.usage_chunk(),
            oe.DONE,
        ]
    )


def bodies(server: WireServer) -> list[dict[str, Any]]:
    return [r.json for r in server.requests]


def results(conversation: Conversation) -> list[ToolResults]:
    return [e for e in conversation.history if isinstance(e, ToolResults)]


async def turns(world: World, conversation: Conversation, *plan: tuple[str, str, TurnRunner],
                tools: list[str] | None = None) -> list[ModelOutput]:  # fmt: skip
    models = world.models()
    try:
        out = []
        for i, (spec, text, runner) in enumerate(plan):
            out.append(await runner.using(models=models).run(
                conversation, spec, text, tools=tools if i == 0 else None))  # fmt: skip
        return out
    finally:
        await models.aclose()


def test_an_mcp_tool_across_three_providers(world: World) -> None:
    world.openai.enqueue(openai_call("call_1", ADD, {"a": 2, "b": 3}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("2 + 3 = 5")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Sums")))  # the title
    world.anthropic.enqueue(
        Reply(
            chunks=ae.reply(
                ae.tool_use(0, "toolu_1", ADD, {"a": 1, "b": 1}), stop_reason="tool_use"
            )
        )
    )
    world.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "1 + 1 = 2"))))
    world.gemini.enqueue(Reply(chunks=[ge.chunk(ge.call(ADD, {"a": 4, "b": 4}), finish="STOP")]))
    world.gemini.enqueue(Reply(chunks=[ge.chunk(ge.text("4 + 4 = 8"), finish="STOP")]))
    conversation = world.library.create()
    once = world.runner(Decision.ONCE, Decision.CONVERSATION)
    replies = asyncio.run(
        turns(
            world, conversation,
            (OPENAI, "Add 2 and 3", once), (ANTHROPIC, "And 1 and 1?", once),
            (GEMINI, "And 4 and 4?", once),
            tools=["current_time", "mcp:demo"],
        )
    )  # fmt: skip
    assert [r.text for r in replies] == ["2 + 3 = 5", "1 + 1 = 2", "4 + 4 = 8"]
    # asked twice: "once" asks again next time; "conversation" does not
    assert [(a.wire_name, a.server, a.tool, a.transport) for a in world.asked] == [
        (ADD, "demo", "add", "stdio"), (ADD, "demo", "add", "stdio"),
    ]  # fmt: skip
    assert world.asked[0].arguments == {"a": 2, "b": 3}
    assert world.asked[0].description == "Add two integers"

    first, second, _title = bodies(world.openai)
    declared = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert set(declared) >= {"current_time", ADD, "mcp__demo__echo"}
    assert declared[ADD]["parameters"]["required"] == ["a", "b"]
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": "5"}
    for provider, server in (("openai", world.openai), ("anthropic", world.anthropic),
                             ("gemini", world.gemini)):  # fmt: skip
        for body in bodies(server):
            check_request(provider, body)
    anthropic_last = bodies(world.anthropic)[-1]["messages"]
    assert anthropic_last[-1]["content"][0]["content"] == "2"
    assert any(  # the OpenAI turn's call and result replayed to Anthropic
        block.get("type") == "tool_result" and block.get("content") == "5"
        for m in anthropic_last
        if isinstance(m["content"], list)
        for block in m["content"]
    )
    gemini_last = json.dumps(bodies(world.gemini)[-1])
    assert '"result": "8"' in gemini_last or '"8"' in gemini_last

    entries = results(conversation)
    assert [e.results[0].content for e in entries] == ["5", "2", "8"]
    metas = [next(iter(e.meta["tools"].values())) for e in entries]
    assert [m["approval"] for m in metas] == ["once", "conversation", "conversation"]
    assert metas[0] | {"ms": 0} == {
        "source": "mcp", "server": "demo", "tool": "add", "transport": "stdio",
        "server_name": "demo", "server_version": "1.2.3", "protocol": metas[0]["protocol"],
        "approval": "once", "ms": 0, "structured": True,
    }  # fmt: skip


def test_without_an_approver_the_call_is_denied_and_the_turn_goes_on(world: World) -> None:
    world.openai.enqueue(openai_call("call_1", ADD, {"a": 2, "b": 3}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("I was not allowed to add.")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Sums")))
    conversation = world.library.create()
    (reply,) = asyncio.run(
        turns(world, conversation, (OPENAI, "Add", world.runner()), tools=["mcp:demo"])
    )
    assert reply.text == "I was not allowed to add."
    (entry,) = results(conversation)
    (result,) = entry.results
    assert result.is_error and result.content == (
        "The user did not allow this call to add (server demo); it was not run."
    )
    assert entry.meta["tools"]["call_1"]["approval"] == "deny"
    assert bodies(world.openai)[1]["messages"][-1]["content"] == f"Error: {result.content}"


def test_always_allow_is_written_to_mcp_json(world: World) -> None:
    world.openai.enqueue(openai_call("call_1", ADD, {"a": 2, "b": 3}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("5")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Sums")))
    world.openai.enqueue(openai_call("call_2", ADD, {"a": 1, "b": 3}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("4")))
    always = world.runner(Decision.ALWAYS)
    asyncio.run(turns(world, world.library.create(), (OPENAI, "Add", always), tools=["mcp:demo"]))
    assert McpConfig.load(world.data.mcp_file).servers["demo"].always_allow == ["add"]
    other = world.library.create()  # another conversation: not asked
    never = world.runner()
    asyncio.run(turns(world, other, (OPENAI, "Add", never), tools=["mcp:demo"]))
    assert len(world.asked) == 1
    (entry,) = results(other)
    assert entry.results[0].content == "4" and entry.meta["tools"]["call_2"]["approval"] == "always"


def test_a_long_result_is_cut_for_the_model_but_kept_whole(world: World) -> None:
    long = "word " * 6000
    world.openai.enqueue(openai_call("call_1", "mcp__demo__echo", {"text": long}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("long")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Echo")))
    conversation = world.library.create()
    settings = world.runner(Decision.ONCE)
    asyncio.run(turns(world, conversation, (OPENAI, "Echo", settings), tools=["mcp:demo"]))
    assert results(conversation)[0].results[0].content == long
    sent = bodies(world.openai)[1]["messages"][-1]["content"]
    assert sent == long[:24_000] + (
        "\n[… cut for the model: 30,000 characters in all; the whole result is kept in the "
        "conversation]"
    )


def test_the_token_share_leaves_tools_out_and_says_so(world: World) -> None:
    asyncio.run(world.manager.tools("demo"))  # listed once: known from then on
    settings = world.settings()
    small = Settings(**{**{f: getattr(settings, f) for f in settings.__struct_fields__},
                        "context_windows": {OPENAI: 8000}, "reply_tokens": 1000})  # fmt: skip
    contexts = build_contexts(world.data, small)
    conversation = world.library.create()
    turn = world.runner(contexts=contexts, tool_share=0.03)
    request = turn.request(conversation, OPENAI_NAME, "gpt-4.1", ["current_time", "mcp:demo"])
    declared = [t.name for t in request.tools]
    assert declared[0] == "current_time" and request.tools_left_out
    assert set(declared) | set(request.tools_left_out) >= {"current_time", ADD, "mcp__demo__die"}
    (note,) = [n for n in request.notes if isinstance(n, ToolsLeftOut)]
    assert note.count == len(request.tools_left_out) and note.share == 0.03
    assert english(note).startswith(f"{note.count} MCP tools not declared (over 3% of")
    wide = world.runner(contexts=build_contexts(world.data, settings))
    everything = wide.request(conversation, OPENAI_NAME, "gpt-4.1", ["mcp:demo"])
    assert len(everything.tools) == 9 and not everything.tools_left_out


def test_next_request_says_which_tools_are_left_out(world: World) -> None:
    asyncio.run(world.manager.tools("demo"))
    base = world.settings()
    fields = {f: getattr(base, f) for f in base.__struct_fields__}
    settings = Settings(**{**fields, "context_windows": {OPENAI: 8000}, "tool_share": 0.03})
    services = Services(world.data, settings, Keys(SECRETS), world.library, world.models())
    try:
        shown = next_request(services, None, OPENAI, draft="hi", tools=["mcp:demo"], render=False)
        assert shown.tools_left_out and shown.tool_tokens_all > shown.tool_tokens
        # said once, as the tools' line (the inspector's "tools:"), never as an attachment's
        assert not any("MCP tools not declared" in note for note in shown.attachments)
    finally:
        services.mcp.close()  # the fixture closes the library


def test_a_tools_image_reaches_models_that_read_images(world: World) -> None:
    world.openai.enqueue(openai_call("call_1", "mcp__demo__picture", {}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("A dot.")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Pictures")))
    world.anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Still a dot."))))
    kinds = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}
    sending = Sending(world.library.blobs, kinds, [])
    settings = world.runner(Decision.CONVERSATION, sending=sending)
    conversation = world.library.create()
    asyncio.run(
        turns(world, conversation, (OPENAI, "Draw", settings), (ANTHROPIC, "Again?", settings),
              tools=["mcp:demo"])
    )  # fmt: skip
    ((result,),) = [e.results for e in results(conversation)]
    assert result.content == "[image image/png 1x1, attached]"
    assert world.library.blobs.has(result.attachments[0].sha256)
    for provider, server in (("openai", world.openai), ("anthropic", world.anthropic)):
        for body in bodies(server):
            check_request(provider, body)
    tool, shown = bodies(world.openai)[1]["messages"][-2:]
    assert tool == {"role": "tool", "tool_call_id": "call_1", "content": result.content}
    assert shown["role"] == "user"
    assert shown["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    blocks = [
        block
        for message in bodies(world.anthropic)[0]["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    (block,) = blocks
    assert block["content"][0] == {"type": "text", "text": result.content}
    assert block["content"][1]["type"] == "image"
    assert block["content"][1]["source"]["media_type"] == "image/png"


def test_gemini_3_reads_a_tools_image_in_its_function_response(world: World) -> None:
    """Gemini 3 models take images inside a ``functionResponse``; Gemini 2.5 gets the
    result's text line, and the reply's notes say the image was not sent."""
    world.openai.enqueue(openai_call("call_1", "mcp__demo__picture", {}))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("A dot.")))
    world.openai.enqueue(Reply(chunks=oe.chat_reply("Pictures")))
    for said in ("Still a dot.", "A dot, I am told."):
        world.gemini.enqueue(Reply(chunks=[ge.chunk(ge.text(said), finish="STOP")]))
    kinds = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}
    sending = Sending(world.library.blobs, kinds, [])
    settings = world.runner(Decision.CONVERSATION, sending=sending)
    conversation = world.library.create()
    plan = (
        (OPENAI, "Draw", settings),
        ("gemini:gemini-3-pro-preview", "Again?", settings),
        (GEMINI, "And now?", settings),
    )
    replies = asyncio.run(turns(world, conversation, *plan, tools=["mcp:demo"]))
    three, two = bodies(world.gemini)

    def response(body: dict[str, Any]) -> dict[str, Any]:
        (found,) = [
            part["functionResponse"]
            for content in body["contents"]
            for part in content["parts"]
            if "functionResponse" in part
        ]
        return found

    (image,) = response(three)["parts"]  # the SDK posts these parts' names in snake_case
    assert image["inline_data"]["mime_type"] == "image/png"
    assert image["inline_data"]["display_name"] == "picture-1.png"
    assert base64.b64decode(image["inline_data"]["data"]) == PNG
    assert response(three)["response"] == {"output": "[image image/png 1x1, attached]"}
    assert "parts" not in response(two)
    assert any(
        "not sent: gemini-2.5-flash takes no images in a tool's result" in note
        for note in replies[2].meta["replay_notes"]
    )


def test_the_responses_api_gets_a_tools_image_in_its_output(library: Library) -> None:
    from app.providers.openai_responses import OpenAIResponsesProvider

    image = Attachment(name="picture-1.png", mime_type="image/png", data=PNG_B64, size=70)
    entries = (
        ModelInput(text="Draw", seq=1),
        ModelOutput(
            provider="openai",
            model="m",
            text="",
            tool_calls=[ToolCall(id="call_1", name="mcp__demo__picture", arguments="{}")],
            seq=2,
        ),
        ToolResults(
            results=[
                ToolResult(
                    call_id="call_1",
                    name="mcp__demo__picture",
                    content="[image image/png 1x1, attached]",
                    attachments=[image],
                )
            ],
            seq=3,
        ),
    )
    provider = OpenAIResponsesProvider("openai", ["m"], "sk-test", "http://127.0.0.1:9/v1")
    body = provider.render(Request("m", Context(None, None, entries))).body
    (output,) = [item for item in body["input"] if item.get("type") == "function_call_output"]
    assert output["output"] == [
        {"type": "input_text", "text": "[image image/png 1x1, attached]"},
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG_B64}"},
    ]
