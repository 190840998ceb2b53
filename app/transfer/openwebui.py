"""Open WebUI's chat export: a JSON list of chats (Settings > Chats > Export, or one chat's
"Export chat (.json)").

Each element is a chat record ``{id, title, chat, created_at, updated_at, ...}`` whose ``chat``
holds ``history: {messages: {id: message}, currentId}`` (a tree: a message has ``parentId``,
``childrenIds``, ``role``, ``content``, ``timestamp``, ``model``, ``files``) and the current
branch as ``messages``. The branch ending at ``currentId`` is imported, other branches (edits,
regenerations, several models answering at once) become forks. Images sent as data URLs are
attached; a reply's ``<details type="reasoning">`` becomes its reasoning.

A chat's ``folder_id`` (a folder's id: the export names no folders) becomes a project named
"Open WebUI folder" and a number, which a later import of the same folder joins; its tags
(``meta.tags``, or an older export's ``chat.tags``) become tags, and ``pinned`` pins it.
"""

from __future__ import annotations

import base64
import binascii
import html
import mimetypes
import re

from app.history import AnyEntry, Attachment, Reasoning, Usage
from app.transfer import tree
from app.transfer.base import Group, Source, labelled
from app.transfer.convert import (
    EPOCH,
    Builder,
    Conversation,
    Note,
    attachment,
    content_key,
    group,
    placeholder,
)
from app.transfer.jsonread import Node

FORMAT = "openwebui"
PROVIDER = "openwebui"
PROJECT_NAME = "Open WebUI folder"
_REASONING = re.compile(r'<details\s+type="reasoning"[^>]*>(.*?)</details>\s*', re.DOTALL)
_SUMMARY = re.compile(r"<summary>.*?</summary>\s*", re.DOTALL)
_DATA_URL = re.compile(r"data:([\w.+-]+/[\w.+-]+);base64,(.*)", re.DOTALL)


def convert(record: Node, source: Source, index: int) -> Group:
    chat = record["chat"] if record.has("chat") else record
    created = record.get("created_at").time(chat.get("timestamp").time(EPOCH))
    source_id = record.get("id").text("") or chat.get("id").text("") or f"#{index}"
    title = record.get("title").text("") or chat.get("title").text("")
    models = [m.text("") for m in chat.get("models").items(optional=True)]
    default_model = next((m for m in models if m), "unknown")
    system = chat.get("params").get("system").text("") or chat.get("system").text("")
    history = chat.get("history")
    if history.get("messages").present:
        messages = history["messages"]
        nodes = dict(messages.fields())
        parents = {key: node.get("parentId").opt_text() for key, node in nodes.items()}
        born = {key: node.get("timestamp").number(0.0) for key, node in nodes.items()}
        order = sorted(nodes, key=lambda key: born[key])
        current = history.get("currentId").opt_text()
        main, others = tree.paths(parents, order, current, messages.path)
    else:  # an older export: the current branch only, as a list
        listed = chat["messages"].items()
        nodes = {str(n): node for n, node in enumerate(listed)}
        main, others = list(nodes), []

    def entries(path: list[str]) -> list[AnyEntry]:
        builder = Builder(PROVIDER)
        builder.system_instruction(system, created)
        for key in path:
            _message(builder, nodes[key], default_model, created)
        return builder.finish()

    label = labelled(f"{source.name} [{index}]", title)
    folder = record.get("folder_id").value if record is not chat else None
    folder = folder if isinstance(folder, str) and folder else None
    return group(
        Conversation(
            fmt=FORMAT,
            file=source.name,
            source_id=source_id,
            key=content_key(FORMAT, record.value),
            label=label,
            title=title,
            created_at=created,
            main=entries(main),
            branches=[(leaf, entries(path)) for leaf, path in others],
            project_key=f"{FORMAT}:folder:{folder}" if folder else None,
            project_name=PROJECT_NAME,
            tags=_tags(record, chat),
            pinned=record.get("pinned").flag(),
        )
    )


def _tags(record: Node, chat: Node) -> tuple[str, ...]:
    """``meta.tags`` (names), or an older export's ``chat.tags`` (names, or {name})."""
    found = []
    meta = record.get("meta")
    listed = _listed(meta.get("tags")) if meta.is_dict() else []
    for tag in [*listed, *_listed(chat.get("tags"))]:
        value = tag.get("name").value if tag.is_dict() else tag.value
        if isinstance(value, str) and value.strip():
            found.append(value.strip())
    return tuple(dict.fromkeys(found))


def _listed(node: Node) -> list[Node]:
    return node.items() if node.is_list() else []


def _message(b: Builder, message: Node, default_model: str, created: str) -> None:
    role = message["role"].text()
    ts = message.get("timestamp").time(b.last_ts or created)
    content = _content(message.get("content"))
    if role == "system":
        b.system_instruction(content, ts)
    elif role == "user":
        attachments, notes = _files(message)
        b.user(content, ts, attachments, notes)
    elif role == "assistant":
        model = message.get("model").text("") or default_model
        thinking = [_SUMMARY.sub("", html.unescape(m)).strip() for m in _REASONING.findall(content)]
        reasoning = [Reasoning(provider=PROVIDER, model=model, text=t) for t in thinking if t]
        error = message.get("error")
        b.assistant(
            model,
            ts,
            text=_REASONING.sub("", content).strip() if reasoning else content,
            reasoning=reasoning,
            usage=_usage(message),
            partial=message.has("done") and message.get("done").value is False,
            error=_error(error) if error.present and error.value is not False else None,
        )
    else:
        raise message["role"].fail("a role of system, user or assistant")


def _content(content: Node) -> str:
    """Text content; newer messages may hold a list of typed parts instead."""
    if not content.is_list():
        return content.text("")
    texts = []
    for part in content.items():
        if isinstance(part.value, str):
            texts.append(part.text())
        elif part.get("type").text("") == "text":
            texts.append(part.get("text").text(""))
    return "\n".join(texts)


def _error(error: Node) -> str:
    if error.is_dict():
        return error.get("content").text("") or error.get("message").text("") or "error"
    return error.text("") if isinstance(error.value, str) else "error"


def _usage(message: Node) -> Usage | None:
    usage = message.get("usage")
    if usage.is_dict():
        return Usage(
            input=usage.get("prompt_tokens").count() or usage.get("input_tokens").count(),
            output=usage.get("completion_tokens").count() or usage.get("output_tokens").count(),
        )
    info = message.get("info")
    if info.is_dict():  # Ollama's counts
        return Usage(
            input=info.get("prompt_eval_count").count(), output=info.get("eval_count").count()
        )
    return None


def _files(message: Node) -> tuple[list[Attachment], list[Note]]:
    """Images sent inline (data URLs) are attached; files kept on the server are placeholders."""
    kept: list[Attachment] = []
    notes: list[Note] = []
    for n, item in enumerate(message.get("files").items(optional=True)):
        url = item.get("url").text("")
        kind = item.get("type").text("") or "file"
        given = item.get("name").text("") or item.get("file").get("filename").text("")
        match = _DATA_URL.fullmatch(url)
        if not match:
            notes.append(placeholder(kind, f"{given} {url}".strip()))
            continue
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except (binascii.Error, ValueError):
            notes.append(placeholder(kind, given or f"{kind} {n + 1}", "with damaged data"))
            continue
        mime = match.group(1)
        name = given or f"{kind} {n + 1}{mimetypes.guess_extension(mime) or ''}"
        kept.append(attachment(name, data, mime))
    return kept, notes
