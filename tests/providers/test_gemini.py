"""The Gemini adapter through the real google-genai SDK against the scripted wire server."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import msgspec
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
    Attachment,
    Context,
    ModelInput,
    ModelOutput,
    Reasoning,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.history.context import ConversationEntry
from app.notes import DropReason, ReasoningDropped, StandInSignature, english
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
from app.providers.gemini import GeminiProvider
from app.providers.gemini_replay import STAND_IN_SIGNATURE, unpack_parts
from app.store import Library
from app.turn import OutputBuilder
from tests.helpers import gemini_events as ge
from tests.helpers.turns import runner
from tests.helpers.wire_server import Delay, Disconnect, Recorded, Reply, WireServer, sse

MODEL = "gemini-2.5-flash"
KEY = "test-key-123"
PATH = "/v1/models/gemini-2.5-flash:streamGenerateContent"
# standard base64 with '+' and '/': the SDK would re-encode bytes as URL-safe ('-', '_')
SIG = base64.b64encode(b"\xfa\xfb\xfc\xfd\xfe\xff signature one \xfb\xff").decode()
SIG2 = base64.b64encode(b"\xfe\xff\xfb second").decode()
LOOKUP = ToolSpec(
    "lookup",
    "Look a word up",
    {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": False,
    },
)


def gemini(server: WireServer | None = None, **options: Any) -> GeminiProvider:
    options.setdefault("max_retries", 0)
    url = server.url if server is not None else "http://127.0.0.1:9"
    return GeminiProvider("gemini", [MODEL], KEY, url, **options)


def request(*entries: ConversationEntry, model: str = MODEL, **fields: Any) -> Request:
    context = Context(system=fields.pop("system", None), notebook=None, entries=entries)
    return Request(model, context, **fields)


def user(text: str, seq: int) -> ModelInput:
    return ModelInput(text=text, seq=seq)


def collect(provider: GeminiProvider, req: Request) -> list[StreamEvent]:
    async def run() -> list[StreamEvent]:
        try:
            return [event async for event in provider.stream(req)]
        finally:
            await provider.aclose()

    return asyncio.run(run())


def failure(provider: GeminiProvider, req: Request) -> tuple[ProviderError, list[StreamEvent]]:
    seen: list[StreamEvent] = []

    async def run() -> None:
        try:
            async for event in provider.stream(req):
                seen.append(event)
        finally:
            await provider.aclose()

    with pytest.raises(ProviderError) as caught:
        asyncio.run(run())
    return caught.value, seen


def stored_output(events: Sequence[StreamEvent], seq: int, model: str = MODEL) -> ModelOutput:
    builder = OutputBuilder("gemini", model)
    for event in events:
        builder.add(event)
    return msgspec.structs.replace(builder.build(), seq=seq)


def stream_reply(*chunks: bytes | Delay | Disconnect, status: int = 200) -> Reply:
    return Reply(status=status, chunks=list(chunks))


def sent(server: WireServer, index: int = -1) -> Recorded:
    return server.requests[index]


def sunny() -> Reply:
    return stream_reply(ge.chunk(ge.text("Sunny."), finish="STOP", usage=ge.usage(30, 2)))


# --- streaming --------------------------------------------------------------------------------


def test_text_streams_with_usage_and_finish_reason() -> None:
    with WireServer() as server:
        server.enqueue(
            stream_reply(
                ge.chunk(ge.text("Hel")),
                ge.chunk(ge.text("lo")),
                ge.chunk(ge.text("!"), finish="STOP", usage=ge.usage(10, 5, thoughts=3, cached=4)),
            )
        )
        provider = gemini(server)
        req = Request(
            MODEL,
            Context(system="Be brief", notebook="Likes tea", entries=(user("Hi", 1),)),
        )
        events = collect(provider, req)
        assert events == [
            TextDelta("Hel"),
            TextDelta("lo"),
            TextDelta("!"),
            UsageReport(Usage(input=10, cached=4, output=8, reasoning=3)),
            Finished("stop"),
        ]
        rec = sent(server)
        assert (rec.method, rec.path, rec.query) == ("POST", PATH, {"alt": ["sse"]})
        assert rec.headers["x-goog-api-key"] == KEY and KEY.encode() not in rec.body
        assert rec.json == {
            "contents": [{"parts": [{"text": "Hi"}], "role": "user"}],
            "systemInstruction": {"parts": [{"text": "Be brief\n\nLikes tea"}]},
            "generationConfig": {},
        }
        assert rec.json == provider.render(req).body


@pytest.mark.parametrize(
    ("finish", "block", "expected"),
    [
        ("MAX_TOKENS", None, "length"),
        ("SAFETY", None, "content_filter"),
        ("RECITATION", None, "content_filter"),
        (None, "PROHIBITED_CONTENT", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", None, "malformed_function_call"),
    ],
)
def test_finish_reasons_are_normalised(
    finish: str | None, block: str | None, expected: str
) -> None:
    with WireServer() as server:
        parts = [ge.text("cut")] if finish else []
        server.enqueue(stream_reply(ge.chunk(*parts, finish=finish, block_reason=block)))
        events = collect(gemini(server), request(user("Hi", 1)))
        assert events[-1] == Finished(expected)


# --- reasoning and thought signatures ---------------------------------------------------------


def test_signed_call_is_stored_and_replayed_verbatim() -> None:
    with WireServer() as server:
        server.enqueue(
            stream_reply(
                ge.chunk(ge.thought("Let me ")),
                ge.chunk(ge.thought("look it up.")),
                ge.chunk(ge.call("lookup", {"q": "tea"}, signature=SIG)),
                ge.chunk(ge.text("", signature=SIG2), finish="STOP", usage=ge.usage(20, 4, 9)),
            )
        )
        server.enqueue(sunny())
        provider = gemini(server)
        first = request(user("What is tea?", 1), tools=(LOOKUP,), reasoning="high")
        events = collect(provider, first)

        deltas = [e for e in events if isinstance(e, ReasoningDelta | ToolCallDelta)]
        assert deltas[:2] == [ReasoningDelta("Let me "), ReasoningDelta("look it up.")]
        [call] = deltas[2:]
        assert isinstance(call, ToolCallDelta) and call.id and call.id.startswith("gemini-call-")
        assert (call.index, call.name, json.loads(call.arguments)) == (0, "lookup", {"q": "tea"})
        assert events[-2:] == [
            UsageReport(Usage(input=20, output=13, reasoning=9)),
            Finished("tool_calls"),
        ]
        [done] = [e for e in events if isinstance(e, ReasoningDone)]
        [item] = done.items
        assert (item.provider, item.model, item.text) == ("gemini", MODEL, "Let me look it up.")
        parts = [
            {"text": "Let me look it up.", "thought": True},
            {"functionCall": {"name": "lookup", "args": {"q": "tea"}}, "thoughtSignature": SIG},
            {"text": "", "thoughtSignature": SIG2},
        ]
        assert unpack_parts(item.opaque) == parts
        assert sent(server).json["generationConfig"] == {
            "thinkingConfig": {"include_thoughts": True, "thinking_budget": 24576}
        }

        output = stored_output(events, seq=2)
        assert output.tool_calls == [ToolCall(id=call.id, name="lookup", arguments='{"q": "tea"}')]
        results = ToolResults(
            seq=3, results=[ToolResult(call_id=call.id, name="lookup", content="a drink")]
        )
        second = request(user("What is tea?", 1), output, results, tools=(LOOKUP,))
        assert provider.render(second).notes == ()
        assert [e for e in collect(provider, second) if isinstance(e, TextDelta)]
        contents = sent(server).json["contents"]
        assert contents[1] == {"parts": parts, "role": "model"}  # same parts, same base64
        assert contents[2] == {
            "parts": [{"functionResponse": {"name": "lookup", "response": {"output": "a drink"}}}],
            "role": "user",
        }
        assert sent(server).json == provider.render(second).body

        # another Gemini model gets no signatures it cannot check: rebuilt, with the stand-in
        other = provider.render(request(*second.context.entries, model="gemini-2.5-pro"))
        assert other.body["contents"][1]["parts"] == [
            {
                "functionCall": {"args": {"q": "tea"}, "name": "lookup"},
                "thoughtSignature": STAND_IN_SIGNATURE,
            }
        ]
        made = DropReason(cause="made_by", makers=(f"gemini:{MODEL}",))
        assert ReasoningDropped(seq=2, reasons=(made,)) in other.notes
        assert StandInSignature(seq=2, maker=f"gemini:{MODEL}") in other.notes


def test_a_partial_reply_without_stored_parts_drops_its_thoughts() -> None:
    partial = ModelOutput(
        provider="gemini",
        model=MODEL,
        seq=2,
        text="Half an ans",
        reasoning=[Reasoning(provider="gemini", model=MODEL, text="thinking")],
        partial=True,
    )
    rendered = gemini().render(request(user("Q", 1), partial, user("Go on", 3)))
    assert rendered.body["contents"][1] == {"parts": [{"text": "Half an ans"}], "role": "model"}
    unstored = DropReason(cause="not_stored", makers=(f"gemini:{MODEL}",))
    assert rendered.notes == (ReasoningDropped(seq=2, reasons=(unstored,)),)
    assert english(rendered.notes[0]) == (
        f"reasoning dropped (seq 2): made by gemini:{MODEL} (its parts were not stored: "
        "a partial reply)"
    )


def test_stored_parts_that_no_longer_match_the_calls_are_not_replayed() -> None:
    """A broken reply's calls are left out of the context; its parts still hold them."""
    parts = [{"text": "Checking", "thoughtSignature": SIG}, ge.call("lookup", {"q": "a"})]
    broken = ModelOutput(
        provider="gemini",
        model=MODEL,
        seq=2,
        text="Checking",
        reasoning=[
            Reasoning(
                provider="gemini",
                model=MODEL,
                opaque=json.dumps({"format": "gemini-parts/1", "parts": parts}),
            )
        ],
    )
    rendered = gemini().render(request(user("Q", 1), broken, user("Again", 3)))
    assert rendered.body["contents"][1] == {"parts": [{"text": "Checking"}], "role": "model"}
    mismatch = DropReason(cause="parts_mismatch")
    assert rendered.notes == (ReasoningDropped(seq=2, reasons=(mismatch,)),)


