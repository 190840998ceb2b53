"""OpenAI wire events for WireServer scripts: Chat Completions chunks and Responses events.

Chat: ``data: {chat.completion.chunk}`` lines, usage in a last chunk with no choices, optional
``data: [DONE]``. Responses: ``event: <type>`` + ``data: {"type", "sequence_number", ...}``,
starting with ``response.created``.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.wire_server import Delay, Disconnect, sse

Piece = bytes | str | Delay | Disconnect

DONE = "data: [DONE]\n\n"

# --- Chat Completions -----------------------------------------------------------------------


def chunk(
    delta: dict[str, Any] | None = None,
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
    *,
    no_choices: bool = False,
    with_id: bool = True,
) -> bytes:
    data: dict[str, Any] = {"object": "chat.completion.chunk", "created": 0, "model": "m"}
    if with_id:
        data["id"] = "chatcmpl-1"
    data["choices"] = (
        [] if no_choices else [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
    )
    if usage is not None:
        data["usage"] = usage
    return sse(data)


def text(piece: str) -> bytes:
    return chunk({"content": piece})


def tool_call(
    index: int, call_id: str | None = None, name: str | None = None, arguments: str = ""
) -> bytes:
    call: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        call["id"], call["type"] = call_id, "function"
    if name is not None:
        call["function"]["name"] = name
    return chunk({"tool_calls": [call]})


def chat_usage(
    prompt: int = 10, completion: int = 5, cached: int = 0, reasoning: int = 0
) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


def usage_chunk(**counts: int) -> bytes:
    return chunk(usage=chat_usage(**counts), no_choices=True)


def chat_reply(*pieces: str, finish: str = "stop", **counts: int) -> list[Piece]:
    """A whole text reply the way api.openai.com sends it."""
    return [
        chunk({"role": "assistant", "content": ""}),
        *(text(p) for p in pieces),
        chunk(finish=finish),
        usage_chunk(**counts),
        DONE,
    ]


def api_error(message: str, code: str | None = None) -> dict[str, Any]:
    """An error body as api.openai.com sends it with a 4xx/5xx status."""
    return {"error": {"message": message, "type": "invalid_request_error", "code": code}}


# --- Responses ------------------------------------------------------------------------------


def responses_usage(
    input: int = 10, output: int = 5, cached: int = 0, reasoning: int = 0
) -> dict[str, Any]:
    return {
        "input_tokens": input,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input + output,
    }


class ResponsesScript:
    """Builds one Responses stream, numbering events and output items as it goes."""

    def __init__(self, model: str = "gpt-5") -> None:
        self.model = model
        self.pieces: list[Piece] = []
        self.output: list[dict[str, Any]] = []
        self._sequence = 0
        self.event("response.created", response=self._response("in_progress"))

    def _response(self, status: str, **more: Any) -> dict[str, Any]:
        return {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": self.model,
            "status": status,
            "output": list(self.output),
            **more,
        }

    def event(self, kind: str, **fields: Any) -> ResponsesScript:
        self.pieces.append(sse({"type": kind, "sequence_number": self._sequence, **fields}, kind))
        self._sequence += 1
        return self

    def add(self, piece: Piece) -> ResponsesScript:
        self.pieces.append(piece)
        return self

    def _item(self, item: dict[str, Any], deltas: list[tuple[str, dict[str, Any]]]) -> None:
        index = len(self.output)
        started = {**item, "status": "in_progress"}
        for key in ("arguments", "encrypted_content"):
            if key in started:
                started[key] = ""
        if "content" in started:
            started["content"] = []
        if "summary" in started:
            started["summary"] = []
        self.event("response.output_item.added", output_index=index, item=started)
        for kind, fields in deltas:
            self.event(kind, output_index=index, item_id=item["id"], **fields)
        self.output.append(item)
        self.event("response.output_item.done", output_index=index, item=item)

    def reasoning(
        self, item_id: str, summary: list[str], encrypted: str | None = "enc"
    ) -> ResponsesScript:
        item: dict[str, Any] = {
            "id": item_id,
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": s} for s in summary],
            "encrypted_content": encrypted,
        }
        deltas = [
            ("response.reasoning_summary_text.delta", {"summary_index": i, "delta": part})
            for i, s in enumerate(summary)
            for part in (s[: len(s) // 2], s[len(s) // 2 :])
        ]
        self._item(item, deltas)
        return self

    def message(self, item_id: str, *pieces: str) -> ResponsesScript:
        item = {
            "id": item_id,
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "".join(pieces), "annotations": []}],
        }
        deltas = [("response.output_text.delta", {"content_index": 0, "delta": p}) for p in pieces]
        self._item(item, deltas)
        return self

    def function_call(self, item_id: str, call_id: str, name: str, *pieces: str) -> ResponsesScript:
        item = {
            "id": item_id,
            "type": "function_call",
            "call_id": call_id,
            "name": name,
            "arguments": "".join(pieces),
            "status": "completed",
        }
        deltas = [("response.function_call_arguments.delta", {"delta": p}) for p in pieces]
        self._item(item, deltas)
        return self

    def completed(self, status: str = "completed", **counts: int) -> list[Piece]:
        more: dict[str, Any] = {"usage": responses_usage(**counts)}
        if status == "incomplete":
            more["incomplete_details"] = {"reason": "max_output_tokens"}
        self.event(f"response.{status}", response=self._response(status, **more))
        return self.pieces

    def failed(self, code: str, message: str) -> list[Piece]:
        error = {"code": code, "message": message}
        self.event("response.failed", response=self._response("failed", error=error))
        return self.pieces

    def error(self, code: str, message: str) -> list[Piece]:
        self.event("error", code=code, message=message, param=None)
        return self.pieces
