"""What became of the enabled tools for a request (app/tools.py, app/mcp/source.py, the turn)."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Failure, Note, Templates


class ToolsLeftOut(Note, frozen=True):
    """MCP tools not declared: their definitions were over their share of the token budget
    (``names``: the first few of them; ``more``: there are others)."""

    TEMPLATES: ClassVar[Templates] = {
        "listed": QT_TRANSLATE_NOOP(
            "Notes", "{count} MCP tools not declared (over {share} of the budget): {names}"
        ),
        "more": QT_TRANSLATE_NOOP(
            "Notes", "{count} MCP tools not declared (over {share} of the budget): {names}, …"
        ),
    }
    COUNTS = frozenset({"count"})
    SHARES = frozenset({"share"})
    count: int
    share: float
    names: tuple[str, ...]
    more: bool = False

    def variant(self) -> str:
        return "more" if self.more else "listed"


class ServerNotStarted(Note, frozen=True):
    """An MCP server whose tools were not sent: not in mcp.json, disabled there, or failing
    (``error``: what starting it said)."""

    TEMPLATES: ClassVar[Templates] = {
        "not_configured": QT_TRANSLATE_NOOP(
            "Notes", "{selector}: no server {server} in mcp.json; its tools were not sent"
        ),
        "disabled": QT_TRANSLATE_NOOP(
            "Notes", "{selector}: the server is disabled in mcp.json; its tools were not sent"
        ),
        "failed": QT_TRANSLATE_NOOP("Notes", "{error}; its tools were not sent"),
    }
    cause: Literal["not_configured", "disabled", "failed"]
    selector: str = ""
    server: str = ""
    error: Failure | None = None