def test_parallel_calls_get_their_responses_in_call_order() -> None:
    with WireServer() as server:
        server.enqueue(
            stream_reply(
                ge.chunk(
                    ge.call("lookup", {"q": "a"}, call_id="fc-1", signature=SIG),
                    ge.call("lookup", {"q": "b"}, call_id="fc-2"),
                    finish="STOP",
                )
            )
        )
        server.enqueue(sunny())
        provider = gemini(server)
        events = collect(provider, request(user("Both", 1), tools=(LOOKUP,)))
        calls = [e for e in events if isinstance(e, ToolCallDelta)]
        assert [(c.index, c.id, c.arguments) for c in calls] == [
            (0, "fc-1", '{"q": "a"}'),
            (1, "fc-2", '{"q": "b"}'),
        ]
        assert events[-1] == Finished("tool_calls")
        output = stored_output(events, seq=2)
        results = ToolResults(  # recorded out of order: responses must follow the calls
            seq=3,
            results=[
                ToolResult(call_id="fc-2", name="lookup", content="B"),
                ToolResult(call_id="fc-1", name="lookup", content="no such word", is_error=True),
            ],
        )
        second = request(user("Both", 1), output, results, user("Thanks", 4), tools=(LOOKUP,))
        collect(provider, second)
        contents = sent(server).json["contents"]
        assert contents[1]["parts"][0]["thoughtSignature"] == SIG
        assert "thoughtSignature" not in contents[1]["parts"][1]
        assert contents[2] == {
            "parts": [
                {
                    "functionResponse": {
                        "id": "fc-1",
                        "name": "lookup",
                        "response": {"error": "no such word"},
                    }
                },
                {"functionResponse": {"id": "fc-2", "name": "lookup", "response": {"output": "B"}}},
                {"text": "Thanks"},
            ],
            "role": "user",
        }


