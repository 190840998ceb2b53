"""One map from a provider's failure to Crosstalk's error classes, for every cloud adapter.

An adapter catches whatever its SDK raised and does ``raise provider_error(exc, where,
started=...) from exc``. Reading an exception (``_read``) knows the three SDKs and the transport
under them (httpx2, aiohttp); deciding what it means (``classify``) looks only at the HTTP status,
the provider's error code and its words, so the same status means the same thing whichever
provider said it. An SDK's module is looked up in ``sys.modules``, never imported here: an
exception of its types means it is loaded already, and importing it would cost a second.

What a provider says goes through ``app.scrub`` with the adapter's own key first: a 401 body
may echo the key, and the message ends up in the transcript, on the terminal and in exports.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from app.errors import (
    AuthFailed,
    BadRequest,
    Datum,
    ProviderError,
    RateLimited,
    Unavailable,
    UnknownModel,
)
from app.scrub import scrub

MAX_SAID = 300  # characters of the provider's own words kept in a message
_WRAPPED = re.compile(r"^Error code: \d+ - ")
_TOO_LONG = re.compile(
    r"context.{0,12}(length|window|size)|maximum context|too many tokens|prompt is too long"
    r"|token count.{0,40}exceeds",
    re.IGNORECASE,
)
# error codes and types, as OpenAI, Anthropic and Google name them
_TOO_LONG_CODES = {"context_length_exceeded"}
_AUTH_CODES = {"invalid_api_key", "authentication_error", "API_KEY_INVALID", "UNAUTHENTICATED"}
_DENIED_CODES = {"permission_error", "PERMISSION_DENIED"}
_RATE_CODES = {"rate_limit_exceeded", "rate_limit_error", "RESOURCE_EXHAUSTED"}
_NOT_FOUND_CODES = {"not_found_error", "NOT_FOUND", "model_not_found"}
_BUSY_CODES = {
    "server_error", "api_error", "timeout_error", "overloaded", "overloaded_error",
    "server_is_overloaded", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED",
}  # fmt: skip
_REJECTED_CODES = {
    "invalid_request_error", "request_too_large", "invalid_prompt", "invalid_value",
    "INVALID_ARGUMENT",
}  # fmt: skip


@dataclass(frozen=True)
class Where:
    """What a message may name: never the key, which is only used to scrub it out."""

    provider: str
    model: str
    base_url: str
    secret: str = field(default="", repr=False)
    timeout: float | None = None

    def scrub(self, text: str) -> str:
        """The provider's words on one line, without the key or anything shaped like one."""
        line = scrub(" ".join(text.split()), [self.secret])
        return line if len(line) <= MAX_SAID else line[: MAX_SAID - 3] + "..."


@dataclass(frozen=True)
class Said:
    """A failure the provider reported, whichever SDK carried it."""

    status: int | None  # the HTTP status; None for an error reported inside the stream
    code: str  # the provider's error code or type: "rate_limit_error", "API_KEY_INVALID"
    message: str  # its own words, unscrubbed
    retry_after: float | None = None


def provider_error(exc: BaseException, where: Where, *, started: bool) -> ProviderError:
    """``exc`` (from an SDK or its transport) as Crosstalk's own error; raise it ``from exc``.
    ``started``: part of the reply had arrived (and is kept by the caller)."""
    if isinstance(exc, ProviderError):
        return exc
    name, url = where.provider, where.base_url
    seconds = f"{where.timeout:g}" if where.timeout is not None else ""
    unset = "" if seconds else "_unset"
    match _read(exc):
        case Said() as reported:
            return classify(reported, where, started=started)
        case "timeout" if started:
            return Unavailable(cause="stalled" + unset, url=url, seconds=seconds)
        case "timeout":
            return Unavailable(cause="no_answer" + unset, provider=name, url=url, seconds=seconds)
        case "connection" if started:
            return Unavailable(cause="lost", url=url)
        case "connection":
            return Unavailable(cause="unreachable", provider=name, url=url)
        case "unreadable":
            said = where.scrub(str(exc))
            return Unavailable(cause="unreadable", provider=name, words=said, kept=started)
    said = where.scrub(str(exc))
    return ProviderError(
        cause="failed_type" if said else "failed_type_silent",
        provider=name, exc_type=type(exc).__name__, words=said, kept=started,
    )  # fmt: skip


