"""McpManager: every MCP server session of this process, started when first needed.

The sessions run on the MCP thread (``app/mcp/loop_thread.py``). Callers on any loop (the
CLI's ``asyncio.run`` per command, the window's qasync loop) await them there; cancelling the
caller cancels the call. Sessions outlive the caller's loop, so a second turn reuses a warm
server.

A server starts on the first call that needs it (never at launch), bounded by its timeout. A
server that dies mid-call gives that call an error result and is started again on the next
call; one that cannot start is not tried again for a while (1, 2, 4 ... 60 s), and calls in
that window fail at once with the last error. The last listing and the last error are kept
(``app/mcp/known.py``), so ``status`` and ``cached_tools`` need no server.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from app.errors import CrosstalkError
from app.history import Attachment
from app.keys import Keys
from app.mcp import launch
from app.mcp.config import McpConfig, ServerConfig
from app.mcp.known import Known, KnownServers
from app.mcp.loop_thread import LoopThread, Running
from app.mcp.secrets import expand
from app.mcp.values import (
    McpError,
    NoSuchServer,
    PromptInfo,
    PromptText,
    ResourceInfo,
    ServerFailed,
    ServerInfo,
    ServerStatus,
    State,
    TestReport,
    ToolInfo,
)
from app.paths import DataDir
from app.scrub import scrub
from app.store.blobs import Blobs
from app.tools import ToolOutcome

if TYPE_CHECKING:
    from app.mcp.connection import Client

T = TypeVar("T")


class McpManager:
    def __init__(self, data: DataDir, keys: Keys, environ: Mapping[str, str]) -> None:
        self.data = data
        self.keys = keys
        self.environ = environ
        self._config: McpConfig | None = None
        self._known = KnownServers(data)
        self._thread: LoopThread | None = None
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
        if why:
            raise NoSuchServer(cause="unusable", name=name, reason=why)
        raise NoSuchServer(cause="no_server", name=name)

    def status(self) -> list[ServerStatus]:
        """Every configured server, as known now; starts nothing."""
        running = self._thread.running if self._thread else {}
        return [
            self._status_of(name, server, running.get(name))
            for name, server in self.config.servers.items()
        ]

    def _status_of(self, name: str, server: ServerConfig, live: Running | None) -> ServerStatus:
        known = self._known.of(name, server)
        retry = known.not_before - time.monotonic()
        state: State
        if server.disabled:
            state = "disabled"
        elif live is not None and live.alive:
            state = "running"
        elif known.starting:
            state = "starting"
        elif known.failures and retry > 0:
            state = "waiting"
        elif known.last_error and known.failures:
            state = "failed"
        else:
            state = "stopped"
        return ServerStatus(
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

    def cached_tools(self, server: str) -> list[ToolInfo]:
        """The server's tools as last listed ([] if never, or its config changed since)."""
        config = self.config.servers.get(server)
        if config is None:
            return []
        return list(self._known.of(server, config).tools or [])

    # --- the thread -----------------------------------------------------------------------

    def _ensure_thread(self) -> LoopThread:
        with self._guard:
            if self._closed:
                raise McpError(cause="closing")
            if self._thread is None:
                self._thread = LoopThread.start()
                atexit.register(self.close)  # servers never outlive Crosstalk
            return self._thread

    def _on_thread(self, coro: Coroutine[Any, Any, T]) -> Awaitable[T]:
        """Run ``coro`` on the MCP loop; await the result on the caller's loop."""
        return self._ensure_thread().run(coro)

    # --- sessions (these run on the MCP loop) ----------------------------------------------

    async def _open(
        self, name: str, server: ServerConfig, log: Path, ready: asyncio.Future[Running]
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
                    ready.set_result(Running(client, info, stopped, task, log))
                await stopped.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
        finally:  # ended (stopped, or the server went away while idle): the next call restarts it
            stopped.set()

    async def _ensure(self, name: str, server: ServerConfig) -> Running:
        threaded = self._ensure_thread()
        lock = threaded.locks.setdefault(name, asyncio.Lock())
        async with lock:
            live = threaded.running.get(name)
            if live is not None and live.alive:
                return live
            if live is not None:  # dying: let its transport finish closing first
                await asyncio.gather(live.task, return_exceptions=True)
                threaded.running.pop(name, None)
            known = self._known.of(name, server)
            wait = known.not_before - time.monotonic()
            if known.failures and wait > 0:
                raise ServerFailed(
                    cause="waiting", error=known.last_error or "", seconds=round(wait), name=name
                )
            return await self._start(name, server, known)

    async def _start(self, name: str, server: ServerConfig, known: Known) -> Running:
        threaded = self._ensure_thread()
        log = launch.log_file(self.data, name)
        ready: asyncio.Future[Running] = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(self._open(name, server, log, ready))
        known.starting = True
        try:
            running = await asyncio.wait_for(asyncio.shield(ready), server.timeout)
        except BaseException as exc:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            if isinstance(exc, asyncio.CancelledError):
                raise
            failed = self._start_error(name, server, exc, log)
            self._known.failed(name, known, str(failed), log)
            raise failed from None
        finally:
            known.starting = False
        threaded.running[name] = running
        known.started(running.info)
        return running

    def _start_error(
        self, name: str, server: ServerConfig, exc: BaseException, log: Path
    ) -> ServerFailed:
        from app.mcp import connection

        secrets = self.keys.secrets()
        if isinstance(exc, CrosstalkError):
            return ServerFailed(scrub(str(exc), secrets))
        output = scrub(" | ".join(launch.tail(log, 5)), secrets)
        if isinstance(exc, TimeoutError):
            seconds = f"{server.timeout:g}"
            if output:
                return ServerFailed(
                    cause="timeout_output", name=name, seconds=seconds, output=output
                )
            return ServerFailed(cause="timeout", name=name, seconds=seconds)
        reason = scrub("; ".join(dict.fromkeys(connection.leaves(exc))), secrets)
        if output:
            return ServerFailed(cause="failed_output", name=name, reason=reason, output=output)
        return ServerFailed(cause="failed", name=name, reason=reason)

    async def _list(self, name: str, refresh: bool) -> list[ToolInfo]:
        from app.mcp import connection

        server = self.server(name)
        running = await self._ensure(name, server)
        known = self._known.of(name, server)
        try:
            tools = await connection.all_tools(running.client, name, refresh=refresh)
        except Exception as exc:
            if connection.closed(exc):
                running.stopped.set()
            failed = ServerFailed(
                cause="not_listed", name=name, reason="; ".join(connection.leaves(exc))
            )
            self._known.failed(name, known, str(failed), running.log)
            raise failed from None
        known.listed(tools, running.info, running.log)
        self._known.save(name, known)
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

    async def _with_client(self, name: str, work: Callable[[Client], Awaitable[T]]) -> T:
        from app.mcp import connection

        server = self.server(name)
        running = await self._ensure(name, server)
        try:
            return await work(running.client)
        except Exception as exc:
            if connection.closed(exc):
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
        ready: asyncio.Future[Running] = asyncio.get_running_loop().create_future()
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
            error = str(self._start_error(name, server, exc, log))
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
        if self.config.servers.get(name) == server:  # (a form's unsaved edit: nothing known)
            self._known.tested(name, server, report)
        return report

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
                listed = functools.partial(connection.all_prompts, server=name)
                found += await self._on_thread(self._with_client(name, listed))
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
        from app.mcp import connection

        return await self._on_thread(
            self._with_client(server, lambda c: connection.prompt_text(c, name, arguments))
        )

    async def resources(self, server: str) -> list[ResourceInfo]:
        from app.mcp import connection

        return await self._on_thread(
            self._with_client(server, lambda c: connection.all_resources(c, server))
        )

    async def read_resource(self, server: str, uri: str, blobs: Blobs) -> list[Attachment]:
        """A resource as attachments: text -> a text file named after the uri; images as
        they are. AttachmentError for what Crosstalk cannot attach."""
        from app.mcp import connection

        return await self._on_thread(
            self._with_client(server, lambda c: connection.resource_attachments(c, uri, blobs))
        )

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
        if threaded is not None:
            threaded.close()