def foreign_history() -> tuple[ConversationEntry, ...]:
    """Anthropic (thinking, two calls, one broken), then OpenAI and Ollama calls this turn."""
    anthropic = ModelOutput(
        provider="anthropic",
        model="claude-sonnet-4-5",
        seq=2,
        text="I'll check both.",
        reasoning=[
            Reasoning(
                provider="anthropic", model="claude-sonnet-4-5", text="hmm", signature="EqQBCk"
            )
        ],
        tool_calls=[
            ToolCall(id="toolu_01A", name="lookup", arguments='{"q": "a"}'),
            ToolCall(id="toolu_01B", name="lookup", arguments='{"q": '),
        ],
    )
    openai = ModelOutput(
        provider="openai",
        model="gpt-4.1",
        seq=6,
        tool_calls=[ToolCall(id="call_x", name="lookup", arguments="[1, 2]")],
    )
    ollama = ModelOutput(
        provider="ollama",
        model="llama3.2",
        seq=8,
        text="One more.",
        tool_calls=[
            ToolCall(id="fn-1", name="lookup", arguments=""),
            ToolCall(id="fn-2", name="lookup", arguments='{"q": "c"}'),
        ],
    )
    return (
        user("Plan", 1),
        anthropic,
        ToolResults(
            seq=3,
            results=[
                ToolResult(call_id="toolu_01A", name="lookup", content="A"),
                ToolResult(call_id="toolu_01B", name="lookup", content="bad args", is_error=True),
            ],
        ),
        ModelOutput(provider="anthropic", model="claude-sonnet-4-5", seq=4, text="Done."),
        user("Now SQL", 5),
        openai,
        ToolResults(seq=7, results=[ToolResult(call_id="call_x", name="lookup", content="X")]),
        ollama,
        ToolResults(
            seq=9,
            results=[
                ToolResult(call_id="fn-1", name="lookup", content="1"),
                ToolResult(call_id="fn-2", name="lookup", content="2"),
            ],
        ),
    )


