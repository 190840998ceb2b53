"""The Anthropic adapter with the real SDK against a scripted Messages server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Sequence
from typing import Any

import pytest

from app.errors import (
    AuthFailed,
    BadRequest,
    ProviderError,
    RateLimited,
    Unavailable,
    UnknownModel,
)
from app.history import (
    Context,
    ModelInput,
    ModelOutput,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.notes import english
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
from app.providers.anthropic_messages import AnthropicProvider
from app.turn import OutputBuilder
from tests.helpers import anthropic_events as ev
from tests.helpers.turns import runner
from tests.helpers.wire_server import Delay, Disconnect, Reply, WireServer

MODEL = "claude-test"
TOOLS = (
    ToolSpec("current_time", "The time.", {"type": "object", "properties": {}}),
    ToolSpec(
        "search_conversations",
        "Search.",
        {"type": "object", "properties": {"query": {"type": "string"}}},
    ),
)


def provider(server: WireServer, max_retries: int = 0) -> AnthropicProvider:
    return AnthropicProvider(
        "anthropic", [MODEL], "sk-test-key", server.url, max_retries=max_retries, timeout=10
    )


def ask(text: str, *earlier: Any, system: str | None = None) -> Context:
    entries = (*earlier, ModelInput(text=text, seq=len(earlier) + 1))
    return Context(system=system, notebook=None, entries=entries)


def collect(
    server: WireServer, request: Request, max_retries: int = 0
) -> tuple[list[StreamEvent], BaseException | None]:
    """Every event of one stream, and the error that ended it (None if it finished)."""

    async def run() -> tuple[list[StreamEvent], BaseException | None]:
        adapter = provider(server, max_retries)
        events: list[StreamEvent] = []
        try:
            async for event in adapter.stream(request):
                events.append(event)
        except Exception as exc:
            return events, exc
        finally:
            await adapter.aclose()
        return events, None

    return asyncio.run(run())


def output_of(events: Sequence[StreamEvent], seq: int) -> ModelOutput:
    """The history entry turn.py would append for these events."""
    builder = OutputBuilder("anthropic", MODEL)
    for event in events:
        builder.add(event)
    return ModelOutput(**{**_fields(builder.build()), "seq": seq})


def _fields(output: ModelOutput) -> dict[str, Any]:
    return {name: getattr(output, name) for name in output.__struct_fields__}


def rendered(request: Request) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The body, and the notes as the command line says them."""
    result = AnthropicProvider("anthropic", [MODEL], "k", None).render(request)
    return result.body, tuple(english(note) for note in result.notes)


def assert_valid_messages_request(body: dict[str, Any]) -> None:
    """The replay rules, checked on a body as the server received it."""
    messages = body["messages"]
    assert messages[0]["role"] == "user"
    assert all(m["role"] in ("user", "assistant") for m in messages)
    assert all(a["role"] != b["role"] for a, b in itertools.pairwise(messages))
    declared = {tool["name"] for tool in body.get("tools", [])}
    seen_ids: set[str] = set()
    for index, message in enumerate(messages):
        blocks = message["content"]
        assert blocks, "no empty messages"
        for block in blocks:
            if block["type"] == "text":
                assert block["text"].strip()
        uses = [b for b in blocks if b["type"] == "tool_use"]
        for use in uses:
            assert re.fullmatch(r"[a-zA-Z0-9_-]+", use["id"]), use["id"]
            assert use["id"] not in seen_ids
            seen_ids.add(use["id"])
            assert isinstance(use["input"], dict)
            assert use["name"] in declared, "tool blocks need declared tools"
        for block in blocks:
            if block["type"] == "thinking":
                assert message["role"] == "assistant" and block["signature"]
        if message["role"] == "user":
            kinds = [b["type"] for b in blocks]
            assert kinds == sorted(kinds, key=lambda k: k != "tool_result"), "results first"
        if uses:
            answer = messages[index + 1]
            assert answer["role"] == "user"
            results = [b for b in answer["content"] if b["type"] == "tool_result"]
            assert [r["tool_use_id"] for r in results] == [u["id"] for u in uses]
            assert all(isinstance(r["content"], str) for r in results)
    if body.get("thinking", {}).get("type") == "enabled":
        assert "temperature" not in body
        assert body["max_tokens"] > body["thinking"]["budget_tokens"]
        last, before = messages[-1], messages[-2] if len(messages) > 1 else None
        if last["content"][0]["type"] == "tool_result" and before:
            assert before["content"][0]["type"] in ("thinking", "redacted_thinking")


