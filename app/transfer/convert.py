"""Shared by the importers of other apps' exports: building entries, placeholders, groups.

Foreign messages become entries through one ``Builder``, so every format pairs tool calls with
their results and merges an assistant's consecutive messages (thinking, text, calls) into one
``model_output`` the same way. What Crosstalk cannot represent is kept as a text placeholder in
the entry, with a note under ``meta["placeholders"]``: never silently dropped.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import mimetypes
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from app import ids
from app.errors import InvalidValue
from app.history import (
    AnyEntry,
    Attachment,
    DebugLog,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Reasoning,
    Select,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.history.entries import MESSAGE_KINDS
from app.notes import ImportSkipped
from app.store import project_state
from app.transfer.base import (
    READ_ERRORS,
    Draft,
    Group,
    Item,
    Malformed,
    Problem,
    Source,
    Tick,
)
from app.transfer.base import stamp as stamp_entries
from app.transfer.jsonread import Node, canonical, elements

EPOCH = "1970-01-01T00:00:00.000Z"


def placeholder(what: str, detail: str, reason: str = "not included in the export") -> Note:
    text = f"[{what} {reason}: {detail}]" if detail else f"[{what} {reason}]"
    return Note(text, {"type": what, "detail": detail, "reason": reason})


@dataclass(frozen=True)
class Note:
    """A placeholder: the text that stands in the entry, and what the meta records about it."""

    text: str
    record: dict[str, str]


def with_notes(
    text: str, notes: Sequence[Note], separator: str = "\n"
) -> tuple[str, dict[str, Any]]:
    """The text with the placeholders appended, and the meta that lists them."""
    if not notes:
        return text, {}
    body = separator.join([text, *(n.text for n in notes)] if text else [n.text for n in notes])
    return body, {"placeholders": [n.record for n in notes]}


def attachment(name: str, data: bytes, mime_type: str | None = None) -> Attachment:
    guessed = mime_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    return Attachment(name=name, mime_type=guessed, data=base64.b64encode(data).decode())


def text_attachment(name: str, text: str, mime_type: str = "text/plain") -> Attachment:
    return attachment(name, text.encode("utf-8", "replace"), mime_type)


@dataclass
class _Output:
    model: str
    ts: str
    text: list[str] = field(default_factory=list)
    reasoning: list[Reasoning] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    partial: bool = False
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)


class Builder:
    """Entries of one path through a conversation, in order, without seq (stamped later)."""

    def __init__(self, provider: str, joiner: str = "\n\n") -> None:
        self.provider = provider
        self.joiner = joiner
        self.bodies: list[AnyEntry] = []
        self.output: _Output | None = None
        self.unanswered: list[ToolCall] = []
        self.system: str | None = None
        self.last_ts = ""

    def _add(self, entry: AnyEntry) -> None:
        self.bodies.append(entry)
        self.last_ts = entry.ts

    def system_instruction(self, text: str, ts: str, meta: dict[str, Any] | None = None) -> None:
        self.flush()
        if text.strip() and text != self.system:
            self.system = text
            self._add(SystemInstruction(text=text, ts=ts, meta=meta or {}))

    def notebook(self, content: str, ts: str) -> None:
        self.flush()
        self._add(MemoryNotebook(content=content, ts=ts))

    def user(
        self,
        text: str,
        ts: str,
        attachments: list[Attachment] | None = None,
        notes: Sequence[Note] = (),
    ) -> None:
        self.flush()
        self.unanswered = []
        body, meta = with_notes(text, notes)
        self._add(ModelInput(text=body, attachments=attachments or [], ts=ts, meta=meta))

    def assistant(
        self,
        model: str,
        ts: str,
        *,
        text: str = "",
        reasoning: list[Reasoning] | None = None,
        calls: list[ToolCall] | None = None,
        notes: Sequence[Note] = (),
        finish_reason: str | None = None,
        usage: Usage | None = None,
        partial: bool = False,
        error: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Part of a reply; parts of one reply (thinking, text, then calls) become one output."""
        current = self.output
        if current is None or (current.calls and (text or reasoning)) or current.model != model:
            self.flush()
            current = self.output = _Output(model=model, ts=ts)
        if text:
            current.text.append(text)
        current.notes += notes
        current.reasoning += reasoning or []
        current.calls += calls or []
        current.finish_reason = finish_reason or current.finish_reason
        current.usage = current.usage + usage if usage else current.usage
        current.partial = current.partial or partial
        current.error = error or current.error
        current.meta.update(meta or {})

    def result(
        self,
        name: str,
        content: str,
        ts: str,
        *,
        call_id: str | None = None,
        is_error: bool = False,
        notes: Sequence[Note] = (),
    ) -> None:
        """A tool result, paired with its call by id, then by name, then by order."""
        self.flush()
        call = next((c for c in self.unanswered if call_id and c.id == call_id), None)
        call = call or next((c for c in self.unanswered if c.name == name), None)
        call = call or (self.unanswered[0] if self.unanswered and not call_id else None)
        if call is not None:
            self.unanswered.remove(call)
        body, meta = with_notes(content, notes)
        result = ToolResult(
            call_id=call.id if call else (call_id or f"unpaired-{len(self.bodies)}"),
            name=call.name if call and not name else name,
            content=body,
            is_error=is_error,
        )
        last = self.bodies[-1] if self.bodies else None
        if isinstance(last, ToolResults):  # results of one round stay one entry
            merged = {**last.meta, **meta}
            if "placeholders" in last.meta and "placeholders" in meta:
                merged["placeholders"] = last.meta["placeholders"] + meta["placeholders"]
            self.bodies[-1] = msgspec.structs.replace(
                last, results=[*last.results, result], meta=merged
            )
        else:
            self._add(ToolResults(results=[result], ts=ts, meta=meta))

    def flush(self) -> None:
        output, self.output = self.output, None
        if output is None:
            return
        text, note_meta = with_notes(self.joiner.join(output.text), output.notes)
        self._add(
            ModelOutput(
                provider=self.provider,
                model=output.model,
                text=text,
                reasoning=output.reasoning,
                tool_calls=output.calls,
                finish_reason=output.finish_reason,
                usage=output.usage,
                partial=output.partial,
                error=output.error,
                ts=output.ts,
                meta={**output.meta, **note_meta},
            )
        )
        self.unanswered = list(output.calls)

    def finish(self) -> list[AnyEntry]:
        self.flush()
        return self.bodies