def test_history_from_other_providers_replays_validly() -> None:
    with WireServer() as server:
        server.enqueue(sunny())
        provider = gemini(server)
        req = request(*foreign_history(), tools=(LOOKUP,), reasoning="low")
        rendered = provider.render(req)
        collect(provider, req)
        rec = sent(server)
        assert rec.json == rendered.body
        fr = "functionResponse"

        def call(args: dict[str, Any], signed: bool = False) -> dict[str, Any]:
            part: dict[str, Any] = {"functionCall": {"args": args, "name": "lookup"}}
            if signed:
                part["thoughtSignature"] = STAND_IN_SIGNATURE
            return part

        assert rec.json["contents"] == [
            {"parts": [{"text": "Plan"}], "role": "user"},
            {  # a past turn: no signature needed; Anthropic's thinking is not sent
                "parts": [
                    {"text": "I'll check both."},
                    call({"q": "a"}),
                    call({"_raw_arguments": '{"q": '}),
                ],
                "role": "model",
            },
            {
                "parts": [
                    {fr: {"name": "lookup", "response": {"output": "A"}}},
                    {fr: {"name": "lookup", "response": {"error": "bad args"}}},
                ],
                "role": "user",
            },
            {"parts": [{"text": "Done."}], "role": "model"},
            {"parts": [{"text": "Now SQL"}], "role": "user"},
            {"parts": [call({"_raw_arguments": "[1, 2]"}, signed=True)], "role": "model"},
            {"parts": [{fr: {"name": "lookup", "response": {"output": "X"}}}], "role": "user"},
            {  # each step of the current turn: its first call carries the stand-in
                "parts": [{"text": "One more."}, call({}, signed=True), call({"q": "c"})],
                "role": "model",
            },
            {
                "parts": [
                    {fr: {"name": "lookup", "response": {"output": "1"}}},
                    {fr: {"name": "lookup", "response": {"output": "2"}}},
                ],
                "role": "user",
            },
        ]
        # the stand-in reaches the wire as that exact text, not re-encoded as base64 bytes
        assert rec.body.count(b'"thoughtSignature": "skip_thought_signature_validator"') == 2
        raw = 'are not a JSON object: sent as {"_raw_arguments": <the text>}'
        pairing = "calls and responses pair by order"
        assert tuple(english(note) for note in rendered.notes) == (
            "reasoning dropped (seq 2): made by anthropic:claude-sonnet-4-5",
            f"arguments of lookup (seq 2, call toolu_01B) {raw}",
            "tool call ids not sent (seq 2, made by anthropic:claude-sonnet-4-5): "
            f"toolu_01A, toolu_01B; {pairing}",
            f"arguments of lookup (seq 6, call call_x) {raw}",
            "stand-in thought signature (seq 6): calls made by openai:gpt-4.1",
            f"tool call ids not sent (seq 6, made by openai:gpt-4.1): call_x; {pairing}",
            "stand-in thought signature (seq 8): calls made by ollama:llama3.2",
            f"tool call ids not sent (seq 8, made by ollama:llama3.2): fn-1, fn-2; {pairing}",
        )