def test_text_streams_with_usage_finish_and_the_rendered_body() -> None:
    with WireServer() as server:
        chunks = ev.reply(
            ev.text(0, "Hel", "lo"), input_tokens=10, cache_read=100, cache_creation=20
        )
        server.enqueue(Reply(chunks=chunks))
        context = Context(system="Be brief.", notebook="Likes tea.", entries=ask("hi").entries)
        request = Request(MODEL, context, temperature=0.3)
        events, failure = collect(server, request)
        assert failure is None
        assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo"]
        usage = [e.usage for e in events if isinstance(e, UsageReport)][-1]
        assert usage == Usage(input=130, cached=100, cache_write=20, output=5)
        assert events[-1] == Finished("stop")
        (req,) = server.requests
        assert (req.method, req.path) == ("POST", "/v1/messages")
        assert req.headers["authorization"] == "Bearer sk-test-key"  # not x-api-key in SDK 2.12
        body, notes = rendered(request)
        assert req.json == body and notes == ("temperature 0.3 not sent: anthropic takes none",)
        assert body["system"] == "Be brief.\n\nLikes tea."
        assert "temperature" not in body and body["max_tokens"] == 8192
        assert "sk-test-key" not in json.dumps(body)


def test_thinking_and_parallel_calls_replay_verbatim_with_one_results_message() -> None:
    with WireServer() as server:
        first = ev.reply(
            ev.thinking(0, "Two lookups", " are needed.", signature="sig-A"),
            ev.redacted(1, "cmVkYWN0ZWQ="),
            ev.text(2, "Checking both."),
            ev.tool_use(3, "toolu_01A", "current_time", {}),
            ev.tool_use(4, "toolu_01B", "search_conversations", {"query": "tea"}),
            stop_reason="tool_use",
        )
        server.enqueue(Reply(chunks=first))
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "Done."))))
        question = ask("what time, and the tea chat?")
        events, failure = collect(server, Request(MODEL, question, TOOLS, reasoning="high"))
        assert failure is None
        thought = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
        assert thought == "Two lookups are needed."
        assert [e for e in events if isinstance(e, ToolCallDelta) and e.id] == [
            ToolCallDelta(0, "toolu_01A", "current_time"),
            ToolCallDelta(1, "toolu_01B", "search_conversations"),
        ]
        assert events[-1] == Finished("tool_calls")
        output = output_of(events, seq=2)
        assert [(c.id, c.name, json.loads(c.arguments)) for c in output.tool_calls] == [
            ("toolu_01A", "current_time", {}),
            ("toolu_01B", "search_conversations", {"query": "tea"}),
        ]
        assert [(r.text, r.signature, r.opaque) for r in output.reasoning] == [
            ("Two lookups are needed.", "sig-A", None),
            ("", None, "cmVkYWN0ZWQ="),
        ]
        results = ToolResults(
            seq=3,
            results=[
                ToolResult(call_id="toolu_01A", name="current_time", content="12:00"),
                ToolResult(call_id="toolu_01B", name="search_conversations", content="none"),
            ],
        )
        context = Context(None, None, (*question.entries, output, results))
        request = Request(MODEL, context, TOOLS, reasoning="high")
        events, failure = collect(server, request)
        assert failure is None
        sent = server.requests[1].json
        assert sent == rendered(request)[0] and rendered(request)[1] == ()
        assert sent["thinking"] == {"type": "enabled", "budget_tokens": 16384}
        assert sent["messages"][1:] == [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": "Two lookups are needed.",
                        "signature": "sig-A",
                    },
                    {"type": "redacted_thinking", "data": "cmVkYWN0ZWQ="},
                    {"type": "text", "text": "Checking both."},
                    {"type": "tool_use", "id": "toolu_01A", "name": "current_time", "input": {}},
                    {
                        "type": "tool_use",
                        "id": "toolu_01B",
                        "name": "search_conversations",
                        "input": {"query": "tea"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01A",
                        "content": "12:00",
                        "is_error": False,
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01B",
                        "content": "none",
                        "is_error": False,
                    },
                ],
            },
        ]
        assert_valid_messages_request(sent)


