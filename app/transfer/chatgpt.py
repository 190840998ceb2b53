"""ChatGPT's data export: ``conversations.json``, a list of conversations, each a message tree.

Each conversation has ``mapping`` (node id -> {message, parent, children}) and ``current_node``.
The path to the current node is imported; every other branch (edited questions, regenerated
answers) becomes a fork of it. Messages have an ``author.role`` (system, user, assistant, tool),
a ``recipient`` (``all``, or the tool an assistant message calls) and ``content`` typed by
``content_type`` (text, multimodal_text, code, execution_output, thoughts, ...). Images are
attached when the export's image files sit beside ``conversations.json``; what cannot be kept
(audio, unknown part types) becomes a placeholder.

A conversation of a ChatGPT project has the project's id (``g-p-`` and hex) as ``gizmo_id``
and ``conversation_template_id`` (a custom GPT's is ``g-`` without ``p-``); the export names no
projects, so each id becomes a project named "ChatGPT project" and a number, which a later
import of the same id joins (``app.transfer.projects``).
"""

from __future__ import annotations

from app.history import AnyEntry, Attachment, Reasoning, ToolCall
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

FORMAT = "chatgpt"
PROVIDER = "chatgpt"
PROJECT_PREFIX = "g-p-"
PROJECT_NAME = "ChatGPT project"
AUDIO_PARTS = ("audio_asset_pointer", "real_time_user_audio_video_asset_pointer")


def convert(conversation: Node, source: Source, index: int) -> Group:
    created = conversation["create_time"].time(EPOCH)
    source_id = (
        conversation.get("conversation_id").opt_text()
        or conversation.get("id").opt_text()
        or f"#{index}"
    )
    title = conversation.get("title").text("")
    default_model = conversation.get("default_model_slug").text("") or "unknown"
    mapping = conversation["mapping"]
    nodes = dict(mapping.fields())
    parents = {key: node.get("parent").opt_text() for key, node in nodes.items()}
    born = {key: node.get("message").get("create_time").number(0.0) for key, node in nodes.items()}
    order = sorted(nodes, key=lambda key: born[key])  # stable: ties keep the file's order
    current = conversation.get("current_node").opt_text()
    main, others = tree.paths(parents, order, current, mapping.path)

    def entries(path: list[str]) -> list[AnyEntry]:
        builder = Builder(PROVIDER)
        for key in path:
            _message(builder, nodes[key].get("message"), source, created, default_model)
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
            branches=[(leaf, entries(path)) for leaf, path in others],
            project_key=_project(conversation),
            project_name=PROJECT_NAME,
        )
    )


def _project(conversation: Node) -> str | None:
    """The key of the ChatGPT project the conversation is in (None: in none)."""
    for name in ("conversation_template_id", "gizmo_id"):
        value = conversation.get(name).value
        if isinstance(value, str) and value.startswith(PROJECT_PREFIX):
            return f"{FORMAT}:{value}"
    return None


def _message(b: Builder, message: Node, source: Source, created: str, default_model: str) -> None:
    if not message.present:
        return  # the root placeholder node
    role = message["author"]["role"].text("")
    content = message.get("content")
    kind = content.get("content_type").text("text")
    ts = message.get("create_time").time(b.last_ts or created)
    metadata = message.get("metadata")
    if kind == "user_editable_context":
        profile = content.get("user_profile").text("")
        instructions = content.get("user_instructions").text("")
        b.system_instruction("\n\n".join(t for t in (profile, instructions) if t), ts)
    elif kind == "model_editable_context":
        b.notebook(content.get("model_set_context").text(""), ts)
    elif role == "system":
        _system(b, content, metadata, ts, source)
    elif role == "user":
        text, attachments, notes = _parts(content, kind, source)
        b.user(text, ts, attachments, notes)
    elif role == "assistant":
        _assistant(b, message, content, kind, metadata, ts, default_model, source)
    elif role == "tool":
        text, _, notes = _parts(content, kind, source, attach=False)
        name = message["author"].get("name").text("") or "tool"
        b.result(name, text, ts, is_error=kind == "system_error", notes=notes)
    else:
        raise message["author"]["role"].fail("a role of system, user, assistant or tool")


