"""Gemini streamGenerateContent SSE events for the wire server.

Gemini's stream is ``data: <GenerateContentResponse JSON>`` events only (exactly ``data: ``
with the space, no ``event:`` lines); an error mid-stream is a ``data: {"error": ...}`` event.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.wire_server import sse

Part = dict[str, Any]


def text(value: str, signature: str | None = None) -> Part:
    part: Part = {"text": value}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def thought(value: str, signature: str | None = None) -> Part:
    return {**text(value, signature), "thought": True}


def call(
    name: str, args: dict[str, Any], call_id: str | None = None, signature: str | None = None
) -> Part:
    function_call: dict[str, Any] = {"name": name, "args": args}
    if call_id is not None:
        function_call["id"] = call_id
    part: Part = {"functionCall": function_call}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def usage(prompt: int, candidates: int, thoughts: int = 0, cached: int = 0) -> dict[str, int]:
    meta = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + thoughts,
    }
    if thoughts:
        meta["thoughtsTokenCount"] = thoughts
    if cached:
        meta["cachedContentTokenCount"] = cached
    return meta


def chunk(
    *parts: Part,
    finish: str | None = None,
    usage: dict[str, int] | None = None,
    block_reason: str | None = None,
) -> bytes:
    data: dict[str, Any] = {"modelVersion": "gemini-test"}
    if parts or finish:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
        if finish:
            candidate["finishReason"] = finish
        data["candidates"] = [candidate]
    if usage is not None:
        data["usageMetadata"] = usage
    if block_reason is not None:
        data["promptFeedback"] = {"blockReason": block_reason}
    return sse(data)


def error_body(
    code: int, status: str, message: str, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return {"error": error}


def error_event(code: int, status: str, message: str) -> bytes:
    return sse(error_body(code, status, message))


def retry_info(delay: str) -> dict[str, Any]:
    return {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}


def error_info(reason: str) -> dict[str, Any]:
    return {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": "googleapis.com",
    }
