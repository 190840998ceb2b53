"""The ``llm`` command line tool's ``logs.db`` (SQLite), read without changing it.

Two generations of tables live there. Older versions logged each model call as a row of
``responses`` (prompt, system, response, model, tokens, time) grouped by ``conversation_id``,
with ``tool_calls``, ``tool_results``, ``prompt_attachments`` and fragments beside them; newer
ones store ``threads`` of content-addressed ``messages`` made of typed ``parts``, and one
``turns`` row per call (``llm_threads.py``). A thread that continues a legacy conversation
reuses its id and holds its whole history, so that conversation is imported once, from the
thread. Each conversation is read and converted on its own: a broken one is reported and the
rest are imported.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from app.history import Attachment, Reasoning, ToolCall, Usage
from app.transfer import llm_threads
from app.transfer.base import Group, Item, Malformed, Problem, Source, Tick, labelled
from app.transfer.convert import EPOCH, Builder, Conversation, Note, group
from app.transfer.jsonread import clean, iso_from_text

FORMAT = "llm"
PROVIDER = "llm"
RESPONSE_COLUMNS = (
    "id", "model", "resolved_model", "prompt", "system", "response", "conversation_id",
    "duration_ms", "datetime_utc", "input_tokens", "output_tokens", "reasoning",
)  # fmt: skip


def connect(path: Path) -> sqlite3.Connection:
    """Open read-only: the file is never written, not even a journal."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
        db.execute("select count(*) from sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise Malformed("", f"expected an SQLite database ({exc})") from exc
    db.text_factory = lambda raw: clean(raw.decode("utf-8", "replace"))
    return db


def tables(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("select name from sqlite_master where type = 'table'")}


def columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"pragma table_info({table})")}


def text(row: sqlite3.Row, column: str, where: str) -> str:
    value = row[column]
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    raise Malformed(f"{where}, column {column}", "expected text, found binary data")


def count(value: Any) -> int:
    return value if isinstance(value, int) and 0 <= value < 2**62 else 0


def read(source: Source, tick: Tick) -> Iterator[Item]:
    if source.path is None:
        yield Problem(source.name, "", "expected an llm logs.db file on disk")
        return
    try:
        db = connect(source.path)
    except Malformed as exc:
        yield Problem(source.name, exc.place, exc.expected)
        return
    with contextlib.closing(db):
        db.row_factory = sqlite3.Row
        try:
            found = tables(db)
            threads = llm_threads.listed(db) if "threads" in found else []
            legacy = _conversations(db, {t.id for t in threads}) if "responses" in found else []
        except (sqlite3.Error, Malformed) as exc:
            yield Problem(source.name, "", f"expected a readable llm logs database ({exc})")
            return
        if "threads" not in found and "responses" not in found:
            yield Problem(
                source.name, "", "expected an llm logs database (no responses or threads)"
            )
            return
        total = len(threads) + len(legacy)
        for done, conversation_id in enumerate(legacy, start=1):
            yield _guarded(source, f"conversation {conversation_id}", _legacy, db, conversation_id)
            tick(done, total)
        for done, thread in enumerate(threads, start=len(legacy) + 1):
            yield _guarded(source, f"thread {thread.id}", llm_threads.convert, db, thread)
            tick(done, total)


def _guarded(source: Source, where: str, convert: Any, db: sqlite3.Connection, what: Any) -> Item:
    try:
        result: Group = convert(db, what, source)
    except Malformed as exc:
        return Problem(source.name, f"{where}, {exc.place}".rstrip(", "), exc.expected)
    except sqlite3.Error as exc:
        return Problem(source.name, where, f"expected readable rows ({exc})")
    return result


def _conversations(db: sqlite3.Connection, thread_ids: set[str]) -> list[str]:
    """Legacy conversation ids, oldest first; a response without one is its own conversation."""
    rows = db.execute(
        "select coalesce(conversation_id, id) as cid, min(datetime_utc) as first "
        "from responses group by cid order by first, cid"
    ).fetchall()
    return [
        str(row["cid"]) for row in rows if row["cid"] is not None and row["cid"] not in thread_ids
    ]