def test_interleaved_blocks_keep_their_order_on_replay() -> None:
    with WireServer() as server:
        chunks = ev.reply(
            ev.thinking(0, "first", signature="s1"),
            ev.text(1, "Let me look. "),
            ev.tool_use(2, "toolu_X", "current_time", {}, pieces=1),
            ev.thinking(3, "then", signature="s2"),
            ev.text(4, "And more."),
            stop_reason="tool_use",
        )
        server.enqueue(Reply(chunks=chunks))
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "ok"))))
        question = ask("go")
        events, _ = collect(server, Request(MODEL, question, TOOLS, reasoning="low"))
        output = output_of(events, seq=2)
        assert output.text == "Let me look. And more."
        results = ToolResults(seq=3, results=[ToolResult(call_id="toolu_X", name="t", content="1")])
        request = Request(MODEL, Context(None, None, (*question.entries, output, results)), TOOLS)
        collect(server, request)
        blocks = server.requests[1].json["messages"][1]["content"]
        assert [(b["type"], b.get("text") or b.get("thinking") or b.get("id")) for b in blocks] == [
            ("thinking", "first"),
            ("text", "Let me look. "),
            ("tool_use", "toolu_X"),
            ("thinking", "then"),
            ("text", "And more."),
        ]


def foreign_history() -> tuple[Any, ...]:
    """Turns made by OpenAI and Gemini, then a pending Gemini call: every replay hazard."""
    openai_out = ModelOutput(
        seq=2,
        provider="openai",
        model="gpt-4.1",
        text="Searching.",
        reasoning=[Reasoning(provider="openai", model="o3", opaque="gAAAA-encrypted")],
        tool_calls=[
            ToolCall(id="call_abc123", name="search_conversations", arguments='{"query": "x"}'),
            ToolCall(id="call.odd id/1", name="search_conversations", arguments='{"query": '),
        ],
    )
    openai_results = ToolResults(
        seq=3,
        results=[
            ToolResult(call_id="call_abc123", name="search_conversations", content="a"),
            ToolResult(
                call_id="call.odd id/1",
                name="search_conversations",
                content="bad args",
                is_error=True,
            ),
        ],
    )
    anthropic_other_model = ModelOutput(
        seq=5,
        provider="anthropic",
        model="claude-older",
        text="Noted.",
        reasoning=[Reasoning(provider="anthropic", model="claude-older", text="t", signature="s")],
    )
    gemini_out = ModelOutput(
        seq=7,
        provider="gemini",
        model="gemini-2.5-flash",
        reasoning=[Reasoning(provider="gemini", model="gemini-2.5-flash", signature="c2ln")],
        tool_calls=[
            ToolCall(id="", name="current_time", arguments="[1, 2]"),
            ToolCall(id="", name="current_time", arguments=""),
        ],
    )
    gemini_results = ToolResults(
        seq=8,
        results=[
            ToolResult(call_id="", name="current_time", content="12:00"),
            ToolResult(call_id="", name="current_time", content="12:01"),
        ],
    )
    return (
        ModelInput(seq=1, text="find x"),
        openai_out,
        openai_results,
        ModelInput(seq=4, text="thanks"),
        anthropic_other_model,
        ModelInput(seq=6, text="time?"),
        gemini_out,
        gemini_results,
    )


