"""McpManager against the demo MCP server (tests/helpers/mcp_demo_server.py), over stdio and
streamable HTTP: real processes, real sockets."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.keys import Keys
from app.mcp import McpManager, ServerConfig, ServerFailed
from app.paths import DataDir
from app.store import Library
from tests.helpers.mcp_servers import (
    PAGED,
    alive,
    children_running,
    demo_http,
    demo_stdio,
    write_config,
)
from tests.helpers.memory_keyring import memory_keyring


@pytest.fixture
def manager(data_dir: DataDir) -> Iterator[McpManager]:
    made = McpManager(data_dir, Keys(os.environ), os.environ)
    yield made
    made.close()


def test_stdio_results_of_every_kind(
    manager: McpManager, data_dir: DataDir, library: Library, tmp_path: Path
) -> None:
    marker = f"marker-{tmp_path.name}"
    write_config(data_dir, {"demo": demo_stdio(args=[demo_stdio()["args"][0], "stdio", marker])})

    async def run() -> None:
        tools = await manager.tools("demo")
        names = {t.name for t in tools}
        assert {"add", "weather", "echo", "picture", "slow", "boom", "die", "whoami"} <= names
        add = next(t for t in tools if t.name == "add")
        assert add.wire_name == "mcp__demo__add" and add.description == "Add two integers"
        assert add.input_schema["properties"].keys() == {"a", "b"}

        out, info = await manager.call("demo", "add", {"a": 2, "b": 3}, library.blobs)
        assert (out.content, out.is_error, out.meta) == ("5", False, {"structured": True})
        assert (info.name, info.version, info.transport) == ("demo", "1.2.3", "stdio")
        assert info.protocol

        out, _ = await manager.call("demo", "weather", {"city": "Oslo"}, library.blobs)
        assert '"celsius": 21.5' in out.content and out.meta == {"structured": True}

        out, _ = await manager.call("demo", "echo", {"text": "hi"}, library.blobs)
        assert (out.content, out.meta) == ("hi", {})

        out, _ = await manager.call("demo", "picture", {}, library.blobs)
        assert out.content == "[image image/png 1x1, attached]"
        (image,) = out.attachments
        assert image.mime_type == "image/png" and library.blobs.has(image.sha256)

        out, _ = await manager.call("demo", "boom", {}, library.blobs)
        assert out.is_error and out.content == "Error executing tool boom"
        out, _ = await manager.call("demo", "refuse", {}, library.blobs)
        assert out.is_error and out.content == "Error executing tool refuse: refused on purpose"
        out, _ = await manager.call("demo", "nope", {}, library.blobs)
        assert out.is_error and "nope" in out.content
        out, _ = await manager.call("demo", "add", {"a": "x"}, library.blobs)
        assert out.is_error and "validation error" in out.content

    asyncio.run(run())
    (status,) = manager.status()
    assert (status.name, status.state, status.tool_count) == ("demo", "running", 9)
    assert "demo server starting" in status.stderr_tail
    (pid,) = children_running(marker)
    manager.close()
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "close() left the server running"
    manager.close()  # again: nothing happens

    # the listing is kept: another process knows the tools without starting the server
    later = McpManager(data_dir, Keys(os.environ), os.environ)
    assert len(later.cached_tools("demo")) == 9
    (status,) = later.status()
    assert (status.state, status.tool_count, status.info) == ("stopped", 9, status.info)
    assert status.info is not None and status.info.version == "1.2.3"
    later.close()


def test_a_timeout_keeps_the_session_and_a_crash_restarts_it(
    manager: McpManager, data_dir: DataDir, library: Library, tmp_path: Path
) -> None:
    marker = f"marker-{tmp_path.name}"
    write_config(
        data_dir, {"demo": demo_stdio(args=[demo_stdio()["args"][0], "stdio", marker], timeout=2)}
    )

    async def run() -> None:
        await manager.tools("demo")
        (pid,) = children_running(marker)
        started = time.monotonic()
        out, _ = await manager.call("demo", "slow", {"seconds": 10}, library.blobs)
        assert out.is_error and out.content == "The call to slow (server demo) timed out after 2 s."
        assert time.monotonic() - started < 5
        out, _ = await manager.call("demo", "echo", {"text": "still"}, library.blobs)
        assert out.content == "still" and children_running(marker) == [pid]

        out, _ = await manager.call("demo", "die", {}, library.blobs)
        assert out.is_error
        assert out.content.startswith("Server demo stopped during the call; it will be started")
        assert "dying now" in out.content
        out, _ = await manager.call("demo", "echo", {"text": "again"}, library.blobs)
        assert out.content == "again"
        assert children_running(marker) != [pid]

    asyncio.run(run())


def test_sessions_outlive_the_callers_loop(
    manager: McpManager, data_dir: DataDir, library: Library, tmp_path: Path
) -> None:
    marker = f"marker-{tmp_path.name}"
    write_config(data_dir, {"demo": demo_stdio(args=[demo_stdio()["args"][0], "stdio", marker])})

    async def call() -> str:
        out, _ = await manager.call("demo", "echo", {"text": "x"}, library.blobs)
        return out.content

    assert asyncio.run(call()) == "x"
    pids = children_running(marker)
    started = time.monotonic()
    assert asyncio.run(call()) == "x"  # a second loop, like the CLI's next command
    assert time.monotonic() - started < 1.0
    assert children_running(marker) == pids


def test_cancelling_the_caller_cancels_the_call(
    manager: McpManager, data_dir: DataDir, library: Library
) -> None:
    write_config(data_dir, {"demo": demo_stdio()})

    async def run() -> None:
        await manager.tools("demo")
        task = asyncio.ensure_future(manager.call("demo", "slow", {"seconds": 30}, library.blobs))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        out, _ = await manager.call("demo", "echo", {"text": "ok"}, library.blobs)
        assert out.content == "ok"

    asyncio.run(run())


def test_a_server_that_cannot_start_waits_before_the_next_try(
    manager: McpManager, data_dir: DataDir, tmp_path: Path
) -> None:
    script = tmp_path / "bad_server.py"
    script.write_text("import sys\nprint('no such thing: config missing', file=sys.stderr)\n")
    write_config(
        data_dir,
        {
            "gone": {"command": "/nonexistent/server-binary"},
            "quits": {"command": sys.executable, "args": [str(script)]},
        },
    )

    async def run() -> None:
        with pytest.raises(ServerFailed, match="server-binary was not found on PATH"):
            await manager.tools("gone")
        with pytest.raises(ServerFailed) as failed:
            await manager.tools("quits")
        assert str(failed.value).startswith("quits could not start: ")
        assert "no such thing: config missing" in str(failed.value)
        started = time.monotonic()
        with pytest.raises(ServerFailed, match="not tried again for"):
            await manager.tools("quits")
        assert time.monotonic() - started < 0.5

    asyncio.run(run())
    states = {s.name: s for s in manager.status()}
    assert states["quits"].state == "waiting" and states["quits"].retry_in
    assert states["quits"].stderr_tail == ("no such thing: config missing",)
    assert states["gone"].last_error and "not found" in states["gone"].last_error


def test_tools_are_listed_page_by_page(manager: McpManager, data_dir: DataDir) -> None:
    write_config(data_dir, {"paged": {"command": sys.executable, "args": [str(PAGED)]}})
    tools = asyncio.run(manager.tools("paged"))
    assert [t.name for t in tools] == ["t0", "t1", "t2", "t3", "t4"]


def test_secrets_reach_a_stdio_server_and_an_http_one(data_dir: DataDir, library: Library) -> None:
    with memory_keyring(), demo_http() as url:
        keys = Keys(os.environ)
        keys.store_secret("demo.DEMO_TOKEN", "s3cret-stdio")
        keys.store_secret("web.auth", "s3cret-http")
        write_config(
            data_dir,
            {
                "demo": demo_stdio(env={"DEMO_TOKEN": "keyring:demo.DEMO_TOKEN"}),
                "web": {"url": url, "headers": {"Authorization": "Bearer ${keyring:web.auth}"}},
            },
        )
        manager = McpManager(data_dir, Keys(os.environ), os.environ)

        async def run() -> None:
            out, _ = await manager.call("demo", "whoami", {}, library.blobs)
            assert out.content == "s3cret-stdio"
            out, info = await manager.call("web", "whoami", {}, library.blobs)
            assert out.content == "Bearer s3cret-http"
            assert (info.name, info.transport) == ("demo", "http")
            out, _ = await manager.call("web", "add", {"a": 1, "b": 2}, library.blobs)
            assert out.content == "3"
            out, _ = await manager.call("web", "picture", {}, library.blobs)
            assert len(out.attachments) == 1

        try:
            asyncio.run(run())
        finally:
            manager.close()
        assert {"s3cret-stdio", "s3cret-http"} <= manager.keys.secrets()


def test_prompts_resources_and_a_test_run(
    manager: McpManager, data_dir: DataDir, library: Library
) -> None:
    write_config(data_dir, {"demo": demo_stdio()})

    async def run() -> None:
        (prompt,) = await manager.prompts()
        assert (prompt.name, prompt.command, prompt.description) == (
            "review", "/review", "Review some code",
        )  # fmt: skip
        assert [(a.name, a.required) for a in prompt.arguments] == [
            ("code", True), ("language", False),
        ]  # fmt: skip
        text = await manager.get_prompt("demo", "review", {"code": "print(1)"}, library.blobs)
        assert text.text == "Please review this python code:\nprint(1)"
        found = {r.uri: r for r in await manager.resources("demo")}
        assert found["file:///notes.txt"].mime_type == "text/plain"
        (notes,) = await manager.read_resource("demo", "file:///notes.txt", library.blobs)
        assert (notes.name, library.blobs.read(notes.sha256)) == ("notes.txt", b"my notes")
        (pixel,) = await manager.read_resource("demo", "file:///pixel.png", library.blobs)
        assert pixel.mime_type == "image/png" and pixel.width == 1

        report = await manager.test("new", ServerConfig(**demo_stdio()))
        assert report.ok and report.error is None and report.info is not None
        assert len(report.tools) == 9 and (report.prompts, report.resources) == (1, 2)
        bad = await manager.test("bad", ServerConfig(command=sys.executable, args=["-c", "1"]))
        assert not bad.ok and bad.error and bad.error.startswith("bad could not start")

    asyncio.run(run())
    assert [s.name for s in manager.status()] == ["demo"]  # the tests left nothing behind


def test_servers_stop_when_the_process_exits(data_dir: DataDir, tmp_path: Path) -> None:
    marker = f"marker-{tmp_path.name}"
    write_config(data_dir, {"demo": demo_stdio(args=[demo_stdio()["args"][0], "stdio", marker])})
    script = (
        "import asyncio, os\n"
        "from app.keys import Keys\nfrom app.mcp import McpManager\nfrom app.paths import DataDir\n"
        "from pathlib import Path\n"
        f"manager = McpManager(DataDir(Path({str(data_dir.root)!r})), Keys({{}}), os.environ)\n"
        "print(len(asyncio.run(manager.tools('demo'))))\n"  # and exits without close()
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "9", done.stderr
    deadline = time.monotonic() + 5
    while children_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children_running(marker) == []


def test_a_test_of_a_saved_server_is_what_status_knows_of_it(
    data_dir: DataDir, manager: McpManager
) -> None:
    """Settings > Tools shows the table from ``status``: after Test, the tested server's tool
    count (or its error) is there, without starting it again; a form's unsaved edit is not."""
    write_config(data_dir, {"demo": demo_stdio(), "gone": {"command": sys.executable,
                                                            "args": ["-c", "1"]}})  # fmt: skip

    async def run() -> None:
        saved = manager.config.servers
        assert (await manager.test("demo", saved["demo"])).ok
        assert not (await manager.test("gone", saved["gone"])).ok
        edited = ServerConfig(**demo_stdio(), timeout=5)
        assert (await manager.test("gone", edited)).ok  # not what mcp.json says

    asyncio.run(run())
    status = {s.name: s for s in manager.status()}
    assert status["demo"].tool_count == 9 and status["demo"].last_error is None
    assert status["demo"].state == "stopped" and len(manager.cached_tools("demo")) == 9
    gone = status["gone"]
    assert gone.tool_count is None and gone.last_error and "gone could not start" in gone.last_error
    assert gone.state == "stopped"  # a failed test makes nobody wait before the next start
