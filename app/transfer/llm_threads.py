"""Newer ``llm`` logs: threads of content-addressed messages, and one turn per model call.

A thread points at its tip message; each message points at its parent and holds typed parts
(``text``, ``reasoning``, ``tool_call``, ``tool_result``, ``attachment``), whose long text may be
stored as references to ``fragments`` and whose bytes live in ``attachments``. A turn records
what one call added (the messages after ``parent_message_hash`` up to ``tip_message_hash``)
with its model, tokens and time. A thread ``forked_from`` another becomes a fork of it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from mimetypes import guess_extension
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from app.history import AnyEntry, Attachment, Reasoning, ToolCall, Usage
from app.transfer.base import Group, Malformed, Source, common_prefix, labelled
from app.transfer.convert import (
    EPOCH,
    Builder,
    Conversation,
    Note,
    attachment,
    group,
    placeholder,
)
from app.transfer.jsonread import Node, iso_from_text

if TYPE_CHECKING:
    from collections.abc import Iterable

FORMAT = "llm"
PROVIDER = "llm"
MAX_CHAIN = 100_000


@dataclass(frozen=True)
class Thread:
    id: str
    name: str
    tip: str | None
    forked_from: str | None
    created: str


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def listed(db: sqlite3.Connection) -> list[Thread]:
    rows = db.execute(
        "select id, name, tip_message_hash, forked_from, datetime_utc from threads "
        "order by datetime_utc, id"
    ).fetchall()
    return [
        Thread(
            id=str(row[0]),
            name=_str(row[1]),
            tip=row[2] if isinstance(row[2], str) else None,
            forked_from=row[3] if isinstance(row[3], str) else None,
            created=iso_from_text(_str(row[4])) or EPOCH,
        )
        for row in rows
        if row[0] is not None
    ]


def convert(db: sqlite3.Connection, thread: Thread, source: Source) -> Group:
    bodies, digest = entries(db, thread)
    parent_ref, fork_seq = None, 0
    if thread.forked_from:
        parent = next((t for t in listed(db) if t.id == thread.forked_from), None)
        if parent is not None:
            parent_ref = f"llm-thread:{parent.id}"
            fork_seq = common_prefix(entries(db, parent)[0], bodies)
    label = labelled(f"{source.name} #{thread.id}", thread.name)
    return group(
        Conversation(
            fmt=FORMAT,
            file=source.name,
            source_id=thread.id,
            key=f"{FORMAT}:{digest}",
            label=label,
            title=thread.name,
            created_at=min([thread.created, *(entry.ts for entry in bodies[:1])]),
            main=bodies,
            ref=f"llm-thread:{thread.id}",
            parent_ref=parent_ref,
            fork_seq=fork_seq,
        )
    )


def entries(db: sqlite3.Connection, thread: Thread) -> tuple[list[AnyEntry], str]:
    """The thread's messages as entries, and a digest of everything they were made from."""
    chain = _chain(db, thread.tip)
    hashes = [h for h, _ in chain]
    digest = hashlib.sha256("\n".join(hashes).encode())
    parts = _parts(db, hashes, digest)
    position = {h: i for i, h in enumerate(hashes)}
    made_by: dict[int, sqlite3.Row] = {}
    sent_at: dict[int, str] = {}
    for turn in _turns(db, hashes):
        first = position.get(turn["parent_message_hash"], -1) + 1
        last = position.get(turn["tip_message_hash"], -1)
        digest.update(repr(tuple(turn)).encode())
        for i in range(first, last + 1):
            made_by.setdefault(i, turn)
        for i in range(first):
            sent_at.setdefault(i, _str(turn["datetime_utc"]))
    builder = Builder(PROVIDER)
    counted: set[str] = set()
    for i, (message_hash, role) in enumerate(chain):
        maker = made_by.get(i)
        when = _str(maker["datetime_utc"]) if maker is not None else sent_at.get(i, "")
        ts = iso_from_text(when) or builder.last_ts or thread.created
        model = "unknown"
        usage = None
        if maker is not None:
            model = _str(maker["resolved_model"]) or _str(maker["model"]) or model
            if maker["id"] not in counted:  # a call's tokens go on its first message
                counted.add(maker["id"])
                usage = Usage(
                    input=_count(maker["input_tokens"]), output=_count(maker["output_tokens"])
                )
        _message(db, builder, role, parts.get(message_hash, []), ts, model, usage)
    return builder.finish(), digest.hexdigest()


def _count(value: Any) -> int:
    return value if isinstance(value, int) and 0 <= value < 2**62 else 0


def _chain(db: sqlite3.Connection, tip: str | None) -> list[tuple[str, str]]:
    """(hash, role) from the root to ``tip``."""
    chain: list[tuple[str, str]] = []
    seen: set[str] = set()
    cursor = tip
    while cursor is not None:
        if cursor in seen or len(chain) > MAX_CHAIN:
            raise Malformed(f"message {cursor}", "expected a chain of messages, found a cycle")
        seen.add(cursor)
        row = db.execute(
            "select parent_hash, role from messages where hash = ?", [cursor]
        ).fetchone()
        if row is None:
            raise Malformed(f"message {cursor}", "expected the message the thread points at")
        chain.append((cursor, _str(row[1])))
        cursor = row[0] if isinstance(row[0], str) else None
    chain.reverse()
    return chain


