"""The ToolBox without servers: selectors, checking names, and choosing within a token limit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app import composition
from app.notes import Note, ServerNotStarted, english
from app.paths import DataDir
from app.providers import ToolSpec
from app.tools import BUILTIN, BuiltinSource, SourcedTool, ToolBox, ToolContext, ToolOutcome
from tests.helpers.mcp_servers import demo_stdio, write_config


class Listed:
    """A source whose tools are known: what McpSource is after its server has listed."""

    def __init__(self, server: str, names: list[str]) -> None:
        self.server, self.name, self.names = server, f"mcp:{server}", names

    def selectors(self) -> list[str]:
        return [self.name]

    def tools(self) -> list[SourcedTool]:
        return [
            SourcedTool(
                ToolSpec(f"mcp__{self.server}__{n}", f"does {n} " * 20, {"type": "object"}),
                self.name,
                f"{self.name}/{n}",
                server=self.server,
                tool=n,
                needs_approval=True,
            )
            for n in self.names
        ]

    async def prepare(self) -> Note | None:
        return None

    async def call(self, tool: SourcedTool, arguments: dict[str, Any], ctx: ToolContext) -> Any:
        return ToolOutcome("ok")

    def always_allowed(self, tool: SourcedTool) -> bool:
        return False

    def allow_always(self, tool: SourcedTool) -> None:
        return None

    def transport(self) -> str:
        return "stdio"


BOX = ToolBox([BuiltinSource(), Listed("fs", ["read", "write", "list"]), Listed("git", ["log"])])


def test_selectors_and_checking() -> None:
    assert BOX.selectors() == [*BUILTIN, "mcp:fs", "mcp:git"]
    assert BOX.check(["all"]) == BOX.selectors()
    assert BOX.check(["none"]) == []
    assert BOX.check(["current_time", "mcp:fs", "mcp:git/anything"]) == [
        "current_time", "mcp:fs", "mcp:git/anything",
    ]  # fmt: skip
    with pytest.raises(ValueError, match=r"no tool 'mcp:web'; the tools are: search_conv"):
        BOX.check(["mcp:web"])
    with pytest.raises(ValueError, match="no tool 'nope'"):
        BOX.check(["nope"])


def test_resolve_keeps_selector_order_once_each() -> None:
    names = [t.spec.name for t in BOX.resolve(["mcp:git", "current_time", "mcp:fs", "mcp:fs/read"])]
    assert names == ["mcp__git__log", "current_time", "mcp__fs__read", "mcp__fs__write",
                     "mcp__fs__list"]  # fmt: skip


def test_choose_keeps_builtins_used_and_named_tools_first() -> None:
    enabled = ["current_time", "mcp:fs", "mcp:git/log"]
    everything = BOX.choose(enabled, set(), None)
    assert not everything.left_out and everything.tokens == everything.all_tokens
    tight = BOX.choose(enabled, {"mcp__fs__list"}, 1)
    assert [t.spec.name for t in tight.tools] == ["current_time", "mcp__fs__list"]
    assert tight.left_out == ("mcp__fs__read", "mcp__fs__write", "mcp__git__log")
    roomy = BOX.choose(enabled, set(), everything.all_tokens - 1)
    assert "mcp__git__log" in [t.spec.name for t in roomy.tools]  # named: before the rest
    assert roomy.left_out and roomy.tokens <= everything.all_tokens - 1


def test_the_services_toolbox_follows_mcp_json(data_dir: DataDir) -> None:
    write_config(data_dir, {"demo": demo_stdio(), "off": demo_stdio(disabled=True)})
    services = composition.build(data_dir, {}, reconcile=False)
    try:
        assert services.toolbox.selectors() == [*BUILTIN, "mcp:demo"]
        notes = asyncio.run(services.toolbox.prepare(["mcp:off", "mcp:gone"]))
        assert notes == [
            ServerNotStarted(cause="disabled", selector="mcp:off"),
            ServerNotStarted(cause="not_configured", selector="mcp:gone", server="gone"),
        ]
        assert english(notes[0]) == (
            "mcp:off: the server is disabled in mcp.json; its tools were not sent"
        )
        write_config(data_dir, {})
        assert services.toolbox.selectors() == list(BUILTIN)
        assert services.runner.toolbox is services.toolbox
        data_dir.mcp_file.write_text("{oops")
        assert services.toolbox.selectors() == list(BUILTIN)
        assert any("mcp.json, line 1" in w for w in services.library.warnings)
    finally:
        services.close()
