"""Running one command: ``crosstalk COMMAND ...`` parsed, the library opened (alone for the
commands that only read), the command's handler imported and run.

Bare ``crosstalk`` opens the window (``ui/shell/main.py``), or prints these commands where there
is no display. Every failure is one line on stderr that says what to do, and a non-zero exit:
a CrosstalkError's English. Anything else (a ValueError, a KeyError) is a bug in Crosstalk, left
to print its traceback rather than read as the user's mistake.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.cli import collector
from app.cli.parser import EXIT_INTERRUPTED, build_parser, fail
from app.errors import CrosstalkError, UsageError
from app.paths import DataDir

if TYPE_CHECKING:
    from app.composition import Services
    from app.store import Library
from app.cli.output import reader_gone, warn

# The commands that make a turn: the collector stays off until their reply starts to arrive
# (``app.cli.turn``), so importing the provider's SDK on the way is not slowed by it, and the
# index is reconciled once the reply is in (``app.cli.turn.catch_up_index``).
TURNS = frozenset({"app.cli.ask:cmd_ask", "app.cli.branches:cmd_edit"})
# What the process runs when it is Crosstalk's command line: the console script (the bundle's
# executable), or ``python -m app.cli``
PROGRAMS = frozenset({"crosstalk", "crosstalk.exe", "__main__.py"})
# The commands that only read the library: they open it alone, without the providers, tools
# and MCP servers ``composition.build`` makes (``show --entries`` prices: it builds them);
# ``project list`` and ``project show`` among them.
READING = frozenset(
    [f"app.cli.conversations:cmd_{name}" for name in ("list", "show", "search")]
    + [f"app.cli.projects:cmd_{name}" for name in ("list", "show")]
    # the knowledge commands keep their own index (app/knowledge/): the library is read only
    # to find a project or a conversation
    + [f"app.cli.knowledge:cmd_{name}" for name in ("add", "list", "remove", "reindex", "search")]
    + ["app.cli.knowledge_watch:cmd_watch"]
)


def main(argv: Sequence[str] | None = None) -> int:
    # the process's own command (``crosstalk ...``, ``python -m app.cli``), not a call of a
    # test or a script that goes on after it
    whole = os.path.basename(sys.argv[0]) in PROGRAMS and (
        argv is None or list(argv) == sys.argv[1:]
    )
    ran: list[str] = []
    collector.pause()  # until the command's own work starts (app/cli/collector.py)
    try:
        status = run(argv, ran)
    except BrokenPipeError:  # `crosstalk list | head`: the reader has what it wanted
        reader_gone()
        status = 0
    finally:
        collector.resume()
    if whole and ran and ran[0] in TURNS:
        leave(status)
    return status


def leave(status: int) -> None:
    """End the process now, its output flushed: a turn's command has closed its services
    (``main``), and what is left is the interpreter taking apart every module the turn
    imported, its provider's SDK among them, object by object, which nobody waits for. Left
    to the interpreter when the output cannot be flushed (a closed pipe), which it reports."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return
    os._exit(status)


def run(argv: Sequence[str] | None, ran: list[str] | None = None) -> int:
    """Parse ``argv`` and run its command; the exit status. ``ran`` gets the handler run."""
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
    if args.handler == "app.cli.main:cmd_reindex":  # before anything opens the index: it may be
        return reindex()  # what is damaged
    handler: Callable[[Any, argparse.Namespace], int] = resolved(args.handler)
    if ran is not None:
        ran.append(args.handler)
    try:
        upgrade_index(DataDir.default())
        if args.handler in READING and not getattr(args, "entries", False):
            services: Services | Reading = Reading.open()
        else:
            from app import composition

            # a turn reconciles the index once its request is answered (cli.turn.run)
            services = composition.build(
                environment_first=True,  # the command line's order (app/keys.py)
                reconcile=args.handler not in TURNS,
            )
    except CrosstalkError as exc:
        return fail(str(exc))
    except sqlite3.DatabaseError as exc:
        return fail(damaged_index(exc))
    if args.handler not in TURNS:
        collector.resume()
    try:
        warn(services.library.warnings)
        refuse_projects(services.library, args)
        return handler(services, args)
    except CrosstalkError as exc:
        return fail(str(exc))
    except sqlite3.DatabaseError as exc:  # pages damaged past what opening the index checks
        return fail(damaged_index(exc))
    except KeyboardInterrupt:
        print("\ncrosstalk: interrupted; what was saved before is kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        warn(services.library.warnings)
        services.close()


# the commands that take a project's id where others take a conversation's
TAKE_PROJECTS = ("app.cli.projects:", "app.cli.conversations:cmd_delete",
                 "app.cli.conversations:cmd_restore")  # fmt: skip


def refuse_projects(library: Any, args: argparse.Namespace) -> None:
    """A project's id given where a conversation's is wanted is refused in one line: a
    project is a transcript too (docs/projects.md), and ``ask -c`` would append to it."""
    if str(args.handler).startswith(TAKE_PROJECTS):
        return
    given = [getattr(args, "id", None), getattr(args, "conversation", None)]
    given += list(getattr(args, "ids", None) or ())
    for value in given:
        if isinstance(value, str) and value:
            row = library.index.row(value.upper())
            if row is not None and row.get("kind") == "project":
                raise UsageError(
                    f"{value} is a project, not a conversation: `crosstalk project show "
                    f"{value}` shows it and its conversations"
                )


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


def cmd_reindex(services: Services, args: argparse.Namespace) -> int:
    """Never called with services: ``main`` runs ``reindex`` before anything opens the
    index. Here so the parser names a handler like every other command's."""
    return reindex()


def reindex() -> int:
    """Rebuild the index (``app/store/rebuild.py``), saying how far it has got on a terminal;
    stopped, it goes on where it was the next time."""
    from app.store import Library
    from app.store.rebuild import rebuild

    data = DataDir.default()
    line = RebuildLine()
    try:
        report = rebuild(data, line)
        line.done()
        library = Library(data, reconcile=False)
        again = library.reconcile(full=True)  # what was appended while the fresh one was built
    except CrosstalkError as exc:
        line.done()
        return fail(str(exc))
    except KeyboardInterrupt:
        line.done()
        print(
            "\ncrosstalk: reindex stopped; the index in use is as it was. Run `crosstalk "
            "reindex` again to go on where it stopped",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    warn(report.warnings + again.warnings)
    library.close()
    print(f"indexed {report.added} conversations from {data.conversations}")
    return 0


class RebuildLine:
    """``Rebuilding the index: 1,234/10,000 conversations (12%)`` on stderr, redrawn at most
    ten times a second, only on a terminal."""

    def __init__(self) -> None:
        self.shown = 0.0
        self.active = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.active or (now - self.shown < 0.1 and done < total):
            return
        self.shown = now
        share = f" ({done / total:.0%})" if total else ""
        sys.stderr.write(f"\rRebuilding the index: {done:,}/{total:,} conversations{share}\x1b[K")
        sys.stderr.flush()

    def done(self) -> None:
        if self.active and self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = 0.0


if __name__ == "__main__":
    sys.exit(main())
