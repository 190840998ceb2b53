"""Asking before an MCP tool runs on the command line (``app/cli/approval.py``): --allow-tools,
a question on a real terminal (a pty), and, end to end, a turn with no terminal that is denied
and still gets its reply, and one with ``--allow-tools all`` that runs the tool."""

from __future__ import annotations

import asyncio
import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.approval import ApprovalRequest, Approve, Decision
from app.cli.approval import AllowList, describe, terminal_approver
from app.errors import UsageError
from tests.helpers import openai_events as oe
from tests.helpers.mcp_servers import demo_stdio
from tests.helpers.wire_server import Reply, WireServer


def request(tool: str = "write_file", server: str = "fs", **more: Any) -> ApprovalRequest:
    fields: dict[str, Any] = {
        "conversation_id": "c1",
        "call_id": "call-1",
        "wire_name": f"mcp__{server}__{tool}",
        "server": server,
        "tool": tool,
        "title": tool,
        "description": "Write a file.\nMore about it.",
        "transport": "stdio",
        "arguments": {"path": "/tmp/x", "text": "hi"},
        "arguments_text": '{"path": "/tmp/x", "text": "hi"}',
        "read_only": None,
    }
    return ApprovalRequest(**(fields | more))


def decided(approve: Approve, request: ApprovalRequest) -> Decision:
    async def go() -> Decision:
        return await approve(request)

    return asyncio.run(go())


def test_allow_list_patterns() -> None:
    assert not AllowList.parse(None).allows(request())
    assert AllowList.parse("all").allows(request())
    assert AllowList.parse("mcp:fs").allows(request())
    assert AllowList.parse("mcp:git, mcp:fs/write_file").allows(request())
    assert AllowList.parse("mcp__fs__write_file").allows(request())
    assert not AllowList.parse("mcp:fs/read_file").allows(request())
    assert not AllowList.parse("mcp:fsx,mcp__fs__read_file").allows(request())
    with pytest.raises(UsageError, match="--allow-tools: 'write_file' names no MCP tool"):
        AllowList.parse("write_file")


def read_terminal_until(controller: int, text: str, seconds: float = 60) -> str:
    """What the terminal showed, read until ``text`` is in it: a pty passes output on in
    pieces (the echo of the answer can come alone), so one read may not hold it all."""
    shown, deadline = "", time.monotonic() + seconds
    while text not in shown:
        assert time.monotonic() < deadline, f"{text!r} not on the terminal: {shown!r}"
        if select.select([controller], [], [], 0.5)[0]:
            shown += os.read(controller, 65536).decode(errors="replace")
    return shown


def test_without_a_terminal_the_call_is_denied_and_stderr_says_what_allows_it() -> None:
    out = io.StringIO()
    approve = terminal_approver(AllowList(), stdin=io.StringIO("y\n"), out=out)
    assert decided(approve, request()) is Decision.DENY
    assert out.getvalue() == (
        "[not run: mcp__fs__write_file needs approval; --allow-tools mcp:fs/write_file allows it]\n"
    )
    out = io.StringIO()
    approve = terminal_approver(AllowList.parse("mcp:fs"), stdin=io.StringIO(""), out=out)
    assert decided(approve, request()) is Decision.ONCE
    assert "allowed by --allow-tools" in out.getvalue()


@pytest.mark.parametrize(
    ("answer", "decision"),
    [("y", Decision.ONCE), ("c", Decision.CONVERSATION), ("a", Decision.ALWAYS),
     ("", Decision.DENY), ("maybe", Decision.DENY)],
)  # fmt: skip
def test_on_a_terminal_the_user_is_asked(answer: str, decision: Decision) -> None:
    controller, terminal = pty.openpty()
    with os.fdopen(terminal, "r") as stdin, os.fdopen(os.dup(terminal), "w") as out:
        os.write(controller, f"{answer}\n".encode())
        approve = terminal_approver(AllowList(), stdin=stdin, out=out)
        assert decided(approve, request(read_only=True)) is decision
        shown = read_terminal_until(controller, "[N] no")
    os.close(controller)
    assert "[mcp__fs__write_file wants to run]" in shown
    assert "server: fs (stdio)" in shown
    assert "about:  Write a file." in shown and "More about it" not in shown
    assert "only reads" in shown
    assert '"path": "/tmp/x"' in shown
    assert "[y] once  [c] this conversation  [a] always  [N] no" in shown