def classify(said: Said, where: Where, *, started: bool) -> ProviderError:
    """The one map: HTTP status and error code -> error class, with a message to act on."""
    name, model, words = where.provider, where.model, where.scrub(said.message)
    status, code = said.status, said.code
    label = str(status) if status else code or "error"
    facts: dict[str, Datum] = {"provider": name, "model": model, "words": words, "label": label}
    if code in _TOO_LONG_CODES or (status in (None, 400, 413) and _TOO_LONG.search(words)):
        return BadRequest(cause="too_long", **facts)
    if status == 401 or code in _AUTH_CODES:
        return AuthFailed(cause="rejected", **facts)
    if status == 403 or code in _DENIED_CODES:
        return AuthFailed(cause="denied", **facts)
    if code == "insufficient_quota":
        return RateLimited(cause="quota", **facts)
    if status == 429 or code in _RATE_CODES:
        wait = said.retry_after
        if wait is None:
            return RateLimited(cause="rate", kept=started, **facts)
        return RateLimited("", wait, cause="rate_wait", seconds=math.ceil(wait) or 1,
                           kept=started, **facts)  # fmt: skip
    if status == 404 or code in _NOT_FOUND_CODES:
        return UnknownModel(cause="not_served", url=where.base_url, **facts)
    busy = "overload" in code.lower() or status == 529
    if status is None and (code in _BUSY_CODES or busy):
        mid_reply = "overloaded_mid_reply" if busy else "failed_mid_reply"
        return Unavailable(cause=mid_reply, kept=started, **facts)
    if status is not None and (status in (408, 409) or status >= 500):
        return Unavailable(cause="overloaded" if busy else "down", kept=started, **facts)
    if (status is not None and 400 <= status < 500) or code in _REJECTED_CODES:
        return BadRequest(cause="rejected", **facts)
    return ProviderError(cause="failed" if words else "failed_silent", kept=started, **facts)


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from ``retry-after-ms`` / ``retry-after`` (seconds or an HTTP date)."""
    if not headers:
        return None
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            return max(float(ms) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


# --- reading an exception ---------------------------------------------------------------------


def _read(exc: BaseException) -> Said | str | None:
    """What ``exc`` says: a ``Said``, "timeout", "connection", "unreadable", or None."""
    for reader in (_openai, _anthropic, _genai, _transport):
        if (found := reader(exc)) is not None:
            return found
    return None


def _loaded(name: str) -> Any:
    return sys.modules.get(name)


def _openai(exc: BaseException) -> Said | str | None:
    openai = _loaded("openai")
    if openai is None or not isinstance(exc, openai.OpenAIError):
        return None
    if isinstance(exc, openai.APITimeoutError):  # a kind of APIConnectionError: first
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection"
    if not isinstance(exc, openai.APIError):
        return None
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        words = str(body["message"])
    else:  # the SDK's own "Error code: 400 - {...}" wrapping, without the wrapping
        words = _WRAPPED.sub("", exc.message)
    if isinstance(exc, openai.APIStatusError):
        wait = retry_after(exc.response.headers)
        return Said(exc.status_code, exc.code or "", words, wait)
    return Said(None, exc.code or exc.type or "", words)  # an error event inside the stream


def _anthropic(exc: BaseException) -> Said | str | None:
    anthropic = _loaded("anthropic")
    if anthropic is None or not isinstance(exc, anthropic.AnthropicError):
        return None
    if isinstance(exc, anthropic.APITimeoutError):
        return "timeout"
    if isinstance(exc, anthropic.APIConnectionError):
        return "connection"
    if not isinstance(exc, anthropic.APIStatusError):
        return None
    # an error event mid-stream arrives as a status error with the stream's 200
    status = None if exc.status_code == 200 else exc.status_code
    wait = retry_after(exc.response.headers)
    return Said(status, exc.type or "", exc.api_message or str(exc), wait)


def _genai(exc: BaseException) -> Said | str | None:
    errors = _loaded("google.genai.errors")
    if errors is None:
        return None
    if isinstance(exc, errors.UnknownApiResponseError):
        return "unreadable"
    if not isinstance(exc, errors.APIError):
        return None
    details = _details(exc.details)
    reasons = {d.get("reason") for d in details}
    code = "API_KEY_INVALID" if "API_KEY_INVALID" in reasons else str(exc.status or "")
    # Google's messages run on ("... Details follow. ..."): the first sentence says it
    words = " ".join(str(exc.message or exc).split()).split(". ")[0].rstrip(".")
    headers = getattr(exc.response, "headers", None) or {}
    wait = retry_after(headers)
    for d in details:  # the body's RetryInfo ("20s") when there is no header
        if wait is None and isinstance(d.get("retryDelay"), str):
            wait = retry_after({"retry-after": d["retryDelay"].removesuffix("s")})
    return Said(exc.code or None, code, words, wait)


def _details(body: Any) -> list[dict[str, Any]]:
    """The ``details`` entries of a Google API error body (RetryInfo, ErrorInfo, ...)."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    details = body.get("details") if isinstance(body, dict) else None
    return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []


def _transport(exc: BaseException) -> str | None:
    """Failures below the SDKs: Anthropic and Gemini let these through mid-stream."""
    for name in ("httpx2", "httpx"):
        httpx = _loaded(name)
        if httpx is not None and isinstance(exc, httpx.TimeoutException):
            return "timeout"
        if httpx is not None and isinstance(exc, httpx.TransportError):
            return "connection"
    aiohttp = _loaded("aiohttp")  # google-genai's transport when aiohttp is installed
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return "timeout"
    if aiohttp is not None and isinstance(exc, aiohttp.ClientError):
        return "connection"
    return None