@pytest.mark.parametrize("tools", [TOOLS, ()], ids=["tools offered", "no tools offered"])
def test_a_history_made_by_other_providers_replays_validly(tools: tuple[ToolSpec, ...]) -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "It is noon."))))
        request = Request(MODEL, Context("sys", None, foreign_history()), tools, reasoning="medium")
        events, failure = collect(server, request)
        assert failure is None and events[-1] == Finished("stop")
        (req,) = server.requests
        body, notes = rendered(request)
        assert req.json == body
        assert_valid_messages_request(body)
        assert "thinking" not in body  # the pending Gemini call has no signed thinking
        messages = body["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"] * 3 + ["user"]
        uses = [b for m in messages for b in m["content"] if b["type"] == "tool_use"]
        assert [(u["id"], u["input"]) for u in uses] == [
            ("call_abc123", {"query": "x"}),
            ("call_odd_id_1", {"_raw_arguments": '{"query": '}),
            ("call_7_0", {"_raw_arguments": "[1, 2]"}),
            ("call_7_1", {}),
        ]
        results = [b for m in messages for b in m["content"] if b["type"] == "tool_result"]
        assert [(r["tool_use_id"], r["content"]) for r in results] == [
            ("call_abc123", "a"),
            ("call_odd_id_1", "bad args"),
            ("call_7_0", "12:00"),
            ("call_7_1", "12:01"),
        ]
        assert results[1]["is_error"] is True
        assert not any(b["type"] == "thinking" for m in messages for b in m["content"])
        # the ids are rewritten the same way on both sides; each change is on record
        assert any("'call.odd id/1' -> 'call_odd_id_1'" in n for n in notes)
        assert any("'' -> 'call_7_0'" in n for n in notes)
        assert any("reasoning dropped (seq 2): made by openai:o3" in n for n in notes)
        assert any("reasoning dropped (seq 5): made by anthropic:claude-older" in n for n in notes)
        assert any("reasoning dropped (seq 7): made by gemini:gemini-2.5-flash" in n for n in notes)
        assert sum("not a JSON object" in n for n in notes) == 2
        assert any(n.startswith("thinking off: the pending tool call from gemini") for n in notes)
        if tools:
            assert [t["name"] for t in body["tools"]] == ["current_time", "search_conversations"]
            assert "tool_choice" not in body
        else:
            assert [t["name"] for t in body["tools"]] == ["search_conversations", "current_time"]
            assert body["tool_choice"] == {"type": "none"}
            assert any(n.startswith("tools declared from the history") for n in notes)


def test_calls_without_results_and_results_without_calls_still_make_a_valid_request() -> None:
    call = ToolCall(id="toolu_9", name="current_time", arguments="{}")
    entries = (
        ModelInput(seq=1, text="a"),
        ModelOutput(seq=2, provider="anthropic", model=MODEL, tool_calls=[call]),
        ModelInput(seq=3, text="b"),
        ModelOutput(seq=4, provider="anthropic", model=MODEL, text="x"),
        ToolResults(seq=5, results=[ToolResult(call_id="ghost", name="t", content="r")]),
        ModelInput(seq=6, text="c"),
    )
    body, notes = rendered(Request(MODEL, Context(None, None, entries), TOOLS))
    assert_valid_messages_request(body)
    assert body["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_9",
            "content": "no result was recorded for this call",
            "is_error": True,
        },
        {"type": "text", "text": "b"},
    ]
    assert body["messages"][4]["content"][0]["text"].endswith("r")
    assert any("no result recorded for current_time (seq 2)" in n for n in notes)
    assert any("no call 'ghost' precedes it" in n for n in notes)


