"""OpenAI Responses through the real SDK against WireServer: reasoning items round-trip."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from msgspec.structs import replace

from app.errors import AuthFailed, BadRequest, ProviderError, RateLimited, Unavailable
from app.history import (
    Attachment,
    Context,
    ModelInput,
    ModelOutput,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.history.context import ConversationEntry
from app.notes import DropReason, ReasoningDropped, english_all
from app.providers import (
    Finished,
    Models,
    ReasoningDelta,
    ReasoningDone,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolSpec,
    UsageReport,
)
from app.providers.openai_chat import OpenAIChatProvider
from app.providers.openai_responses import OpenAIResponsesProvider
from app.store import Library
from app.turn import OutputBuilder
from tests.helpers.openai_events import ResponsesScript, api_error
from tests.helpers.turns import runner
from tests.helpers.wire_server import Delay, Disconnect, Reply, WireServer

KEY = "sk-test-0123456789abcdef"
TOOL = ToolSpec("lookup", "Look a word up.", {"type": "object", "properties": {}})


def make(server: WireServer, name: str = "openai", **options: Any) -> OpenAIResponsesProvider:
    options.setdefault("max_retries", 0)
    return OpenAIResponsesProvider(name, ["gpt-5"], KEY, server.url + "/v1", **options)


def offline(name: str = "openai") -> OpenAIResponsesProvider:
    return OpenAIResponsesProvider(name, ["gpt-5"], KEY, None)


def context(*entries: ConversationEntry, system: str | None = None) -> Context:
    stamped = tuple(e if e.seq else replace(e, seq=i + 1) for i, e in enumerate(entries))
    return Context(system=system, notebook=None, entries=stamped)


def collect(provider: OpenAIResponsesProvider, request: Request) -> list[StreamEvent]:
    async def run() -> list[StreamEvent]:
        try:
            return [event async for event in provider.stream(request)]
        finally:
            await provider.aclose()

    return asyncio.run(run())


def built(events: list[StreamEvent], provider: str = "openai", model: str = "gpt-5") -> ModelOutput:
    builder = OutputBuilder(provider, model)
    for event in events:
        builder.add(event)
    return builder.build()


def ask(text: str = "q") -> Context:
    return context(ModelInput(text=text))


def test_text_streams_with_usage_and_finish_and_render_is_what_was_sent() -> None:
    script = ResponsesScript().message("msg_1", "Hel", "lo")
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed(input=30, output=4, cached=10)))
        provider = make(server)
        request = Request("gpt-5", ask("hi"), max_tokens=64, temperature=0.5)
        events = collect(provider, request)
        (sent,) = server.requests
    assert events == [
        TextDelta("Hel"),
        TextDelta("lo"),
        UsageReport(Usage(input=30, cached=10, output=4)),
        Finished("stop"),
    ]
    assert (sent.path, sent.headers["authorization"]) == ("/v1/responses", f"Bearer {KEY}")
    assert sent.json == provider.render(request).body
    assert sent.json == {
        "model": "gpt-5",
        "input": [{"role": "user", "content": "hi"}],
        "stream": True,
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "max_output_tokens": 64,
        "temperature": 0.5,
    }


def test_instructions_tools_and_reasoning_effort() -> None:
    ctx = Context("Be brief.", "Likes SQL.", (ModelInput(text="q", seq=1),))
    body = offline().render(Request("gpt-5", ctx, (TOOL,), reasoning="low")).body
    assert body["instructions"] == "Be brief.\n\nLikes SQL."
    assert body["reasoning"] == {"effort": "low", "summary": "auto"}
    assert body["tools"] == [
        {
            "type": "function",
            "name": "lookup",
            "description": "Look a word up.",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        }
    ]


def test_an_image_goes_as_an_input_image() -> None:
    image = Attachment(name="cat.png", mime_type="image/png", data="iVBORw0K")
    ctx = context(ModelInput(text="Look", attachments=[image]))
    assert offline().render(Request("gpt-5", ctx)).body["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Look"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0K"},
            ],
        }
    ]


def reasoning_then_calls() -> ResponsesScript:
    return (
        ResponsesScript()
        .reasoning("rs_1", ["Need a lookup.", "And the time."], encrypted="gAAAA-secret-1")
        .function_call("fc_1", "call_1", "lookup", '{"wo', 'rd": "x"}')
        .function_call("fc_2", "call_2", "current_time", "{}")
    )


def test_reasoning_streams_and_is_stored_with_its_calls() -> None:
    with WireServer() as server:
        script = reasoning_then_calls()
        server.enqueue(Reply(chunks=script.completed(input=50, output=40, reasoning=30)))
        request = Request("gpt-5", ask("go"), (TOOL,), reasoning="high")
        events = collect(make(server), request)
        assert server.requests[0].json["reasoning"] == {"effort": "high", "summary": "auto"}
    thinking = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    assert thinking == "Need a lookup.\n\nAnd the time."
    assert [e for e in events if isinstance(e, ToolCallDelta)][:2] == [
        ToolCallDelta(0, "call_1", "lookup", ""),
        ToolCallDelta(0, None, None, '{"wo'),
    ]
    [done] = [e for e in events if isinstance(e, ReasoningDone)]
    [item] = done.items
    assert (item.provider, item.model, item.text) == ("openai", "gpt-5", thinking)
    stored = json.loads(item.opaque or "")
    assert stored["item"] == script.output[0]  # verbatim, encrypted_content included
    assert stored["follows"] == [
        {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "lookup"}
        | {"status": "completed"},
        {"id": "fc_2", "type": "function_call", "call_id": "call_2", "name": "current_time"}
        | {"status": "completed"},
    ]
    assert events[-2:] == [
        UsageReport(Usage(input=50, output=40, reasoning=30)),
        Finished("tool_calls"),
    ]
    output = built(events)
    assert output.tool_calls == [
        ToolCall(id="call_1", name="lookup", arguments='{"word": "x"}'),
        ToolCall(id="call_2", name="current_time", arguments="{}"),
    ]


def tool_loop_history(events: list[StreamEvent], provider: str = "openai") -> Context:
    output = built(events, provider)
    results = ToolResults(
        results=[
            ToolResult(call_id="call_1", name="lookup", content="a letter"),
            ToolResult(call_id="call_2", name="current_time", content="noon"),
        ]
    )
    return context(ModelInput(text="go"), output, results)


def test_reasoning_goes_back_verbatim_to_the_same_provider_and_model() -> None:
    script = reasoning_then_calls()
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed()))
        server.enqueue(Reply(chunks=ResponsesScript().message("msg_2", "Done.").completed()))
        provider = make(server)
        first = collect(provider, Request("gpt-5", ask("go"), (TOOL,), reasoning="high"))
        request = Request("gpt-5", tool_loop_history(first), (TOOL,), reasoning="high")
        rendered = provider.render(request)
        collect(provider, request)
        sent = server.requests[1].json
    assert sent == rendered.body and rendered.notes == ()
    assert sent["input"] == [
        {"role": "user", "content": "go"},
        script.output[0],
        {
            "id": "fc_1",
            "type": "function_call",
            "call_id": "call_1",
            "name": "lookup",
            "status": "completed",
            "arguments": '{"word": "x"}',
        },
        {
            "id": "fc_2",
            "type": "function_call",
            "call_id": "call_2",
            "name": "current_time",
            "status": "completed",
            "arguments": "{}",
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "a letter"},
        {"type": "function_call_output", "call_id": "call_2", "output": "noon"},
    ]


def test_a_tool_loop_through_a_turn_sends_the_reasoning_back(library: Library) -> None:
    script = (
        ResponsesScript()
        .reasoning("rs_1", ["What time is it?"], encrypted="gAAAA-1")
        .function_call("fc_1", "call_1", "current_time", "{}")
    )
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed()))
        server.enqueue(Reply(chunks=ResponsesScript().message("msg_2", "It is noon.").completed()))
        server.enqueue(Reply(chunks=ResponsesScript().message("msg_3", "Time").completed()))
        provider = make(server)
        conversation = library.create()
        turns = runner(library, Models.of(provider), title_model="openai:gpt-5")

        async def turn() -> ModelOutput:
            try:
                return await turns.run(
                    conversation, "openai:gpt-5", "What time is it?", tools=["current_time"]
                )
            finally:
                await provider.aclose()

        assert asyncio.run(turn()).text == "It is noon."
        second = server.requests[1].json
    [reasoning, call, result] = second["input"][1:]
    assert reasoning == script.output[0]
    assert (call["id"], call["call_id"]) == ("fc_1", "call_1")
    assert (result["type"], result["call_id"]) == ("function_call_output", "call_1")
    assert [t["name"] for t in second["tools"]] == ["current_time"]
    [first_output, *_] = [e for e in conversation.history if isinstance(e, ModelOutput)]
    assert first_output.reasoning[0].text == "What time is it?"


def test_reasoning_is_dropped_with_a_note_for_anyone_else() -> None:
    script = reasoning_then_calls()
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed()))
        first = collect(make(server), Request("gpt-5", ask("go"), (TOOL,)))
    ctx = tool_loop_history(first)
    without_ids = [
        {"role": "user", "content": "go"},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "lookup",
            "arguments": '{"word": "x"}',
        },
        {"type": "function_call", "call_id": "call_2", "name": "current_time", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "a letter"},
        {"type": "function_call_output", "call_id": "call_2", "output": "noon"},
    ]
    other_model = offline().render(Request("o4-mini", ctx))
    assert other_model.body["input"] == without_ids
    other = DropReason(cause="other_model", makers=("openai:gpt-5",), model="o4-mini")
    assert other_model.notes == (ReasoningDropped(seq=2, reasons=(other,)),)
    other_provider = offline("azure").render(Request("gpt-5", ctx))
    assert other_provider.body["input"] == without_ids
    assert english_all(other_provider.notes) == "reasoning dropped (seq 2): made by openai:gpt-5"
    chat = OpenAIChatProvider("openai", [], KEY, None).render(Request("gpt-5", ctx))
    assert "reasoning" not in json.dumps(chat.body)
    assert english_all(chat.notes) == (
        "reasoning dropped (seq 2): made by openai:gpt-5; Chat Completions cannot carry it"
    )


def test_reasoning_before_a_message_replays_with_the_message_id() -> None:
    script = ResponsesScript().reasoning("rs_9", ["Easy."]).message("msg_9", "Paris.")
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed()))
        first = built(collect(make(server), Request("gpt-5", ask("Capital of France?"))))
    ctx = context(ModelInput(text="Capital of France?"), first, ModelInput(text="And Spain?"))
    rendered = offline().render(Request("gpt-5", ctx))
    assert rendered.body["input"][1:] == [
        script.output[0],
        script.output[1],  # the message item as it came, with its id
        {"role": "user", "content": "And Spain?"},
    ]
    assert rendered.notes == ()


def test_reasoning_without_encrypted_content_or_its_reply_is_dropped() -> None:
    no_secret = ResponsesScript().reasoning("rs_1", ["hm"], encrypted=None).message("m", "A")
    with WireServer() as server:
        server.enqueue(Reply(chunks=no_secret.completed()))
        first = built(collect(make(server), Request("gpt-5", ask())))
    rendered = offline().render(Request("gpt-5", context(ModelInput(text="q"), first)))
    assert rendered.body["input"][1:] == [{"role": "assistant", "content": "A"}]
    assert english_all(rendered.notes) == (
        "reasoning dropped (seq 2): made by openai:gpt-5 without encrypted content"
    )
    with WireServer() as server:
        server.enqueue(Reply(chunks=reasoning_then_calls().completed()))
        calls = built(collect(make(server), Request("gpt-5", ask())))
    broken = replace(calls, text="Partial.", tool_calls=[])  # as render_context carries it
    rendered = offline().render(Request("gpt-5", context(ModelInput(text="q"), broken)))
    assert rendered.body["input"][1:] == [{"role": "assistant", "content": "Partial."}]
    lost = DropReason(cause="not_replayed", count=1)
    assert rendered.notes == (ReasoningDropped(seq=2, reasons=(lost,)),)


def test_foreign_tool_calls_replay_validly() -> None:
    long_id = "toolu_" + "y" * 70
    anthropic = ModelOutput(
        provider="anthropic",
        model="claude-sonnet-4-5",
        reasoning=[Reasoning(provider="anthropic", model="claude-sonnet-4-5", signature="s")],
        tool_calls=[
            ToolCall(id="toolu_01A09q90qw90lq917835lq9", name="lookup", arguments="{"),
            ToolCall(id=long_id, name="lookup", arguments='{"word": "b"}'),
        ],
    )
    results = ToolResults(
        results=[
            ToolResult(call_id="toolu_01A09q90qw90lq917835lq9", name="lookup", content="A"),
            ToolResult(call_id=long_id, name="lookup", content="B", is_error=True),
        ]
    )
    gemini = ModelOutput(
        provider="gemini",
        model="gemini-2.5-flash",
        text="Checking.",
        tool_calls=[ToolCall(id="fn-1", name="current_time", arguments="")],
    )
    ctx = context(ModelInput(text="q"), anthropic, results, gemini)  # gemini's call unanswered
    with WireServer() as server:
        server.enqueue(Reply(chunks=ResponsesScript().message("m", "ok").completed()))
        provider = make(server)
        request = Request("gpt-5", ctx, (TOOL,))
        rendered = provider.render(request)
        collect(provider, request)
        items = server.requests[0].json["input"]
    assert items == rendered.body["input"]
    calls = [i for i in items if i.get("type") == "function_call"]
    outputs = [i for i in items if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == [c["call_id"] for c in calls]
    assert all(0 < len(c["call_id"]) <= 64 and "id" not in c for c in calls)
    assert all(isinstance(json.loads(c["arguments"]), dict) for c in calls)
    assert calls[0]["call_id"] == "toolu_01A09q90qw90lq917835lq9"
    assert calls[1]["call_id"] != long_id
    assert outputs[1]["output"] == "Error: B"
    assert outputs[2]["output"] == "no result was recorded for this call"
    assert items[5] == {"role": "assistant", "content": "Checking."}
    notes = english_all(rendered.notes, "\n")
    assert "reasoning dropped (seq 2): made by anthropic:claude-sonnet-4-5" in notes
    assert f"tool call ids rewritten (seq 2, anthropic:claude-sonnet-4-5): {long_id!r}" in notes
    assert "no result recorded for tool call 'fn-1'" in notes


def test_a_call_that_arrives_whole_at_item_done() -> None:
    """A sparse server: no output_item.added, no argument deltas, no usage."""
    item = {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "c9",
        "name": "lookup",
        "arguments": '{"word": "z"}',
    }
    script = ResponsesScript()
    script.event("response.output_item.done", output_index=0, item=item)
    script.event(
        "response.completed",
        response={"id": "r", "object": "response", "status": "completed", "output": [item]},
    )
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.pieces))
        events = collect(make(server, name="vllm"), Request("gpt-oss", ask()))
    output = built(events, "vllm")
    assert output.tool_calls == [ToolCall(id="c9", name="lookup", arguments='{"word": "z"}')]
    assert output.finish_reason == "tool_calls" and output.usage == Usage()


def test_an_incomplete_reply_finishes_with_length() -> None:
    script = ResponsesScript().message("m", "Trunc")
    with WireServer() as server:
        server.enqueue(Reply(chunks=script.completed(status="incomplete")))
        events = collect(make(server), Request("gpt-5", ask(), max_tokens=16))
    assert events[-1] == Finished("length")


@pytest.mark.parametrize(
    ("ending", "kind", "words"),
    [
        (("error", "rate_limit_exceeded", "Slow down"), RateLimited, "rate limited by openai"),
        (("error", "server_error", "Boom"), Unavailable, "failed mid-reply (server_error)"),
        (
            ("failed", "context_length_exceeded", "Your input exceeds the context window"),
            BadRequest,
            "too long for gpt-5's context window",
        ),
        (("failed", "server_error", "The model failed"), Unavailable, "try again later"),
        (("failed", "invalid_prompt", "Flagged"), BadRequest, "rejected the request"),
        (("failed", "vector_store_timeout", "Odd"), ProviderError, "openai failed"),
    ],
)
def test_error_events_in_the_stream_are_raised(
    ending: tuple[str, str, str], kind: type[Exception], words: str
) -> None:
    how, code, message = ending
    script = ResponsesScript().message("m", "par")
    pieces = script.error(code, message) if how == "error" else script.failed(code, message)
    with WireServer() as server:
        server.enqueue(Reply(chunks=pieces))
        seen: list[StreamEvent] = []

        async def run() -> None:
            provider = make(server)
            try:
                async for event in provider.stream(Request("gpt-5", ask())):
                    seen.append(event)
            finally:
                await provider.aclose()

        with pytest.raises(ProviderError) as caught:
            asyncio.run(run())
    assert type(caught.value) is kind and words in str(caught.value)
    assert seen == [TextDelta("par")]


@pytest.mark.parametrize(
    ("reply", "kind", "words"),
    [
        (
            Reply(401, body={"error": {"message": f"Incorrect API key: {KEY}"}}),
            AuthFailed,
            "run `crosstalk key set openai`",
        ),
        (
            Reply(429, headers={"retry-after": "7"}, body=api_error("busy")),
            RateLimited,
            "retry in 7 s",
        ),
        (Reply(502, body="bad gateway"), Unavailable, "openai is unavailable (502)"),
        (
            Reply(400, body=api_error("Unsupported parameter: 'temperature'", None)),
            BadRequest,
            "rejected the request (400): Unsupported parameter",
        ),
    ],
)
def test_http_errors_become_our_own(reply: Reply, kind: type[Exception], words: str) -> None:
    with WireServer() as server:
        server.enqueue(reply)
        with pytest.raises(ProviderError) as caught:
            collect(make(server), Request("gpt-5", ask()))
    assert type(caught.value) is kind and words in str(caught.value)
    assert KEY not in str(caught.value)


def test_a_dropped_connection_keeps_the_partial_reply(library: Library) -> None:
    script = ResponsesScript().reasoning("rs_1", ["Think."]).message("m", "Half", " an")
    with WireServer() as server:
        server.enqueue(Reply(chunks=[*script.pieces, Disconnect()]))
        provider = make(server)
        conversation = library.create()
        turns = runner(library, Models.of(provider), title_model="openai:gpt-5")

        async def turn() -> None:
            try:
                await turns.run(conversation, "openai:gpt-5", "q")
            finally:
                await provider.aclose()

        with pytest.raises(Unavailable, match="lost mid-reply: what arrived was kept"):
            asyncio.run(turn())
    [output] = [e for e in conversation.history if isinstance(e, ModelOutput)]
    assert output.partial and output.text == "Half an"
    # no ReasoningDone came, so the thinking is kept as text only: never replayed
    assert [(r.text, r.opaque) for r in output.reasoning] == [("Think.", None)]


def test_cancel_mid_stream_closes_the_connection() -> None:
    script = ResponsesScript().message("m", "a")
    head = list(script.pieces)
    tail = script.completed()[len(head) :]
    with WireServer() as server:
        server.enqueue(Reply(chunks=[*head, Delay(10), *tail]))
        provider = make(server)

        async def run() -> None:
            first = asyncio.Event()

            async def consume() -> None:
                async for _ in provider.stream(Request("gpt-5", ask())):
                    first.set()

            task = asyncio.create_task(consume())
            await asyncio.wait_for(first.wait(), 5)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await provider.aclose()

        asyncio.run(run())
        assert server.wait_for_disconnect(2)
        assert not server.requests[0].finished
