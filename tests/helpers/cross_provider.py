"""What makes a request valid for each provider, checked on the body as a server received it.

The rules are the providers' replay rules (history, and reasoning made by another provider). Each
checker raises AssertionError naming the broken rule; ``check_request`` picks one by provider.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from app.providers.gemini_replay import STAND_IN_SIGNATURE

Body = dict[str, Any]

ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
OPENAI_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
# fields that carry reasoning or signatures in some provider's wire format
REASONING_KEYS = frozenset(
    {
        "thinking",
        "signature",
        "redacted_thinking",
        "thoughtSignature",
        "thought_signature",
        "thought",
        "reasoning",
        "reasoning_content",
        "encrypted_content",
    }
)


def keys_in(value: Any) -> Iterator[str]:
    """Every dict key anywhere inside ``value``."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_in(inner)


def _alternate(roles: list[str]) -> None:
    assert all(a != b for a, b in pairwise(roles)), f"roles must alternate: {roles}"


# --- Anthropic Messages -------------------------------------------------------------------------


def check_anthropic(body: Body) -> None:
    """System prompt top-level; thinking only in assistant turns, signed; tool_use ids safe and
    unique, inputs dicts, tools declared; ONE user message answers ALL calls, results first."""
    messages: list[dict[str, Any]] = body["messages"]
    roles = [m["role"] for m in messages]
    assert set(roles) <= {"user", "assistant"}, roles
    assert roles[0] == "user" and roles[-1] == "user", roles
    _alternate(roles)
    declared = {tool["name"] for tool in body.get("tools", [])}
    seen: set[str] = set()
    for index, message in enumerate(messages):
        blocks: list[dict[str, Any]] = message["content"]
        assert isinstance(blocks, list) and blocks, f"message {index} is empty"
        assistant = message["role"] == "assistant"
        for block in blocks:
            kind = block["type"]
            if kind == "text":
                assert block["text"].strip(), "no empty text blocks"
            elif kind == "thinking":
                assert assistant and block["signature"], "thinking: assistant-only, signed"
            elif kind == "redacted_thinking":
                assert assistant and block["data"]
            elif kind == "tool_use":
                assert assistant and ANTHROPIC_ID.fullmatch(block["id"]), block["id"]
                assert block["id"] not in seen, f"tool_use id {block['id']} repeats"
                seen.add(block["id"])
                assert isinstance(block["input"], dict), "tool_use input must be a dict"
                assert block["name"] in declared, f"tool {block['name']} not declared"
            elif kind == "tool_result":
                content = block["content"]  # text, or text and images (an MCP tool's)
                assert not assistant and (
                    isinstance(content, str)
                    or all(part["type"] in ("text", "image") for part in content)
                )
                assert isinstance(block.get("is_error", False), bool)
            else:
                raise AssertionError(f"unexpected block type {kind!r}")
        uses = [b["id"] for b in blocks if b["type"] == "tool_use"]
        results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
        if uses:  # the very next message answers every call, in one message
            answer = messages[index + 1]["content"]
            assert [b["tool_use_id"] for b in answer if b["type"] == "tool_result"] == uses
        if results:
            asked = [b["id"] for b in messages[index - 1]["content"] if b["type"] == "tool_use"]
            assert results == asked, f"results {results} answer no calls {asked} before them"
            kinds = [b["type"] for b in blocks]
            assert kinds[: len(results)] == ["tool_result"] * len(results), "results go first"
    thinking = body.get("thinking", {}).get("type")
    if thinking in ("enabled", "adaptive") and messages[-1]["content"][0]["type"] == "tool_result":
        first = messages[-2]["content"][0]["type"]
        assert first in ("thinking", "redacted_thinking"), "a tool loop with thinking on"


def anthropic_thinking(body: Body) -> list[dict[str, Any]]:
    """The thinking and redacted_thinking blocks of the request, in order."""
    return [
        block
        for message in body["messages"]
        for block in message["content"]
        if block["type"] in ("thinking", "redacted_thinking")
    ]


# --- OpenAI Chat Completions --------------------------------------------------------------------


