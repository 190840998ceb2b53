"""``crosstalk mcp …``: the MCP servers in ``<data>/mcp.json`` (``app/mcp/config.py``).

    crosstalk mcp add NAME [--env K=V]... [--secret-env K]... [--cwd DIR] [--timeout S]
                           [--disabled] [--replace] [--test] -- COMMAND [ARGS...]
    crosstalk mcp add NAME --url URL [--header 'K: V']... [--secret-header K]... [...]
    crosstalk mcp list [--json]            each server: transport, state, tools, last error
    crosstalk mcp tools [NAME] [--json]    starts NAME (or each enabled server) and lists
    crosstalk mcp remove NAME [--forget-secrets]
    crosstalk mcp import [FILE] [--dry-run] [--replace] [--plain-secrets]
    crosstalk mcp secret set|delete NAME   a value kept in the OS keyring ("keyring:NAME")

``list`` starts nothing: it says what is known from this and earlier runs. Tools run in a turn
only when enabled (``ask --tools mcp:NAME``) and allowed (``app/cli/approval.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from app.errors import CrosstalkError, UsageError
from app.mcp.config import McpConfig, ServerConfig
from app.mcp.values import NoSuchServer

if TYPE_CHECKING:
    from app.composition import Services
    from app.history import Attachment
    from app.mcp import McpManager, ServerInfo, TestReport, ToolInfo


def cmd_mcp(services: Services, args: argparse.Namespace) -> int:
    print(
        "crosstalk mcp add|list|tools|remove|import|secret: `crosstalk mcp ACTION --help` "
        "says more",
        file=sys.stderr,
    )
    return 1


def _emit(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


def _fail(message: str) -> int:
    print(f"crosstalk: {message}", file=sys.stderr)
    return 1


def _config(services: Services) -> McpConfig:
    return McpConfig.load(services.data.mcp_file)


def _ask_secret(label: str) -> str:
    """A secret from the terminal (not echoed), or a line of stdin when it is not one."""
    if sys.stdin.isatty():
        import getpass

        return getpass.getpass(f"{label} (not shown): ")
    return sys.stdin.readline().strip()


# --- add -----------------------------------------------------------------------------------


def cmd_add(services: Services, args: argparse.Namespace) -> int:
    name: str = args.name
    command: list[str] = args.run
    if args.url and command:
        return _fail("give a command (after --) or --url, not both")
    if not args.url and not command:
        return _fail(f"what runs {name}? `crosstalk mcp add {name} -- COMMAND ARGS` or --url URL")
    if args.url and (args.env or args.secret_env or args.cwd):
        return _fail("--env, --secret-env and --cwd are for a command; a --url server has none")
    if not args.url and (args.header or args.secret_header or args.sse):
        return _fail("--header, --secret-header and --sse are for a --url server")
    config = _config(services)
    from app.mcp.config import check_name

    check_name(name)  # before any secret is asked for
    if name in config.raw.get("mcpServers", {}) and not args.replace:
        return _fail(f"a server named {name!r} exists; --replace replaces it")
    env = _pairs(args.env, "=", "--env")
    headers = _pairs(args.header, ":", "--header")
    fields: dict[str, Any] = {}
    if args.url:
        fields |= {"url": args.url, "headers": headers}
        if args.sse:
            fields["type"] = "sse"
    else:
        program = command[0]
        if os.sep in program and not os.path.isabs(program):  # ./server: from here, not cwd
            program = os.path.abspath(program)
        fields |= {"command": program, "args": command[1:], "env": env, "cwd": args.cwd}
    if args.timeout is not None:
        fields["timeout"] = args.timeout
    if args.disabled:
        fields["disabled"] = True
    server = ServerConfig(**fields)
    if server.problem():
        return _fail(f"{name}: {server.problem()}")
    secrets = [("env", key, env) for key in args.secret_env]
    secrets += [("header", key, headers) for key in args.secret_header]
    if secrets and not services.keys.keyring_usable():  # said before anything is asked for
        return _fail(
            "there is no usable OS keyring here for --secret-env/--secret-header: set the value "
            "in the environment and give --env K='${VARIABLE}' instead"
        )
    from app.mcp.importing import describe, is_secret

    plain = [f"--env {k}" for k in env if is_secret(k, header=False) and "${" not in env[k]]
    plain += [f"--header {k}" for k in headers if is_secret(k, header=True)
              and "${" not in headers[k]]  # fmt: skip
    if plain:
        print(
            f"crosstalk: note: {', '.join(plain)} looks like a secret and goes into mcp.json as "
            "it is; --secret-env/--secret-header K keeps it in the OS keyring instead",
            file=sys.stderr,
        )
    for where, key, values in secrets:
        value = _ask_secret(f"{where} {key} for {name}")
        if not value:
            return _fail(f"no value for {where} {key}; {name} was not added")
        services.keys.store_secret(f"{name}.{key}", value)  # KeyringUnavailable says what to do
        values[key] = f"keyring:{name}.{key}"
    server = msgspec.structs.replace(server, env=env, headers=headers)
    if args.test:
        report = asyncio.run(services.mcp.test(name, server))
        if not report.ok:
            _print_failure(name, report.error or "it did not answer", report.stderr_tail)
            return _fail(f"{name} was not added: it did not start (see above)")
        _print_report(name, report)
    existed = name in config.raw.get("mcpServers", {})
    config.with_server(name, server, replace=args.replace).save()
    print(f"{'replaced' if existed else 'added'} {name}: {describe(server)}")
    if server.disabled:
        print(f'disabled: turns cannot use it until "disabled" is removed from {config.path}')
    else:
        print(f"use it in a turn with --tools mcp:{name}; `crosstalk mcp tools {name}` lists them")
    return 0


def _pairs(values: list[str], sep: str, option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, found, rest = value.partition(sep)
        if not found or not key.strip():
            example = "K=V" if sep == "=" else "'K: V'"
            raise UsageError(f"{option} {value!r}: write it as {example}")
        out[key.strip()] = rest.strip() if sep == ":" else rest
    return out


# --- list and tools ------------------------------------------------------------------------


def cmd_list(services: Services, args: argparse.Namespace) -> int:
    manager = services.mcp
    statuses = manager.status()
    problems = manager.config.problems
    if args.json:
        _emit({"servers": statuses, "problems": problems, "file": str(services.data.mcp_file)})
        return 0
    if not statuses and not problems:
        print(
            f"no MCP servers in {services.data.mcp_file}: `crosstalk mcp add NAME -- COMMAND` "
            "or `crosstalk mcp import` adds some",
            file=sys.stderr,
        )
        return 0
    rows = [("NAME", "TRANSPORT", "STATE", "TOOLS", "LAST ERROR")]
    for status in statuses:
        state: str = status.state
        if status.retry_in is not None:
            state = f"waiting {status.retry_in:.0f} s"
        tools = "?" if status.tool_count is None else str(status.tool_count)
        error = " ".join((status.last_error or "").split())
        rows.append((status.name, status.transport, state, tools, error))
    for name, why in problems.items():
        rows.append((name, "-", "unusable", "-", why))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[4]]).rstrip())
    return 0


def cmd_tools(services: Services, args: argparse.Namespace) -> int:
    manager = services.mcp
    config = manager.config
    if args.name:
        manager.server(args.name)  # NoSuchServer says what there is
        names = [args.name]
    else:
        names = [n for n, s in config.servers.items() if not s.disabled]
        if not names:
            return _fail(
                "no enabled MCP servers: `crosstalk mcp add` or `crosstalk mcp import` adds some"
            )
    listings = asyncio.run(_listings(manager, names))
    if args.json:
        _emit(listings)
    failed = False
    for listing in listings:
        if listing["error"]:
            failed = True
            if not args.json:
                _print_failure(listing["server"], listing["error"], listing["stderr_tail"])
            continue
        if not args.json:
            _print_listing(listing)
    return 1 if failed else 0


async def _listings(manager: McpManager, names: list[str]) -> list[dict[str, Any]]:
    from app.mcp import McpError

    out: list[dict[str, Any]] = []
    for name in names:
        listing: dict[str, Any] = {"server": name, "info": None, "tools": [], "prompts": [],
                                   "resources": [], "error": None, "stderr_tail": []}  # fmt: skip
        try:
            listing["tools"] = await manager.tools(name, refresh=True)
        except McpError as exc:
            listing["error"] = str(exc)
            status = {s.name: s for s in manager.status()}.get(name)
            listing["stderr_tail"] = list(status.stderr_tail) if status else []
            out.append(listing)
            continue
        status = {s.name: s for s in manager.status()}.get(name)
        listing["info"] = status.info if status else None
        # a server without prompts or resources answers them with an error
        with contextlib.suppress(McpError):
            listing["prompts"] = await manager.prompts([name])
        with contextlib.suppress(McpError):
            listing["resources"] = await manager.resources(name)
        out.append(listing)
    return out


def _server_line(name: str, info: ServerInfo | None) -> str:
    if info is None:
        return name
    about = [f"{info.name} {info.version}".strip(), info.transport]
    if info.protocol:
        about.append(f"protocol {info.protocol}")
    return f"{name}  ({', '.join(a for a in about if a)})"


def _tool_lines(tools: Sequence[ToolInfo]) -> list[str]:
    width = max((len(tool.wire_name) for tool in tools), default=0)
    lines = []
    for tool in tools:
        first = tool.description.strip().splitlines()[0] if tool.description.strip() else ""
        title = f"{tool.title}: " if tool.title and tool.title != tool.name else ""
        hint = "  [read-only]" if tool.read_only else ""
        lines.append(f"  {tool.wire_name.ljust(width)}  {title}{first}{hint}".rstrip())
    return lines


def _print_listing(listing: dict[str, Any]) -> None:
    print(_server_line(listing["server"], listing["info"]))
    for line in _tool_lines(listing["tools"]):
        print(line)
    if not listing["tools"]:
        print("  (no tools)")
    if listing["prompts"]:
        print(f"  prompts: {', '.join(p.command for p in listing['prompts'])}")
    if listing["resources"]:
        print(f"  resources: {len(listing['resources'])}")


def _print_report(name: str, report: TestReport) -> None:
    print(f"{_server_line(name, report.info)}: started in {report.seconds:.1f} s")
    for line in _tool_lines(report.tools):
        print(line)
    if report.prompts or report.resources:
        print(f"  prompts: {report.prompts}, resources: {report.resources}")


def _print_failure(name: str, error: str, tail: Any) -> None:
    print(f"crosstalk: {error}", file=sys.stderr)
    lines = list(tail or [])
    if lines and not all(line in error for line in lines):
        print(f"  {name}'s last output:", file=sys.stderr)
        for line in lines:
            print(f"    {line}", file=sys.stderr)


# --- remove, import, secret ----------------------------------------------------------------


def cmd_remove(services: Services, args: argparse.Namespace) -> int:
    from app.mcp.secrets import secret_refs

    config = _config(services)
    try:
        changed = config.without(args.name)
    except NoSuchServer as exc:
        return _fail(str(exc))
    raw = config.raw["mcpServers"][args.name]
    refs: list[str] = []
    with contextlib.suppress(msgspec.ValidationError):
        refs = secret_refs(msgspec.convert(raw, ServerConfig, strict=False))
    changed.save()
    print(f"removed {args.name} from {config.path}")
    if refs and args.forget_secrets:
        forgotten = [ref for ref in refs if services.keys.forget_secret(ref)]
        if forgotten:
            print(f"removed from the OS keyring: {', '.join(forgotten)}")
    elif refs:
        print(
            f"its secrets stay in the OS keyring ({', '.join(refs)}): "
            f"`crosstalk mcp secret delete NAME` or remove --forget-secrets removes them"
        )
    return 0


def cmd_import(services: Services, args: argparse.Namespace) -> int:
    from app.mcp.importing import Found, known_locations, merge, read_other

    found: list[Found] = []
    if args.file:
        found.append(read_other(Path(args.file).expanduser()))
    else:
        places = known_locations(os.environ)
        for app, place in places:
            path = Path(place)
            if path.is_file():
                try:
                    found.append(read_other(path, app))
                except CrosstalkError as exc:
                    print(f"crosstalk: {app}: {exc}", file=sys.stderr)
        if not found:
            where = "\n".join(f"  {app}: {place}" for app, place in places)
            return _fail(
                f"found no other app's MCP config; looked in:\n{where}\n"
                "give the file: crosstalk mcp import FILE"
            )
    config = _config(services)
    keys = None if args.plain_secrets else services.keys
    total: list[str] = []
    for one in found:
        print(f"{one.app}: {one.path}")
        config, lines = merge(config, one, keys, replace=args.replace, dry_run=args.dry_run)
        for line in lines:
            print(f"  {line}")
        total += lines
    if all(line.partition(": ")[2].startswith("skipped") for line in total):
        print("nothing to import", file=sys.stderr)
        return 0
    if args.dry_run:
        print("(a dry run: nothing was written)", file=sys.stderr)
        return 0
    config.save()
    print(f"wrote {config.path}; `crosstalk mcp list` shows the servers")
    return 0


def cmd_secret(services: Services, args: argparse.Namespace) -> int:
    from app.keys import KeyringUnavailable

    name: str = args.name
    if args.action == "delete":
        removed = services.keys.forget_secret(name)
        print(f"{'removed' if removed else 'there was no'} secret {name} in the OS keyring")
        return 0
    if not services.keys.keyring_usable():
        return _fail(
            "there is no usable OS keyring here, so nothing can be kept in it: put the value in "
            "the environment and write ${VARIABLE} in mcp.json instead"
        )
    value = _ask_secret(f"value of {name}")
    try:
        services.keys.store_secret(name, value)
    except KeyringUnavailable as exc:
        return _fail(str(exc))
    print(f"stored {name} in the OS keyring; mcp.json refers to it as keyring:{name}")
    return 0


# --- ask --resource ------------------------------------------------------------------------


def resource_attachments(services: Services, specs: Sequence[str]) -> list[Attachment]:
    """Each ``SERVER:URI`` read from its server (started if needed) and stored as attachments."""
    wanted: list[tuple[str, str]] = []
    for spec in specs:
        server, _, uri = spec.partition(":")
        if not server or not uri:
            raise UsageError(f"--resource {spec!r}: write it as SERVER:URI, e.g. fs:file:///a.txt")
        services.mcp.server(server)  # NoSuchServer says which there are
        wanted.append((server, uri))
    if not wanted:
        return []

    async def read() -> list[Attachment]:
        out: list[Attachment] = []
        for server, uri in wanted:
            got = await services.mcp.read_resource(server, uri, services.library.blobs)
            if not got:
                raise UsageError(f"--resource {server}:{uri}: the server returned nothing")
            out += got
        return out

    return asyncio.run(read())
