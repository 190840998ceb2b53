"""The command line: ``crosstalk ask|list|show|search|rename|delete|restore|purge|fork|models``...

Bare ``crosstalk`` will open the window once the desktop app exists; until then it prints help.
Every failure is one line on stderr that says what to do, and a non-zero exit.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app import ids
from app.cli_base import EXIT_INTERRUPTED, build_parser, fail
from app.errors import CrosstalkError
from app.paths import DataDir
from app.terminal_text import columns, cut, left

if TYPE_CHECKING:
    from app.composition import Services
    from app.history import AnyEntry, Attachment, ModelOutput
    from app.store import Conversation, Library, MessageHit
    from app.turn import TurnSettings

__all__ = ["build_parser", "main"]
# The commands that only read the library: they open it alone, without the providers, tools
# and MCP servers ``composition.build`` makes (``show --entries`` prices: it builds them).
READING = frozenset({"app.cli:cmd_list", "app.cli:cmd_show", "app.cli:cmd_search"})


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)  # only this command's parser is made
    args, extra = parser.parse_known_args(argv)
    if (
        extra
        and isinstance(getattr(args, "text", None), list)
        and not any(word.startswith("-") for word in extra)  # an unknown option stays an error
    ):
        # `edit ID 4 -a shot.png "text"`: argparse takes the positionals before an option as
        # a group, leaving the text after it over; it is the message all the same
        args.text += extra
    elif extra and extra[0] == "--" and getattr(args, "run", None) == []:
        # `mcp add NAME --env K=V -- npx -y pkg`: argparse has taken NAME as the positionals
        # before the options, leaving the command after -- over; it is the command all the same
        args.run = extra[1:]
    elif extra and getattr(args, "run", None):
        parser.error(f"unrecognized arguments: {' '.join(extra)} (a server's command goes "
                     "after --: crosstalk mcp add NAME -- COMMAND ARGS)")  # fmt: skip
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    if args.handler == "app.cli:cmd_reindex":  # before anything opens the index: it may be
        return reindex()  # what is damaged
    handler: Callable[[Any, argparse.Namespace], int] = resolved(args.handler)
    try:
        upgrade_index(DataDir.default())
        if args.handler in READING and not getattr(args, "entries", False):
            services: Services | Reading = Reading.open()
        else:
            from app import composition

            services = composition.build()
    except CrosstalkError as exc:
        return fail(str(exc))
    except sqlite3.DatabaseError as exc:
        return fail(damaged_index(exc))
    try:
        warn(services.library.warnings)
        return handler(services, args)
    except CrosstalkError as exc:
        return fail(str(exc))
    except sqlite3.DatabaseError as exc:  # pages damaged past what opening the index checks
        return fail(damaged_index(exc))
    except (ValueError, KeyError) as exc:
        return fail(str(exc).strip("'\""))
    except KeyboardInterrupt:
        print("\ncrosstalk: interrupted; what was saved before is kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        warn(services.library.warnings)
        services.close()


def resolved(handler: str | Callable[..., int]) -> Callable[..., int]:
    """A command's handler: ``"module:function"`` is imported now, as the command runs."""
    if callable(handler):
        return handler
    module, _, name = handler.partition(":")
    found: Callable[..., int] = getattr(importlib.import_module(module), name)
    return found


@dataclass
class Reading:
    """What ``list``, ``show`` and ``search`` need: the library, and the settings' problem
    said as a warning, as ``composition.build`` does; nothing of providers, tools or MCP."""

    data: DataDir
    library: Library

    @classmethod
    def open(cls) -> Reading:
        from app.store import Library

        data = DataDir.default()
        problem = None
        try:
            os.lstat(data.settings_file)
        except FileNotFoundError:
            pass  # the defaults, with nothing to say: as ``settings_or_defaults`` finds it
        else:
            from app.settings import settings_or_defaults

            _, problem = settings_or_defaults(data)
        library = Library(data)
        if problem:
            library.warnings.append(problem)
        return cls(data, library)

    def close(self) -> None:
        self.library.close()


