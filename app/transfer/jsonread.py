"""Reading other apps' JSON: a list read one element at a time, and checked access by path.

Exports of thousands of conversations are one JSON list of hundreds of megabytes; ``elements``
parses it one conversation at a time, so memory follows the largest conversation, not the file.
``Node`` wraps a parsed value with its path, so a wrong type is reported as the place it was
found and what was expected there, never as a KeyError from deep inside a converter.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, Any

from app.transfer.base import Malformed, Tick

CHUNK = 1 << 16
_decoder = json.JSONDecoder()
_SPACES = re.compile(r"[ \t\n\r]*")
_SURROGATE = re.compile("[\ud800-\udfff]")


def describe(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def clean(text: str) -> str:
    """Text that can be written as UTF-8: lone surrogates (from broken escapes) become U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


_MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>"})()


class Node:
    """A JSON value and where it sits; accessors check the type and name the place if wrong."""

    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: str = "") -> None:
        self.value = value
        self.path = path

    def fail(self, expected: str) -> Malformed:
        return Malformed(
            f"at {self.path or 'the top'}", f"expected {expected}, found {describe(self.value)}"
        )

    @property
    def present(self) -> bool:
        return self.value is not _MISSING and self.value is not None

    def __getitem__(self, key: str) -> Node:
        if not isinstance(self.value, dict):
            raise self.fail(f"an object with {key!r}")
        return Node(self.value.get(key, _MISSING), f"{self.path}.{key}")

    def get(self, key: str) -> Node:
        """Like ``node[key]``, but an absent or null object gives an absent child."""
        if not self.present:
            return Node(_MISSING, f"{self.path}.{key}")
        return self[key]

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def is_dict(self) -> bool:
        return isinstance(self.value, dict)

    def is_list(self) -> bool:
        return isinstance(self.value, list)

    def items(self, optional: bool = False) -> list[Node]:
        """The elements of a list (none if ``optional`` and absent or null)."""
        if optional and not self.present:
            return []
        if not isinstance(self.value, list):
            raise self.fail("a list")
        return [Node(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def fields(self, optional: bool = False) -> list[tuple[str, Node]]:
        if optional and not self.present:
            return []
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return [(k, Node(v, f"{self.path}[{json.dumps(k)}]")) for k, v in self.value.items()]

    def text(self, default: str | None = None) -> str:
        """A string; absent or null gives ``default`` when one is given."""
        if isinstance(self.value, str):
            return clean(self.value)
        if default is not None and not self.present:
            return default
        raise self.fail("a string")

    def opt_text(self) -> str | None:
        return self.text() if self.present else None

    def number(self, default: float | None = None) -> float:
        value = self.value
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:
                raise self.fail("a number in range") from None
            if not math.isfinite(number):
                raise self.fail("a finite number")
            return number
        if default is not None and not self.present:
            return default
        raise self.fail("a number")

    def count(self) -> int:
        """A non-negative whole number of tokens; anything else counts as 0."""
        value = self.value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62:
            return value
        return 0

    def flag(self) -> bool:
        return self.value is True

    def time(self, default: str) -> str:
        """A time given as epoch seconds or ISO text, as Crosstalk's UTC ISO text."""
        if not self.present:
            return default
        if isinstance(self.value, str):
            return iso_from_text(self.text()) or default
        seconds = self.number()
        if seconds > 1e11:  # milliseconds
            seconds /= 1000
        return iso_from_epoch(seconds) or default


def iso_from_epoch(seconds: float) -> str | None:
    try:
        moment = datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_from_text(text: str) -> str | None:
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except (OverflowError, ValueError):
        return None
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def canonical(value: Any) -> bytes:
    """One byte form of a parsed JSON value, for content keys."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=True
    ).encode()


# --- a JSON list, one element at a time ----------------------------------------------------


class _Buffer:
    """Text read from a binary stream as needed, and where it is: ``line`` and ``column`` are
    those of ``text[mark]``, moved on as parsing goes (never recounted from the start)."""

    def __init__(self, stream: IO[bytes], tick: Tick, total: int) -> None:
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.text = ""
        self.pos = 0
        self.mark = 0
        self.line = 1
        self.column = 0  # characters before text[mark] on its line
        self.eof = False
        self.read_bytes = 0
        self.tick = tick
        self.total = total

    def more(self, at_least: int = CHUNK) -> bool:
        if self.eof:
            return False
        data = self.stream.read(max(at_least, CHUNK))
        self.read_bytes += len(data)
        try:
            self.text += self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            before = self.text[self.mark :] + data[: exc.start].decode("utf-8", "replace")
            line = self.line + before.count("\n")
            newline = before.rfind("\n")
            column = len(before) - newline if newline >= 0 else self.column + len(before) + 1
            raise Malformed(f"line {line} column {column}", "expected UTF-8 text") from exc
        self.eof = not data
        self.tick(self.read_bytes, self.total)
        return True

    def skip_space(self) -> str:
        """The next non-space character ('' at the end), without consuming it."""
        while True:
            self.pos = _SPACES.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text):
                return self.text[self.pos]
            # all space so far: drop it before reading on, so a long run of whitespace costs
            # its length once, not once per chunk (the buffer would be copied each time)
            self.compact()
            if not self.more():
                return ""

    def where(self, pos: int) -> str:
        line = self.line + self.text.count("\n", self.mark, pos)
        newline = self.text.rfind("\n", self.mark, pos)
        column = pos - newline if newline >= 0 else self.column + pos - self.mark + 1
        return f"line {line} column {column}"

    def compact(self) -> None:
        """Move ``mark`` to ``pos``, and forget what was parsed once that is most of the text.

        Both cost what was parsed since the last call: cutting the text at every element
        would copy the rest of it each time: quadratic over a large element followed by many
        small ones."""
        newline = self.text.rfind("\n", self.mark, self.pos)
        if newline >= 0:
            self.line += self.text.count("\n", self.mark, self.pos)
            self.column = self.pos - newline - 1
        else:
            self.column += self.pos - self.mark
        self.mark = self.pos
        if self.pos >= CHUNK and self.pos * 2 >= len(self.text):
            self.text = self.text[self.pos :]
            self.pos = self.mark = 0

    def value(self) -> Any:
        """Parse one JSON value at ``pos``, reading more until it is complete."""
        while True:
            try:
                value, end = _decoder.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                if self.more(len(self.text)):  # doubling: a huge element is not parsed n times
                    continue
                raise Malformed(self.where(exc.pos), f"expected valid JSON ({exc.msg})") from exc
            except (ValueError, RecursionError) as exc:
                raise Malformed(self.where(self.pos), f"expected valid JSON ({exc})") from exc
            if end == len(self.text) and self.more():
                continue  # a number or literal may go on in the next chunk
            self.pos = end
            return value


def elements(stream: IO[bytes], tick: Tick, total: int) -> Iterator[tuple[int, str, Any]]:
    """The elements of a top-level JSON list as (index, line of its start, value).

    A top-level object is taken as a list of one. A syntax error ends the file with a
    Malformed naming its line and column; elements before it have been yielded already.
    """
    buffer = _Buffer(stream, tick, total)
    first = buffer.skip_space()
    if first == "{":
        line = buffer.where(buffer.pos).split(" column")[0]
        yield 0, line, buffer.value()
        _expect_end(buffer)
        return
    if first != "[":
        found = "nothing" if not first else repr(first)
        raise Malformed(buffer.where(buffer.pos), f"expected a JSON list, found {found}")
    buffer.pos += 1
    index = 0
    if buffer.skip_space() == "]":
        buffer.pos += 1
        _expect_end(buffer)
        return
    while True:
        buffer.skip_space()
        buffer.compact()
        line = f"line {buffer.line}"
        yield index, line, buffer.value()
        index += 1
        follow = buffer.skip_space()
        if follow == ",":
            buffer.pos += 1
            continue
        if follow == "]":
            buffer.pos += 1
            _expect_end(buffer)
            return
        found = "the end of the file" if not follow else repr(follow)
        raise Malformed(buffer.where(buffer.pos), f"expected ',' or ']', found {found}")


def _expect_end(buffer: _Buffer) -> None:
    rest = buffer.skip_space()
    if rest:
        raise Malformed(buffer.where(buffer.pos), f"expected the end of the file, found {rest!r}")
