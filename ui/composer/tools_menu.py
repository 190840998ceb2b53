"""The composer's Tools menu: the built-in tools and, under a separator, each MCP server of
mcp.json as ``mcp:NAME``.

The servers are read again each time the menu is about to show (mcp.json may change while the
window runs); that reads the file and the servers' state files, and starts nothing. A server
that cannot be used (disabled, a bad entry, an unreadable mcp.json) is listed greyed, with the
reason as its tooltip. A choice the menu no longer offers (a server taken out of mcp.json, a
single tool ``mcp:fs/read_file`` remembered by a turn) stays listed while it is ticked, so what
the next turn sends is always what the menu shows, and it can be unticked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from app.mcp import ConfigError, McpManager, ServerStatus, parse_selector
from ui.common import errors_text


def enabled_servers(chosen: Iterable[str], mcp: McpManager) -> list[str]:
    """The servers a conversation's tools enable (``mcp:fs``, or one of its tools
    ``mcp:fs/read_file``) that mcp.json has and does not disable, in order. Starts nothing."""
    try:
        servers = mcp.config.servers
    except ConfigError:
        return []
    out: list[str] = []
    for name in chosen:
        parsed = parse_selector(name)
        if parsed is None or parsed[0] in out:
            continue
        config = servers.get(parsed[0])
        if config is not None and not config.disabled:
            out.append(parsed[0])
    return out


@dataclass(frozen=True)
class ServerItem:
    selector: str  # "mcp:fs"
    tip: str
    usable: bool


class ToolsMenu(QMenu):
    """Checkable entries; ``chosen()`` is what the next turn enables."""

    changed = Signal()  # an entry was ticked or unticked

    def __init__(
        self,
        builtins: Iterable[tuple[str, str]],
        mcp: McpManager | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.mcp = mcp
        self.setToolTipsVisible(True)
        self._actions: dict[str, QAction] = {}
        for name, description in builtins:
            self._add(name, description)
        self._separator = self.addSeparator()
        self._builtins = set(self._actions)
        self.refresh()
        self.aboutToShow.connect(self.refresh)

    def _add(self, name: str, tip: str) -> QAction:
        action = self.addAction(name)
        action.setCheckable(True)
        action.setToolTip(tip)
        action.toggled.connect(lambda _on: self.changed.emit())
        self._actions[name] = action
        return action

    # --- choosing -------------------------------------------------------------------------

    def chosen(self) -> list[str]:
        return [name for name, action in self._actions.items() if action.isChecked()]

    def set_chosen(self, names: Iterable[str]) -> None:
        wanted = list(dict.fromkeys(names))
        for name in wanted:
            if name not in self._actions and name.startswith("mcp:"):
                self._add(name, self.tr("Not in mcp.json now"))
        for name, action in self._actions.items():
            action.setChecked(name in wanted)
        self.refresh()  # entries for servers no longer configured and not ticked go

    def action(self, name: str) -> QAction | None:
        return self._actions.get(name)

    # --- the servers ----------------------------------------------------------------------

    def refresh(self) -> None:
        """The servers' entries as mcp.json and their state files say now."""
        items = {item.selector: item for item in self.server_items()}
        for name in list(self._actions):
            if name in self._builtins or name in items:
                continue
            action = self._actions[name]
            if action.isChecked():
                action.setEnabled(True)  # still sent: it must stay possible to untick it
                action.setToolTip(self._extra_tip(name, items))
            else:
                self.removeAction(action)
                del self._actions[name]
                action.deleteLater()
        for selector, item in items.items():
            action = self._actions.get(selector) or self._add(selector, "")
            action.setToolTip(item.tip)
            action.setEnabled(item.usable or action.isChecked())
        self._separator.setVisible(len(self._actions) > len(self._builtins))

    def _extra_tip(self, name: str, items: dict[str, ServerItem]) -> str:
        parsed = parse_selector(name)
        if parsed is not None and parsed[1] and f"mcp:{parsed[0]}" in items:
            return self.tr("Only the tool {tool} of MCP server {server}").format(
                tool=parsed[1], server=parsed[0]
            )
        return self.tr("Not in mcp.json now: untick it")

    def server_items(self) -> list[ServerItem]:
        if self.mcp is None:
            return []
        try:
            config = self.mcp.config
            statuses = self.mcp.status()
        except ConfigError as exc:
            return [ServerItem("mcp.json", errors_text.said(exc), usable=False)]
        items: list[ServerItem] = []
        for status in statuses:
            usable = status.state != "disabled"
            items.append(ServerItem(f"mcp:{status.name}", self._tip(status), usable))
        for name, why in config.problems.items():
            why_not = self.tr("Not usable: {why}").format(why=why)
            items.append(ServerItem(f"mcp:{name}", why_not, usable=False))
        return items

    def _tip(self, status: ServerStatus) -> str:
        if status.tool_count is None:
            tools = self.tr("tools not listed yet (it starts with the first turn that uses it)")
        else:
            tools = self.tr("%n tool(s)", "", status.tool_count)
        states = {
            "stopped": self.tr("not running"),
            "starting": self.tr("starting"),
            "running": self.tr("running"),
            "failed": self.tr("failed"),
            "waiting": self.tr("failed; tried again soon"),
            "disabled": self.tr("disabled in mcp.json"),
        }
        tip = self.tr("MCP server {name}: {tools}, {state}").format(
            name=status.name, tools=tools, state=states.get(status.state, status.state)
        )
        if status.last_error and status.state in ("failed", "waiting"):
            tip += "\n" + status.last_error
        return tip
