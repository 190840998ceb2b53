"""The commands over conversations: ``list``, ``show``, ``search``, ``rename``, ``pin``,
``delete``, ``restore``, ``trash`` and ``fork``."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import ids
from app.terminal_text import columns, cut, left

if TYPE_CHECKING:
    from app.cli.main import Reading
    from app.composition import Services
    from app.history import AnyEntry, History
    from app.store import Conversation, Library, MessageHit
from app.cli.output import emit_json


def cmd_list(services: Services | Reading, args: argparse.Namespace) -> int:
    """The conversations, newest first (pinned first); with ``--project`` (a project's name or
    id, or ``none``) and ``--tag``, only those. A row names its project (unless the list is of
    one project) and its tags."""
    library = services.library
    project, where = None, ""
    if args.project is not None:
        from app.store.projects import NO_PROJECT, Projects

        if args.project.strip().casefold() == "none":
            project, where = NO_PROJECT, " outside any project"
        else:
            named = Projects(library).find(args.project)
            project, where = named.id, f" in project {named.name}"
    if args.tag is not None:
        where += f" tagged {args.tag}"
    rows = library.newest(args.limit, args.offset, project=project, tag=args.tag)
    if args.json:
        emit_json(json_rows(library, rows))
        return 0
    print_rows(rows, None if project is not None else project_names(library, rows))
    if not rows and where:
        print(f"no conversations{where}", file=sys.stderr)
    elif not rows:
        print('no conversations yet: `crosstalk ask "..."` starts one', file=sys.stderr)
    return 0


def print_rows(rows: list[dict[str, Any]], names: dict[str, str] | None) -> None:
    """Rows of the list, one a line: id, time, model, tokens, pin, then the project's name
    in brackets (``names``: by id; None, or a row outside any project, shows none) and the
    title, cut to the terminal, and the tags."""
    from app.store.index_rows import row_tags

    models = [f"{row['provider']}:{row['model']}" if row["provider"] else "-" for row in rows]
    model_width = min(max((columns(m) for m in models), default=1), 32)
    for row, model in zip(rows, models, strict=True):
        tokens = row["input_tokens"] + row["output_tokens"]
        start = (
            f"{row['id']}  {row['updated_at'][:16].replace('T', ' ')}  {left(model, model_width)} "
            f"{tokens:>8} tok  {'📌 ' if row['pinned'] else ''}"
        )
        if names is not None and row.get("project"):
            start += f"[{names.get(row['project'], row['project'])}] "
        tags = row_tags(row)
        after = f"  {', '.join('#' + tag for tag in tags)}" if tags else ""
        print(start + fitted_title(row["title"] or "Untitled", columns(start + after)) + after)


def project_names(library: Library, rows: list[dict[str, Any]]) -> dict[str, str]:
    """The names of the projects the rows are in, by id (asked of the index only if a row is
    in one)."""
    if not any(row.get("project") for row in rows):
        return {}
    return {row["id"]: row["name"] for row in library.index.projects()}


def json_rows(library: Library, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows as ``--json`` prints them: ``tags`` a list, and ``project_name`` beside the
    project's id."""
    from app.store.index_rows import row_tags

    names = project_names(library, rows)
    return [
        {**row, "tags": row_tags(row), "project_name": names.get(row.get("project") or "")}
        for row in rows
    ]


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
        from app.cli import usage as cli_usage
        from app.cli.main import Reading

        assert not isinstance(services, Reading)  # main builds them all for --entries
        return cli_usage.show_entries(services, conversation, args.json)
    from app.cli import attachments as cli_attachments
    from app.cli import branches as cli_branches

    entries = list(history) if args.all else history.active_entries()
    project, tags = project_and_tags(services.library, history)
    if args.json:
        emit_json({"header": conversation.header, "entries": entries, "project": project,
                   "tags": tags})  # fmt: skip
        return 0
    print(f"{conversation.id}  {history.title or 'Untitled'}")
    if project is not None:
        print(
            f"in project {project['name'] or project['id']}"
            + (f" ({project['id']})" if project["name"] else " (not in this library)")
        )
    if tags:
        print(f"tags: {', '.join(tags)}")
    if conversation.header.forked_from:
        fork = conversation.header.forked_from
        print(f"forked from {fork.id} at seq {fork.seq}")
    branches = len(history.leaves())
    if branches > 1 and not args.all:
        print(f"the active branch of {branches}: `crosstalk branches {conversation.id}` lists them")
    after = f"{'after':>5}  " if args.all else ""
    print(f"{'seq':>4}  {after}{'time':<19}  {'kind':<18} {'model':<20} {'in':>6} {'out':>6}  text")
    blobs = services.library.blobs
    from app.history.entries import entry_id
    from app.knowledge.retrieval import sources_lines, sources_of

    cited = sources_of(entries)  # a reply answered from the user's documents: its sources
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
        for line in sources_lines(cited.get(entry_id(entry), [])):
            print(f"{'':>{6 + len(after)}}{line}")
    return 0


def project_and_tags(
    library: Library, history: History
) -> tuple[dict[str, str | None] | None, list[str]]:
    """The project a conversation is in ({id, name}; name None for one not here: deleted,
    or not synced yet), and its tags."""
    from app.store import project_state

    project_id = project_state.project_of(history)
    tags = project_state.tags_of(history)
    if project_id is None:
        return None, tags
    from app.store.projects import Projects

    project = Projects(library).of(history)
    return {"id": project_id, "name": project.name if project else None}, tags


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
    row = services.library.index.row(conversation_id)
    if row is not None and row["kind"] == "project":  # with its conversations, as the window
        from app.store.projects import Projects

        members = Projects(services.library).delete(conversation_id)
        print(f"moved project {row['title']} and its {len(members)} conversation(s) to the "
              f"trash; `crosstalk restore {conversation_id}` brings them back")  # fmt: skip
        return 0
    services.library.delete(conversation_id)
    print(f"moved {conversation_id} to the trash; `crosstalk restore {conversation_id}` undoes it")
    return 0


def cmd_restore(services: Services, args: argparse.Namespace) -> int:
    library = services.library
    if library.in_trash(args.id) and is_project_file(library.trashed_file(args.id)):
        from app.store.projects import Projects

        brought = Projects(library).restore(args.id)
        project = library.open(args.id)
        print(f"restored project {project.history.title} ({project.id}) and "
              f"{len(brought)} conversation(s)")  # fmt: skip
        return 0
    conversation = library.restore(args.id)
    print(f"restored {conversation.id}  {conversation.history.title or 'Untitled'}")
    return 0


def is_project_file(path: Path) -> bool:
    """Whether the transcript at ``path`` (in the trash, say) is a project's."""
    from app.store.transcript import PROJECT, read_header

    with path.open("rb") as file:
        return read_header(path, file.readline()).kind == PROJECT


def cmd_trash(services: Services, args: argparse.Namespace) -> int:
    if args.empty:
        from app.cli import attachments as cli_attachments

        return cli_attachments.empty_trash(services)
    for conversation_id in services.library.trashed():
        print(conversation_id)
    return 0


def cmd_fork(services: Services, args: argparse.Namespace) -> int:
    fork: Conversation = services.library.fork(args.id, args.at)
    print(f"{fork.id}  {fork.history.title}")
    return 0
