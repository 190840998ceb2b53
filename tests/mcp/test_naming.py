"""Wire names: mcp__server__tool, within 64 safe characters, stable, never a built-in's."""

from __future__ import annotations

from app.mcp import parse_selector, wire_name
from app.mcp.naming import WIRE
from app.tools import BUILTIN


def test_plain_names() -> None:
    assert wire_name("everything", "get-tiny-image") == "mcp__everything__get-tiny-image"
    assert wire_name("fs", "read_file") == "mcp__fs__read_file"


def test_other_characters_and_long_names_are_hashed_stably() -> None:
    dotted = wire_name("fs", "a.b")
    assert WIRE.match(dotted) and dotted.startswith("mcp__fs__a_b_") and len(dotted) == 21
    assert dotted == wire_name("fs", "a.b") and dotted != wire_name("fs", "a_b")
    fits = "t" * (64 - len("mcp__s__"))
    assert wire_name("s", fits) == f"mcp__s__{fits}"  # 64: as it is
    over = wire_name("s", fits + "t")  # 65: hashed
    assert WIRE.match(over) and len(over) == 64 and over != wire_name("s", fits + "u")
    assert all(wire_name("x", name) != name for name in BUILTIN)


def test_selectors() -> None:
    assert parse_selector("mcp:fs") == ("fs", None)
    assert parse_selector("mcp:fs/read_file") == ("fs", "read_file")
    assert parse_selector("current_time") is None
    assert parse_selector("mcp:") is None