def test_render_is_the_body_the_sdk_posts() -> None:
    """Everything render can produce, sent through the SDK: the recorded body is identical."""
    picture = base64.b64encode(b"\x89PNG\r\n\x1a\n\xfb\xff\xfe").decode()  # has '+' and '/'
    verbatim = ModelOutput(
        provider="gemini",
        model=MODEL,
        seq=2,
        text="Seen.",
        reasoning=[
            Reasoning(
                provider="gemini",
                model=MODEL,
                text="hm",
                opaque=json.dumps(
                    {
                        "format": "gemini-parts/1",
                        "parts": [
                            {"text": "hm", "thought": True},
                            {"text": "Seen.", "thoughtSignature": SIG},
                        ],
                    }
                ),
            )
        ],
    )
    entries = (
        ModelInput(
            text="What is this?",
            seq=1,
            attachments=[Attachment(name="p.png", mime_type="image/png", data=picture)],
        ),
        verbatim,
        *foreign_history()[1:],
    )
    req = Request(
        MODEL,
        Context(system="Be brief", notebook="User likes tea", entries=entries),
        tools=(LOOKUP, ToolSpec("current_time", "The time", {"type": "object"})),
        max_tokens=512,
        temperature=0.2,
        reasoning="medium",
    )
    with WireServer() as server:
        server.enqueue(sunny())
        provider = gemini(server)
        body = provider.render(req).body
        collect(provider, req)
        assert sent(server).json == body
        inline = body["contents"][0]["parts"][1]["inlineData"]
        assert inline["mime_type"] == "image/png" and "+" not in inline["data"]
        assert base64.urlsafe_b64decode(inline["data"]) == base64.b64decode(picture)
        assert body["generationConfig"] == {
            "maxOutputTokens": 512,
            "temperature": 0.2,
            "thinkingConfig": {"include_thoughts": True, "thinking_budget": 8192},
        }


def test_unknown_reasoning_level_is_refused() -> None:
    with pytest.raises(BadRequest, match="unknown reasoning level 'max'"):
        gemini().render(request(user("Hi", 1), reasoning="max"))


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "body", "headers", "error", "words"),
    [
        (401, ge.error_body(401, "UNAUTHENTICATED", "No key"), {}, AuthFailed, "key set gemini"),
        (403, ge.error_body(403, "PERMISSION_DENIED", "Denied"), {}, AuthFailed, "key set gemini"),
        (
            400,
            ge.error_body(
                400,
                "INVALID_ARGUMENT",
                "API key not valid. Please pass a valid API key.",
                [ge.error_info("API_KEY_INVALID")],
            ),
            {},
            AuthFailed,
            "rejected the API key",
        ),
        (
            429,
            ge.error_body(
                429,
                "RESOURCE_EXHAUSTED",
                "You exceeded your current quota. Details follow.",
                [ge.retry_info("20s")],
            ),
            {},
            RateLimited,
            "retry in 20 s",
        ),
        (
            429,
            ge.error_body(429, "RESOURCE_EXHAUSTED", "Slow down"),
            {"Retry-After": "7"},
            RateLimited,
            "retry in 7 s",
        ),
        (503, ge.error_body(503, "UNAVAILABLE", "Overloaded"), {}, Unavailable, "try again"),
        (500, ge.error_body(500, "INTERNAL", "Oops"), {}, Unavailable, "try again later"),
        (
            400,
            ge.error_body(400, "INVALID_ARGUMENT", "Invalid JSON payload received"),
            {},
            BadRequest,
            "rejected the request (400): Invalid JSON payload received",
        ),
        (
            400,
            ge.error_body(
                400,
                "INVALID_ARGUMENT",
                "The input token count (2000000) exceeds the maximum number of tokens "
                "allowed (1048576).",
            ),
            {},
            BadRequest,
            "too long for gemini-2.5-flash's context window",
        ),
        (404, ge.error_body(404, "NOT_FOUND", "models/x is not found"), {}, UnknownModel, "model"),
    ],
)
def test_http_errors_become_crosstalk_errors(
    status: int,
    body: dict[str, Any],
    headers: dict[str, str],
    error: type[ProviderError],
    words: str,
) -> None:
    with WireServer() as server:
        server.enqueue(Reply(status, headers=headers, body=body))
        caught, seen = failure(gemini(server, max_retries=1), request(user("Hi", 1)))
        assert type(caught) is error and words in str(caught)
        assert KEY not in str(caught) and "\n" not in str(caught) and not seen
        if isinstance(caught, RateLimited):
            assert caught.retry_after == (20.0 if "20s" in json.dumps(body) else 7.0)
        retried = status in (500, 503)
        assert len(server.requests) == (2 if retried else 1)  # 429 is left to the caller


