"""One map from a provider's failure to Crosstalk's errors (app/providers/failures.py).

The same HTTP status, sent by the local server in each provider's own error format to its real
SDK, becomes the same error class whatever the provider; the key, echoed by the server, never
reaches the message; every message is one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from app.errors import AuthFailed, BadRequest, ProviderError, RateLimited, Unavailable, UnknownModel
from app.history import Context, ModelInput
from app.providers.adapter import CloudAdapter
from app.providers.anthropic_messages import AnthropicProvider
from app.providers.base import Request
from app.providers.failures import Said, Where, classify, provider_error
from app.providers.gemini import GeminiProvider
from app.providers.openai_chat import OpenAIChatProvider
from app.providers.openai_responses import OpenAIResponsesProvider
from app.scrub import REDACTED
from tests.helpers import anthropic_events, gemini_events, openai_events
from tests.helpers.wire_server import Reply, WireServer

KEY = "gw-0123456789abcdefghij"  # no known shape: only the configured value can scrub it
GOOGLE_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL",
                 503: "UNAVAILABLE"}  # fmt: skip
ANTHROPIC_TYPE = {400: "invalid_request_error", 401: "authentication_error",
                  403: "permission_error", 404: "not_found_error", 429: "rate_limit_error",
                  500: "api_error", 503: "overloaded_error"}  # fmt: skip


def body(provider: str, status: int, message: str) -> dict[str, Any]:
    if provider == "gemini":
        return gemini_events.error_body(status, GOOGLE_STATUS[status], message)
    if provider == "anthropic":
        return anthropic_events.error_body(ANTHROPIC_TYPE[status], message)
    return openai_events.api_error(message)


ADAPTERS: dict[str, Callable[[str], CloudAdapter]] = {
    "openai": lambda url: OpenAIChatProvider("openai", ["m"], KEY, url + "/v1", max_retries=0),
    "openai-responses": lambda url: OpenAIResponsesProvider(
        "openai", ["m"], KEY, url + "/v1", max_retries=0
    ),
    "anthropic": lambda url: AnthropicProvider("anthropic", ["m"], KEY, url, max_retries=0),
    "gemini": lambda url: GeminiProvider("gemini", ["m"], KEY, url, max_retries=0),
}


def fail(adapter: Any, model: str = "m") -> ProviderError:
    context = Context(system=None, notebook=None, entries=(ModelInput(text="hi", seq=1),))

    async def run() -> None:
        try:
            async for _ in adapter.stream(Request(model, context)):
                pass
        finally:
            await adapter.aclose()

    with pytest.raises(ProviderError) as caught:
        asyncio.run(run())
    assert isinstance(caught.value.__cause__, Exception)  # raised ``from`` the SDK's exception
    return caught.value


@pytest.mark.parametrize("name", list(ADAPTERS))
@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, BadRequest),
        (401, AuthFailed),
        (403, AuthFailed),
        (404, UnknownModel),
        (429, RateLimited),
        (500, Unavailable),
        (503, Unavailable),
    ],
)
def test_one_status_one_error_class_for_every_provider(
    name: str, status: int, error: type[ProviderError]
) -> None:
    provider = "gemini" if name == "gemini" else name.removesuffix("-responses")
    said = f"Bad things.\nThe key {KEY} was sent."
    with WireServer() as server:
        server.enqueue(Reply(status, body=body(provider, status, said)))
        caught = fail(ADAPTERS[name](server.url))
    assert type(caught) is error, caught
    message = str(caught)
    assert KEY not in message and "\n" not in message
    if status in (400, 401, 403, 404):  # the provider's words are shown, scrubbed
        assert REDACTED in message or name == "gemini"  # Google's: the first sentence only
    if error is AuthFailed:
        assert f"crosstalk key set {provider}" in message


def test_an_unreachable_server_reads_the_same_for_every_provider() -> None:
    with WireServer() as server:
        url = server.url  # closed when the block ends: nothing listens there any more
    for name, make in ADAPTERS.items():
        caught = fail(make(url))
        assert type(caught) is Unavailable, name
        assert str(caught).startswith("could not reach") and url in str(caught), name


def test_the_map_without_an_sdk() -> None:
    where = Where("p", "m", "http://x", secret=KEY, timeout=5)
    said = Said(429, "", f"slow down {KEY}", retry_after=2.5)
    limited = classify(said, where, started=False)
    assert isinstance(limited, RateLimited) and limited.retry_after == 2.5
    assert str(limited) == "rate limited by p: retry in 3 s"
    too_long = classify(Said(400, "", "prompt is too long: 9 > 8"), where, started=False)
    assert isinstance(too_long, BadRequest) and "too long for m's context window" in str(too_long)
    mid = classify(Said(None, "server_error", "boom"), where, started=True)
    assert isinstance(mid, Unavailable) and str(mid).endswith("what arrived was kept")
    odd = provider_error(RuntimeError(f"odd {KEY}"), where, started=False)
    assert type(odd) is ProviderError and KEY not in str(odd)
    assert provider_error(limited, where, started=False) is limited