def _batches(values: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _turns(db: sqlite3.Connection, hashes: list[str]) -> list[sqlite3.Row]:
    turns: list[sqlite3.Row] = []
    for batch in _batches(hashes):
        marks = ",".join("?" * len(batch))
        sql = (
            "select id, parent_message_hash, tip_message_hash, model, resolved_model, "  # noqa: S608
            "input_tokens, output_tokens, duration_ms, datetime_utc from turns "
            f"where tip_message_hash in ({marks})"
        )
        turns += db.execute(sql, batch).fetchall()
    return sorted(turns, key=lambda t: (_str(t["datetime_utc"]), _str(t["id"])))


def _parts(db: sqlite3.Connection, hashes: list[str], digest: Any) -> dict[str, list[Node]]:
    """Each message's parts as payload nodes, with text references resolved."""
    parts: dict[str, list[Node]] = {}
    for batch in _batches(hashes):
        marks = ",".join("?" * len(batch))
        sql = (
            "select id, message_hash, type, tool_name, text, payload from parts "  # noqa: S608
            f"where message_hash in ({marks}) order by message_hash, position"
        )
        rows = db.execute(sql, batch).fetchall()
        for row in rows:
            digest.update(repr(tuple(row)).encode())
            where = f"part {row['id']}"
            try:
                payload = json.loads(row["payload"]) if isinstance(row["payload"], str) else {}
            except (ValueError, RecursionError) as exc:
                raise Malformed(f"{where}, column payload", f"expected JSON ({exc})") from exc
            if not isinstance(payload, dict):
                raise Malformed(f"{where}, column payload", "expected a JSON object")
            payload["type"] = _str(row["type"])
            if isinstance(row["text"], str):
                payload["text"] = row["text"]
            node = Node(payload, where)
            if node.has("text_ref"):
                payload["text"] = _resolve(db, node["text_ref"])
            parts.setdefault(row["message_hash"], []).append(node)
    return parts


def _resolve(db: sqlite3.Connection, pieces: Node) -> str:
    texts = []
    for piece in pieces.items():
        if piece.has("literal"):
            texts.append(piece["literal"].text())
        else:
            row = db.execute(
                "select content from fragments where id = ?", [piece["fragment"].number()]
            ).fetchone()
            texts.append(_str(row[0]) if row else "")
    return "".join(texts)


def _message(  # one stored message: its parts become an input, a reply or results
    db: sqlite3.Connection,
    b: Builder,
    role: str,
    parts: list[Node],
    ts: str,
    model: str,
    usage: Usage | None,
) -> None:
    texts: list[str] = []
    reasoning: list[Reasoning] = []
    calls: list[ToolCall] = []
    attachments: list[Attachment] = []
    notes: list[Note] = []
    for n, part in enumerate(parts):
        kind = part["type"].text()
        if kind == "text":
            texts.append(part.get("text").text(""))
        elif kind == "reasoning" and part.get("redacted").flag():
            notes.append(placeholder("reasoning", "", "withheld by the provider"))
        elif kind == "reasoning":
            reasoning.append(
                Reasoning(provider=PROVIDER, model=model, text=part.get("text").text(""))
            )
        elif kind == "tool_call":
            arguments = part.get("arguments").value if part.has("arguments") else {}
            call_id = part.get("tool_call_id").text("") or f"{ts}-{n}"
            name = part.get("name").text("") or "tool"
            calls.append(ToolCall(id=call_id, name=name, arguments=json.dumps(arguments)))
        elif kind == "tool_result":
            if texts or reasoning or calls:  # a server-side tool inside the reply
                b.assistant(model, ts, text="\n".join(texts), reasoning=reasoning, calls=calls)
                texts, reasoning, calls = [], [], []
            exception = part.get("exception").text("")
            extra = (
                [placeholder("attachment", "", "of a tool result")]
                if part.has("attachments")
                else []
            )
            b.result(
                part.get("name").text(""),
                part.get("output").text("") or exception,
                ts,
                call_id=part.get("tool_call_id").opt_text(),
                is_error=bool(exception),
                notes=extra,
            )
        elif kind == "attachment":
            reference = part.get("attachment").get("id").text("")
            rows = db.execute(
                "select id, type, path, url, content from attachments where id = ?", [reference]
            ).fetchall()
            kept, missing = attachment_list(rows)
            attachments += kept
            notes += missing or ([] if rows else [placeholder("attachment", reference)])
        else:
            notes.append(placeholder(kind or "part", "", "not supported"))
    text = "\n".join(texts)
    if role == "system":
        b.system_instruction(text, ts)
    elif role == "user":
        b.user(text, ts, attachments, notes)
    elif role == "assistant":
        if usage is not None:
            b.flush()  # a new call: a new output
        b.assistant(
            model, ts, text=text, reasoning=reasoning, calls=calls, notes=notes, usage=usage
        )
    elif role != "tool" and (text or notes):
        b.user(text, ts, attachments, notes)


def attachment_list(rows: list[sqlite3.Row]) -> tuple[list[Attachment], list[Note]]:
    """llm attachments: stored bytes are attached; a path or URL alone becomes a placeholder."""
    kept: list[Attachment] = []
    notes: list[Note] = []
    for row in rows:
        mime = row[1] if isinstance(row[1], str) and "/" in row[1] else None
        where = _str(row[2]) or _str(row[3])
        name = PurePath(where).name if where else f"attachment{guess_extension(mime or '') or ''}"
        if isinstance(row[4], bytes) and row[4]:
            kept.append(attachment(name or "attachment", row[4], mime))
        else:
            notes.append(placeholder("attachment", where or str(row[0]), "not stored in the log"))
    return kept, notes
