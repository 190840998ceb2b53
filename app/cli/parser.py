"""The light part of the command line: the parser, and what every command shares.

``crosstalk --help``, ``list``, ``show`` and ``search`` must start and finish quickly on a large
library (docs/performance.md), so building the parser imports nothing heavy: every command's
options are declared here, and each handler is named as ``"module:function"``, imported by
``app.cli`` when that command runs (a command imports its own module and what it needs, no
other's). Values the options show that live in heavier modules are repeated here; a test checks
that they still match (tests/test_cli_lazy.py). Of the commands' parsers, only the one of the
command being run is made (``build_parser(argv)``): argparse looks up its translations and the
terminal's width for every parser it makes, which adds up over all the commands' parsers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

from app.cli import knowledge_options as cli_knowledge
from app.cli import project_options as cli_projects
from app.cli import transfer as cli_transfer
from app.private_apis import list_command_only
from app.tool_names import BUILTIN_NAMES

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT; SIGTERM and SIGHUP give 143 and 129
# app.store.index.GROUPS: not imported to build the parser
USAGE_GROUPS = ("model", "conversation", "day")

Handler = str | Callable[..., int]  # "module:function", imported when the command runs
Command = Callable[[str, Handler, str], argparse.ArgumentParser]


def fail(message: str) -> int:
    print(f"crosstalk: {message}", file=sys.stderr)
    return EXIT_ERROR


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose epilog can be made only when its help is shown
    (``later_epilog``): what it says may live in a module a command need not import."""

    later_epilog: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.later_epilog is not None:
            self.epilog, self.later_epilog = self.later_epilog(), None
        return super().format_help()