def test_thinking_stays_on_when_our_own_signed_call_is_pending() -> None:
    own = ModelOutput(
        seq=2,
        provider="anthropic",
        model=MODEL,
        reasoning=[Reasoning(provider="anthropic", model=MODEL, text="hm", signature="sig")],
        tool_calls=[ToolCall(id="toolu_1", name="current_time", arguments="{}")],
    )
    results = ToolResults(seq=3, results=[ToolResult(call_id="toolu_1", name="c", content="1")])
    context = Context(None, None, (ModelInput(seq=1, text="t"), own, results))
    body, notes = rendered(Request(MODEL, context, TOOLS, reasoning="low", temperature=0.5))
    assert_valid_messages_request(body)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["max_tokens"] == 2048 + 8192 and "temperature" not in body
    assert notes == ("temperature 0.5 not sent: anthropic takes none",)
    # the same reply continued on another Claude model: its signature is not replayed
    other, notes = rendered(Request("claude-other", context, TOOLS, reasoning="low"))
    assert "thinking" not in other and other["messages"][1]["content"][0]["type"] == "tool_use"
    assert any(n.startswith("thinking off") for n in notes)


def test_max_tokens_budget_and_adaptive_thinking() -> None:
    context = ask("hi")
    body, notes = rendered(Request(MODEL, context, max_tokens=1000, reasoning="low"))
    assert body["max_tokens"] == 3048 and "raised to 3048" in notes[0]
    body, _ = rendered(Request(MODEL, context, max_tokens=20000, reasoning="medium"))
    assert (body["max_tokens"], body["thinking"]["budget_tokens"]) == (20000, 8192)
    body, _ = rendered(Request("claude-opus-4-6", context, reasoning="high"))
    assert body["thinking"] == {"type": "adaptive"}
    assert body["output_config"] == {"effort": "high"}


def test_a_deprecated_model_is_a_note_not_a_warning() -> None:
    """pytest turns warnings into errors here: the SDK's DeprecationWarning must not escape."""
    with WireServer() as server:
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "ok"))))
        request = Request("claude-sonnet-4-5", ask("hi"))
        events, failure = collect(server, request)
        assert failure is None and events[-1] == Finished("stop")
        assert "deprecated" in rendered(request)[1][0]


def test_empty_tool_input_and_thinking_tokens() -> None:
    with WireServer() as server:
        start = {"type": "tool_use", "id": "toolu_E", "name": "current_time", "input": {}}
        chunks = [
            ev.message_start(5),
            ev.event("content_block_start", index=0, content_block=start),
            ev.event("content_block_stop", index=0),
            ev.message_delta("tool_use", 7, thinking_tokens=3),
            ev.message_stop(),
        ]
        server.enqueue(Reply(chunks=chunks))
        events, failure = collect(server, Request(MODEL, ask("t"), TOOLS))
        assert failure is None
        output = output_of(events, 2)
        assert output.tool_calls == [ToolCall(id="toolu_E", name="current_time", arguments="{}")]
        assert output.usage == Usage(input=5, output=7, reasoning=3)


# --- errors -----------------------------------------------------------------------------


def error_reply(status: int, kind: str, message: str, **headers: str) -> Reply:
    return Reply(status, headers=headers, body=ev.error_body(kind, message))


@pytest.mark.parametrize(
    ("reply", "error", "words"),
    [
        (
            error_reply(401, "authentication_error", "invalid x-api-key"),
            AuthFailed,
            "run `crosstalk key set anthropic`",
        ),
        (
            error_reply(529, "overloaded_error", "Overloaded"),
            Unavailable,
            "anthropic is overloaded (529): try again later",
        ),
        (
            error_reply(500, "api_error", "Internal"),
            Unavailable,
            "anthropic is unavailable (500)",
        ),
        (
            error_reply(400, "invalid_request_error", "prompt is too long: 210000 > 200000"),
            BadRequest,
            "too long for claude-test's context window",
        ),
        (
            error_reply(400, "invalid_request_error", "messages.0: bad"),
            BadRequest,
            "anthropic rejected the request (400): messages.0: bad",
        ),
        (
            error_reply(404, "not_found_error", "model: claude-test"),
            UnknownModel,
            "anthropic has no model 'claude-test'",
        ),
    ],
    ids=["401", "529", "500", "too long", "400", "404"],
)
def test_http_errors_become_our_errors(reply: Reply, error: type[Exception], words: str) -> None:
    with WireServer() as server:
        server.enqueue(reply)
        events, failure = collect(server, Request(MODEL, ask("hi")))
        assert isinstance(failure, error) and events == []
        assert words in str(failure)
        assert "sk-test-key" not in str(failure)
        assert len(server.requests) == 1  # max_retries=0