def check_openai(body: Body) -> None:
    """System first; each assistant message's tool_calls (ids <= 40 safe characters, arguments a
    JSON object text) answered by one ``tool`` message per call right after; no reasoning."""
    messages: list[dict[str, Any]] = body["messages"]
    roles = [m["role"] for m in messages]
    assert set(roles) <= {"system", "developer", "user", "assistant", "tool"}, roles
    assert all(r not in ("system", "developer") for r in roles[1:]), "system message first only"
    assert roles[-1] in ("user", "tool"), roles
    declared = {tool["function"]["name"] for tool in body.get("tools", [])}
    seen: set[str] = set()
    pending: list[str] = []
    for message in messages:
        if pending:
            assert message["role"] == "tool", f"calls {pending} unanswered before {message}"
            assert message["tool_call_id"] == pending.pop(0)
            assert isinstance(message["content"], str)
            continue
        assert message["role"] != "tool", "a tool message must follow its assistant message"
        if message["role"] != "assistant":
            continue
        assert set(message) <= {"role", "content", "tool_calls"}, sorted(message)
        calls: list[dict[str, Any]] = message.get("tool_calls") or []
        assert isinstance(message["content"], str) or (calls and message["content"] is None)
        for call in calls:
            assert call["type"] == "function" and OPENAI_ID.fullmatch(call["id"]), call["id"]
            assert call["id"] not in seen, f"tool call id {call['id']} repeats"
            seen.add(call["id"])
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
            assert not declared or call["function"]["name"] in declared
        pending = [call["id"] for call in calls]
    assert not pending, f"calls {pending} unanswered"
    assert not REASONING_KEYS & set(keys_in(messages)), "no reasoning in Chat Completions"


# --- Gemini generateContent ---------------------------------------------------------------------


def check_gemini(body: Body) -> None:
    """Roles user/model, alternating; each model turn's function calls answered in the next user
    content by one function_response each, same order, ``response`` an object; calls of the
    current turn carry a thought signature (the first of each step)."""
    contents: list[dict[str, Any]] = body["contents"]
    roles = [c["role"] for c in contents]
    assert set(roles) <= {"user", "model"}, roles
    assert roles[0] == "user" and roles[-1] == "user", roles
    _alternate(roles)
    for index, content in enumerate(contents):
        parts: list[dict[str, Any]] = content["parts"]
        assert parts, f"content {index} is empty"
        calls = [p["functionCall"] for p in parts if "functionCall" in p]
        responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
        if content["role"] == "user":
            assert not calls and not any(p.get("thought") for p in parts)
        else:
            assert not responses
        for part in parts:
            signature = part.get("thoughtSignature")
            assert signature is None or (isinstance(signature, str) and signature)
        for call in calls:
            assert call["name"] and isinstance(call.get("args", {}), dict)
        if calls:
            answered = contents[index + 1]["parts"][: len(calls)]
            assert all("functionResponse" in p for p in answered), "responses follow the calls"
        if responses:
            asked = [p["functionCall"] for p in contents[index - 1]["parts"] if "functionCall" in p]
            assert [r["name"] for r in responses] == [c["name"] for c in asked], "pair in order"
            assert [p for p in parts[: len(responses)] if "functionResponse" in p] == parts[
                : len(responses)
            ], "responses first"
            for call, response in zip(asked, responses, strict=True):
                assert isinstance(response["response"], dict)
                assert set(response["response"]) in ({"output"}, {"error"}), response
                assert response.get("id") == call.get("id"), "ids pair when sent"
    for content in current_turn(contents):
        calls = [p for p in content["parts"] if "functionCall" in p]
        if content["role"] == "model" and calls:
            assert calls[0].get("thoughtSignature"), "a call of the current turn needs a signature"


def current_turn(contents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """From the last user content holding text (not only function responses) to the end."""
    start = max(
        i
        for i, c in enumerate(contents)
        if c["role"] == "user" and any("text" in p for p in c["parts"])
    )
    return contents[start:]


def gemini_calls(body: Body) -> list[dict[str, Any]]:
    """Every function-call part of the request, with its signature if it has one."""
    return [
        part
        for content in body["contents"]
        if content["role"] == "model"
        for part in content["parts"]
        if "functionCall" in part
    ]


def is_stand_in(part: dict[str, Any]) -> bool:
    return part.get("thoughtSignature") == STAND_IN_SIGNATURE


CHECKS = {"anthropic": check_anthropic, "openai": check_openai, "gemini": check_gemini}


def check_request(provider: str, body: Body) -> None:
    CHECKS[provider](body)
