"""An MCP tool's result as Crosstalk keeps it: text for the model, images as blobs."""

from __future__ import annotations

import base64
import binascii
import json
import mimetypes
from typing import Any

from mcp_types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from app.attachments.files import attach_bytes, identify
from app.errors import AttachmentError
from app.history import Attachment
from app.store.blobs import Blobs
from app.tools import ToolOutcome


def outcome(result: CallToolResult, blobs: Blobs, *, server: str, tool: str) -> ToolOutcome:
    """Text blocks joined; no text but structured content -> that JSON; images stored as
    attachments (a line in the text says so); other blocks described in a line."""
    parts: list[str] = []
    attachments: list[Attachment] = []

    def image(data: str, mime: str) -> None:
        n = len(attachments) + 1
        ext = (mimetypes.guess_extension(mime) or ".bin").lstrip(".")
        try:
            raw = base64.b64decode(data)
            if not identify(raw).mime_type.startswith("image/"):
                raise AttachmentError(f"the server said {mime}, but the bytes are not an image")
            attachment = attach_bytes(blobs, raw, f"{tool}-{n}.{ext}")
        except (AttachmentError, binascii.Error, ValueError) as exc:
            parts.append(f"[image not kept: {exc}]")
            return
        attachments.append(attachment)
        size = f" {attachment.width}x{attachment.height}" if attachment.width else ""
        parts.append(f"[image {attachment.mime_type}{size}, attached]")

    texts = 0
    for block in result.content:
        match block:
            case TextContent(text=text):
                texts += 1
                parts.append(text)
            case ImageContent(data=data, mime_type=mime):
                image(data, mime)
            case EmbeddedResource(resource=TextResourceContents(uri=uri, text=text) as res):
                parts.append(f"[resource {uri} ({res.mime_type or 'text'})]\n{text}")
            case EmbeddedResource(resource=BlobResourceContents(uri=uri, blob=blob) as res):
                mime = res.mime_type or ""
                if mime.startswith("image/"):
                    image(blob, mime)
                else:
                    size = len(blob) * 3 // 4
                    parts.append(f"[binary resource {uri}, {mime or 'unknown type'}, "
                                 f"{size} bytes: not shown]")  # fmt: skip
            case ResourceLink(uri=uri, name=name):
                parts.append(f"[resource link: {name} {uri}]")
            case AudioContent(mime_type=mime):
                parts.append(f"[audio {mime}: not supported]")
            case _:
                parts.append(f"[{getattr(block, 'type', 'unknown')} content: not supported]")
    structured: Any = result.structured_content
    if not texts and structured is not None:
        parts.insert(0, json.dumps(structured, ensure_ascii=False, indent=2))
    meta = {"structured": True} if structured is not None else {}
    return ToolOutcome(
        "\n\n".join(parts) or "(no output)",
        is_error=bool(result.is_error),
        attachments=tuple(attachments),
        meta=meta,
    )