def test_rate_limit_gives_the_retry_after() -> None:
    with WireServer() as server:
        server.enqueue(error_reply(429, "rate_limit_error", "slow", **{"retry-after": "20"}))
        _, failure = collect(server, Request(MODEL, ask("hi")))
        assert isinstance(failure, RateLimited) and failure.retry_after == 20
        assert str(failure) == "rate limited by anthropic: retry in 20 s"


def test_failures_before_the_body_are_retried_bounded() -> None:
    with WireServer() as server:
        fast = {"retry-after-ms": "1"}
        server.enqueue(error_reply(529, "overloaded_error", "Overloaded", **fast))
        server.enqueue(error_reply(429, "rate_limit_error", "slow", **fast))
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "third time"))))
        events, failure = collect(server, Request(MODEL, ask("hi")), max_retries=2)
        assert failure is None and TextDelta("third time") in events
        assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1", "2"]
        server.enqueue(error_reply(529, "overloaded_error", "Overloaded", **fast))
        server.enqueue(error_reply(529, "overloaded_error", "Overloaded", **fast))
        _, failure = collect(server, Request(MODEL, ask("hi")), max_retries=1)
        assert isinstance(failure, Unavailable) and len(server.requests) == 5


def test_overloaded_mid_stream_raises_after_what_arrived() -> None:
    with WireServer() as server:
        chunks = [*ev.reply(ev.text(0, "Partial"))[:5], ev.error("overloaded_error", "Overloaded")]
        server.enqueue(Reply(chunks=chunks))
        events, failure = collect(server, Request(MODEL, ask("hi")))
        assert TextDelta("Partial") in events
        assert isinstance(failure, Unavailable)
        assert str(failure) == (
            "anthropic is overloaded mid-reply (overloaded_error): try again later; "
            "what arrived was kept"
        )
        assert len(server.requests) == 1  # nobody retries once the body started


def test_a_dropped_connection_keeps_the_partial_reply_and_its_signed_thinking() -> None:
    with WireServer() as server:
        chunks = ev.reply(ev.thinking(0, "hm", signature="sig-Z"), ev.text(1, "Half"))
        server.enqueue(Reply(chunks=[*chunks[:-3], Disconnect()]))
        events, failure = collect(server, Request(MODEL, ask("hi"), reasoning="low"))
        assert isinstance(failure, Unavailable)
        assert str(failure).startswith(f"connection to {server.url}") and "mid-reply" in str(
            failure
        )
        assert isinstance(failure.__cause__, Exception)
        assert events[-1] == ReasoningDone(
            (Reasoning(provider="anthropic", model=MODEL, text="hm", signature="sig-Z"),)
        )
        assert TextDelta("Half") in events


def test_a_stall_mid_stream_times_out() -> None:
    async def run(server: WireServer) -> tuple[list[StreamEvent], BaseException | None]:
        adapter = AnthropicProvider(
            "anthropic", [MODEL], "k", server.url, max_retries=0, timeout=0.3
        )
        events: list[StreamEvent] = []
        try:
            async for event in adapter.stream(Request(MODEL, ask("hi"))):
                events.append(event)
        except Unavailable as exc:
            return events, exc
        finally:
            await adapter.aclose()
        return events, None

    with WireServer() as server:
        chunks = ev.reply(ev.text(0, "slow"))
        server.enqueue(Reply(chunks=[*chunks[:4], Delay(3), *chunks[4:]]))
        events, failure = asyncio.run(run(server))
        assert TextDelta("slow") in events
        assert "sent nothing for 0.3 s mid-reply" in str(failure)