def _system(b: Builder, content: Node, metadata: Node, ts: str, source: Source) -> None:
    context = metadata.get("user_context_message_data")
    if metadata.get("is_user_system_message").flag() and context.is_dict():
        about = context.get("about_user_message").text("")
        style = context.get("about_model_message").text("")
        b.system_instruction("\n\n".join(t for t in (about, style) if t), ts)
        return
    text, _, notes = _parts(content, content.get("content_type").text("text"), source, False)
    b.system_instruction("\n".join([text, *(n.text for n in notes)]).strip(), ts)


def _assistant(
    b: Builder,
    message: Node,
    content: Node,
    kind: str,
    metadata: Node,
    ts: str,
    default_model: str,
    source: Source,
) -> None:
    model = metadata.get("model_slug").text("") or default_model
    finish = metadata.get("finish_details").get("type").opt_text()
    status = message.get("status").text("")
    partial = status in ("in_progress", "finished_partial_completion")
    recipient = message.get("recipient").text("all")
    if kind == "thoughts":
        items = [
            Reasoning(
                provider=PROVIDER,
                model=model,
                text="\n\n".join(
                    t for t in (item.get("summary").text(""), item.get("content").text("")) if t
                ),
            )
            for item in content.get("thoughts").items(optional=True)
        ]
        b.assistant(model, ts, reasoning=items)
        return
    if kind == "reasoning_recap":
        b.assistant(model, ts, meta={"reasoning_recap": content.get("content").text("")})
        return
    text, _, notes = _parts(content, kind, source, attach=False)
    if recipient not in ("all", ""):
        call = ToolCall(id=message.get("id").text("") or ts, name=recipient, arguments=text)
        b.assistant(model, ts, calls=[call], notes=notes)
    else:
        b.assistant(model, ts, text=text, notes=notes, finish_reason=finish, partial=partial)


def _parts(
    content: Node, kind: str, source: Source, attach: bool = True
) -> tuple[str, list[Attachment], list[Note]]:
    """The text of a message's content, its images as attachments, the rest as placeholders."""
    texts: list[str] = []
    attachments: list[Attachment] = []
    notes: list[Note] = []
    if kind in ("text", "multimodal_text"):
        for part in content.get("parts").items(optional=True):
            if isinstance(part.value, str):
                texts.append(part.text())
            elif part.is_dict():
                _part(part, source, attach, texts, attachments, notes)
            elif part.present:
                notes.append(placeholder("value", str(part.value)[:80], "of an unknown kind"))
    elif kind in ("code", "execution_output", "system_error"):
        texts.append(content.get("text").text(""))
    elif kind == "tether_browsing_display":
        texts += [t for t in (content.get("result").text(""), content.get("summary").text("")) if t]
    elif kind == "tether_quote":
        fields = ("title", "url", "text")
        texts += [t for t in (content.get(f).text("") for f in fields) if t]
    else:
        inner = content.get("text").text("") if content.get("text").present else ""
        texts.append(inner)
        notes.append(placeholder(f"ChatGPT {kind}", "", "content not supported"))
    return "\n".join(t for t in texts if t), attachments, notes


def _part(
    part: Node,
    source: Source,
    attach: bool,
    texts: list[str],
    attachments: list[Attachment],
    notes: list[Note],
) -> None:
    kind = part.get("content_type").text("")
    if kind == "audio_transcription":
        texts.append(part.get("text").text(""))
    elif kind == "image_asset_pointer":
        pointer = part.get("asset_pointer").text("")
        found = source.sibling(pointer.rsplit("/", 1)[-1]) if attach else None
        if found:
            attachments.append(attachment(*found))
        else:
            size = f"{part.get('width').count()}x{part.get('height').count()}"
            notes.append(placeholder("image", f"{pointer} ({size})"))
    elif kind in AUDIO_PARTS:
        notes.append(placeholder("audio", part.get("asset_pointer").text("")))
    else:
        notes.append(placeholder(kind or "part", "", "not supported"))
