"""OpenAI Chat Completions through the real SDK against WireServer, and against a real
OpenAI-compatible server nobody here wrote (llama-cpp-python's)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

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
    History,
    ModelInput,
    ModelOutput,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    render_context,
)
from app.history.context import ConversationEntry
from app.notes import NotSent, OrphanResult, english_all
from app.providers import (
    Finished,
    Models,
    ReasoningDelta,
    Request,
    StreamEvent,
    TextDelta,
    ToolSpec,
    UsageReport,
)
from app.providers.openai_chat import OpenAIChatProvider
from app.store import Library
from app.turn import OutputBuilder
from tests.helpers.openai_events import (
    DONE,
    api_error,
    chat_reply,
    chunk,
    text,
    tool_call,
    usage_chunk,
)
from tests.helpers.turns import runner
from tests.helpers.wire_server import Delay, Disconnect, Reply, WireServer

KEY = "sk-test-0123456789abcdef"
TOOL = ToolSpec("lookup", "Look a word up.", {"type": "object", "properties": {}})


def make(server: WireServer, name: str = "openai", **options: Any) -> OpenAIChatProvider:
    options.setdefault("max_retries", 0)
    return OpenAIChatProvider(name, ["gpt-4.1"], KEY, server.url + "/v1", **options)


def context(*entries: ConversationEntry, system: str | None = None) -> Context:
    stamped = tuple(e if e.seq else replace(e, seq=i + 1) for i, e in enumerate(entries))
    return Context(system=system, notebook=None, entries=stamped)


def ask(text: str) -> Context:
    return context(ModelInput(text=text))


def collect(provider: OpenAIChatProvider, request: Request) -> list[StreamEvent]:
    async def run() -> list[StreamEvent]:
        try:
            return [event async for event in provider.stream(request)]
        finally:
            await provider.aclose()

    return asyncio.run(run())


def failure(provider: OpenAIChatProvider, request: Request) -> Exception:
    with pytest.raises(ProviderError) as caught:
        collect(provider, request)
    return caught.value


def built(events: list[StreamEvent], provider: str = "openai") -> ModelOutput:
    builder = OutputBuilder(provider, "gpt-4.1")
    for event in events:
        builder.add(event)
    return builder.build()


def test_text_streams_with_usage_and_finish_and_render_is_what_was_sent() -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=chat_reply("Hel", "lo", prompt=12, completion=2, cached=4)))
        provider = make(server)
        request = Request("gpt-4.1", ask("hi"), max_tokens=50, temperature=0.2)
        events = collect(provider, request)
        (sent,) = server.requests
    assert events == [
        TextDelta("Hel"),
        TextDelta("lo"),
        UsageReport(Usage(input=12, cached=4, output=2)),
        Finished("stop"),
    ]
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.json == provider.render(request).body
    assert sent.json == {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 50,  # not api.openai.com: the older name that every server knows
        "temperature": 0.2,
    }
    assert KEY not in json.dumps(sent.json)


def test_official_api_gets_max_completion_tokens_tools_and_reasoning_effort() -> None:
    provider = OpenAIChatProvider("openai", [], KEY, None)
    request = Request(
        "o4-mini", context(ModelInput(text="q"), system="Be brief"), (TOOL,), 99, None, "high"
    )
    rendered = provider.render(request)
    body = rendered.body
    assert body["max_completion_tokens"] == 99 and "max_tokens" not in body
    assert body["reasoning_effort"] == "high"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Look a word up.",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    assert body["messages"][0] == {"role": "system", "content": "Be brief"}
    assert rendered.notes == ()


def test_system_and_notebook_go_in_one_system_message() -> None:
    provider = OpenAIChatProvider("openai", [], KEY, None)
    ctx = Context("Be brief.", "User likes SQL.", (ModelInput(text="q", seq=3),))
    messages = provider.render(Request("gpt-4.1", ctx)).body["messages"]
    assert messages == [
        {"role": "system", "content": "Be brief.\n\nUser likes SQL."},
        {"role": "user", "content": "q"},
    ]


def test_attachments_go_as_content_parts_or_a_note() -> None:
    attachments = [
        Attachment(name="cat.png", mime_type="image/png", data="iVBORw0K"),
        Attachment(name="notes.txt", mime_type="text/plain", data="aGVsbG8="),
        Attachment(name="paper.pdf", mime_type="application/pdf", data="JVBERi0="),
        Attachment(name="kept.pdf", mime_type="application/pdf", sha256="ab" * 32, size=9),
    ]
    ctx = context(ModelInput(text="Look", attachments=attachments))
    rendered = OpenAIChatProvider("openai", [], KEY, None).render(Request("gpt-4.1", ctx))
    assert rendered.body["messages"][0]["content"] == [
        {"type": "text", "text": "Look"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
        {"type": "text", "text": "[notes.txt]\nhello"},
        {
            "type": "file",
            "file": {"filename": "paper.pdf", "file_data": "data:application/pdf;base64,JVBERi0="},
        },
    ]
    assert rendered.notes == (NotSent(cause="no_bytes", names=("kept.pdf",), seq=1),)


def test_parallel_tool_calls_stream_then_results_replay() -> None:
    with WireServer() as server:
        server.enqueue(
            Reply(
                chunks=[
                    chunk({"role": "assistant", "content": None}),
                    tool_call(0, "call_A", "lookup", ""),
                    tool_call(0, arguments='{"wo'),
                    tool_call(1, "call_B", "current_time", ""),
                    tool_call(0, arguments='rd": "x"}'),
                    tool_call(1, arguments="{}"),
                    chunk(finish="tool_calls"),
                    usage_chunk(prompt=20, completion=9),
                    DONE,
                ]
            )
        )
        server.enqueue(Reply(chunks=chat_reply("done")))
        provider = make(server)
        events = collect(provider, Request("gpt-4.1", ask("go"), (TOOL,)))
        output = built(events)
        assert output.tool_calls == [
            ToolCall(id="call_A", name="lookup", arguments='{"word": "x"}'),
            ToolCall(id="call_B", name="current_time", arguments="{}"),
        ]
        assert output.finish_reason == "tool_calls"
        results = ToolResults(
            results=[
                ToolResult(call_id="call_A", name="lookup", content="a letter"),
                ToolResult(call_id="call_B", name="current_time", content="noon", is_error=True),
            ]
        )
        second = Request("gpt-4.1", context(ModelInput(text="go"), output, results), (TOOL,))
        collect(provider, second)
        sent = server.requests[1].json
    assert sent["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_A",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"word": "x"}'},
                },
                {
                    "id": "call_B",
                    "type": "function",
                    "function": {"name": "current_time", "arguments": "{}"},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_A", "content": "a letter"},
        {"role": "tool", "tool_call_id": "call_B", "content": "Error: noon"},
    ]
    assert provider.render(second).notes == ()


def assert_valid_chat_replay(messages: list[dict[str, Any]]) -> None:
    """Every call id is answered by one tool message before any other message."""
    for i, message in enumerate(messages):
        if message["role"] != "assistant" or not message.get("tool_calls"):
            continue
        ids = [c["id"] for c in message["tool_calls"]]
        after = messages[i + 1 : i + 1 + len(ids)]
        assert [m["role"] for m in after] == ["tool"] * len(ids)
        assert sorted(m["tool_call_id"] for m in after) == sorted(ids)
        for call in message["tool_calls"]:
            assert 0 < len(call["id"]) <= 40
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
    every = [c["id"] for m in messages for c in m.get("tool_calls", [])]
    assert len(every) == len(set(every))


def test_foreign_tool_calls_replay_validly_with_notes() -> None:
    long_id = "toolu_" + "x" * 60
    anthropic = ModelOutput(
        provider="anthropic",
        model="claude-sonnet-4-5",
        text="Let me look.",
        reasoning=[
            Reasoning(provider="anthropic", model="claude-sonnet-4-5", text="hm", signature="s")
        ],
        tool_calls=[
            ToolCall(id="toolu_01A09q90qw90lq917835lq9", name="lookup", arguments='{"word":"a"}'),
            ToolCall(id=long_id, name="lookup", arguments='{"word": "b"'),  # cut off
        ],
    )
    anthropic_results = ToolResults(
        results=[
            ToolResult(call_id=long_id, name="lookup", content="B"),  # out of order
            ToolResult(call_id="toolu_01A09q90qw90lq917835lq9", name="lookup", content="A"),
        ]
    )
    gemini = ModelOutput(
        provider="gemini",
        model="gemini-2.5-flash",
        tool_calls=[
            ToolCall(id="fn-1", name="lookup", arguments=""),  # no arguments: sent as {}
            ToolCall(id="fn 2/x", name="current_time", arguments="[1]"),
            ToolCall(id="call_abc", name="current_time", arguments="{}"),
        ],
    )
    gemini_results = ToolResults(
        results=[
            ToolResult(call_id="fn-1", name="lookup", content="one"),
            ToolResult(call_id="call_abc", name="current_time", content="three"),
        ]  # the second call's result is missing
    )
    again = ModelOutput(  # a later reply that reuses an id: rewritten, never duplicated
        provider="openai",
        model="gpt-4.1",
        tool_calls=[ToolCall(id="fn-1", name="lookup", arguments="{}")],
    )
    again_results = ToolResults(results=[ToolResult(call_id="fn-1", name="lookup", content="1")])
    ctx = context(
        ModelInput(text="q"),
        anthropic,
        anthropic_results,
        gemini,
        gemini_results,
        again,
        again_results,
        ModelInput(text="and?"),
    )
    with WireServer() as server:
        server.enqueue(Reply(chunks=chat_reply("ok")))
        provider = make(server)
        request = Request("gpt-4.1", ctx, (TOOL,))
        rendered = provider.render(request)
        collect(provider, request)
        messages = server.requests[0].json["messages"]
    assert messages == rendered.body["messages"]
    assert_valid_chat_replay(messages)
    first_calls = messages[1]["tool_calls"]
    assert first_calls[0]["id"] == "toolu_01A09q90qw90lq917835lq9"  # fine as it is: kept
    rewritten = first_calls[1]["id"]
    assert rewritten != long_id and rewritten.startswith("call_")
    assert messages[2:4] == [  # in call order, whatever order the results came in
        {"role": "tool", "tool_call_id": "toolu_01A09q90qw90lq917835lq9", "content": "A"},
        {"role": "tool", "tool_call_id": rewritten, "content": "B"},
    ]
    assert json.loads(first_calls[1]["function"]["arguments"]) == {
        "unparsed_arguments": '{"word": "b"'
    }
    gemini_calls = messages[4]["tool_calls"]
    assert [c["id"] for c in gemini_calls][::2] == ["fn-1", "call_abc"]
    assert [c["function"]["arguments"] for c in gemini_calls] == [
        "{}",
        '{"unparsed_arguments": "[1]"}',
        "{}",
    ]
    assert messages[6]["content"] == "no result was recorded for this call"
    assert messages[8]["tool_calls"][0]["id"] not in ("fn-1", rewritten)
    assert messages[-1] == {"role": "user", "content": "and?"}
    notes = english_all(rendered.notes, "\n")
    assert "reasoning dropped (seq 2): made by anthropic:claude-sonnet-4-5" in notes
    assert f"tool call ids rewritten (seq 2, anthropic:claude-sonnet-4-5): {long_id!r}" in notes
    assert "'fn 2/x' -> 'call_" in notes and "(seq 6, openai:gpt-4.1): 'fn-1'" in notes
    assert "do not parse as a JSON object sent as a stand-in (seq 4" in notes
    assert "no result recorded for tool call 'fn 2/x': stand-in sent" in notes
    assert provider.render(request) == rendered  # pure: the rewrite is the same every time


def test_stray_results_are_dropped_with_a_note() -> None:
    ctx = context(
        ModelInput(text="q"),
        ToolResults(results=[ToolResult(call_id="x", name="lookup", content="?")]),
    )
    rendered = OpenAIChatProvider("openai", [], KEY, None).render(Request("gpt-4.1", ctx))
    assert rendered.body["messages"] == [{"role": "user", "content": "q"}]
    assert rendered.notes == (OrphanResult(cause="dropped_all", seq=2),)


def test_thinking_from_a_compatible_server_streams_and_is_dropped_on_replay() -> None:
    with WireServer() as server:
        server.enqueue(
            Reply(
                chunks=[
                    chunk({"role": "assistant", "reasoning_content": "Think"}),
                    chunk({"reasoning_content": "ing."}),
                    text("Answer"),
                    chunk(finish="stop"),
                    DONE,
                ]
            )
        )
        provider = make(server, name="vllm")
        events = collect(provider, Request("qwen3", ask("q")))
    assert events[:3] == [ReasoningDelta("Think"), ReasoningDelta("ing."), TextDelta("Answer")]
    output = built(events, "vllm")
    assert output.reasoning == [Reasoning(provider="vllm", model="gpt-4.1", text="Thinking.")]
    replay = provider.render(Request("qwen3", context(ModelInput(text="q"), output)))
    assert replay.body["messages"][1] == {"role": "assistant", "content": "Answer"}
    assert english_all(replay.notes) == (
        "reasoning dropped (seq 2): made by vllm:gpt-4.1; Chat Completions cannot carry it"
    )


def test_a_tolerant_reading_of_sparse_servers() -> None:
    """No ids, no usage, no finish reason, no [DONE]; parallel calls all at index 0."""
    with WireServer() as server:
        sparse = [
            chunk({"content": "x"}, with_id=False),
            chunk({"tool_calls": [{"function": {"name": "lookup", "arguments": "{}"}}]}),
            chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "lookup"}}]}),
            chunk({"tool_calls": [{"index": 0, "id": "c2", "function": {"name": "current_time"}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}),
        ]
        server.enqueue(Reply(chunks=sparse))
        events = collect(make(server, name="ollama"), Request("llama3.2", ask("q")))
    output = built(events, "ollama")
    assert output.text == "x" and output.usage == Usage()
    assert output.finish_reason == "tool_calls"
    [first, second, third] = output.tool_calls
    assert first.id.startswith("call_") and (first.name, first.arguments) == ("lookup", "{}")
    assert (second.id, second.name) == ("c1", "lookup")
    assert (third.id, third.name, third.arguments) == ("c2", "current_time", "{}")
    assert not any(isinstance(e, UsageReport) for e in events)


def test_a_made_up_id_gives_way_to_a_real_one_arriving_late() -> None:
    with WireServer() as server:
        server.enqueue(
            Reply(
                chunks=[
                    tool_call(0, None, "lookup", "{"),
                    tool_call(0, "call_late", None, "}"),
                    chunk(finish="tool_calls"),
                ]
            )
        )
        events = collect(make(server), Request("gpt-4.1", ask("q")))
    assert built(events).tool_calls == [ToolCall(id="call_late", name="lookup", arguments="{}")]


@pytest.mark.parametrize(
    ("reply", "kind", "words"),
    [
        (
            Reply(401, body=api_error(f"Incorrect API key provided: {KEY}", "invalid_api_key")),
            AuthFailed,
            "openai rejected the API key: run `crosstalk key set openai`",
        ),
        (
            Reply(429, headers={"retry-after": "20"}, body=api_error("Slow down", None)),
            RateLimited,
            "rate limited by openai: retry in 20 s",
        ),
        (
            Reply(429, body=api_error("You exceeded your quota", "insufficient_quota")),
            RateLimited,
            "quota is used up",
        ),
        (Reply(503, body=api_error("Overloaded")), Unavailable, "openai is unavailable (503)"),
        (Reply(500, body="oops"), Unavailable, "openai is unavailable (500): try again later"),
        (
            Reply(400, body=api_error("Invalid 'messages[1].content'", "invalid_value")),
            BadRequest,
            "openai rejected the request (400): Invalid 'messages[1].content'",
        ),
        (
            Reply(
                400,
                body=api_error(
                    "This model's maximum context length is 128000 tokens. However, your "
                    "messages resulted in 130000 tokens.",
                    "context_length_exceeded",
                ),
            ),
            BadRequest,
            "too long for gpt-4.1's context window: fork it",
        ),
        (
            Reply(404, body=api_error("The model does not exist")),
            UnknownModel,
            "no model 'gpt-4.1'",
        ),
        (Reply(403, body=api_error("Project lacks access")), AuthFailed, "refused access"),
    ],
)
def test_http_errors_become_our_own(reply: Reply, kind: type[Exception], words: str) -> None:
    with WireServer() as server:
        server.enqueue(reply)
        error = failure(make(server), Request("gpt-4.1", ask("q")))
        assert len(server.requests) == 1
    assert type(error) is kind and words in str(error)
    assert KEY not in str(error) and "\n" not in str(error)
    if kind is RateLimited and "20" in words:
        assert isinstance(error, RateLimited) and error.retry_after == 20


def test_an_error_inside_the_stream_raises() -> None:
    with WireServer() as server:
        error_event = (
            'data: {"error": {"message": "The server had an error", "type": "server_error"}}\n\n'
        )
        server.enqueue(Reply(chunks=[text("par"), error_event]))
        error = failure(make(server), Request("gpt-4.1", ask("q")))
    assert isinstance(error, Unavailable) and "failed mid-reply (server_error)" in str(error)


def test_unreachable_server_says_so() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    provider = OpenAIChatProvider("ollama", [], "x", f"http://127.0.0.1:{port}/v1", max_retries=0)
    error = failure(provider, Request("m", ask("q")))
    assert isinstance(error, Unavailable)
    assert f"could not reach ollama at http://127.0.0.1:{port}/v1" in str(error)


def test_failures_before_the_body_are_retried_then_it_streams() -> None:
    with WireServer() as server:
        server.enqueue(Reply(500, headers={"retry-after-ms": "1"}, body=api_error("hiccup")))
        server.enqueue(Reply(429, headers={"retry-after-ms": "1"}, body=api_error("busy")))
        server.enqueue(Reply(chunks=chat_reply("fine")))
        events = collect(make(server, max_retries=2), Request("gpt-4.1", ask("q")))
        assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1", "2"]
    assert TextDelta("fine") in events


def test_a_dropped_connection_keeps_the_partial_reply(library: Library) -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=[text("Half an "), text("answer"), Disconnect()]))
        provider = make(server)
        conversation = library.create()
        turns = runner(library, Models.of(provider), title_model="openai:gpt-4.1")

        async def turn() -> None:
            try:
                await turns.run(conversation, "openai:gpt-4.1", "q")
            finally:
                await provider.aclose()

        with pytest.raises(Unavailable, match="lost mid-reply: what arrived was kept"):
            asyncio.run(turn())
        assert server.requests[0].dropped
    [output] = [e for e in conversation.history if isinstance(e, ModelOutput)]
    assert output.partial and output.text == "Half an answer"
    assert output.error is not None and "lost mid-reply" in output.error


def test_cancel_mid_stream_closes_the_connection() -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=[text("a"), Delay(10), text("b")]))
        provider = make(server)

        async def run() -> list[StreamEvent]:
            seen: list[StreamEvent] = []
            first = asyncio.Event()

            async def consume() -> None:
                async for event in provider.stream(Request("gpt-4.1", ask("q"))):
                    seen.append(event)
                    first.set()

            task = asyncio.create_task(consume())
            await asyncio.wait_for(first.wait(), 5)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await provider.aclose()
            return seen

        assert asyncio.run(run()) == [TextDelta("a")]
        assert server.wait_for_disconnect(2)
        assert not server.requests[0].finished


def test_the_sdk_is_imported_on_first_use_only() -> None:
    code = """