def test_tool_arguments_the_sdk_cannot_parse_end_the_reply_with_our_error() -> None:
    with WireServer() as server:
        start = {"type": "tool_use", "id": "toolu_J", "name": "current_time", "input": {}}
        pieces = ['{"a": tru', "e, }}"]
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces]
        chunks = [
            ev.message_start(),
            ev.event("content_block_start", index=0, content_block=start),
            *[ev.event("content_block_delta", index=0, delta=d) for d in deltas],
        ]
        server.enqueue(Reply(chunks=[*chunks, ev.event("content_block_stop", index=0)]))
        events, failure = collect(server, Request(MODEL, ask("t"), TOOLS))
        assert isinstance(failure, ProviderError) and "could not be read" in str(failure)
        assert ToolCallDelta(0, arguments='{"a": tru') in events


def test_a_reply_that_ends_without_message_stop_is_an_error() -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "cut"))[:-2]))
        events, failure = collect(server, Request(MODEL, ask("hi")))
        assert TextDelta("cut") in events
        assert isinstance(failure, Unavailable) and "ended the reply early" in str(failure)


def test_a_turn_keeps_the_partial_output_when_the_connection_drops(library: Any) -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=[*ev.reply(ev.text(0, "So far"))[:5], Disconnect()]))
        adapter = provider(server)
        conversation = library.create()

        async def run() -> None:
            try:
                await runner(library, Models.of(adapter)).run(
                    conversation, f"anthropic:{MODEL}", "q"
                )
            finally:
                await adapter.aclose()

        with pytest.raises(Unavailable, match="lost mid-reply"):
            asyncio.run(run())
        output = conversation.history.at(2)
        assert isinstance(output, ModelOutput)
        assert (output.text, output.partial) == ("So far", True)
        assert output.error is not None and "lost mid-reply" in output.error


def test_a_tool_round_through_a_turn(library: Any) -> None:
    with WireServer() as server:
        call = ev.tool_use(0, "toolu_T", "current_time", {})
        server.enqueue(Reply(chunks=ev.reply(call, stop_reason="tool_use")))
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "It is noon."))))
        server.enqueue(Reply(chunks=ev.reply(ev.text(0, "Time check"))))  # the title
        adapter = provider(server)
        conversation = library.create()

        async def run() -> ModelOutput:
            try:
                return await runner(library, Models.of(adapter)).run(
                    conversation, f"anthropic:{MODEL}", "time?", tools=["current_time"]
                )
            finally:
                await adapter.aclose()

        assert asyncio.run(run()).text == "It is noon."
        second = server.requests[1].json
        assert_valid_messages_request(second)
        assert second["messages"][2]["content"][0]["tool_use_id"] == "toolu_T"
        assert conversation.history.title == "Time check"


def test_cancel_mid_stream_closes_the_http_stream() -> None:
    with WireServer() as server:
        chunks = ev.reply(ev.text(0, "a", "b"))
        server.enqueue(Reply(chunks=[*chunks[:5], Delay(10), *chunks[5:]]))

        async def run() -> list[StreamEvent]:
            adapter = provider(server)
            seen: list[StreamEvent] = []
            got_text = asyncio.Event()

            async def consume() -> None:
                async for event in adapter.stream(Request(MODEL, ask("hi"))):
                    seen.append(event)
                    if isinstance(event, TextDelta):
                        got_text.set()

            task = asyncio.create_task(consume())
            try:
                await asyncio.wait_for(got_text.wait(), 5)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            finally:
                await adapter.aclose()
            return seen

        seen = asyncio.run(run())
        assert TextDelta("a") in seen
        assert server.wait_for_disconnect(2)
        assert not server.requests[-1].finished  # the scripted 30 s of stream never went out
