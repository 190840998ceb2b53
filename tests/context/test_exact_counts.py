"""The providers' own token-counting endpoints, through the real SDKs against a scripted server:
what each is sent, and what comes back."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.context.tokens import exact_count
from app.errors import AuthFailed
from app.history import render_context
from app.providers import Request
from app.providers.anthropic_messages import AnthropicProvider
from app.providers.gemini import GeminiProvider
from app.providers.local import LocalProvider
from app.providers.openai_responses import OpenAIResponsesProvider
from app.store import Library
from app.tools import specs
from tests.context.helpers import conversation_with_preamble, grow
from tests.helpers.wire_server import Reply, WireServer


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


def request_for(library: Library, model: str) -> Request:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 2, tools_every=2)
    context = render_context(conversation.history)
    return Request(model, context, specs(["current_time"]))


def count(provider: object, request: Request) -> int | None:
    async def go() -> int | None:
        try:
            return await exact_count(provider, request)
        finally:
            await provider.aclose()  # type: ignore[attr-defined]

    return asyncio.run(go())


def test_anthropic_counts_the_messages_system_and_tools(
    server: WireServer, library: Library
) -> None:
    server.enqueue(Reply(body={"input_tokens": 321}))
    provider = AnthropicProvider("anthropic", ["claude-sonnet-4-6"], "sk-ant-x", server.url)
    assert count(provider, request_for(library, "claude-sonnet-4-6")) == 321
    (sent,) = server.requests
    assert sent.path == "/v1/messages/count_tokens"
    assert sent.json["system"] == "Be brief.\n\nThe user likes tea."
    assert [tool["name"] for tool in sent.json["tools"]] == ["current_time"]
    assert sent.json["messages"][0]["content"][0]["text"] == "My project is called Lighthouse."
    assert "max_tokens" not in sent.json and "stream" not in sent.json


def test_openai_responses_counts_input_tokens(server: WireServer, library: Library) -> None:
    server.enqueue(Reply(body={"object": "response.input_tokens", "input_tokens": 77}))
    provider = OpenAIResponsesProvider("openai", ["gpt-5"], "sk-x", f"{server.url}/v1")
    assert count(provider, request_for(library, "gpt-5")) == 77
    (sent,) = server.requests
    assert sent.path == "/v1/responses/input_tokens"
    assert sent.json["instructions"] == "Be brief.\n\nThe user likes tea."
    assert sent.json["model"] == "gpt-5" and sent.json["input"]
    assert "stream" not in sent.json and "store" not in sent.json


def test_gemini_counts_contents_with_the_system_as_a_first_turn(
    server: WireServer, library: Library
) -> None:
    server.enqueue(Reply(body={"totalTokens": 55}))
    provider = GeminiProvider("gemini", ["gemini-2.5-flash"], "AIza-x", server.url)
    assert count(provider, request_for(library, "gemini-2.5-flash")) == 55
    (sent,) = server.requests
    assert sent.path.endswith("/models/gemini-2.5-flash:countTokens")
    contents = sent.json["contents"]
    assert contents[0]["parts"][0]["text"] == "Be brief.\n\nThe user likes tea."
    assert contents[1]["parts"][0]["text"] == "My project is called Lighthouse."
    assert "systemInstruction" not in sent.json and "tools" not in sent.json


def test_a_refused_count_is_the_providers_own_error(server: WireServer, library: Library) -> None:
    error = {"type": "error", "error": {"type": "authentication_error", "message": "bad key"}}
    server.enqueue(Reply(401, body=error))
    provider = AnthropicProvider("anthropic", ["claude-sonnet-4-6"], "sk-ant-x", server.url)
    with pytest.raises(AuthFailed, match="crosstalk key set anthropic"):
        count(provider, request_for(library, "claude-sonnet-4-6"))


def test_a_provider_without_an_endpoint_counts_nothing(library: Library) -> None:
    assert count(LocalProvider(), request_for(library, "smollm2")) is None