def _select(db: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> str:
    have = columns(db, table)
    return ", ".join(c if c in have else f"null as {c}" for c in wanted)


def _legacy(db: sqlite3.Connection, conversation_id: str, source: Source) -> Group:
    found = tables(db)
    rows = db.execute(
        f"select {_select(db, 'responses', RESPONSE_COLUMNS)} from responses "  # noqa: S608
        "where conversation_id = ? or (conversation_id is null and id = ?) "
        "order by datetime_utc, id",
        [conversation_id, conversation_id],
    ).fetchall()
    digest = hashlib.sha256(conversation_id.encode())
    name, default_model = "", "unknown"
    if "conversations" in found:
        head = db.execute(
            "select name, model from conversations where id = ?", [conversation_id]
        ).fetchone()
        if head is not None:
            where = f"table conversations, row {conversation_id}"
            name, default_model = text(head, "name", where), text(head, "model", where)
    builder = Builder(PROVIDER)
    for row in rows:
        where = f"table responses, row {text(row, 'id', 'table responses')}"
        digest.update(repr(tuple(row)).encode())
        _response(db, found, builder, row, where, default_model or "unknown", digest)
    created = iso_from_text(text(rows[0], "datetime_utc", "response")) if rows else None
    return group(
        Conversation(
            fmt=FORMAT,
            file=source.name,
            source_id=conversation_id,
            key=f"{FORMAT}:{digest.hexdigest()}",
            label=labelled(f"{source.name} #{conversation_id}", name),
            title=name,
            created_at=created or EPOCH,
            main=builder.finish(),
        )
    )


def _response(  # one logged call: its system, tool results and prompt, then its reply
    db: sqlite3.Connection,
    found: set[str],
    b: Builder,
    row: sqlite3.Row,
    where: str,
    default_model: str,
    digest: Any,
) -> None:
    response_id = text(row, "id", where)
    ts = iso_from_text(text(row, "datetime_utc", where)) or b.last_ts or EPOCH
    model = text(row, "resolved_model", where) or text(row, "model", where) or default_model
    fragments = _fragments(db, found, response_id)
    system = "\n\n".join(
        bit.strip()
        for bit in [*fragments.get("system", []), text(row, "system", where)]
        if bit.strip()
    )
    if system:
        b.system_instruction(system, ts)
    if "tool_results" in found:
        wanted = _select(db, "tool_results", ("name", "output", "tool_call_id", "exception"))
        for result in db.execute(
            f"select {wanted} from tool_results where response_id = ? order by id",  # noqa: S608
            [response_id],
        ):
            digest.update(repr(tuple(result)).encode())
            exception = text(result, "exception", where)
            output = text(result, "output", where) or exception
            call_id = text(result, "tool_call_id", where) or None
            b.result(
                text(result, "name", where), output, ts, call_id=call_id, is_error=bool(exception)
            )
    prompt = "\n".join([*fragments.get("prompt", []), *filter(None, [text(row, "prompt", where)])])
    attachments, notes = _attachments(db, found, response_id, digest)
    if prompt or attachments or notes:
        b.user(prompt, ts, attachments, notes)
    calls: list[ToolCall] = []
    if "tool_calls" in found:
        for n, call in enumerate(
            db.execute(
                "select name, arguments, tool_call_id from tool_calls where response_id = ? "
                "order by id",
                [response_id],
            )
        ):
            digest.update(repr(tuple(call)).encode())
            call_id = text(call, "tool_call_id", where) or f"{response_id}-{n}"
            calls.append(
                ToolCall(
                    id=call_id,
                    name=text(call, "name", where),
                    arguments=text(call, "arguments", where),
                )
            )
    thinking = text(row, "reasoning", where)
    b.flush()
    b.assistant(
        model,
        ts,
        text=text(row, "response", where),
        reasoning=[Reasoning(provider=PROVIDER, model=model, text=thinking)] if thinking else [],
        calls=calls,
        usage=Usage(input=count(row["input_tokens"]), output=count(row["output_tokens"])),
        meta={"llm_response_id": response_id, "latency_ms": count(row["duration_ms"])},
    )


def _fragments(db: sqlite3.Connection, found: set[str], response_id: str) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {}
    for kind in ("prompt", "system"):
        if f"{kind}_fragments" not in found or "fragments" not in found:
            continue
        rows = db.execute(
            f"select f.content from {kind}_fragments pf join fragments f on f.id = pf.fragment_id "  # noqa: S608
            'where pf.response_id = ? order by pf."order"',
            [response_id],
        ).fetchall()
        texts[kind] = [row[0] if isinstance(row[0], str) else "" for row in rows]
    return texts


def _attachments(
    db: sqlite3.Connection, found: set[str], response_id: str, digest: Any
) -> tuple[list[Attachment], list[Note]]:
    if "prompt_attachments" not in found or "attachments" not in found:
        return [], []
    rows = db.execute(
        "select a.id, a.type, a.path, a.url, a.content from prompt_attachments pa "
        "join attachments a on a.id = pa.attachment_id "
        'where pa.response_id = ? order by pa."order"',
        [response_id],
    ).fetchall()
    for row in rows:
        digest.update(str(row[0]).encode())
    return llm_threads.attachment_list(rows)
