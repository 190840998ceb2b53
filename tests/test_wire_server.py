"""The scripted wire server, exercised with the real OpenAI, Anthropic and google-genai SDKs."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
import openai
import pytest
from anthropic import AsyncAnthropic
from google import genai
from google.genai import types
from openai import AsyncOpenAI

from tests.helpers.wire_server import Delay, Disconnect, Reply, WireServer, sse

MESSAGES: list[Any] = [{"role": "user", "content": "hi"}]


def oa_chunk(text: str | None = None, usage: dict[str, int] | None = None) -> bytes:
    choices = [] if usage else [{"index": 0, "delta": {"content": text}, "finish_reason": None}]
    data: dict[str, Any] = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": choices,
    }
    if usage:
        data["usage"] = usage
    return sse(data)


OA_USAGE = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


def anthropic_events(*texts: str, usage_out: int = 2) -> list[bytes | str | Delay | Disconnect]:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 7, "output_tokens": 1},
    }
    out: list[bytes | str | Delay | Disconnect] = [
        sse({"type": "message_start", "message": message}, "message_start"),
        sse(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            "content_block_start",
        ),
    ]
    for text in texts:
        delta = {"type": "text_delta", "text": text}
        out.append(
            sse({"type": "content_block_delta", "index": 0, "delta": delta}, "content_block_delta")
        )
    return [
        *out,
        sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
        sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": usage_out},
            },
            "message_delta",
        ),
        sse({"type": "message_stop"}, "message_stop"),
    ]


def gemini_chunk(text: str, last: bool = False) -> bytes:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}}
    data: dict[str, Any] = {"candidates": [candidate]}
    if last:
        candidate["finishReason"] = "STOP"
        data["usageMetadata"] = {
            "promptTokenCount": 4,
            "candidatesTokenCount": 2,
            "totalTokenCount": 6,
        }
    return sse(data)


_TRANSPORTS: dict[int, httpx2.AsyncClient] = {}


def gemini_client(server: WireServer) -> genai.Client:
    # on httpx, as app/providers/gemini.py makes it (the SDK picks aiohttp when installed)
    http = httpx2.AsyncClient()
    options = types.HttpOptions(base_url=server.url, httpx_async_client=http)
    client = genai.Client(api_key="k", http_options=options)
    _TRANSPORTS[id(client)] = http
    return client


async def close_gemini(client: genai.Client) -> None:
    """What GeminiAdapter.aclose does: the SDK leaves the transport it was given open."""
    await client.aio.aclose()
    await _TRANSPORTS.pop(id(client)).aclose()


def test_openai_chat_stream() -> None:
    async def run(server: WireServer) -> tuple[str, Any]:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
        try:
            stream = await client.chat.completions.create(
                model="m", messages=MESSAGES, stream=True, stream_options={"include_usage": True}
            )
            text, usage = "", None
            async for chunk in stream:
                text += "".join(c.delta.content or "" for c in chunk.choices)
                usage = chunk.usage or usage
            return text, usage
        finally:
            await client.close()

    with WireServer() as server:
        chunks = [oa_chunk("Hel"), oa_chunk("lo"), oa_chunk(usage=OA_USAGE), "data: [DONE]\n\n"]
        server.enqueue(Reply(chunks=list(chunks)))
        text, usage = asyncio.run(run(server))
        assert text == "Hello"
        assert usage.prompt_tokens == 3 and usage.completion_tokens == 2
        (req,) = server.requests
        assert (req.method, req.path) == ("POST", "/v1/chat/completions")
        assert req.headers["authorization"] == "Bearer k"
        assert req.json["messages"] == MESSAGES and req.json["stream"] is True
        assert req.finished and not req.disconnected


def test_anthropic_stream() -> None:
    async def run(server: WireServer) -> Any:
        client = AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        try:
            async with client.messages.stream(
                model="claude-x", max_tokens=10, messages=MESSAGES
            ) as stream:
                return await stream.get_final_message()
        finally:
            await client.close()

    with WireServer() as server:
        server.enqueue(Reply(chunks=anthropic_events("Hel", "lo", usage_out=2)))
        message = asyncio.run(run(server))
        assert message.content[0].text == "Hello"
        assert (message.usage.input_tokens, message.usage.output_tokens) == (7, 2)
        (req,) = server.requests
        assert req.path == "/v1/messages"
        assert req.headers["authorization"] == "Bearer k"  # anthropic 2.x: not x-api-key
        assert req.json["messages"] == MESSAGES


def test_gemini_stream() -> None:
    async def run(server: WireServer) -> list[Any]:
        client = gemini_client(server)
        try:
            stream = await client.aio.models.generate_content_stream(
                model="gemini-2.5-flash", contents="hi"
            )
            return [chunk async for chunk in stream]
        finally:
            await close_gemini(client)

    with WireServer() as server:
        server.enqueue(
            Reply(chunks=[gemini_chunk("Hel"), gemini_chunk("lo", last=True)]),
            path_contains="streamGenerateContent",
        )
        chunks = asyncio.run(run(server))
        assert "".join(c.text for c in chunks) == "Hello"
        assert chunks[-1].usage_metadata.candidates_token_count == 2
        (req,) = server.requests
        assert req.path == "/v1/models/gemini-2.5-flash:streamGenerateContent"
        assert req.query == {"alt": ["sse"]}
        assert req.headers["x-goog-api-key"] == "k"
        assert req.json["contents"] == [{"parts": [{"text": "hi"}], "role": "user"}]


def test_keep_alive_and_retry_after_429() -> None:
    async def run(server: WireServer) -> list[str]:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=1)
        texts = []
        try:
            for _ in range(2):
                stream = await client.chat.completions.create(
                    model="m", messages=MESSAGES, stream=True
                )
                texts.append("".join([c.choices[0].delta.content or "" async for c in stream]))
            done = await client.chat.completions.create(model="m", messages=MESSAGES)
            texts.append(done.choices[0].message.content or "")
            return texts
        finally:
            await client.close()

    with WireServer() as server:
        rate_limited = Reply(
            429, headers={"retry-after": "0"}, body={"error": {"message": "slow down"}}
        )
        server.enqueue(rate_limited)
        server.enqueue(Reply(chunks=[oa_chunk("ok"), "data: [DONE]\n\n"]))
        server.enqueue(Reply(chunks=[oa_chunk("again"), "data: [DONE]\n\n"]))
        server.enqueue(rate_limited)
        completion = {
            "id": "c2",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "whole"},
                    "finish_reason": "stop",
                }
            ],
        }
        server.enqueue(Reply(body=completion))
        assert asyncio.run(run(server)) == ["ok", "again", "whole"]
        reqs = server.requests
        assert len(reqs) == 5 and all(r.finished for r in reqs)
        assert [r.headers["x-stainless-retry-count"] for r in reqs] == ["0", "1", "0", "0", "1"]
        # One kept-alive socket served the finished stream, the next stream, the 429 and the
        # retry. (Observed: the SDK drops the socket of a 429 answering a stream=True request,
        # so reqs[0] came on a socket of its own.)
        assert len({r.connection for r in reqs[1:]}) == 1


async def _cancel_after_first_item(consume: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    got_first = asyncio.Event()
    task = asyncio.create_task(consume(got_first))
    await asyncio.wait_for(got_first.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def _assert_cancel_closes_stream(server: WireServer, run: Callable[[], Awaitable[None]]) -> None:
    started = time.monotonic()
    asyncio.run(run())
    assert server.wait_for_disconnect(2)
    assert time.monotonic() - started < 10  # a Delay of 30 s was interrupted
    assert not server.requests[-1].finished


def test_cancel_openai_stream_closes_connection() -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=[oa_chunk("a"), Delay(10), oa_chunk("b")]))

        async def consume(got_first: asyncio.Event) -> None:
            client = AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
            try:
                stream = await client.chat.completions.create(
                    model="m", messages=MESSAGES, stream=True
                )
                async for _ in stream:
                    got_first.set()
            finally:
                await client.close()

        _assert_cancel_closes_stream(server, lambda: _cancel_after_first_item(consume))


def test_cancel_anthropic_stream_closes_connection() -> None:
    with WireServer() as server:
        events = anthropic_events("a", "b")
        server.enqueue(Reply(chunks=[*events[:3], Delay(10), *events[3:]]))

        async def consume(got_first: asyncio.Event) -> None:
            client = AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
            try:
                async with client.messages.stream(
                    model="claude-x", max_tokens=10, messages=MESSAGES
                ) as stream:
                    async for _ in stream.text_stream:
                        got_first.set()
            finally:
                await client.close()

        _assert_cancel_closes_stream(server, lambda: _cancel_after_first_item(consume))


def test_leaving_anthropic_stream_block_closes_connection() -> None:
    with WireServer() as server:
        events = anthropic_events("a", "b")
        server.enqueue(Reply(chunks=[*events[:3], Delay(10), *events[3:]]))

        async def run() -> None:
            client = AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
            try:
                async with client.messages.stream(
                    model="claude-x", max_tokens=10, messages=MESSAGES
                ) as stream:
                    async for _ in stream.text_stream:
                        break
            finally:
                await client.close()

        _assert_cancel_closes_stream(server, run)


def test_cancel_gemini_stream_closes_connection() -> None:
    with WireServer() as server:
        server.enqueue(Reply(chunks=[gemini_chunk("a"), Delay(10), gemini_chunk("b", last=True)]))

        async def consume(got_first: asyncio.Event) -> None:
            client = gemini_client(server)
            try:
                stream = await client.aio.models.generate_content_stream(
                    model="gemini-2.5-flash", contents="hi"
                )
                async for _ in stream:
                    got_first.set()
            finally:
                await close_gemini(client)

        _assert_cancel_closes_stream(server, lambda: _cancel_after_first_item(consume))


def test_disconnect_mid_stream_raises_in_openai() -> None:
    async def run(server: WireServer) -> list[str]:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
        seen: list[str] = []
        try:
            stream = await client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
            with pytest.raises(openai.APIConnectionError) as caught:
                async for chunk in stream:
                    seen.append(chunk.choices[0].delta.content or "")
            assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)
            return seen
        finally:
            await client.close()

    with WireServer() as server:
        server.enqueue(Reply(chunks=[oa_chunk("a"), Disconnect(), oa_chunk("never")]))
        assert asyncio.run(run(server)) == ["a"]
        (req,) = server.requests
        assert req.dropped and not req.finished and not req.disconnected


def test_disconnect_mid_stream_raises_raw_httpx2_error_in_anthropic_and_gemini() -> None:
    async def anthropic_run(server: WireServer) -> None:
        client = AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        try:
            async with client.messages.stream(
                model="claude-x", max_tokens=10, messages=MESSAGES
            ) as stream:
                async for _ in stream.text_stream:
                    pass
        finally:
            await client.close()

    async def gemini_run(server: WireServer) -> None:
        client = gemini_client(server)
        try:
            stream = await client.aio.models.generate_content_stream(
                model="gemini-2.5-flash", contents="hi"
            )
            async for _ in stream:
                pass
        finally:
            await close_gemini(client)

    with WireServer() as server:
        server.enqueue(Reply(chunks=[*anthropic_events("a")[:3], Disconnect()]))
        server.enqueue(Reply(chunks=[gemini_chunk("a"), Disconnect()]))
        with pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read"):
            asyncio.run(anthropic_run(server))
        with pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read"):
            asyncio.run(gemini_run(server))
        assert [r.dropped for r in server.requests] == [True, True]


def test_gemini_break_leaves_stream_open_until_client_closes() -> None:
    """Observed with google-genai 3.4: leaving the loop (with or without `aclose()` on the
    stream) keeps the HTTP stream open; closing the client closes it. Cancel a task instead."""

    async def run(server: WireServer) -> bool:
        client = gemini_client(server)
        try:
            stream = await client.aio.models.generate_content_stream(
                model="gemini-2.5-flash", contents="hi"
            )
            async for _ in stream:
                break
            return await asyncio.to_thread(server.wait_for_disconnect, 0.3)
        finally:
            await close_gemini(client)

    with WireServer() as server:
        server.enqueue(Reply(chunks=[gemini_chunk("a"), Delay(10), gemini_chunk("b", last=True)]))
        assert asyncio.run(run(server)) is False  # still open after `break`
        assert server.wait_for_disconnect(2)  # closed by client.aio.aclose()
        # At loop shutdown asyncio also logs "aclose(): asynchronous generator is already
        # running" for the abandoned httpx2 generator: one more reason to cancel instead.


def test_unscripted_request_gets_500() -> None:
    async def run(server: WireServer) -> None:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
        try:
            with pytest.raises(openai.InternalServerError, match="no scripted reply"):
                await client.chat.completions.create(model="m", messages=MESSAGES)
        finally:
            await client.close()

    with WireServer() as server:
        asyncio.run(run(server))
        (req,) = server.requests
        assert (req.method, req.path, req.finished) == ("POST", "/v1/chat/completions", True)


def test_close_is_prompt_mid_delay_and_errors_are_raised() -> None:
    server = WireServer()
    server.enqueue(Reply(chunks=["data: 1\n\n", Delay(30)]))
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        received = b""
        while b"data: 1" not in received:
            received += sock.recv(4096)
        started = time.monotonic()
        server.close()  # the client is still connected and the reply is mid-Delay
        assert time.monotonic() - started < 10  # not the 30 s Delay
    assert not server.requests[0].finished
    server.errors.append(RuntimeError("boom"))
    with pytest.raises(AssertionError, match="boom"):
        server.__exit__(None, None, None)