def content_key(fmt: str, raw: Any) -> str:
    """The key of a source conversation: its parsed JSON in one canonical form, hashed."""
    return f"{fmt}:{hashlib.sha256(canonical(raw)).hexdigest()}"


@dataclass(frozen=True)
class Conversation:
    """A foreign conversation converted: the current path, and other branches by leaf id."""

    fmt: str
    file: str
    source_id: str
    key: str
    label: str
    title: str
    created_at: str
    main: list[AnyEntry]
    branches: list[tuple[str, list[AnyEntry]]] = field(default_factory=list)
    ref: str = ""  # how forks in the same file name it (default: its key)
    parent_ref: str | None = None  # a conversation of the same file this one was forked from
    fork_seq: int = 0
    project_key: str | None = None  # the source's group, e.g. "chatgpt:g-p-..." (Draft)
    project_name: str = ""  # a new project for it is named so, and numbered
    tags: tuple[str, ...] = ()
    pinned: bool = False


def group(conversation: Conversation) -> Group:
    """The draft of a converted conversation: one conversation whose messages form a tree,
    the current path and every other branch (docs/architecture.md, "Branches").

    Paths are merged where their entries are equal, so a branch shares the messages before the
    one that was edited or regenerated. The current path is merged last, so its own messages
    are the newest and it is the active branch. The draft ends with a title entry whose
    ``meta["import"]`` says where it came from (format, file, source id, key).
    """
    c = conversation
    if not c.main:
        return Group(c.label, [], skip_reason=ImportSkipped(cause="no_messages"))
    title = c.title or fallback_title(c.main)
    paths = [bodies for _, bodies in c.branches] + [c.main]
    merged, main_leaf = merge_paths(paths)
    branches = sum(1 for _, bodies in c.branches if bodies)
    if main_leaf is not None and branches:
        merged.append(Select(target=main_leaf, ts=merged[-1].ts))  # the current one, as there
    provenance = {"format": c.fmt, "file": c.file, "conversation": c.source_id, "key": c.key}
    ts = c.main[-1].ts or c.created_at
    mark = Title(text=title, source="generated", ts=ts, meta={"import": provenance})
    tagged = [tags_entry(c.tags, ts)] if c.tags else []
    entries = stamp_entries([*merged, *tagged, mark])
    ref = c.ref or c.key
    draft = Draft(
        c.label, c.key, c.created_at, entries, ref, c.parent_ref, c.fork_seq,
        project_key=c.project_key, project_name=c.project_name, tags=c.tags, pinned=c.pinned,
    )  # fmt: skip
    return Group(c.label, [draft])


