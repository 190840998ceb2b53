"""The options of ``crosstalk project ...``, ``move`` and ``tag`` (their handlers are in
``app.cli.projects``): declared for ``app.cli.parser``, importing nothing of the command line
or the store, so that building the parser stays light and its modules free of cycles."""

from __future__ import annotations

import argparse
from collections.abc import Callable

Command = Callable[[str, str, str], argparse.ArgumentParser]
EFFORTS = ("off", "low", "medium", "high")  # app.tuning.EFFORTS, not imported to parse
# what ``project edit --unset`` takes: the option's name, and the project's field it unsets
UNSET = {
    "instructions": "instructions",
    "model": "model",
    "tools": "tools",
    "temperature": "temperature",
    "max-tokens": "max_tokens",
    "think": "reasoning",
}


def register(command: Command) -> None:
    project = command(
        "project", "app.cli.projects:cmd_list",
        "projects: groups of conversations with their own instructions, model and tools "
        "(new, list, show, rename, edit, archive, delete, restore)",
    )  # fmt: skip
    sub = project.add_subparsers(title="project commands", metavar="ACTION")

    def action(name: str, handler: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(handler=f"app.cli.projects:{handler}")
        return p

    new = action("new", "cmd_new", "make a project")
    new.add_argument("name", nargs="+", help="its name (unique, case aside)")
    _settings_options(new)

    ls = action("list", "cmd_list", "the projects: id, conversations, name")
    ls.add_argument("--archived", action="store_true", help="archived projects too")
    ls.add_argument("--json", action="store_true")

    show = action(
        "show", "cmd_show", "a project's settings, instructions and conversations (newest first)"
    )
    show.add_argument("project", metavar="NAME|ID", help="its id, name, or the start of its name")
    show.add_argument("-n", "--limit", type=int, default=50, help="conversations to list")
    show.add_argument("--json", action="store_true")

    rename = action("rename", "cmd_rename", "give a project another name")
    rename.add_argument("project", metavar="NAME|ID")
    rename.add_argument("name", nargs="+", metavar="NEW")

    edit = action("edit", "cmd_edit", "change a project's settings (--unset FIELD: back to none)")
    edit.add_argument("project", metavar="NAME|ID")
    _settings_options(edit)
    edit.add_argument(
        "--unset", action="append", default=[], choices=list(UNSET), metavar="FIELD",
        help=f"unset a setting: {', '.join(UNSET)} (repeatable); its conversations use the "
        "settings' again",
    )  # fmt: skip

    archive = action("archive", "cmd_archive", "hide a project from `project list`")
    archive.add_argument("project", metavar="NAME|ID")
    archive.add_argument("--undo", action="store_true", help="unarchive it")
    unarchive = action("unarchive", "cmd_archive", "list an archived project again")
    unarchive.add_argument("project", metavar="NAME|ID")
    unarchive.set_defaults(undo=True)

    delete = action("delete", "cmd_delete", "move a project and its conversations to the trash")
    delete.add_argument("project", metavar="NAME|ID")
    restore = action(
        "restore", "cmd_restore", "bring a project back from the trash, with its conversations"
    )
    restore.add_argument("id", metavar="ID", help="the id `project delete` printed")

    move = command("move", "app.cli.projects:cmd_move", "put conversations in a project, or none")
    move.add_argument("ids", nargs="+", metavar="ID")
    where = move.add_mutually_exclusive_group(required=True)
    where.add_argument("--project", metavar="NAME|ID", help="the project to put them in")
    where.add_argument("--no-project", action="store_true", help="take them out of theirs")

    tag = command(
        "tag", "app.cli.projects:cmd_tag",
        "add and remove a conversation's tags: tag ID +urgent -done draft (a bare word adds)",
    )  # fmt: skip
    tag.add_argument("id")
    tag.add_argument(
        "changes", nargs=argparse.REMAINDER, metavar="[+|-]TAG",
        help="+TAG or TAG adds, -TAG removes; none: print its tags",
    )  # fmt: skip


def _settings_options(parser: argparse.ArgumentParser) -> None:
    text = parser.add_mutually_exclusive_group()
    text.add_argument(
        "--instructions", metavar="TEXT",
        help="the system instruction every request of its conversations starts with",
    )  # fmt: skip
    text.add_argument(
        "--instructions-file", metavar="FILE", help="the instructions from a file (- : stdin)"
    )
    parser.add_argument(
        "--model", metavar="PROVIDER:MODEL", help="the model its new conversations use"
    )
    parser.add_argument(
        "--tools", metavar="NAMES",
        help="the tools its new conversations enable, comma-separated, 'all' or 'none' (as "
        "`ask --tools`)",
    )  # fmt: skip
    parser.add_argument("--temperature", type=float, metavar="T", help="0 to 2")
    parser.add_argument("--max-tokens", type=int, metavar="N", help="the longest reply")
    parser.add_argument("--think", choices=EFFORTS, help="reasoning/thinking effort")
