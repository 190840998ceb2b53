"""Real ``llm`` logs databases for the importer's tests, written with llm's own schema.

The schema comes from llm's migrations (the installed package); legacy rows are written as older
llm versions wrote them (``responses`` and its side tables), and threads through llm's own
``LogStore``, so the content-addressed hashing and part payloads are exactly llm's.
"""

from __future__ import annotations

from pathlib import Path

import sqlite_utils
from llm.logs import LogStore
from llm.migrations import migrate
from llm.models import Attachment
from llm.parts import (
    AttachmentPart,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
    "0000000c4944415478da63f8cfc00000030101009cfe92ef0000000049454e44ae426082"
)
LEGACY = "01j0legacy000000000000000a"
SINGLE = "01j0single000000000000000b"
THREAD = "01jthread0000000000000000c"
FORK = "01jfork000000000000000000d"


def legacy_tables(db: sqlite_utils.Database) -> None:
    """Two responses of one conversation, the second answering a tool call; one lone response."""
    db["conversations"].insert({"id": LEGACY, "name": "Weather in Paris", "model": "gpt-4o-mini"})
    db["fragments"].insert(
        {"id": 1, "hash": "h1", "content": "You answer in French.", "source": "-"}
    )
    db["fragments"].insert({"id": 2, "hash": "h2", "content": "Context: a trip.", "source": "-"})
    common = {"conversation_id": LEGACY, "options_json": "{}", "prompt_json": None}
    db["responses"].insert(
        {
            **common,
            "id": "01j0resp00000000000000001a",
            "model": "gpt-4o-mini",
            "prompt": "What is the weather in Paris?",
            "system": "Be brief.",
            "response": "",
            "response_json": None,
            "duration_ms": 812,
            "datetime_utc": "2025-05-01T10:00:00.000000",
            "input_tokens": 40,
            "output_tokens": 12,
            "resolved_model": "gpt-4o-mini-2024-07-18",
        }
    )
    db["responses"].insert(
        {
            **common,
            "id": "01j0resp00000000000000002b",
            "model": "gpt-4o-mini",
            "prompt": "",
            "system": "Be brief.",
            "response": "Il fait 21 °C et beau.",
            "duration_ms": 640,
            "datetime_utc": "2025-05-01T10:00:02.000000",
            "input_tokens": 60,
            "output_tokens": 9,
        }
    )
    db["system_fragments"].insert(
        {"response_id": "01j0resp00000000000000001a", "fragment_id": 1, "order": 0}
    )
    db["prompt_fragments"].insert(
        {"response_id": "01j0resp00000000000000001a", "fragment_id": 2, "order": 0}
    )
    db["tools"].insert(
        {"id": 1, "hash": "t", "name": "weather", "description": "", "input_schema": "{}"}
    )
    db["tool_calls"].insert(
        {
            "response_id": "01j0resp00000000000000001a",
            "tool_id": 1,
            "name": "weather",
            "arguments": '{"city": "Paris"}',
            "tool_call_id": "call_w1",
        }
    )
    db["tool_results"].insert(
        {
            "response_id": "01j0resp00000000000000002b",
            "tool_id": 1,
            "name": "weather",
            "output": '{"temp": 21}',
            "tool_call_id": "call_w1",
        }
    )
    db["attachments"].insert(
        {"id": "att-png", "type": "image/png", "path": "/tmp/sky.png", "content": PNG}
    )
    db["attachments"].insert(
        {"id": "att-url", "type": "image/jpeg", "url": "https://example.com/a.jpg"}
    )
    for order, attachment_id in enumerate(("att-png", "att-url")):
        db["prompt_attachments"].insert(
            {
                "response_id": "01j0resp00000000000000001a",
                "attachment_id": attachment_id,
                "order": order,
            }
        )
    db["responses"].insert(
        {
            "id": SINGLE,
            "model": "claude-3.5-haiku",
            "prompt": "Name a colour",
            "system": None,
            "response": "Teal.",
            "conversation_id": None,
            "datetime_utc": "2025-04-01T09:00:00.000000",
            "reasoning": "They want one word.",
        }
    )


def threads(db: sqlite_utils.Database) -> None:
    """A thread with a system message, an image, a tool round and reasoning; and a fork of it."""
    store = LogStore(db)
    question = Message(
        role="user",
        parts=[
            TextPart(text="Is this photo of the sky or of the sea?"),
            AttachmentPart(attachment=Attachment(type="image/png", content=PNG)),
        ],
    )
    call = Message(
        role="assistant",
        parts=[
            ReasoningPart(text="I should look closer."),
            ToolCallPart(name="zoom", arguments={"factor": 2}, tool_call_id="call_z1"),
        ],
    )
    result = Message(
        role="tool",
        parts=[ToolResultPart(name="zoom", output="clouds visible", tool_call_id="call_z1")],
    )
    answer = Message(role="assistant", parts=[TextPart(text="The sky: there are clouds.")])
    system = Message(role="system", parts=[TextPart(text="You look at photos.")])
    asked = store.ensure_chain([system, question])
    called = store.ensure_chain([call], parent=asked)
    resulted = store.ensure_chain([result], parent=called)
    answered = store.ensure_chain([answer], parent=resulted)
    store.create_thread(name="Sky or sea", tip=answered, id=THREAD)
    _turn(db, "01jturn000000000000000001", THREAD, asked, called, "2025-06-01T12:00:00", 30, 8)
    _turn(db, "01jturn000000000000000002", THREAD, resulted, answered, "2025-06-01T12:00:03", 50, 9)
    again = Message(role="user", parts=[TextPart(text="Are you sure?")])
    redacted = Message(
        role="assistant", parts=[ReasoningPart(text="", redacted=True), TextPart(text="Yes.")]
    )
    asked_again = store.ensure_chain([again], parent=called)
    told = store.ensure_chain([redacted], parent=asked_again)
    store.create_thread(name="Sky or sea (fork)", tip=told, forked_from=THREAD, id=FORK)
    _turn(db, "01jturn000000000000000003", FORK, asked_again, told, "2025-06-02T08:00:00", 70, 2)


def _turn(
    db: sqlite_utils.Database,
    turn_id: str,
    thread_id: str,
    parent: str | None,
    tip: str | None,
    when: str,
    tokens_in: int,
    tokens_out: int,
) -> None:
    db["turns"].insert(
        {
            "id": turn_id,
            "thread_id": thread_id,
            "parent_message_hash": parent,
            "tip_message_hash": tip,
            "model": "gpt-4.1",
            "resolved_model": None,
            "options_json": None,
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "duration_ms": 900,
            "datetime_utc": when,
        }
    )


def make_logs_db(path: Path, *, legacy: bool = True, new: bool = True) -> Path:
    db = sqlite_utils.Database(path)
    migrate(db)
    if legacy:
        legacy_tables(db)
    if new:
        threads(db)
    db.close()
    return path