def tags_entry(tags: Sequence[str], ts: str) -> DebugLog:
    """A conversation's tags as the store keeps them (``app.store.project_state``): those
    Crosstalk cannot keep (with a comma, too long) are left out."""
    kept = []
    for tag in tags:
        with contextlib.suppress(InvalidValue):
            kept.append(project_state.clean_tag(tag))
    kept = project_state.retagged([], kept)
    message = "tags: " + (", ".join(kept) or "none")
    return DebugLog(category=project_state.TAGGED, message=message, meta={"tags": kept}, ts=ts)


def merge_paths(paths: list[list[AnyEntry]]) -> tuple[list[AnyEntry], str | None]:
    """Root-to-leaf paths as one tree, each message given an id and its parent's; an entry
    equal to one already at the same place is shared. Returns the entries, in the order they
    were first met, and the id of the last message of the last path."""
    merged: list[AnyEntry] = []
    children: dict[int, list[int]] = {}  # place in the tree (-1: the root) -> indices in merged
    leaf: str | None = None
    for bodies in paths:
        place, parent = -1, None
        for body in bodies:
            found = next((i for i in children.get(place, []) if _same(merged[i], body)), None)
            if found is None:
                is_message = isinstance(body, MESSAGE_KINDS)
                merged.append(
                    msgspec.structs.replace(
                        body, id=ids.new_id(), parent=parent if is_message else None
                    )
                )
                found = len(merged) - 1
                children.setdefault(place, []).append(found)
            place = found
            if isinstance(merged[found], MESSAGE_KINDS):
                parent = merged[found].id
        leaf = parent
    return merged, leaf


def _same(kept: AnyEntry, body: AnyEntry) -> bool:
    return msgspec.structs.replace(kept, id=body.id, parent=body.parent) == body


def fallback_title(entries: list[AnyEntry], words: int = 6) -> str:
    """The first words of the first input, as Crosstalk names a conversation it cannot ask about."""
    first = next((e.text for e in entries if isinstance(e, ModelInput) and e.text.strip()), "")
    return " ".join(first.split()[:words])[:60] or "Untitled"


def short_title(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("title", "name"):
            if isinstance(value.get(key), str) and value[key].strip():
                text = " ".join(value[key].split())
                return f" {text[:40]!r}"
    return ""


Convert = Callable[[Node, Source, int], Group]


def read_json_list(source: Source, tick: Tick, convert: Convert) -> Iterator[Item]:
    """Convert each element of a JSON list; a bad element is a Problem, the rest go on."""
    try:
        with source.open() as stream:
            for index, line, value in elements(stream, tick, source.size):
                try:
                    yield convert(Node(value, f"[{index}]"), source, index)
                except Malformed as exc:
                    place = f"{line}, conversation [{index}]{short_title(value)} {exc.place}"
                    yield Problem(source.name, place, exc.expected)
                except RecursionError:
                    place = f"{line}, conversation [{index}]"
                    yield Problem(source.name, place, "expected JSON nested less deeply")
    except Malformed as exc:
        yield Problem(source.name, exc.place, exc.expected)
    except READ_ERRORS as exc:
        yield Problem(source.name, "", f"expected a readable file ({exc})")
