"""Entries to and from their one JSON form, with errors that say which line and what to do."""

from __future__ import annotations

from typing import Any

import msgspec

from app.errors import NewerFormat, TranscriptError
from app.history.entries import KINDS, AnyEntry, DebugLog

DAMAGED = "damaged"  # the category of a stand-in for a line that could not be read

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
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise _explain(line, where, exc) from exc


def decode_many(lines: list[bytes], where: str, first_line: int = 1) -> list[AnyEntry]:
    """Decode many lines in one pass; on failure, find and name the first bad line."""
    try:
        return _many.decode(b"[" + b",".join(lines) + b"]")
    except msgspec.DecodeError:
        pass
    return [decode(line, f"{where} line {n}") for n, line in enumerate(lines, start=first_line)]


def decode_lines(
    lines: list[bytes], where: str, first_line: int = 1, first_seq: int = 1
) -> tuple[list[AnyEntry], list[str]]:
    """Decode a transcript's entry lines, keeping everything that can be kept.

    A line with invalid UTF-8 is read with replacement characters; a line that is not an entry
    (garbled, cut, or out of order) is skipped. Each becomes one problem (file and line). So
    that seqs stay 1, 2, 3 ... a skipped or missing entry is stood in for by a ``debug_log``
    of category ``damaged`` (never sent to a model, never written). An entry kind this
    Crosstalk does not know still refuses the whole file: it comes from a newer Crosstalk.
    """
    try:
        entries = _many.decode(b"[" + b",".join(lines) + b"]")
        if all(e.seq == n for n, e in enumerate(entries, start=first_seq)):
            return entries, []
    except (msgspec.DecodeError, UnicodeDecodeError):
        pass
    kept: list[AnyEntry] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=first_line):
        place = f"{where} line {number}"
        expected = first_seq + len(kept)
        entry = _tolerant(line, place, problems)
        if entry is None or entry.seq < expected:
            if entry is not None:
                problems.append(f"{place}: entry {entry.seq} again, out of order; skipped")
            kept.append(_stand_in(expected, f"{place} could not be read"))
            continue
        if entry.seq > expected:
            problems.append(f"{place}: entries {expected} to {entry.seq - 1} are missing")
            kept += [_stand_in(n, f"missing before {place}") for n in range(expected, entry.seq)]
        kept.append(entry)
    return kept, problems


def _tolerant(line: bytes, place: str, problems: list[str]) -> AnyEntry | None:
    try:
        return decode(line, place)
    except NewerFormat:
        raise
    except TranscriptError as exc:
        try:
            entry = decode(line.decode("utf-8", errors="replace").encode(), place)
        except TranscriptError:
            problems.append(str(exc).removesuffix("; the file was left untouched") + "; skipped")
            return None
        problems.append(f"{place} has bytes that are not UTF-8; read with replacements")
        return entry


def _stand_in(seq: int, why: str) -> DebugLog:
    return DebugLog(seq=seq, category=DAMAGED, message=why)


def _explain(line: bytes, where: str, exc: Exception) -> TranscriptError:
    try:
        kind = _raw.decode(line).get("kind")
    except (msgspec.DecodeError, UnicodeDecodeError):
        return TranscriptError(f"{where} is not valid JSON ({exc}); the file was left untouched")
    if kind not in KINDS:
        return NewerFormat(
            f"{where} has an entry kind {kind!r} this Crosstalk does not know; "
            "it was probably written by a newer Crosstalk: upgrade to open it"
        )
    return TranscriptError(
        f"{where} is not a valid {kind} entry ({exc}); the file was left untouched"
    )