def test_a_failure_before_the_body_is_retried() -> None:
    with WireServer() as server:
        server.enqueue(Reply(503, body=ge.error_body(503, "UNAVAILABLE", "Overloaded")))
        server.enqueue(sunny())
        events = collect(gemini(server, max_retries=1), request(user("Hi", 1)))
        assert TextDelta("Sunny.") in events and len(server.requests) == 2


def test_unreachable_server_and_timeout_are_unavailable() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"  # bound, not listening: refused
        provider = GeminiProvider("gemini", [MODEL], KEY, url, max_retries=0)
        caught, _ = failure(provider, request(user("Hi", 1)))
        assert isinstance(caught, Unavailable) and f"could not reach gemini at {url}" in str(caught)
    with WireServer() as server:
        server.enqueue(stream_reply(Delay(2), ge.chunk(ge.text("late"), finish="STOP")))
        caught, _ = failure(gemini(server, timeout=0.3), request(user("Hi", 1)))
        assert isinstance(caught, Unavailable) and "no answer" in str(caught)


def test_an_unreadable_stream_is_an_error() -> None:
    with WireServer() as server:
        server.enqueue(stream_reply(sse({"candidates": []}, event="message")))
        caught, _ = failure(gemini(server), request(user("Hi", 1)))
        assert isinstance(caught, Unavailable) and "cannot be read" in str(caught)


def turn_until_failure(server: WireServer, library: Library) -> tuple[ProviderError, ModelOutput]:
    """A turn against the server; returns the error and the partial output it kept."""
    conversation = library.create()
    library.append(conversation, Title(text="t", source="user"))
    provider = gemini(server)

    async def run() -> None:
        try:
            await runner(library, Models.of(provider)).run(conversation, f"gemini:{MODEL}", "Hi")
        finally:
            await provider.aclose()

    with pytest.raises(ProviderError) as caught:
        asyncio.run(run())
    output = list(conversation.history)[-1]
    assert isinstance(output, ModelOutput)
    return caught.value, output


def test_an_error_event_mid_stream_keeps_what_arrived(library: Library) -> None:
    with WireServer() as server:
        server.enqueue(
            stream_reply(ge.chunk(ge.text("Half")), ge.error_event(503, "UNAVAILABLE", "Busy"))
        )
        caught, output = turn_until_failure(server, library)
        assert isinstance(caught, Unavailable) and "what arrived was kept" in str(caught)
        assert output.partial and output.text == "Half" and output.error == str(caught)


def test_a_dropped_connection_keeps_what_arrived(library: Library) -> None:
    with WireServer() as server:
        server.enqueue(stream_reply(ge.chunk(ge.text("Half")), Disconnect()))
        caught, output = turn_until_failure(server, library)
        assert isinstance(caught, Unavailable)
        assert f"connection to {server.url} lost mid-reply" in str(caught)
        assert output.partial and output.text == "Half"


# --- cancel ---------------------------------------------------------------------------------


def slow_reply() -> Reply:
    return stream_reply(ge.chunk(ge.text("a")), Delay(10), ge.chunk(ge.text("b"), finish="STOP"))


def test_cancelling_the_consumer_closes_the_connection() -> None:
    with WireServer() as server:
        server.enqueue(slow_reply())
        provider = gemini(server)

        async def run() -> bool:
            got_first = asyncio.Event()

            async def consume() -> None:
                async for _ in provider.stream(request(user("Hi", 1))):
                    got_first.set()

            task = asyncio.create_task(consume())
            await asyncio.wait_for(got_first.wait(), 5)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            try:  # the client is still open: only the cancel can have closed the stream
                return await asyncio.to_thread(server.wait_for_disconnect, 2)
            finally:
                await provider.aclose()

        assert asyncio.run(run())
        assert not sent(server).finished


def test_leaving_the_stream_early_closes_the_connection() -> None:
    with WireServer() as server:
        server.enqueue(slow_reply())
        provider = gemini(server)

        async def run() -> bool:
            events = provider.stream(request(user("Hi", 1)))
            async for _ in events:
                break
            await events.aclose()  # type: ignore[attr-defined]
            try:
                return await asyncio.to_thread(server.wait_for_disconnect, 2)
            finally:
                await provider.aclose()

        assert asyncio.run(run())


def test_importing_the_adapter_does_not_import_the_sdk() -> None:
    code = "import sys, app.providers.gemini; print('google.genai' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