import sys
from app.history import Context
from app.providers import Request
from app.providers.openai_chat import OpenAIChatProvider
from app.providers.openai_responses import OpenAIResponsesProvider
for kind in (OpenAIChatProvider, OpenAIResponsesProvider):
    kind("openai", ["gpt-4.1"], "k", None).render(Request("m", Context(None, None, ())))
assert "openai" not in sys.modules, "the openai SDK was imported"
"""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- a real OpenAI-compatible server: llama-cpp-python's, serving the bundled model -------


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    from app.providers.local import bundled_model_path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(bundled_model_path()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
    ]
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    log = log_path.open("wb")  # a pipe would fill up with llama.cpp's loading log and block it
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                tail = log_path.read_text(errors="replace")[-2000:]
                pytest.fail(f"llama_cpp.server exited: {tail}")
            try:
                with urllib.request.urlopen(base_url + "/models", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not answer /v1/models within 60 s")
            time.sleep(0.25)
        yield base_url, log_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # its own session: the server and nothing else
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@pytest.mark.slow
def test_a_real_openai_compatible_server(llama_server: tuple[str, Path]) -> None:
    base_url, log_path = llama_server
    provider = OpenAIChatProvider("llamacpp", ["smollm2"], "not-needed", base_url)
    history = History()
    history.append(history.stamp(ModelInput(text="My name is Zebulon. Say hello.")))

    async def ask_twice() -> tuple[list[StreamEvent], list[StreamEvent]]:
        try:
            request = Request("smollm2", render_context(history), max_tokens=8, temperature=0.0)
            first = [event async for event in provider.stream(request)]
            answer = built(first, "llamacpp")
            history.append(history.stamp(answer))
            history.append(history.stamp(ModelInput(text="What is my name?")))
            request = Request("smollm2", render_context(history), max_tokens=8, temperature=0.0)
            second = [event async for event in provider.stream(request)]
            return first, second
        finally:
            await provider.aclose()

    first, second = asyncio.run(ask_twice())
    for events in (first, second):
        assert "".join(e.text for e in events if isinstance(e, TextDelta)).strip()
        assert isinstance(events[-1], Finished) and events[-1].finish_reason in ("stop", "length")
    carried = provider.render(Request("smollm2", render_context(history))).body["messages"]
    assert [m["role"] for m in carried] == ["user", "assistant", "user"]
    assert carried[0]["content"] == "My name is Zebulon. Say hello."
    assert carried[1]["content"] == "".join(e.text for e in first if isinstance(e, TextDelta))
    served = log_path.read_text(errors="replace").count('"POST /v1/chat/completions HTTP/1.1" 200')
    assert served == 2
    # llama-cpp-python 0.3.x sends no usage in streams (stream_options is ignored); if a later
    # version does, the second request must count the first turn too
    if usage := [e.usage for e in second if isinstance(e, UsageReport)]:
        first_usage = [e.usage for e in first if isinstance(e, UsageReport)]
        assert usage[0].input > first_usage[0].input  # the second request carried the first turn
