"""Entries to and from their one JSON form, with errors that say which line and what to do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from app.errors import NewerFormat, TranscriptError
from app.history.entries import KINDS, AnyEntry
from app.history.placing import DAMAGED as DAMAGED  # re-exported: the stand-ins' category
from app.history.placing import Line, place

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
    lines: list[bytes],
    where: str,
    first_line: int = 1,
    first_seq: int = 1,
    held: Callable[[AnyEntry], bool] | None = None,
) -> tuple[list[AnyEntry], list[str]]:
    """Decode a transcript's entry lines, keeping every entry that can be read.

    Lines that are whole and in order (seqs ``first_seq``, ``first_seq + 1`` ...) decode in one
    pass. Otherwise each line is read alone: a line with invalid UTF-8 is read with replacement
    characters, a line that is not an entry is reported (file and line) and takes no place, and
    each readable entry goes where its own seq and id say (``app.history.placing``); a seq no
    readable line holds is stood in for by a ``debug_log`` of category ``damaged`` (never sent
    to a model, never written). ``held`` says whether an entry before ``first_seq`` is one the
    caller already has (a repeat). An entry kind this Crosstalk does not know still refuses the
    whole file: it comes from a newer Crosstalk.
    """
    in_order = decode_in_order(lines, first_seq)
    if in_order is not None:
        return in_order, []
    readable: list[Line] = []
    unreadable: list[int] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=first_line):
        entry = _tolerant(line, f"{where} line {number}", problems)
        if entry is None:
            unreadable.append(number)
        else:
            readable.append(Line(number, entry))
    entries, placing_problems = place(readable, unreadable, where, first_seq, held)
    return entries, problems + placing_problems


def decode_in_order(lines: list[bytes], first_seq: int = 1) -> list[AnyEntry] | None:
    """The entries of ``lines`` decoded in one pass, if every line is a whole entry and their
    seqs run on from ``first_seq``; None otherwise (``decode_lines`` looks at each line)."""
    try:
        entries = _many.decode(b"[" + b",".join(lines) + b"]")
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    if all(e.seq == n for n, e in enumerate(entries, start=first_seq)):
        return entries
    return None


def _tolerant(line: bytes, place: str, problems: list[str]) -> AnyEntry | None:
    try:
        return decode(line, place)
    except NewerFormat:
        raise
    except TranscriptError as exc:
        try:
            entry = decode(line.decode("utf-8", errors="replace").encode(), place)
        except TranscriptError:
            problems.append(
                str(exc).removesuffix("; the file was left untouched")
                + "; set aside (the line is kept in the file)"
            )
            return None
        problems.append(f"{place} has bytes that are not UTF-8; read with replacements")
        return entry


def _explain(line: bytes, where: str, exc: Exception) -> TranscriptError:
    try:
        kind = _raw.decode(line).get("kind")
    except (msgspec.DecodeError, UnicodeDecodeError):
        return TranscriptError(f"{where} is not valid JSON ({exc}); the file was left untouched")
    if kind not in KINDS and _newer_kind(kind):
        return NewerFormat(
            f"{where} has an entry kind {kind!r} this Crosstalk does not know; "
            "it was probably written by a newer Crosstalk: upgrade to open it"
        )
    if kind not in KINDS:
        return TranscriptError(
            f"{where} is not a Crosstalk entry (kind {kind!r}: damaged, or from another "
            "program); the file was left untouched"
        )
    return TranscriptError(
        f"{where} is not a valid {kind} entry ({exc}); the file was left untouched"
    )


def _newer_kind(kind: object) -> bool:
    """Whether ``kind`` looks like a kind a newer Crosstalk wrote (which refuses the whole
    file), rather than damage: a name of lowercase letters and underscores, not a known kind
    with one character changed (a flipped byte)."""
    if not isinstance(kind, str) or not kind.replace("_", "").isalpha() or not kind.islower():
        return False
    return not any(
        len(kind) == len(known) and sum(a != b for a, b in zip(kind, known, strict=True)) == 1
        for known in KINDS
    )
