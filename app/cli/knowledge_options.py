"""The options of ``crosstalk knowledge ...`` (their handlers are in ``app.cli.knowledge``):
declared for ``app.cli.parser``, importing nothing of the command line or the knowledge index,
so that building the parser stays light and its modules free of cycles."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from app.cli import knowledge_watch

Command = Callable[[str, str, str], argparse.ArgumentParser]
HANDLERS = "app.cli.knowledge:"


def register(command: Command) -> None:
    knowledge = command(
        "knowledge", f"{HANDLERS}cmd_list",
        "your own documents, searchable offline: add a folder or a file, list, remove, "
        "reindex, search, watch",
    )  # fmt: skip
    sub = knowledge.add_subparsers(title="knowledge commands", metavar="ACTION")

    def action(name: str, handler: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=f"{HANDLERS}{handler}")
        return p

    add = action(
        "add", "cmd_add",
        "add a folder (its text, Markdown, code, HTML, PDF and DOCX files) or a file, and "
        "index it now; the files are only read, never changed or sent anywhere",
    )  # fmt: skip
    add.add_argument("path", metavar="PATH")
    scope = add.add_mutually_exclusive_group()
    scope.add_argument("--project", metavar="NAME|ID", help="for this project's conversations")
    scope.add_argument("-c", "--conversation", metavar="ID", help="for this conversation")

    ls = action(
        "list", "cmd_list",
        "the sources: id, files, chunks, path, files not read, chunks with vectors (by model)",
    )  # fmt: skip
    ls.add_argument("--json", action="store_true")

    remove = action(
        "remove", "cmd_remove", "forget a source (its files stay where they are)"
    )  # fmt: skip
    remove.add_argument("id", metavar="ID", type=int, help="its id in `knowledge list`")

    reindex = action(
        "reindex", "cmd_reindex",
        "read again what changed in a source (or in all): new and changed files are read, "
        "removed ones forgotten",
    )  # fmt: skip
    reindex.add_argument("id", metavar="ID", type=int, nargs="?", help="a source; none: all")
    reindex.add_argument("--full", action="store_true", help="read every file again")

    search = action(
        "search", "cmd_search",
        'find passages: words, "exact phrases", OR, -word; best first (BM25, fused with the '
        "nearest by meaning when settings.toml has an embedding_model)",
    )  # fmt: skip
    search.add_argument("query", nargs="+")
    search.add_argument("-n", "--limit", type=int, default=10, help="passages (default 10)")
    search.add_argument(
        "--project", metavar="NAME|ID", help="only the sources of this project"
    )  # fmt: skip
    search.add_argument(
        "--json", action="store_true",
        help="[{source, path, page, first_line, last_line, heading, score, lexical, vector, "
        "snippet, marks, text}]; score: higher is better (the fused score with an embedding "
        "model, else BM25); lexical: BM25 (higher is better), vector: cosine similarity "
        "(null where that ranking did not find it)",
    )  # fmt: skip
    knowledge_watch.register(sub)