class _Unbuilt:
    """Stands in for the parser of a command this run does not parse: every call that would
    set it up (add_argument, set_defaults, add_subparsers, ...) is taken and does nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Unbuilt]:
        return self._ignored

    def _ignored(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


def _listed_only(sub: argparse._SubParsersAction[Any], name: str, help: str) -> Parser:
    """``name`` among the commands (in the help's list, and in the choices a mistyped command
    is told), without making its parser: this command line runs another."""
    unbuilt = _Unbuilt()
    list_command_only(sub, name, help, unbuilt)
    return cast(Parser, unbuilt)


def command_word(argv: Sequence[str]) -> str:
    """The command ``argv`` runs ("" for none, e.g. ``--help``): its first word that is not
    an option (the top level takes no option with a value)."""
    return next((word for word in argv if not word.startswith("-")), "")


def _search_epilog() -> str:
    from app.store.search_query import HELP

    return f"{HELP}\nA query with -word goes after -- or in quotes: crosstalk search -- tokyo -rain"


# --- the parser ---------------------------------------------------------------------------


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``crosstalk``; for ``argv``, with only its command's parser made (the
    others are listed by name); without, with every parser made."""
    wanted = None if argv is None else command_word(argv)
    parser = Parser(
        prog="crosstalk",
        description="Chat with language models; every conversation stays on your disk.",
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    def command(name: str, handler: Handler, help: str) -> Parser:
        if wanted is not None and name != wanted:
            return _listed_only(sub, name, help)
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p

    _ask(command)
    _conversations(command)
    _conversation_changes(command)
    command("reindex", "app.cli.main:cmd_reindex", "rebuild the index from the transcripts")
    _models(command)
    _branches(command)
    _attachments(command)
    cli_transfer.register(command)
    cli_projects.register(command)
    cli_knowledge.register(command)
    _context(command)
    _usage(command)
    _mcp(command)
    _sync(command)
    # not listed (no help): ``ask`` starts it to name a new conversation after it exits
    if wanted in (None, "_title"):
        title = sub.add_parser("_title")
        title.set_defaults(handler="app.cli.turn:cmd_title")
        title.add_argument("id")
    return parser


def _ask(command: Command) -> None:
    ask = command("ask", "app.cli.ask:cmd_ask", "ask a model; streams the reply")
    which = ask.add_mutually_exclusive_group()
    which.add_argument("--new", action="store_true", help="start a new conversation (default)")
    which.add_argument("-c", "--conversation", metavar="ID", help="continue this conversation")
    ask.add_argument(
        "--project", metavar="NAME|ID",
        help="start the conversation in this project: its instructions, and its model, tools "
        "and tuning where not given (`crosstalk project list`)",
    )  # fmt: skip
    ask.add_argument("-m", "--model", metavar="PROVIDER:MODEL", help="model for this turn")
    ask.add_argument("-s", "--system", metavar="TEXT", help="system instruction")
    add_tool_options(ask)
    ask.add_argument(
        "--regenerate", action="store_true",
        help="answer the last input of -c ID again (with -m, by another model): a new branch; "
        "the earlier reply stays, `crosstalk switch` goes back to it",
    )  # fmt: skip
    ask.add_argument("--retry", action="store_true", help=argparse.SUPPRESS)  # the old name
    ask.add_argument(
        "--continue", dest="go_on", action="store_true",
        help="the last reply of -c ID was cut off at its length limit: ask the model to go on "
        "(the two parts show as one reply)",
    )  # fmt: skip
    ask.add_argument(
        "--compare", metavar="MODEL,MODEL[,...]",
        help="send the question to several models at once; each reply is a branch of its own",
    )  # fmt: skip
    add_tuning(ask)
    ask.add_argument(
        "--trim", action="store_true",
        help="a message too long for the model's window is sent cut to fit (else refused)",
    )  # fmt: skip
    add_attach(ask)
    add_resource(ask)
    knowing = ask.add_mutually_exclusive_group()
    knowing.add_argument(
        "--knowledge", dest="knowledge", action="store_const", const=True, default=None,
        help="answer from your documents (`crosstalk knowledge add`): the conversation's and "
        "its project's sources, else every source; with sources of its own a conversation "
        "uses them without this",
    )  # fmt: skip
    knowing.add_argument(
        "--no-knowledge", dest="knowledge", action="store_const", const=False,
        help="do not search your documents for this question",
    )  # fmt: skip
    ask.add_argument("text", nargs="*", help="the question (read from stdin if absent)")


def _conversations(command: Command) -> None:
    """Reading them: list, show, search."""
    ls = command("list", "app.cli.conversations:cmd_list", "conversations, newest first")
    ls.add_argument("-n", "--limit", type=int, default=50)
    ls.add_argument("--offset", type=int, default=0)
    ls.add_argument("--json", action="store_true")
    ls.add_argument(
        "--project", metavar="NAME|ID",
        help="only the conversations of this project ('none': those outside any project)",
    )  # fmt: skip
    ls.add_argument("--tag", metavar="TAG", help="only the conversations with this tag")

    show = command(
        "show", "app.cli.conversations:cmd_show", "the entries of a conversation's active branch"
    )
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    show.add_argument(
        "--all", action="store_true",
        help="every entry of every branch, with the seq of the message each follows "
        "(* marks the active branch)",
    )  # fmt: skip
    show.add_argument(
        "--entries", action="store_true",
        help="tokens, cost, latency and running totals of every entry (see also `usage`)",
    )  # fmt: skip

    search = cast(
        Parser,
        command(
            "search",
            "app.cli.conversations:cmd_search",
            "find messages in any language: words, phrases, OR, -word, filters",
        ),
    )
    search.formatter_class = argparse.RawDescriptionHelpFormatter
    search.later_epilog = _search_epilog
    search.add_argument("query", nargs="+", help="what to find (the syntax is below)")
    search.add_argument(
        "-n", "--limit", type=int, default=20, help="conversations to show (default 20)"
    )
    search.add_argument(
        "-m", "--per-conversation", type=int, default=10, metavar="N",
        help="matching messages to show of each conversation (default 10)",
    )  # fmt: skip
    search.add_argument(
        "--json", action="store_true",
        help="[{conversation, count, hits: [{seq, kind, snippet, marks}]}]; marks are "
        "[start, end) of each match in the snippet",
    )  # fmt: skip


def _conversation_changes(command: Command) -> None:
    """Renaming, pinning, the trash, forking."""
    rename = command("rename", "app.cli.conversations:cmd_rename", "give a conversation a title")
    rename.add_argument("id")
    rename.add_argument("title", nargs="+")

    for verb in ("pin", "unpin"):
        pin = command(
            verb, "app.cli.conversations:cmd_pin", f"{verb} a conversation (pinned ones list first)"
        )
        pin.add_argument("id")
        pin.set_defaults(command=verb)
    command(
        "delete", "app.cli.conversations:cmd_delete", "move a conversation to the trash"
    ).add_argument("id")
    command(
        "restore", "app.cli.conversations:cmd_restore", "bring a conversation back from the trash"
    ).add_argument("id")
    trash = command("trash", "app.cli.conversations:cmd_trash", "list conversations in the trash")
    trash.add_argument(
        "--empty", action="store_true",
        help="remove everything in the trash for good (`crosstalk purge ID` removes one)",
    )  # fmt: skip

    fork = command(
        "fork", "app.cli.conversations:cmd_fork", "new conversation sharing history up to a seq"
    )
    fork.add_argument("id")
    fork.add_argument("--at", type=int, required=True, metavar="SEQ")


def _models(command: Command) -> None:
    models = command(
        "models",
        "app.cli.models:cmd_models",
        "models you can use with -m, and where their keys come from",
    )
    models.add_argument(
        "--refresh",
        action="store_true",
        help="first ask each OpenAI-compatible server what it serves (exit 1 if one fails)",
    )
    key = command(
        "key",
        "app.cli.models:cmd_key",
        "keep an API key in the OS keyring: key set|delete PROVIDER",
    )
    key.add_argument("action", choices=["set", "delete"])
    key.add_argument("provider")


def _branches(command: Command) -> None:
    edit = command(
        "edit", "app.cli.branches:cmd_edit",
        "send an earlier input again, edited: a new branch from where it was; the original "
        "stays (`crosstalk switch` goes back)",
    )  # fmt: skip
    edit.add_argument("id")
    edit.add_argument("seq", type=int, help="the seq of the input to edit (`crosstalk show ID`)")
    edit.add_argument("text", nargs="*", help="the new text (read from stdin if absent)")
    edit.add_argument("-m", "--model", metavar="PROVIDER:MODEL", help="model for this turn")
    edit.add_argument("-s", "--system", metavar="TEXT", help="system instruction")
    add_tool_options(edit)
    add_attach(edit)
    edit.add_argument(
        "--drop-attachments", action="store_true",
        help="leave out the files the original input was sent with (kept by default; -a adds)",
    )  # fmt: skip
    add_tuning(edit)

    tree = command(
        "branches",
        "app.cli.branches:cmd_branches",
        "a conversation's branches, the active one marked",
    )
    tree.add_argument("id")
    tree.add_argument("--json", action="store_true")

    switch = command(
        "switch", "app.cli.branches:cmd_switch", "make the branch holding a message the active one"
    )
    switch.add_argument("id")
    switch.add_argument("seq", type=int, help="any message of the branch (`crosstalk branches`)")


def _attachments(command: Command) -> None:
    out = command(
        "attachment", "app.cli.attachments:cmd_attachment",
        "write an attachment of a message back out to a file (`crosstalk show ID` lists them)",
    )  # fmt: skip
    out.add_argument("id")
    out.add_argument("seq", type=int, help="the seq of the message it was sent with")
    out.add_argument(
        "n", type=int, nargs="?", default=1, help="which of the message's attachments (default 1)"
    )
    out.add_argument(
        "-o", "--output", metavar="PATH",
        help="the file to write (a folder: into it, under the attachment's name; - : stdout); "
        "default: the attachment's name in the current folder",
    )  # fmt: skip
    out.add_argument("--force", action="store_true", help="replace an existing file")
    purge = command(
        "purge", "app.cli.attachments:cmd_purge",
        "remove conversations from the trash for good, with the attachments only they used",
    )  # fmt: skip
    purge.add_argument("ids", nargs="+", metavar="ID")


def _context(command: Command) -> None:
    context = command(
        "context", "app.cli.context:cmd_context", "what the next request carries, and what not"
    )
    context.add_argument("id")
    context.add_argument("-m", "--model", metavar="PROVIDER:MODEL", help="for this model")
    context.add_argument("--json", action="store_true")
    context.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="change the conversation's context policy, e.g. auto_compress=on, window_turns=40, "
        "compress_strategy=whole, budget_share=0.5 (repeatable)",
    )  # fmt: skip
    context.add_argument("--reset", action="store_true", help="back to the settings' policy")
    context.add_argument(
        "--wire", action="store_true",
        help="print the request body the adapter would send (JSON, keys redacted); what replay "
        "changed goes to stderr",
    )  # fmt: skip
    context.add_argument(
        "--draft", default="", metavar="TEXT", help="as if TEXT were the next question"
    )
    context.add_argument(
        "--exact", action="store_true",
        help="also ask the provider's token-counting endpoint (online; Anthropic, Gemini, "
        "OpenAI Responses)",
    )  # fmt: skip
    compress_ = command(
        "compress", "app.cli.context:cmd_compress", "summarise older entries; nothing is deleted"
    )
    compress_.add_argument("id")
    compress_.add_argument(
        "--strategy", metavar="S", help="whole | last-n:N | chunked:N | facts:CONCEPTS"
    )
    compress_.add_argument("-m", "--model", metavar="PROVIDER:MODEL", help="who summarises")
    compress_.add_argument("--preview", action="store_true", help="show the summaries only")
    compress_.add_argument("--undo", type=int, metavar="SEQ", help="undo the compression at SEQ")

    recall = command(
        "recall",
        "app.cli.context:cmd_recall",
        "search earlier conversations for a follow-up of this one",
    )
    recall.add_argument("id", help="the conversation the question follows")
    recall.add_argument("question", nargs="+")
    recall.add_argument("-m", "--model", metavar="PROVIDER:MODEL", help="who rewrites the query")
    recall.add_argument("-n", "--limit", type=int, default=10)


