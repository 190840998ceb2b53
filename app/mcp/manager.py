"""McpManager: every MCP server session of this process, on one thread of its own.

One asyncio loop runs on a daemon thread named "mcp"; each server's session is one task on it
(the SDK's anyio scopes must be left by the task that entered them), parked until it is
stopped. Callers on any loop (the CLI's ``asyncio.run`` per command, the window's qasync loop)
await futures of coroutines run there; cancelling the caller cancels the call. Sessions
outlive the caller's loop, so a second turn reuses a warm server.

A server starts on the first call that needs it (never at launch), bounded by its timeout. A
server that dies mid-call gives that call an error result and is started again on the next
call; one that cannot start is not tried again for a while (1, 2, 4 ... 60 s), and calls in
that window fail at once with the last error. The last listing and the last error are kept in
``<data>/mcp/state/<server>.json``, so ``status`` and ``cached_tools`` need no server.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import json
import threading
import time
from collections.abc import Awaitable, Coroutine, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from app.atomic import replace_file
from app.errors import CrosstalkError
from app.history import Attachment
from app.keys import Keys
from app.mcp import launch
from app.mcp.config import McpConfig, ServerConfig
from app.mcp.secrets import expand
from app.paths import DIR_MODE, DataDir
from app.scrub import scrub
from app.store.blobs import Blobs
from app.tools import ToolOutcome

if TYPE_CHECKING:
    from mcp import Client

T = TypeVar("T")


@dataclass(frozen=True)
class ServerInfo:
    name: str  # as the server names itself; "" when unknown
    version: str
    protocol: str
    transport: str


@dataclass(frozen=True)
class ToolInfo:
    server: str
    name: str  # the server's own name
    wire_name: str  # what the model calls: mcp__server__tool
    title: str
    description: str
    input_schema: Mapping[str, Any]
    read_only: bool | None
    destructive: bool | None


@dataclass(frozen=True)
class PromptArg:
    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class PromptInfo:
    server: str
    name: str
    title: str
    description: str
    arguments: tuple[PromptArg, ...]
    command: str  # "/review", or "/fs:review" when two servers both have one


@dataclass(frozen=True)
class PromptText:
    text: str  # user messages joined; others as "Assistant: ..."
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class ResourceInfo:
    server: str
    uri: str
    name: str
    title: str
    description: str
    mime_type: str
    size: int | None


State = Literal["stopped", "starting", "running", "failed", "waiting", "disabled"]


@dataclass(frozen=True)
class ServerStatus:
    name: str
    transport: str
    state: State  # waiting: failed, and not tried again before retry_in seconds
    tool_count: int | None  # None: never listed
    last_error: str | None
    stderr_tail: tuple[str, ...]
    info: ServerInfo | None
    listed_at: str | None
    retry_in: float | None


@dataclass(frozen=True)
class TestReport:
    ok: bool
    seconds: float
    info: ServerInfo | None
    tools: tuple[ToolInfo, ...]
    prompts: int
    resources: int
    error: str | None
    stderr_tail: tuple[str, ...]


class McpError(CrosstalkError):
    """Something about an MCP server; the message says which and what to do."""


class ServerFailed(McpError):
    """A server could not start (or is waiting to be tried again)."""


class NoSuchServer(McpError):
    """No usable server by that name in mcp.json."""


@dataclass
class _Running:
    client: Client
    info: ServerInfo
    stopped: asyncio.Event
    task: asyncio.Task[None]
    log: Path


@dataclass
class _Known:
    """What is known of one server without starting it (mirrors its state file)."""

    fingerprint: str = ""
    tools: list[ToolInfo] | None = None
    info: ServerInfo | None = None
    listed_at: str | None = None
    last_error: str | None = None
    stderr_tail: tuple[str, ...] = ()
    failures: int = 0
    not_before: float = 0.0  # monotonic: no new start before this
    starting: bool = False


@dataclass
class _Thread:
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    running: dict[str, _Running] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class McpManager:
    def __init__(self, data: DataDir, keys: Keys, environ: Mapping[str, str]) -> None:
        self.data = data
        self.keys = keys
        self.environ = environ
        self._config: McpConfig | None = None
        self._known: dict[str, _Known] = {}
        self._thread: _Thread | None = None
        self._guard = threading.Lock()
        self._closed = False

    # --- config and what is known without a server ------------------------------------------

    @property
    def config(self) -> McpConfig:
        """mcp.json, read again when it changed on disk (the CLI edits it while a window runs).
        Raises ConfigError when it cannot be read."""
        path = self.data.mcp_file
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            mtime = 0
        if self._config is None or self._config.mtime_ns != mtime:
            self._config = McpConfig.load(path)
        return self._config

    def server(self, name: str) -> ServerConfig:
        config = self.config
        if name in config.servers:
            return config.servers[name]
        why = config.problems.get(name)
        raise NoSuchServer(
            f"server {name} in mcp.json is not usable: {why}"
            if why
            else f"no server {name} in mcp.json; `crosstalk mcp list` shows the servers"
        )

    def _state_file(self, name: str) -> Path:
        return self.data.mcp_dir / "state" / f"{name}.json"

    def _known_of(self, name: str, server: ServerConfig) -> _Known:
        fingerprint = server.fingerprint()
        known = self._known.get(name)
        if known is not None and known.fingerprint == fingerprint:
            return known
        known = self._read_state(name, fingerprint)
        self._known[name] = known
        return known

    def _read_state(self, name: str, fingerprint: str) -> _Known:
        try:
            raw = json.loads(self._state_file(name).read_text(encoding="utf-8"))
            if raw.get("fingerprint") != fingerprint:
                return _Known(fingerprint)
            tools = raw.get("tools")
            return _Known(
                fingerprint,
                None if tools is None else [ToolInfo(**t) for t in tools],
                ServerInfo(**raw["info"]) if raw.get("info") else None,
                raw.get("listed_at"),
                raw.get("last_error"),
                tuple(raw.get("stderr_tail", ())),
            )
        except (OSError, ValueError, TypeError, KeyError):
            return _Known(fingerprint)

    def _write_state(self, name: str, known: _Known) -> None:
        raw = {
            "fingerprint": known.fingerprint,
            "tools": None if known.tools is None else [asdict(t) for t in known.tools],
            "info": asdict(known.info) if known.info else None,
            "listed_at": known.listed_at,
            "last_error": known.last_error,
            "stderr_tail": list(known.stderr_tail),
        }
        path = self._state_file(name)
        with contextlib.suppress(OSError):  # only a cache: a read-only disk changes nothing
            path.parent.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
            replace_file(path, json.dumps(raw, ensure_ascii=False, indent=1).encode())

    def status(self) -> list[ServerStatus]:
        """Every configured server, as known now; starts nothing."""
        out: list[ServerStatus] = []
        config = self.config
        running = self._thread.running if self._thread else {}
        for name, server in config.servers.items():
            known = self._known_of(name, server)
            live = running.get(name)
            retry = known.not_before - time.monotonic()
            state: State
            if server.disabled:
                state = "disabled"
            elif live is not None and not live.stopped.is_set():
                state = "running"
            elif known.starting:
                state = "starting"
            elif known.failures and retry > 0:
                state = "waiting"
            elif known.last_error and known.failures:
                state = "failed"
            else:
                state = "stopped"
            out.append(
                ServerStatus(
                    name=name,
                    transport=server.transport,
                    state=state,
                    tool_count=None if known.tools is None else len(known.tools),
                    last_error=known.last_error,
                    stderr_tail=known.stderr_tail,
                    info=live.info if live else known.info,
                    listed_at=known.listed_at,
                    retry_in=retry if state == "waiting" else None,
                )
            )
        return out

    def cached_tools(self, server: str) -> list[ToolInfo]:
        """The server's tools as last listed ([] if never, or its config changed since)."""
        config = self.config.servers.get(server)
        if config is None:
            return []
        return list(self._known_of(server, config).tools or [])

    # --- the thread -----------------------------------------------------------------------

    def _ensure_thread(self) -> _Thread:
        with self._guard:
            if self._closed:
                raise McpError("MCP servers are shut down: Crosstalk is closing")
            if self._thread is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="mcp", daemon=True)
                thread.start()
                self._thread = _Thread(loop, thread)
                atexit.register(self.close)  # servers never outlive Crosstalk
            return self._thread

    def _on_thread(self, coro: Coroutine[Any, Any, T]) -> Awaitable[T]:
        """Run ``coro`` on the MCP loop; await the result on the caller's loop."""
        loop = self._ensure_thread().loop
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    # --- sessions (these run on the MCP loop) ----------------------------------------------

    async def _open(
        self, name: str, server: ServerConfig, log: Path, ready: asyncio.Future[_Running]
    ) -> None:
        from app.mcp import connection

        stopped = asyncio.Event()
        try:
            command, path = ("", "")
            if server.transport == "stdio":
                assert server.command is not None
                # the login shell is asked once (up to 5 s): off the loop, other servers go on
                command, path = await asyncio.to_thread(
                    launch.resolve_command, server.command, self.environ
                )
            env = expand(server.env, self.keys, self.environ, where=f"{name}: env")
            headers = expand(server.headers, self.keys, self.environ, where=f"{name}: header")
            async with connection.session(
                server, command=command, path=path, env=env, headers=headers, log=log
            ) as client:
                task = asyncio.current_task()
                assert task is not None
                info = connection.server_info(client, server.transport)
                if not ready.done():
                    ready.set_result(_Running(client, info, stopped, task, log))
                await stopped.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
        finally:  # ended (stopped, or the server went away while idle): the next call restarts it
            stopped.set()

    async def _ensure(self, name: str, server: ServerConfig) -> _Running:
        threaded = self._ensure_thread()
        lock = threaded.locks.setdefault(name, asyncio.Lock())
        async with lock:
            live = threaded.running.get(name)
            if live is not None and not live.stopped.is_set():
                return live
            if live is not None:  # dying: let its transport finish closing first
                await asyncio.gather(live.task, return_exceptions=True)
                threaded.running.pop(name, None)
            known = self._known_of(name, server)
            wait = known.not_before - time.monotonic()
            if known.failures and wait > 0:
                raise ServerFailed(
                    f"{known.last_error} (not tried again for {wait:.0f} s; "
                    "`crosstalk mcp tools NAME` tries now)".replace("NAME", name)
                )
            return await self._start(name, server, known)

    async def _start(self, name: str, server: ServerConfig, known: _Known) -> _Running:
        threaded = self._ensure_thread()
        log = launch.log_file(self.data, name)
        ready: asyncio.Future[_Running] = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(self._open(name, server, log, ready))
        known.starting = True
        try:
            running = await asyncio.wait_for(asyncio.shield(ready), server.timeout)
        except BaseException as exc:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            if isinstance(exc, asyncio.CancelledError):
                raise
            self._failed(name, known, self._start_error(name, server, exc, log), log)
            raise ServerFailed(known.last_error) from None
        finally:
            known.starting = False
        threaded.running[name] = running
        known.failures, known.not_before, known.last_error = 0, 0.0, None
        known.info = running.info
        return running

    def _start_error(self, name: str, server: ServerConfig, exc: BaseException, log: Path) -> str:
        from app.mcp import connection

        if isinstance(exc, TimeoutError):
            why = f"it did not answer within {server.timeout:g} s"
        elif isinstance(exc, CrosstalkError):
            return scrub(str(exc), self.keys.secrets())
        else:
            why = "; ".join(dict.fromkeys(connection.leaves(exc)))
        message = f"{name} could not start: {why}"
        lines = launch.tail(log, 5)
        if lines:
            message += "; its last output: " + " | ".join(lines)
        return scrub(message, self.keys.secrets())

    def _failed(self, name: str, known: _Known, message: str, log: Path | None) -> None:
        known.failures += 1
        known.not_before = time.monotonic() + min(2 ** (known.failures - 1), 60)
        known.last_error = message
        known.stderr_tail = launch.tail(log) if log else ()
        self._write_state(name, known)

    async def _list(self, name: str, refresh: bool) -> list[ToolInfo]:
        from app.mcp import connection

        server = self.server(name)
        running = await self._ensure(name, server)
        known = self._known_of(name, server)
        try:
            tools = await connection.all_tools(running.client, name, refresh=refresh)
        except Exception as exc:
            if _closed(exc):
                running.stopped.set()
            message = f"{name} could not list its tools: {'; '.join(connection.leaves(exc))}"
            self._failed(name, known, message, running.log)
            raise ServerFailed(message) from None
        known.tools, known.info, known.listed_at = tools, running.info, _now()
        known.stderr_tail = launch.tail(running.log)
        self._write_state(name, known)
        return tools

    async def _call(
        self, name: str, tool: str, arguments: dict[str, Any], blobs: Blobs
    ) -> tuple[ToolOutcome, ServerInfo]:
        from pydantic import ValidationError

        from app.mcp import connection, results

        server = self.server(name)
        running = await self._ensure(name, server)
        try:
            result = await running.client.call_tool(
                tool, arguments, read_timeout_seconds=server.timeout
            )
        except connection.MCPError as exc:
            if exc.code == connection.REQUEST_TIMEOUT:
                why = f"The call to {tool} (server {name}) timed out after {server.timeout:g} s."
            elif exc.code == connection.CONNECTION_CLOSED:
                running.stopped.set()
                await asyncio.gather(running.task, return_exceptions=True)
                lines = "\n".join(launch.tail(running.log, 10)) or "(nothing)"
                why = (
                    f"Server {name} stopped during the call; it will be started again on the "
                    f"next call. Its last output:\n{lines}"
                )
            else:
                why = f"Server {name} answered with an error: {exc.message}"
            return ToolOutcome(scrub(why, self.keys.secrets()), is_error=True), running.info
        except TimeoutError:
            why = f"The call to {tool} (server {name}) timed out after {server.timeout:g} s."
            return ToolOutcome(why, is_error=True), running.info
        except (RuntimeError, ValidationError) as exc:
            why = f"Server {name} returned a result Crosstalk could not read: {exc}"
            return ToolOutcome(scrub(why, self.keys.secrets()), is_error=True), running.info
        done = results.outcome(result, blobs, server=name, tool=tool)
        return done, running.info

    async def _with_client(self, name: str, work: Any) -> Any:
        server = self.server(name)
        running = await self._ensure(name, server)
        try:
            return await work(running.client)
        except Exception as exc:
            if _closed(exc):
                running.stopped.set()
            raise

    async def _stop(self, name: str) -> None:
        threaded = self._thread
        live = threaded.running.pop(name, None) if threaded else None
        if live is not None:
            live.stopped.set()
            await asyncio.gather(live.task, return_exceptions=True)

    async def _test(self, name: str, server: ServerConfig) -> TestReport:
        from app.mcp import connection

        started = time.monotonic()
        log = launch.log_file(self.data, f"{name}.test")
        ready: asyncio.Future[_Running] = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(self._open(name, server, log, ready))
        info: ServerInfo | None = None
        tools: list[ToolInfo] = []
        prompts = resources = 0
        error: str | None = None
        try:
            running = await asyncio.wait_for(asyncio.shield(ready), server.timeout)
            info = running.info
            try:
                tools = await connection.all_tools(running.client, name)
                prompts = len(await connection.all_prompts(running.client, name))
                resources = len(await connection.all_resources(running.client, name))
            except Exception as exc:
                error = f"{name} started but failed: {'; '.join(connection.leaves(exc))}"
            finally:
                running.stopped.set()
        except Exception as exc:
            error = self._start_error(name, server, exc, log)
        finally:
            if not task.done():
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        report = TestReport(
            ok=error is None,
            seconds=time.monotonic() - started,
            info=info,
            tools=tuple(tools),
            prompts=prompts,
            resources=resources,
            error=error,
            stderr_tail=launch.tail(log),
        )
        self._remember_test(name, server, report)
        return report

    def _remember_test(self, name: str, server: ServerConfig, report: TestReport) -> None:
        """A test of the server as saved in mcp.json tells what a listing would: its tools (or
        its error) are what ``status`` and the inspector show from then on. A passed test also
        ends any wait before the next start; a failed one starts none."""
        if self.config.servers.get(name) != server:
            return  # a form's unsaved edit: nothing is known of the saved server
        known = self._known_of(name, server)
        known.stderr_tail = report.stderr_tail
        if report.ok:
            known.tools, known.info, known.listed_at = list(report.tools), report.info, _now()
            known.last_error, known.failures, known.not_before = None, 0, 0.0
        else:
            known.last_error = report.error
        self._write_state(name, known)

    # --- the public API: each hops to the MCP thread -----------------------------------------

    async def tools(self, server: str, *, refresh: bool = False) -> list[ToolInfo]:
        """The server's tools, starting it if needed; ServerFailed when it cannot start."""
        self.server(server)  # NoSuchServer before any thread is started
        return await self._on_thread(self._list(server, refresh))

    async def call(
        self, server: str, tool: str, arguments: dict[str, Any], blobs: Blobs
    ) -> tuple[ToolOutcome, ServerInfo]:
        """Call one tool: its result (an error result when the call failed, timed out or the
        server died), and who answered. ServerFailed when it cannot start."""
        self.server(server)
        return await self._on_thread(self._call(server, tool, arguments, blobs))

    async def prompts(self, servers: Sequence[str] | None = None) -> list[PromptInfo]:
        """The prompts of ``servers`` (None: every enabled one); a server that fails is
        skipped. A name two servers share is given as ``/server:name``."""
        from app.mcp import connection

        names = (
            [n for n, s in self.config.servers.items() if not s.disabled]
            if servers is None
            else list(servers)
        )
        found: list[PromptInfo] = []
        for name in names:
            try:
                found += await self._on_thread(
                    self._with_client(name, lambda c, n=name: connection.all_prompts(c, n))
                )
            except Exception:  # a server that fails has no prompts to offer  # noqa: S112
                continue
        counts: dict[str, int] = {}
        for prompt in found:
            counts[prompt.name] = counts.get(prompt.name, 0) + 1
        return [
            p
            if counts[p.name] == 1
            else PromptInfo(
                p.server, p.name, p.title, p.description, p.arguments, f"/{p.server}:{p.name}"
            )
            for p in found
        ]

    async def get_prompt(
        self, server: str, name: str, arguments: Mapping[str, str], blobs: Blobs
    ) -> PromptText:
        """The prompt's messages as one text: user messages as they are, others headed."""

        async def work(client: Client) -> PromptText:
            from mcp_types import TextContent

            got = await client.get_prompt(name, dict(arguments))
            parts: list[str] = []
            for message in got.messages:
                content = message.content
                text = content.text if isinstance(content, TextContent) else f"[{content.type}]"
                parts.append(text if message.role == "user" else f"Assistant: {text}")
            return PromptText("\n\n".join(parts))

        return await self._on_thread(self._with_client(server, work))

    async def resources(self, server: str) -> list[ResourceInfo]:
        from app.mcp import connection

        return await self._on_thread(
            self._with_client(server, lambda c: connection.all_resources(c, server))
        )

    async def read_resource(self, server: str, uri: str, blobs: Blobs) -> list[Attachment]:
        """A resource as attachments: text -> a text file named after the uri; images as
        they are. AttachmentError for what Crosstalk cannot attach."""

        async def work(client: Client) -> list[Attachment]:
            import base64

            from mcp_types import BlobResourceContents, TextResourceContents

            from app.attachments.files import attach_bytes

            read = await client.read_resource(uri)
            name = uri.rstrip("/").rsplit("/", 1)[-1] or "resource"
            out: list[Attachment] = []
            for part in read.contents:
                if isinstance(part, TextResourceContents):
                    text_name = name if "." in name else f"{name}.txt"
                    out.append(attach_bytes(blobs, part.text.encode(), text_name))
                elif isinstance(part, BlobResourceContents):
                    out.append(attach_bytes(blobs, base64.b64decode(part.blob), name))
            return out

        return await self._on_thread(self._with_client(server, work))

    async def test(self, name: str, server: ServerConfig) -> TestReport:
        """Start ``server`` (perhaps not saved yet) in a throwaway session, list what it has,
        stop it. Never raises: the report says what went wrong."""
        started = time.monotonic()
        try:
            return await self._on_thread(self._test(name, server))
        except CrosstalkError as exc:
            return TestReport(False, time.monotonic() - started, None, (), 0, 0, str(exc), ())

    async def stop(self, server: str) -> None:
        if self._thread is not None:
            await self._on_thread(self._stop(server))

    def close(self) -> None:
        """Stop every server, then the thread; safe to call more than once."""
        with self._guard:
            self._closed = True
            threaded, self._thread = self._thread, None
        atexit.unregister(self.close)
        if threaded is None:
            return
        stopping = asyncio.run_coroutine_threadsafe(self._stop_all_of(threaded), threaded.loop)
        with contextlib.suppress(concurrent.futures.TimeoutError, Exception):
            stopping.result(10)
        threaded.loop.call_soon_threadsafe(threaded.loop.stop)
        threaded.thread.join(10)
        if not threaded.thread.is_alive():
            threaded.loop.close()

    async def _stop_all_of(self, threaded: _Thread) -> None:
        lives = list(threaded.running.values())
        threaded.running.clear()
        for live in lives:
            live.stopped.set()
        await asyncio.gather(*(live.task for live in lives), return_exceptions=True)
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


def _closed(exc: BaseException) -> bool:
    from app.mcp import connection

    return isinstance(exc, connection.MCPError) and exc.code == connection.CONNECTION_CLOSED
