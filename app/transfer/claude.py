"""Claude's data export: ``conversations.json``, a list of conversations with ``chat_messages``.

A conversation has ``uuid``, ``name``, ``created_at`` and ``chat_messages``; a message has
``sender`` (human or assistant), ``created_at``, ``text`` and ``content`` blocks (text,
thinking, tool_use, tool_result, ...), plus ``attachments`` (with their extracted text) and
``files`` (names only). When messages carry ``parent_message_uuid`` they form a tree: the
branch ending at ``current_leaf_message_uuid`` (else the newest leaf) is imported and the other
branches become forks. Claude's tools run on its side, so a reply's content holds its calls and
their results in order; they become an output, its results, and the rest of the reply.
"""

from __future__ import annotations

import json

from app.history import AnyEntry, Attachment, Reasoning, ToolCall
from app.transfer import tree
from app.transfer.base import Group, Source, labelled
from app.transfer.convert import (
    EPOCH,
    Builder,
    Conversation,
    Note,
    content_key,
    group,
    placeholder,
    text_attachment,
)
from app.transfer.jsonread import Node

FORMAT = "claude"
PROVIDER = "claude.ai"
ROOT = "00000000-0000-4000-8000-000000000000"
FILE_TYPES = {"txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "pdf": "text/plain"}


def convert(conversation: Node, source: Source, index: int) -> Group:
    created = conversation.get("created_at").time(EPOCH)
    source_id = conversation.get("uuid").text("") or f"#{index}"
    title = conversation.get("name").text("")
    model = conversation.get("model").text("") or "claude"
    messages = conversation["chat_messages"].items()
    keys = [str(n) for n in range(len(messages))]
    uuids = [m.get("uuid").text("") or f"#{n}" for n, m in enumerate(messages)]
    key_of: dict[str, str] = {}
    for key, uuid in zip(keys, uuids, strict=True):
        key_of.setdefault(uuid, key)
    if messages and all(m.has("parent_message_uuid") for m in messages):
        parents = {
            key: key_of.get(m.get("parent_message_uuid").text(ROOT))
            for key, m in zip(keys, messages, strict=True)
        }
        order = sorted(keys, key=lambda k: messages[int(k)].get("created_at").time(EPOCH))
        current = key_of.get(conversation.get("current_leaf_message_uuid").text(""))
        main, others = tree.paths(parents, order, current, conversation["chat_messages"].path)
    else:
        main, others = keys, []

    def entries(path: list[str]) -> list[AnyEntry]:
        builder = Builder(PROVIDER, joiner="")
        for key in path:
            _message(builder, messages[int(key)], model, created)
        return builder.finish()

    label = labelled(f"{source.name} [{index}]", title)
    return group(
        Conversation(
            fmt=FORMAT,
            file=source.name,
            source_id=source_id,
            key=content_key(FORMAT, conversation.value),
            label=label,
            title=title,
            created_at=created,
            main=entries(main),
            branches=[(uuids[int(leaf)], entries(path)) for leaf, path in others],
        )
    )


def _message(b: Builder, message: Node, model: str, created: str) -> None:
    sender = message["sender"].text()
    ts = message.get("created_at").time(b.last_ts or created)
    blocks = message.get("content").items(optional=True)
    if sender == "human":
        texts = [block.get("text").text("") for block in blocks if _kind(block) == "text"]
        notes = [_unknown(block) for block in blocks if _kind(block) not in ("text", "")]
        text = "".join(texts) if blocks else message.get("text").text("")
        attachments, more = _attachments(message)
        b.user(text, ts, attachments, notes + more)
    elif sender == "assistant":
        if not blocks:
            b.assistant(model, ts, text=message.get("text").text(""))
        for n, block in enumerate(blocks):
            _block(b, block, model, ts, f"{message.get('uuid').text('')}-{n}")
    else:
        raise message["sender"].fail("'human' or 'assistant'")


def _kind(block: Node) -> str:
    return block.get("type").text("") if block.is_dict() else ""


def _block(b: Builder, block: Node, model: str, ts: str, fallback_id: str) -> None:
    kind = _kind(block)
    block_ts = block.get("start_timestamp").time(ts)
    if kind == "text":
        b.assistant(model, ts, text=block.get("text").text(""))
    elif kind == "thinking":
        thinking = block.get("thinking").text("")
        signature = block.get("signature").opt_text()
        reasoning = Reasoning(provider=PROVIDER, model=model, text=thinking, signature=signature)
        b.assistant(model, ts, reasoning=[reasoning])
    elif kind == "tool_use":
        arguments = json.dumps(block.get("input").value if block.has("input") else {})
        call_id = block.get("id").text("") or fallback_id
        call = ToolCall(id=call_id, name=block.get("name").text("") or "tool", arguments=arguments)
        b.assistant(model, ts, calls=[call])
    elif kind == "tool_result":
        parts = block.get("content")
        if parts.is_list():
            text = "\n".join(_result_part(part) for part in parts.items())
        else:
            text = parts.text("")
        b.result(
            block.get("name").text(""),
            text,
            block_ts,
            call_id=block.get("tool_use_id").opt_text(),
            is_error=block.get("is_error").flag(),
        )
    else:
        b.assistant(model, ts, notes=[_unknown(block)])


def _result_part(part: Node) -> str:
    if isinstance(part.value, str):
        return part.text()
    if _kind(part) == "text":
        return part.get("text").text("")
    return _unknown(part).text


def _unknown(block: Node) -> Note:
    kind = _kind(block) or "block"
    inner = block.get("text").text("") if block.is_dict() and block.get("text").present else ""
    return placeholder(f"Claude {kind}", inner[:200], "content not supported")


def _attachments(message: Node) -> tuple[list[Attachment], list[Note]]:
    """Attachments with their extracted text are kept; files (names only) become placeholders."""
    kept: list[Attachment] = []
    notes: list[Note] = []
    for item in message.get("attachments").items(optional=True):
        name = item.get("file_name").text("") or "attachment"
        extracted = item.get("extracted_content")
        if extracted.present:
            kind = item.get("file_type").text("")
            mime = kind if "/" in kind else FILE_TYPES.get(kind.lower(), "text/plain")
            if not mime.startswith("text/"):
                mime = "text/plain"  # the extracted text, whatever the original file was
            kept.append(text_attachment(name, extracted.text(), mime))
        else:
            notes.append(placeholder("attachment", name))
    for item in message.get("files").items(optional=True):
        notes.append(placeholder("file", item.get("file_name").text("") or "(no name)"))
    return kept, notes
