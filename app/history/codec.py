"""Entries to and from their one JSON form, with errors that say which line and what to do."""

from __future__ import annotations

from typing import Any

import msgspec

from app.errors import NewerFormat, TranscriptError
from app.history.entries import KINDS, AnyEntry

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyEntry)
_many = msgspec.json.Decoder(list[AnyEntry])
_raw = msgspec.json.Decoder(dict[str, Any])


def encode(entry: AnyEntry) -> bytes:
    return _encoder.encode(entry)


def decode(line: bytes, where: str = "entry") -> AnyEntry:
    try:
        entry: AnyEntry = _decoder.decode(line)
        return entry
    except msgspec.DecodeError as exc:
        raise _explain(line, where, exc) from exc


def decode_many(lines: list[bytes], where: str, first_line: int = 1) -> list[AnyEntry]:
    """Decode many lines in one pass; on failure, find and name the first bad line."""
    try:
        return _many.decode(b"[" + b",".join(lines) + b"]")
    except msgspec.DecodeError:
        pass
    return [decode(line, f"{where} line {n}") for n, line in enumerate(lines, start=first_line)]


def _explain(line: bytes, where: str, exc: msgspec.DecodeError) -> TranscriptError:
    try:
        kind = _raw.decode(line).get("kind")
    except msgspec.DecodeError:
        return TranscriptError(f"{where} is not valid JSON ({exc}); the file was left untouched")
    if kind not in KINDS:
        return NewerFormat(
            f"{where} has an entry kind {kind!r} this Crosstalk does not know; "
            "it was probably written by a newer Crosstalk: upgrade to open it"
        )
    return TranscriptError(
        f"{where} is not a valid {kind} entry ({exc}); the file was left untouched"
    )