def upgrade_index(data: DataDir) -> None:
    """Upgrade the index before the command uses it, saying how far it has got."""
    from app.store.index import upgrade

    shown = [-1]

    def progress(fraction: float) -> None:
        percent = int(fraction * 100)
        tty = sys.stderr.isatty()
        if percent != shown[0] and (tty or percent % 25 == 0 or shown[0] < 0):
            print(f"{chr(13) if tty else ''}Updating the search index: {percent}%…",
                  end="" if tty else "\n", file=sys.stderr, flush=True)  # fmt: skip
            shown[0] = percent

    upgrade(data.index_db, progress)
    if shown[0] >= 0 and sys.stderr.isatty():
        print(file=sys.stderr)


def damaged_index(exc: sqlite3.DatabaseError) -> str:
    return (
        f"the index is damaged ({exc}): run `crosstalk reindex` to rebuild it from the "
        "transcripts (nothing in them is lost)"
    )


_warned: set[str] = set()


def warn(messages: list[str]) -> None:
    for message in messages:
        if message not in _warned:
            _warned.add(message)
            print(f"crosstalk: warning: {message}", file=sys.stderr)


def emit_json(value: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


# --- ask -----------------------------------------------------------------------------------


def cmd_ask(services: Services, args: argparse.Namespace) -> int:
    from app import cli_attachments, cli_branches, cli_mcp, cli_turn
    from app.cli_approval import AllowList
    from app.cli_turn import last_model, parse_tools, show, show_context, tuning_of
    from app.turn import retry_turn, run_turn

    library = services.library
    regenerate = args.regenerate or args.retry
    if regenerate and not args.conversation:
        return fail("--regenerate needs -c ID: the conversation whose last reply to answer again")
    if (args.attach or args.resource) and (regenerate or args.go_on or args.compare):
        option = "-a" if args.attach else "--resource"
        return fail(
            f"{option} goes with a new message: --regenerate and --continue send what is there, "
            "and --compare does not take attachments yet (ask each model with -m instead)"
        )
    if args.go_on:
        return cli_branches.go_on(services, args)
    if regenerate and args.compare:
        return fail("--regenerate and --compare do not go together: pick one")
    attachments = cli_attachments.attach(services, args.attach)  # checked first: refused early
    attachments += cli_mcp.resource_attachments(services, args.resource)
    if regenerate:
        text = ""
    else:
        text = cli_attachments.message_text(args.text, bool(attachments))
        if not text.strip() and not attachments:
            return fail("nothing to ask: give the question as an argument or on stdin")
    tools = parse_tools(services, args.tools)
    AllowList.parse(args.allow_tools)  # a mistake in it is refused before anything is written
    conversation = library.open(args.conversation) if args.conversation else None
    if args.compare:
        if args.model:
            return fail("--compare names the models itself: leave out -m")
        return cli_branches.compare(services, args, conversation, text, tools)
    spec = (
        args.model or last_model(conversation, services.models) or services.settings.default_model
    )
    services.models.resolve(spec)  # an unknown model or a missing key fails before any write
    if not regenerate:
        text, problem = fitted(services, conversation, spec, text, args.trim, attachments)
        if problem:
            return fail(problem)
    cli_attachments.check_sendable(services, spec, text, attachments)
    conversation = conversation or library.create()
    settings = turn_settings(services, args)

    async def turn() -> ModelOutput:
        if regenerate:
            return await retry_turn(
                library, conversation, services.models, spec, settings, show,
                on_context=show_context,
            )  # fmt: skip
        return await run_turn(
            library, conversation, services.models, spec, text, settings,
            system=args.system, tools=tools, on_event=show, on_context=show_context,
            tuning=tuning_of(args), attachments=attachments,
        )  # fmt: skip

    return cli_turn.reply(services, conversation, turn)


def fitted(
    services: Services,
    conversation: Conversation | None,
    spec: str,
    text: str,
    trim: bool,
    attachments: Sequence[Attachment] = (),
) -> tuple[str, str | None]:
    """The message as it will be sent, or why it cannot be: a request over the model's window
    is refused (nothing written) with the ways out, unless ``trim`` cuts the message to fit."""
    from app.inspect.fit import measure, trimmed

    fit = measure(services, conversation, spec, text, attachments)
    if fit.fits:
        return text, None
    if trim:
        print(f"[{fit.explain()}: sent trimmed to fit]", file=sys.stderr)
        return trimmed(text, fit), None
    where = f"crosstalk compress {conversation.id} --strategy whole" if conversation else ""
    ways = ["--trim sends the beginning that fits"]
    if where:
        ways.append(f"`{where}` makes room first")
    ways.append("-m picks a model with a larger window (`crosstalk models`)")
    return text, f"{fit.explain()}; nothing was sent: " + ", or ".join(ways)


def turn_settings(services: Services, args: argparse.Namespace) -> TurnSettings:
    """The settings with this command's --temperature, --max-tokens and --think (a turn that
    appends an input also remembers them for the conversation: ``tuning_of``), and the
    approver of MCP tool calls: --allow-tools, else a question on a terminal, else no."""
    import dataclasses

    from app.cli_approval import AllowList, terminal_approver
    from app.cli_turn import tuning_of
    from app.tuning import applied

    allow = AllowList.parse(getattr(args, "allow_tools", None))
    settings = applied(services.turn_settings(), tuning_of(args))
    # counts only when bounds leave a doubt: the provider's usage is the count; a new
    # conversation is titled once the command is done (``cli_turn.name_later``)
    return dataclasses.replace(
        settings, approve=terminal_approver(allow), exact_counts=False, make_title=False
    )


# --- reading -------------------------------------------------------------------------------


def cmd_list(services: Services | Reading, args: argparse.Namespace) -> int:
    rows = services.library.newest(args.limit, args.offset)
    if args.json:
        emit_json(rows)
        return 0
    models = [f"{row['provider']}:{row['model']}" if row["provider"] else "-" for row in rows]
    model_width = min(max((columns(m) for m in models), default=1), 32)
    for row, model in zip(rows, models, strict=True):
        tokens = row["input_tokens"] + row["output_tokens"]
        start = (
            f"{row['id']}  {row['updated_at'][:16].replace('T', ' ')}  {left(model, model_width)} "
            f"{tokens:>8} tok  {'📌 ' if row['pinned'] else ''}"
        )
        print(start + fitted_title(row["title"] or "Untitled", columns(start)))
    if not rows:
        print('no conversations yet: `crosstalk ask "..."` starts one', file=sys.stderr)
    return 0


def entry_row(entry: AnyEntry) -> dict[str, Any]:
    from app.history import ModelOutput

    model = f"{entry.provider}:{entry.model}" if isinstance(entry, ModelOutput) else ""
    tokens_in = entry.usage.input if isinstance(entry, ModelOutput) else 0
    tokens_out = entry.usage.output if isinstance(entry, ModelOutput) else 0
    return {
        "seq": entry.seq,
        "ts": entry.ts,
        "kind": entry.kind,
        "model": model,
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
    }


def preview(entry: AnyEntry, width: int = 60) -> str:
    from app.history import ModelOutput
    from app.history.entries import CUT_OFF, STOPPED, searchable_text

    text = " ".join(searchable_text(entry).split())
    if isinstance(entry, ModelOutput):
        if entry.partial and entry.error == STOPPED:
            text = f"[partial: {STOPPED}] {text}"
        elif entry.error:
            text = f"[failed: {entry.error}] {text}"
        elif entry.partial:
            text = f"[partial] {text}"
        elif entry.finish_reason == "length":
            text = f"[{CUT_OFF}] {text}"
    return cut(text, width)


def fitted_title(title: str, used: int) -> str:
    """A title as the rest of a line: cut to the terminal's width on a terminal (at a character
    boundary, by display width), whole when the output goes to a file or a pipe."""
    if not sys.stdout.isatty():
        return title
    return cut(title, max(shutil.get_terminal_size().columns - used, 10))


def cmd_show(services: Services | Reading, args: argparse.Namespace) -> int:
    conversation = services.library.open(args.id)
    history = conversation.history
    if args.entries:
        from app import cli_usage

        assert not isinstance(services, Reading)  # main builds them all for --entries
        return cli_usage.show_entries(services, conversation, args.json)
    from app import cli_attachments, cli_branches

    entries = list(history) if args.all else history.active_entries()
    if args.json:
        emit_json({"header": conversation.header, "entries": entries})
        return 0
    print(f"{conversation.id}  {history.title or 'Untitled'}")
    if conversation.header.forked_from:
        fork = conversation.header.forked_from
        print(f"forked from {fork.id} at seq {fork.seq}")
    branches = len(history.leaves())
    if branches > 1 and not args.all:
        print(f"the active branch of {branches}: `crosstalk branches {conversation.id}` lists them")
    after = f"{'after':>5}  " if args.all else ""
    print(f"{'seq':>4}  {after}{'time':<19}  {'kind':<18} {'model':<20} {'in':>6} {'out':>6}  text")
    blobs = services.library.blobs
    for entry in entries:
        row = entry_row(entry)
        if args.all:
            parent = history.parent_of(entry.seq) if history.is_message(entry.seq) else None
            mark = "*" if history.on_active_path(entry.seq) else " "
            after = f"{'' if parent is None else parent or '-':>5}{mark} "
        print(
            f"{row['seq']:>4}  {after}{row['ts'][:19].replace('T', ' '):<19}  {row['kind']:<18} "
            f"{left(row['model'], 20)} {row['tokens_in'] or '':>6} {row['tokens_out'] or '':>6}  "
            f"{cli_branches.marked(history, entry)}{preview(entry)}"
        )
        for line in cli_attachments.listed(entry, blobs, indent=6 + len(after)):
            print(line)
    return 0


def cmd_search(services: Services | Reading, args: argparse.Namespace) -> int:
    """Every matching message, under its conversation with the count of its matches (the
    conversations newest match first); matches in bold on a terminal."""
    query = " ".join(args.query)
    found = services.library.search(query, args.limit, args.per_conversation)
    if args.json:
        emit_json(found)
    else:
        bold = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        for conversation in found:
            row = conversation.conversation
            title = " ".join((row["title"] or "Untitled").translate(_CONTROLS).split())
            count = conversation.count
            print(f"{row['id']}  {title}  ({count} match{'' if count == 1 else 'es'})")
            for hit in conversation.hits:
                print(f"    #{hit.seq} {hit.kind}: {emphasized(hit, bold)}")
            if count > len(conversation.hits):
                print(f"    ... and {count - len(conversation.hits)} more (-m N shows N)")
    if not found:
        print(f"No matches for {query}", file=sys.stderr)
        return 1
    return 0


_CONTROLS = {n: " " for n in (*range(32), *range(127, 160))}  # a terminal's escapes, say


def emphasized(hit: MessageHit, bold: bool) -> str:
    """A hit's snippet with its matches in bold (ANSI), or as it is."""
    return hit.marked("\x1b[1m", "\x1b[0m") if bold else hit.snippet


def cmd_models(services: Services, args: argparse.Namespace) -> int:
    """Configured providers and models, where each provider's key comes from, and what each
    OpenAI-compatible server listed when last asked (``--refresh`` asks them first)."""
    from app.model_catalog import ModelCatalog, describe, local_time, provider_line

    catalog = ModelCatalog(services)
    statuses = catalog.key_statuses()
    failed = False
    if args.refresh:
        for provider in catalog.snapshot().providers:
            if provider.lists_server:
                listed = catalog.refresh(provider.name)
                if listed.error:
                    failed = True
                    print(f"crosstalk: {provider.name}: {listed.error}", file=sys.stderr)
    for provider in catalog.snapshot(statuses).providers:
        print(provider_line(provider))
        for spec in provider.specs:
            default = "  (default)" if spec == services.settings.default_model else ""
            served = "" if spec in provider.configured else "  (served)"
            print(f"    {spec}{default}{served}  {describe(catalog.facts(spec))}")
        server = provider.server
        if provider.lists_server:
            if server is None or server.fetched_at is None:
                print("    (never asked what the server serves: crosstalk models --refresh)")
            else:
                when = local_time(server.fetched_at)
                print(f"    ({len(server.models)} served, as the server said at {when})")
            if server is not None and server.error and server.error_at and not args.refresh:
                when = local_time(server.error_at)
                print(f"    (the last refresh, at {when}, failed: {server.error})")
    return 1 if failed else 0


def cmd_key(services: Services, args: argparse.Namespace) -> int:
    """Keep a provider's API key in the OS keyring (never in a file)."""
    from app.keys import KeyringUnavailable

    name = args.provider
    config = services.settings.all_providers().get(name)
    if config is None:
        known = ", ".join(services.settings.all_providers())
        return fail(f"no provider {name!r}; the providers are: {known}")
    if args.action == "delete":
        removed = services.keys.forget(name)
        print(f"{'removed' if removed else 'there was no'} key for {name} in the OS keyring")
        return 0
    if not services.keys.keyring_usable():  # said before the key is asked for, not after
        return fail(no_keyring(name, config.kind, services.keys.problem))
    if sys.stdin.isatty():
        import getpass

        value = getpass.getpass(f"API key for {name} (not shown): ")
    else:
        value = sys.stdin.readline()
    try:
        services.keys.store(name, value)
    except KeyringUnavailable:
        return fail(no_keyring(name, config.kind, services.keys.problem))
    print(f"stored the key for {name} in the OS keyring")
    return 0


def no_keyring(name: str, kind: str, why: str | None) -> str:
    """Where a key can live when the OS keyring cannot keep it: the same two ways the
    window's Settings offers (it can keep a key in memory; a command ends too soon for that)."""
    from app.keys import env_names

    because = f" ({why})" if why else ""
    return (
        f"there is no usable OS keyring here{because}, so the key for {name} was not stored: "
        f"set {' or '.join(env_names(name, kind))} in the environment, or paste the key in the "
        "window's Settings > Providers, which can keep it for this session only"
    )


# --- changing ------------------------------------------------------------------------------


def cmd_rename(services: Services, args: argparse.Namespace) -> int:
    conversation = services.library.rename(args.id, " ".join(args.title))
    print(f"{conversation.id}  {conversation.history.title}")
    return 0


def cmd_pin(services: Services, args: argparse.Namespace) -> int:
    pinned = args.command == "pin"
    services.library.pin(args.id, pinned)
    print(f"{'pinned' if pinned else 'unpinned'} {ids.validate(args.id)}")
    return 0


def cmd_delete(services: Services, args: argparse.Namespace) -> int:
    conversation_id = ids.validate(args.id)
    services.library.delete(conversation_id)
    print(f"moved {conversation_id} to the trash; `crosstalk restore {conversation_id}` undoes it")
    return 0


def cmd_restore(services: Services, args: argparse.Namespace) -> int:
    conversation = services.library.restore(args.id)
    print(f"restored {conversation.id}  {conversation.history.title or 'Untitled'}")
    return 0


def cmd_trash(services: Services, args: argparse.Namespace) -> int:
    if args.empty:
        from app import cli_attachments

        return cli_attachments.empty_trash(services)
    for conversation_id in services.library.trashed():
        print(conversation_id)
    return 0


def cmd_fork(services: Services, args: argparse.Namespace) -> int:
    fork: Conversation = services.library.fork(args.id, args.at)
    print(f"{fork.id}  {fork.history.title}")
    return 0


def cmd_reindex(services: Services, args: argparse.Namespace) -> int:
    """Never called with services: ``main`` runs ``reindex`` before anything opens the
    index. Here so the parser names a handler like every other command's."""
    return reindex()


def reindex() -> int:
    from app.store import Library

    data = DataDir.default()
    try:
        library, report = Library.rebuilt(data)
    except CrosstalkError as exc:
        return fail(str(exc))
    warn(library.warnings)
    library.close()
    print(f"indexed {report.added} conversations from {data.conversations}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