def test_the_question_shows_no_terminal_escapes_and_folds_long_arguments() -> None:
    long = {f"k{n}": n for n in range(60)}
    text = describe(request(description="\x1b[2Jcleared", arguments=long))
    assert "\x1b" not in text and "?[2Jcleared" in text
    assert "… 22 more lines" in text  # 62 lines of JSON, 40 shown


def setup(home: Path, server: WireServer) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text(
        'default_model = "box:tiny"\n\n[providers.box]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n'
    )
    (home / "mcp.json").write_text(json.dumps({"mcpServers": {"demo": demo_stdio()}}))
    server.enqueue(
        Reply(chunks=[oe.chunk({"role": "assistant"}),
                      oe.tool_call(0, "call_1", "mcp__demo__add", '{"a": 2, "b": 3}'),
                      oe.chunk(finish="tool_calls"), oe.usage_chunk(), oe.DONE])
    )  # fmt: skip
    server.enqueue(Reply(chunks=oe.chat_reply("All done.")))


def ask(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "ask", "--tools", "mcp:demo", *args, "add 2 and 3"],
        capture_output=True, text=True, stdin=subprocess.PIPE, timeout=120, env=os.environ.copy(),
    )  # fmt: skip


def tool_message(server: WireServer) -> dict[str, Any]:
    first, second = server.requests
    assert "mcp__demo__add" in [t["function"]["name"] for t in first.json["tools"]]
    [message] = [m for m in second.json["messages"] if m["role"] == "tool"]
    return message  # type: ignore[no-any-return]


def test_without_a_terminal_or_allow_tools_the_call_is_denied_and_the_reply_arrives(
    tmp_path: Path,
) -> None:
    with WireServer() as server:
        setup(tmp_path / "home", server)
        result = ask()
        message = tool_message(server)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "All done."
    assert (
        "[not run: mcp__demo__add needs approval; --allow-tools mcp:demo/add allows it]"
        in result.stderr
    )
    assert "did not allow" in message["content"] and "not run" in message["content"]


def test_with_allow_tools_all_the_call_runs(tmp_path: Path) -> None:
    with WireServer() as server:
        setup(tmp_path / "home", server)
        result = ask("--allow-tools", "all")
        message = tool_message(server)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "All done."
    assert "[running mcp__demo__add: allowed by --allow-tools]" in result.stderr
    assert message["content"].strip() == "5"


def test_on_a_terminal_always_is_remembered_in_mcp_json(tmp_path: Path) -> None:
    """A real terminal (a pty) for stdin and stderr: the question is asked, [a] runs the call
    and writes alwaysAllow; the next turn runs the tool without asking, even with no terminal."""
    home = tmp_path / "home"
    with WireServer() as server:
        setup(home, server)
        controller, terminal = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "ask", "--tools", "mcp:demo", "add 2 and 3"],
            stdin=terminal, stderr=terminal, stdout=subprocess.PIPE, text=True,
            env=os.environ.copy(),
        )  # fmt: skip
        os.close(terminal)
        shown = read_terminal_until(controller, "[N] no")
        os.write(controller, b"a\n")
        stdout, _ = process.communicate(timeout=60)
        os.close(controller)
        assert process.returncode == 0
        assert stdout.strip() == "All done."
        assert "[mcp__demo__add wants to run]" in shown and '"a": 2' in shown
        assert tool_message(server)["content"].strip() == "5"
    saved = json.loads((home / "mcp.json").read_text())["mcpServers"]["demo"]
    assert saved["alwaysAllow"] == ["add"]
    with WireServer() as server:
        setup(home, server)
        (home / "mcp.json").write_text(json.dumps({"mcpServers": {"demo": saved}}))
        result = ask()
        assert result.returncode == 0, result.stderr
        assert tool_message(server)["content"].strip() == "5"
    assert "needs approval" not in result.stderr


def test_a_mistake_in_allow_tools_is_refused_before_anything_is_written(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app.cli.main import main

    assert main(["ask", "--allow-tools", "write_file", "hi"]) == 1
    assert "--allow-tools: 'write_file' names no MCP tool" in capsys.readouterr().err
    assert main(["list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
