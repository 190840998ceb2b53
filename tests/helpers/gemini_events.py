"""Gemini streamGenerateContent SSE events for the wire server.

Gemini's stream is ``data: <GenerateContentResponse JSON>`` events only (exactly ``data: ``
with the space, no ``event:`` lines); an error mid-stream is a ``data: {"error": ...}`` event.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from tests.helpers.wire_server import Recorded, Reply, WireServer, sse

Part = dict[str, Any]


def text(value: str, signature: str | None = None) -> Part:
    part: Part = {"text": value}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def thought(value: str, signature: str | None = None) -> Part:
    return {**text(value, signature), "thought": True}


def call(
    name: str, args: dict[str, Any], call_id: str | None = None, signature: str | None = None
) -> Part:
    function_call: dict[str, Any] = {"name": name, "args": args}
    if call_id is not None:
        function_call["id"] = call_id
    part: Part = {"functionCall": function_call}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def usage(prompt: int, candidates: int, thoughts: int = 0, cached: int = 0) -> dict[str, int]:
    meta = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + thoughts,
    }
    if thoughts:
        meta["thoughtsTokenCount"] = thoughts
    if cached:
        meta["cachedContentTokenCount"] = cached
    return meta


def chunk(
    *parts: Part,
    finish: str | None = None,
    usage: dict[str, int] | None = None,
    block_reason: str | None = None,
) -> bytes:
    data: dict[str, Any] = {"modelVersion": "gemini-test"}
    if parts or finish:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
        if finish:
            candidate["finishReason"] = finish
        data["candidates"] = [candidate]
    if usage is not None:
        data["usageMetadata"] = usage
    if block_reason is not None:
        data["promptFeedback"] = {"blockReason": block_reason}
    return sse(data)


def error_body(
    code: int, status: str, message: str, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return {"error": error}


def error_event(code: int, status: str, message: str) -> bytes:
    return sse(error_body(code, status, message))


def retry_info(delay: str) -> dict[str, Any]:
    return {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}


def error_info(reason: str) -> dict[str, Any]:
    return {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": "googleapis.com",
    }


class FilesApi:
    """Gemini's Files API as google-genai 3.x drives it, served by a ``WireServer``.

    ``client.aio.files.upload`` first POSTs ``upload/<version>/files`` with
    ``X-Goog-Upload-Protocol: resumable``, ``X-Goog-Upload-Command: start`` and the size and type
    in ``X-Goog-Upload-Header-Content-Length`` / ``-Content-Type``; the reply's
    ``X-Goog-Upload-URL`` names the session. The bytes follow in 8 MB POSTs to that URL, each
    with ``X-Goog-Upload-Command: upload`` and its ``X-Goog-Upload-Offset``, the last with
    ``upload, finalize``; each reply says ``X-Goog-Upload-Status: active`` until the last, which
    says ``final`` and carries ``{"file": {...}}``. ``files.get`` reads ``<version>/files/<id>``.
    Offsets and sizes are checked as the real service would; what was uploaded is kept in
    ``uploaded`` (by file name, e.g. ``files/f1``).
    """

    def __init__(self, server: WireServer, processing_polls: int = 0) -> None:
        self.server = server
        self.processing_polls = processing_polls  # GETs that still say PROCESSING
        self.uploaded: dict[str, bytes] = {}
        self.starts: list[dict[str, str]] = []  # the start requests' X-Goog-Upload-* headers
        self.display_names: list[str] = []  # the name each start gives its file
        self.problems: list[str] = []
        self.version = "v1beta"  # the API version the SDK speaks, from its first upload path
        self._sessions: dict[str, dict[str, Any]] = {}
        self._files: dict[str, dict[str, Any]] = {}
        server.respond("/upload/", self._upload)
        server.respond("/files/", self._get)

    def uri(self, name: str) -> str:
        return f"{self.server.url}/{self.version}/{name}"

    def _upload(self, rec: Recorded) -> Reply:
        command = rec.headers.get("x-goog-upload-command", "")
        if command == "start":
            return self._start(rec)
        session = self._sessions.get(rec.query.get("upload_id", [""])[0])
        if session is None:
            return self._refuse(404, "NOT_FOUND", f"no upload session for {rec.path}")
        offset = int(rec.headers.get("x-goog-upload-offset", "-1"))
        if offset != len(session["data"]):
            return self._refuse(400, "INVALID_ARGUMENT", f"offset {offset} is not where it was")
        session["data"] += rec.body
        if "finalize" not in command:
            return Reply(headers={"X-Goog-Upload-Status": "active"}, body=b"")
        data = bytes(session["data"])
        if len(data) != session["size"]:
            return self._refuse(
                400, "INVALID_ARGUMENT", f"{len(data)} bytes, not {session['size']}"
            )
        name = f"files/f{len(self._files) + 1}"
        self.uploaded[name] = data
        state = "PROCESSING" if self.processing_polls else "ACTIVE"
        file = {
            "name": name,
            "displayName": session["display_name"],
            "mimeType": session["mime_type"],
            "sizeBytes": str(len(data)),
            "createTime": "2026-11-30T10:00:00.000000Z",
            "updateTime": "2026-11-30T10:00:00.000000Z",
            "expirationTime": "2099-12-02T10:00:00.000000Z",
            "sha256Hash": base64.b64encode(hashlib.sha256(data).hexdigest().encode()).decode(),
            "uri": self.uri(name),
            "state": state,
            "source": "UPLOADED",
        }
        self._files[name] = file
        return Reply(headers={"X-Goog-Upload-Status": "final"}, body={"file": file})

    def _start(self, rec: Recorded) -> Reply:
        headers = {k: v for k, v in rec.headers.items() if k.startswith("x-goog-upload")}
        self.starts.append(headers)
        self.version = rec.path.split("/")[2]  # /upload/<version>/files
        if headers.get("x-goog-upload-protocol") != "resumable":
            return self._refuse(400, "INVALID_ARGUMENT", "only resumable uploads are served")
        # google-genai writes the file's fields as display_name, mime_type; the API takes both
        described = (rec.json or {}).get("file", {})
        display_name = described.get("displayName", described.get("display_name", ""))
        self.display_names.append(display_name)
        upload_id = f"u{len(self._sessions) + 1}"
        self._sessions[upload_id] = {
            "size": int(headers.get("x-goog-upload-header-content-length", "-1")),
            "mime_type": headers.get("x-goog-upload-header-content-type", ""),
            "display_name": display_name,
            "data": bytearray(),
        }
        url = f"{self.server.url}{rec.path}?upload_id={upload_id}&upload_protocol=resumable"
        return Reply(headers={"X-Goog-Upload-URL": url, "X-Goog-Upload-Status": "active"}, body=b"")

    def _get(self, rec: Recorded) -> Reply:
        name = "files/" + rec.path.rsplit("/files/", 1)[1]
        file = self._files.get(name)
        if file is None:
            return self._refuse(403, "PERMISSION_DENIED", f"You do not have permission to "
                                f"access the File {name} or it may not exist.")  # fmt: skip
        if self.processing_polls:
            self.processing_polls -= 1
        else:
            file["state"] = "ACTIVE"
        return Reply(body=file)

    def _refuse(self, code: int, status: str, message: str) -> Reply:
        self.problems.append(message)
        return Reply(code, body=error_body(code, status, message))


def file_gone(name: str) -> dict[str, Any]:
    """What Gemini answers a request naming a file it no longer has (deleted after 48 h)."""
    message = f"You do not have permission to access the File {name} or it may not exist."
    return error_body(403, "PERMISSION_DENIED", message)