def _usage(command: Command) -> None:
    usage = command(
        "usage", "app.cli.usage:cmd_usage", "tokens and cost per model, conversation or day"
    )
    usage.add_argument("id", nargs="?", help="only this conversation")
    usage.add_argument("--since", metavar="YYYY-MM-DD", help="from this day on (UTC)")
    usage.add_argument(
        "--by", choices=USAGE_GROUPS, default="model", help="group by (default: model)"
    )
    usage.add_argument("--json", action="store_true")


def _mcp(command: Command) -> None:
    mcp = command(
        "mcp", "app.cli.mcp:cmd_mcp", "MCP servers: add, list, tools, remove, import, secret"
    )
    sub = mcp.add_subparsers(title="mcp commands", metavar="ACTION")

    def action(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p

    add = action(
        "add", "app.cli.mcp:cmd_add", "add a server: `mcp add NAME -- COMMAND ARGS` or `--url URL`"
    )
    add.add_argument("name", help="letters and digits joined by '-' or '_', e.g. fs")
    add.add_argument("--url", help="a remote server (streamable HTTP) instead of a command")
    add.add_argument("--sse", action="store_true", help="the URL speaks the older SSE transport")
    add.add_argument(
        "--env", action="append", default=[], metavar="K=V", help="for the command's environment"
    )
    add.add_argument(
        "--secret-env", action="append", default=[], metavar="K",
        help="asks for K's value and keeps it in the OS keyring (not in mcp.json)",
    )  # fmt: skip
    add.add_argument(
        "--header", action="append", default=[], metavar="'K: V'", help="sent to a --url server"
    )
    add.add_argument(
        "--secret-header", action="append", default=[], metavar="K",
        help="asks for header K's value (e.g. Authorization) and keeps it in the OS keyring",
    )  # fmt: skip
    add.add_argument("--cwd", metavar="DIR", help="the command's working directory")
    add.add_argument(
        "--timeout", type=float, metavar="S", help="seconds to start, and per call (default 60)"
    )
    add.add_argument("--disabled", action="store_true", help="add it, but do not use it yet")
    add.add_argument("--replace", action="store_true", help="replace a server of that name")
    add.add_argument(
        "--test", action="store_true",
        help="start it and list its tools first; it is added only if that works",
    )  # fmt: skip
    add.add_argument(
        "run", nargs="*", metavar="COMMAND", help="after --: the command and its arguments"
    )

    ls = action("list", "app.cli.mcp:cmd_list", "each server: transport, state, tools, last error")
    ls.add_argument("--json", action="store_true")

    tools = action(
        "tools", "app.cli.mcp:cmd_tools", "start a server (or each enabled one) and list its tools"
    )
    tools.add_argument("name", nargs="?", help="only this server")
    tools.add_argument("--json", action="store_true")

    remove = action("remove", "app.cli.mcp:cmd_remove", "remove a server from mcp.json")
    remove.add_argument("name")
    remove.add_argument(
        "--forget-secrets", action="store_true",
        help="also remove the keyring values its config refers to",
    )  # fmt: skip

    imported = action(
        "import", "app.cli.mcp:cmd_import",
        "copy servers from Claude Desktop, Claude Code, Cursor, Windsurf, VS Code or Gemini CLI",
    )  # fmt: skip
    imported.add_argument("file", nargs="?", help="a config file (default: each app's own)")
    imported.add_argument("--dry-run", action="store_true", help="say what would change")
    imported.add_argument("--replace", action="store_true", help="replace servers of those names")
    imported.add_argument(
        "--plain-secrets", action="store_true",
        help="keep tokens and keys in mcp.json as they are (default: into the OS keyring)",
    )  # fmt: skip

    secret = action(
        "secret",
        "app.cli.mcp:cmd_secret",
        "keep a value in the OS keyring: write keyring:NAME in mcp.json",
    )
    secret.add_argument("action", choices=["set", "delete"])
    secret.add_argument("name", help="e.g. fs.API_TOKEN")


def _sync(command: Command) -> None:
    sync = command(
        "sync", "app.cli.sync:cmd_sync",
        "sync through storage you have: with no ACTION, receive then send (setup, status, off)",
    )  # fmt: skip
    sync.add_argument(
        "--dry-run", action="store_true",
        help="say what would be received and sent; change nothing here or there",
    )  # fmt: skip
    sync.add_argument("--json", action="store_true", help="the report as JSON")
    sub = sync.add_subparsers(title="sync commands", metavar="ACTION")
    setup = sub.add_parser(
        "setup", help="test a remote and keep it for sync (docs/sync.md)",
        description="Test a remote (write, read, list and delete a probe) and keep it for "
        "sync. URL: s3://BUCKET/FOLDER, https://... (WebDAV: Nextcloud, ownCloud, a NAS) or a "
        "folder. Passwords, secret keys and the passphrase go to the OS keyring (or come from "
        "CROSSTALK_SYNC_SECRET and CROSSTALK_SYNC_PASSPHRASE), never to a file.",
    )  # fmt: skip
    setup.set_defaults(handler="app.cli.sync:cmd_setup")
    setup.add_argument("url", metavar="URL")
    setup.add_argument(
        "--endpoint-url", metavar="U",
        help="an S3-compatible service (MinIO, Cloudflare R2, Backblaze B2, Wasabi)",
    )  # fmt: skip
    setup.add_argument("--region", metavar="R", help="the S3 region, where the service needs one")
    setup.add_argument(
        "--user", metavar="U",
        help="WebDAV user, or S3 access key id (its password or secret key is asked for); "
        "without it S3 uses AWS's usual credentials (environment, ~/.aws, SSO)",
    )  # fmt: skip
    setup.add_argument(
        "--encrypt", action="store_true",
        help="encrypt everything on the remote with a passphrase (asked for)",
    )  # fmt: skip
    setup.add_argument(
        "--settings", action="store_true",
        help="also sync the settings (models, providers, context; never keys); the newest wins",
    )  # fmt: skip
    status = sub.add_parser(
        "status", help="the remote, the last sync, what is not sent yet (never secrets)",
        description="The remote sync uses, when this device last synced, how many "
        "conversations have changes not sent yet, and the last error (never its secrets).",
    )  # fmt: skip
    status.set_defaults(handler="app.cli.sync:cmd_status")
    off = sub.add_parser(
        "off", aliases=["forget"], help="turn sync off on this device (the remote is kept)",
        description="Turn sync off on this device: forget the remote and its secrets here. "
        "The remote, other devices and this library are not touched.",
    )  # fmt: skip
    off.set_defaults(handler="app.cli.sync:cmd_off")


# --- options more than one command takes ---------------------------------------------------


def add_tool_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tools", metavar="NAMES",
        help=f"tools the model may call, comma-separated, 'all' or 'none': "
        f"{', '.join(BUILTIN_NAMES)}, mcp:SERVER (each tool of an MCP server in `crosstalk mcp "
        "list`) or mcp:SERVER/TOOL; remembered for the conversation",
    )  # fmt: skip
    parser.add_argument(
        "--allow-tools", metavar="NAMES",
        help="MCP tool calls that run without asking, comma-separated: mcp:SERVER, "
        "mcp:SERVER/TOOL, a tool's full name, or 'all'. Others are asked about on a terminal, "
        "and not run without one",
    )  # fmt: skip


def add_tuning(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--think", choices=["off", "low", "medium", "high"],
        help="reasoning/thinking where the model can; remembered for the conversation "
        "(default: settings' reasoning)",
    )  # fmt: skip
    parser.add_argument(
        "--temperature", type=float, metavar="T",
        help="sampling temperature, 0 to 2; remembered for the conversation",
    )  # fmt: skip
    parser.add_argument(
        "--max-tokens", type=int, metavar="N",
        help="the longest reply, in tokens; remembered for the conversation",
    )  # fmt: skip


def add_attach(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-a", "--attach", metavar="FILE", action="append", default=[],
        help="attach a file (an image, a PDF or a text file; repeat for several)",
    )  # fmt: skip


def add_resource(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--resource", metavar="SERVER:URI", action="append", default=[],
        help="attach an MCP server's resource (text as a text file, images as images; repeat "
        "for several): e.g. fs:file:///notes.txt; `crosstalk mcp tools SERVER` counts them",
    )  # fmt: skip
