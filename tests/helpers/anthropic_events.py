"""Anthropic Messages SSE events, as the API streams them, for scripting a WireServer.

Every event goes out with its ``event: <type>`` line (the SDK skips data-only events). A reply is
a list of blocks, each a list of events, built by ``reply(text("Hi"), tool_use(...), ...)``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers.wire_server import Delay, Disconnect, sse

Chunk = bytes | str | Delay | Disconnect
BlockEvents = list[Chunk]


def event(kind: str, **fields: Any) -> bytes:
    return sse({"type": kind, **fields}, kind)


def message_start(
    input_tokens: int = 10,
    cache_read: int | None = None,
    cache_creation: int | None = None,
    model: str = "claude-test",
) -> bytes:
    usage: dict[str, Any] = {"input_tokens": input_tokens, "output_tokens": 1}
    if cache_read is not None:
        usage["cache_read_input_tokens"] = cache_read
    if cache_creation is not None:
        usage["cache_creation_input_tokens"] = cache_creation
    message = {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    return event("message_start", message=message)


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]) -> BlockEvents:
    out: BlockEvents = [event("content_block_start", index=index, content_block=start)]
    out += [event("content_block_delta", index=index, delta=d) for d in deltas]
    out.append(event("content_block_stop", index=index))
    return out


def text(index: int, *pieces: str) -> BlockEvents:
    deltas = [{"type": "text_delta", "text": p} for p in pieces]
    return _block(index, {"type": "text", "text": ""}, deltas)


def thinking(index: int, *pieces: str, signature: str = "sig-1") -> BlockEvents:
    deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces]
    deltas.append({"type": "signature_delta", "signature": signature})
    return _block(index, {"type": "thinking", "thinking": "", "signature": ""}, deltas)


def redacted(index: int, data: str) -> BlockEvents:
    return _block(index, {"type": "redacted_thinking", "data": data}, [])


def tool_use(index: int, call_id: str, name: str, arguments: Any, pieces: int = 2) -> BlockEvents:
    """A tool_use block whose input JSON streams in ``pieces`` fragments."""
    whole = json.dumps(arguments)
    size = max(1, -(-len(whole) // pieces))
    parts = [whole[i : i + size] for i in range(0, len(whole), size)]
    deltas = [{"type": "input_json_delta", "partial_json": ""}]
    deltas += [{"type": "input_json_delta", "partial_json": p} for p in parts]
    start = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
    return _block(index, start, deltas)


def message_delta(
    stop_reason: str = "end_turn", output_tokens: int = 5, thinking_tokens: int | None = None
) -> bytes:
    usage: dict[str, Any] = {"output_tokens": output_tokens}
    if thinking_tokens is not None:
        usage["output_tokens_details"] = {"thinking_tokens": thinking_tokens}
    delta = {"stop_reason": stop_reason, "stop_sequence": None}
    return event("message_delta", delta=delta, usage=usage)


def message_stop() -> bytes:
    return event("message_stop")


def ping() -> bytes:
    return event("ping")


def error(kind: str = "overloaded_error", message: str = "Overloaded") -> bytes:
    return event("error", error={"type": kind, "message": message})


def error_body(kind: str, message: str) -> dict[str, Any]:
    """The JSON body of an HTTP error reply."""
    return {"type": "error", "error": {"type": kind, "message": message}}


def reply(
    *blocks: BlockEvents,
    stop_reason: str = "end_turn",
    input_tokens: int = 10,
    output_tokens: int = 5,
    **start: Any,
) -> list[Chunk]:
    """A whole streamed reply: message_start, a ping, the blocks, message_delta, message_stop."""
    chunks: list[Chunk] = [message_start(input_tokens, **start), ping()]
    for block in blocks:
        chunks += block
    chunks += [message_delta(stop_reason, output_tokens), message_stop()]
    return chunks
