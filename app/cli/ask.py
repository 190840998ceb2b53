"""``crosstalk ask``: one turn from the command line, and the settings a turn takes from its
options (shared with ``edit``, ``regenerate``, ``continue`` and ``compare``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.cli.parser import fail

MARGIN = 256  # ``app.inspect.fit.MARGIN``, copied: importing it would import the whole preview

if TYPE_CHECKING:
    from app.composition import Services
    from app.context.service import Named
    from app.history import Attachment, ModelOutput
    from app.store import Conversation
    from app.store.projects import Project


def cmd_ask(services: Services, args: argparse.Namespace) -> int:
    from app.cli import attachments as cli_attachments
    from app.cli import branches as cli_branches
    from app.cli import turn as cli_turn
    from app.cli.approval import AllowList
    from app.cli.turn import last_model, parse_tools, show, show_context, tuning_of
    from app.providers.adapter import CloudAdapter
    from app.turn.points import enabled_tools

    library = services.library
    regenerate = args.regenerate or args.retry
    project = in_project(services, args)  # refused with -c, before anything else is checked
    knowledge = getattr(args, "knowledge", None)
    if refused := _refused_together(args, regenerate, knowledge):
        return fail(refused)
    if args.go_on:
        return cli_branches.go_on(services, args)
    if regenerate and args.compare:
        return fail("--regenerate and --compare do not go together: pick one")
    attachments = cli_attachments.attach(services, args.attach)  # checked first: refused early
    if args.resource:
        from app.cli import mcp as cli_mcp

        attachments += cli_mcp.resource_attachments(services, args.resource)
    if regenerate:
        text = ""
    else:
        text = cli_attachments.message_text(args.text, bool(attachments))
        if not text.strip() and not attachments:
            return fail("nothing to ask: give the question as an argument or on stdin")
    tools = parse_tools(services, args.tools)
    if tools is None and project is not None and project.tools is not None:
        tools = parse_tools(services, ",".join(project.tools) or "none")
    default_tools = services.settings.default_tools
    AllowList.parse(args.allow_tools)  # a mistake in it is refused before anything is written
    conversation = library.open(args.conversation) if args.conversation else None
    if args.compare:
        if args.model:
            return fail("--compare names the models itself: leave out -m")
        if project is not None:
            for compared in args.compare.split(","):  # refused before the conversation is made
                if compared.strip():
                    services.models.resolve(compared.strip())
            conversation = started_in(services, project)
        return cli_branches.compare(services, args, conversation, text, tools)
    spec = (
        args.model
        or (project.model if project is not None else None)
        or last_model(conversation, services.models)
        or services.settings.default_model
    )
    provider, model = services.models.resolve(spec)  # an unknown model or a missing key fails
    if tools is not None:  # before any write
        enabled = tools
    elif conversation is not None:
        enabled = enabled_tools(conversation.history, () if regenerate else default_tools)
    else:
        enabled = list(default_tools)
    system = args.system  # counted with the project's instructions
    if project is not None and project.instructions:
        system = "\n\n".join(part for part in (project.instructions, args.system) if part)
    if not regenerate and not fits_by_bounds(
        services, conversation, provider, model, text, system, attachments, enabled
    ):
        text, problem = fitted(services, conversation, spec, text, args.trim, attachments)
        if problem:
            return fail(problem)
    cli_attachments.check_sendable(services, spec, text, attachments)
    if isinstance(provider, CloudAdapter):
        # the SDK imported and its client made now, so the request goes as soon as the input
        # is saved (and an interrupt before then leaves nothing written)
        provider.prepare()
    if project is not None:
        conversation = started_in(services, project)
    conversation = conversation or library.create()
    # the project's temperature, max tokens and thinking: the runner's defaults for a
    # conversation in a project (app/turn/defaults.py), under the command line's own
    runner = cli_turn.turn_runner(services, args, enabled)

    async def turn() -> ModelOutput:
        if regenerate:
            return await runner.regenerate(
                conversation, spec, on_event=show, on_context=show_context
            )
        return await runner.run(
            conversation, spec, text, system=args.system, tools=tools, on_event=show,
            on_context=show_context, tuning=tuning_of(args), attachments=attachments,
            knowledge=knowledge, on_knowledge=cli_branches.show_knowledge,
        )  # fmt: skip

    return cli_turn.reply(services, conversation, turn)


def _refused_together(
    args: argparse.Namespace, regenerate: bool, knowledge: bool | None
) -> str | None:
    """Why these options cannot be given together, or None."""
    if regenerate and not args.conversation:
        return "--regenerate needs -c ID: the conversation whose last reply to answer again"
    if (args.attach or args.resource) and (regenerate or args.go_on or args.compare):
        option = "-a" if args.attach else "--resource"
        return (
            f"{option} goes with a new message: --regenerate and --continue send what is there, "
            "and --compare does not take attachments yet (ask each model with -m instead)"
        )
    if knowledge is not None and (regenerate or args.go_on):
        option = "--knowledge" if knowledge else "--no-knowledge"
        return (
            f"{option} goes with a new question: --regenerate and --continue send the passages "
            "the question was sent with"
        )
    return None


def in_project(services: Services, args: argparse.Namespace) -> Project | None:
    """The project ``--project`` names (None without it); refused with a conversation to
    continue: a conversation is moved with ``crosstalk move``, and ``--project`` starts one."""
    if args.project is None:
        return None
    if args.conversation or args.go_on or args.regenerate or args.retry:
        from app.errors import UsageError

        raise UsageError(
            "--project starts a new conversation: leave out -c/--continue/--regenerate, or move "
            "the conversation with `crosstalk move ID --project NAME` and ask with -c ID"
        )
    from app.store.projects import Projects

    return Projects(services.library).find(args.project)


def started_in(services: Services, project: Project) -> Conversation:
    """A new conversation, in ``project`` before its first request: the context of that
    request starts with the project's instructions (``Contexts.preamble``)."""
    from app.store.projects import Projects

    conversation = services.library.create()
    Projects(services.library).move([conversation.id], project.id)
    return conversation


def fits_by_bounds(
    services: Services,
    conversation: Conversation | None,
    provider: Named,
    model: str,
    text: str,
    system: str | None,
    attachments: Sequence[Attachment],
    enabled: Sequence[str],
) -> bool:
    """Whether the request surely fits the model's window, known without rendering it: every
    entry of the conversation, every branch and summary, with the message, the system
    instruction and the built-in tools' definitions, bounded by their UTF-8 bytes
    (``bound_text``) and framing, is within the window with ``MARGIN`` to spare. A request
    carries no more than that. With files or an MCP server's tools, ``fitted`` estimates."""
    from app.context.service import tool_tokens
    from app.context.tokens import MESSAGE_OVERHEAD, bound_text, count_entry
    from app.history import ModelInput, ToolResults
    from app.tool_names import BUILTIN_NAMES
    from app.tools import ToolBox

    entries = list(conversation.history) if conversation is not None else []
    if (
        attachments
        or not set(enabled) <= set(BUILTIN_NAMES)
        or any(
            (isinstance(e, ModelInput) and e.attachments)
            or (isinstance(e, ToolResults) and any(r.attachments for r in e.results))
            for e in entries
        )
    ):
        return False
    total = bound_text(text) + bound_text(system or "") + 2 * MESSAGE_OVERHEAD
    total += sum(count_entry(entry, text_count=bound_text) for entry in entries)
    if enabled:
        total += tool_tokens([t.spec for t in ToolBox.builtin().resolve(enabled)], bound=True)
    return total + MARGIN <= services.contexts.window(provider, model)


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


# --- reading -------------------------------------------------------------------------------
