"""``crosstalk project ...``, ``move`` and ``tag``: the command line side of
``app.store.projects`` (docs/projects.md). Their options are declared in
``app.cli.project_options``; the store, the tools and the models are imported by the handler
that runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.cli.project_options import UNSET
from app.errors import UsageError

if TYPE_CHECKING:
    from app.cli.main import Reading
    from app.composition import Services
    from app.store import Library
    from app.store.projects import Project, Projects

# --- the projects ---------------------------------------------------------------------------


def projects_of(library: Library) -> Projects:
    from app.store.projects import Projects

    return Projects(library)


def cmd_new(services: Services, args: argparse.Namespace) -> int:
    settings = settings_given(services, args)
    project = projects_of(services.library).create(" ".join(args.name), **settings)
    print(f"created project {project.name} ({project.id})")
    for line in settings_lines(project):
        print(line)
    print(f'`crosstalk ask --project {quoted(project.name)} "..."` starts a conversation in it')
    return 0


def cmd_list(services: Services | Reading, args: argparse.Namespace) -> int:
    rows = projects_of(services.library).rows()
    if not getattr(args, "archived", False):
        rows = [row for row in rows if not row["archived"]]
    if getattr(args, "json", False):
        from app.cli.output import emit_json

        emit_json([{**row, "archived": bool(row["archived"])} for row in rows])
        return 0
    for row in rows:
        count = f"{row['count']} conversation{'' if row['count'] == 1 else 's'}"
        archived = "  (archived)" if row["archived"] else ""
        print(f"{row['id']}  {count:>17}  {row['name']}{archived}")
    if not rows:
        print(
            "no projects: `crosstalk project new NAME` makes one"
            + ("" if getattr(args, "archived", False) else " (--archived lists archived ones)"),
            file=sys.stderr,
        )
    return 0


def cmd_show(services: Services | Reading, args: argparse.Namespace) -> int:
    from app.cli import conversations as cli_conversations

    library = services.library
    project = projects_of(library).find(args.project)
    count = library.index.count(project=project.id)
    rows = library.newest(max(args.limit, 0), 0, project=project.id)
    if args.json:
        import msgspec

        from app.cli.output import emit_json

        listed = cli_conversations.json_rows(library, rows)
        emit_json({"project": msgspec.structs.asdict(project), "count": count,
                   "conversations": listed})  # fmt: skip
        return 0
    print(f"{project.id}  {project.name}{'  (archived)' if project.archived else ''}")
    for line in settings_lines(project):
        print(line)
    print(f"{'conversations':<14}{count}")
    if project.instructions:
        print("instructions:")
        for line in project.instructions.splitlines() or [""]:
            print(f"  {line}")
    if rows:
        print()
        cli_conversations.print_rows(rows, None)  # all of this project
    if count > len(rows):
        print(f"... and {count - len(rows)} more: `crosstalk list --project {project.id} "
              f"--offset {len(rows)}`")  # fmt: skip
    return 0


def cmd_rename(services: Services, args: argparse.Namespace) -> int:
    projects = projects_of(services.library)
    project = projects.rename(projects.find(args.project).id, " ".join(args.name))
    print(f"{project.id}  {project.name}")
    return 0


def cmd_edit(services: Services, args: argparse.Namespace) -> int:
    projects = projects_of(services.library)
    project = projects.find(args.project)
    changes: dict[str, Any] = settings_given(services, args)
    for option in args.unset:
        field = UNSET[option]
        if field in changes:
            raise UsageError(f"--{option} and --unset {option} do not go together: pick one")
        changes[field] = "" if field == "instructions" else None
    if not changes:
        raise UsageError(
            "nothing to change: give --instructions, --model, --tools, --temperature, "
            "--max-tokens, --think or --unset FIELD"
        )
    project = projects.edit(project.id, **changes)
    print(f"{project.id}  {project.name}")
    for line in settings_lines(project):
        print(line)
    return 0


def cmd_archive(services: Services, args: argparse.Namespace) -> int:
    projects = projects_of(services.library)
    archived = not args.undo
    project = projects.archive(projects.find(args.project).id, archived)
    if archived:
        print(f"archived {project.name} ({project.id}); `crosstalk project unarchive "
              f"{project.id}` lists it again")  # fmt: skip
    else:
        print(f"unarchived {project.name} ({project.id})")
    return 0


def cmd_delete(services: Services, args: argparse.Namespace) -> int:
    projects = projects_of(services.library)
    project = projects.find(args.project)
    members = projects.delete(project.id)
    count = f"{len(members)} conversation{'' if len(members) == 1 else 's'}"
    print(f"moved project {project.name} ({project.id}) and its {count} to the trash; "
          f"`crosstalk project restore {project.id}` brings them back")  # fmt: skip
    return 0


def cmd_restore(services: Services, args: argparse.Namespace) -> int:
    from app import ids
    from app.errors import InvalidId

    try:
        project_id = ids.validate(args.id)
    except InvalidId:
        raise UsageError(
            f"{args.id!r} is not a project's id: give the id `crosstalk project delete` printed "
            "(`crosstalk trash` lists what the trash holds)"
        ) from None
    from app.cli.conversations import is_project_file

    library = services.library
    if library.in_trash(project_id) and not is_project_file(library.trashed_file(project_id)):
        raise UsageError(
            f"{args.id} is a conversation, not a project: `crosstalk restore {args.id}` "
            "brings it back"
        )
    projects = projects_of(library)
    brought = projects.restore(project_id)
    project = projects.get(project_id)
    count = f"{len(brought)} conversation{'' if len(brought) == 1 else 's'}"
    print(f"restored project {project.name} ({project.id}) and {count}")
    return 0


def settings_given(services: Services, args: argparse.Namespace) -> dict[str, Any]:
    """The project settings the options give, checked: an unknown model or tool, or a value
    out of range, is refused before anything is written."""
    from app.tuning import check

    given: dict[str, Any] = {}
    if args.instructions is not None:
        given["instructions"] = args.instructions
    elif args.instructions_file is not None:
        given["instructions"] = read_instructions(args.instructions_file)
    if args.model is not None:
        given["model"] = known_model(services, args.model)
    if args.tools is not None:
        from app.cli.turn import parse_tools

        given["tools"] = parse_tools(services, args.tools)
    for option, field in (("temperature", "temperature"), ("max_tokens", "max_tokens"),
                          ("think", "reasoning")):  # fmt: skip
        value = getattr(args, option)
        if value is not None:
            check(field, value)
            given[field] = value
    return given


def read_instructions(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise UsageError(f"--instructions-file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--instructions-file {path}: not UTF-8 text") from None


def known_model(services: Services, spec: str) -> str:
    """``spec`` if it names a model of a provider in the settings (as ``Models.resolve``
    decides, without building the provider: no key is needed to name a project's model)."""
    from app.errors import UnknownModel

    name, _, model = spec.strip().partition(":")
    entry = next((e for e in services.models.entries() if e.name == name), None)
    if entry is None or not model or (not entry.any_model and model not in entry.models):
        choices = ", ".join(services.models.available()) or "none"
        raise UnknownModel(cause="no_such_model", model=spec, choices=choices)
    return f"{name}:{model}"


def settings_lines(project: Project) -> list[str]:
    """A project's settings, one a line; an unset one says what applies instead."""
    default = "(the settings')"
    tools = project.tools
    values = (
        ("model", project.model or default),
        ("tools", default if tools is None else ", ".join(tools) or "none"),
        ("temperature", default if project.temperature is None else str(project.temperature)),
        ("max tokens", default if project.max_tokens is None else str(project.max_tokens)),
        ("thinking", project.reasoning or default),
    )
    return [f"{name:<14}{value}" for name, value in values]


def quoted(name: str) -> str:
    import shlex

    return shlex.quote(name)


# --- conversations --------------------------------------------------------------------------


def cmd_move(services: Services, args: argparse.Namespace) -> int:
    library = services.library
    projects = projects_of(library)
    project = None if args.no_project else projects.find(args.project)
    conversation_ids = [library.open(given).id for given in args.ids]  # each known, first
    moved = projects.move(conversation_ids, project.id if project else None)
    where = f"project {project.name} ({project.id})" if project else "no project"
    count = f"{len(moved)} conversation{'' if len(moved) == 1 else 's'}"
    stayed = len(set(conversation_ids)) - len(moved)
    print(f"moved {count} to {where}" + (f"; {stayed} already there" if stayed else ""))
    return 0


def cmd_tag(services: Services, args: argparse.Namespace) -> int:
    add, remove = tag_changes(args.changes)
    conversation_id = services.library.open(args.id).id
    tags = projects_of(services.library).tag(conversation_id, add, remove)
    print(f"{conversation_id}  {'tags: ' + ', '.join(tags) if tags else 'no tags'}")
    return 0


def tag_changes(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """``+a -b c`` as the tags to add (a, c) and to remove (b); a word may hold several,
    comma-separated (``+a,b``)."""
    add: list[str] = []
    remove: list[str] = []
    for word in words:
        sign, rest = (word[0], word[1:]) if word[:1] in "+-" and word[:1] else ("+", word)
        tags = [tag for tag in rest.split(",") if tag.strip()]
        if not tags:
            raise UsageError(f"{word!r} names no tag: write +TAG to add, -TAG to remove")
        (add if sign == "+" else remove).extend(tags)
    return add, remove
