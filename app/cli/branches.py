"""``crosstalk edit|branches|switch`` and ``ask --compare``: the command line side of a
conversation's tree (``app.store.branches``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import msgspec

from app.cli import attachments as cli_attachments
from app.history import AnyEntry, History, ModelInput, ModelOutput
from app.store import branches

if TYPE_CHECKING:
    from app.composition import Services
    from app.knowledge.retrieval import Retrieval
    from app.providers import StreamEvent
    from app.store import Conversation

# cli_turn (and the providers, the pricing) are imported by the commands that make a turn:
# `crosstalk show` uses `marked` and must start without them (tests/test_cli_lazy.py)


def cmd_edit(services: Services, args: argparse.Namespace) -> int:
    from app.cli import turn as cli_turn
    from app.cli.turn import last_model, parse_tools, tuning_of, turn_runner
    from app.turn import edit_point

    library = services.library
    conversation = library.open(args.id)
    edit_point(conversation.history, args.seq)  # not an input: said before anything is read
    original = conversation.history.at(args.seq)
    kept = (
        []
        if args.drop_attachments or not isinstance(original, ModelInput)
        else original.attachments
    )
    attachments = [*kept, *cli_attachments.attach(services, args.attach)]
    text = cli_attachments.message_text(args.text, bool(attachments))
    if not text.strip() and not attachments:
        return cli_turn.fail("nothing to send: give the new text as an argument or on stdin")
    tools = parse_tools(services, args.tools)
    spec = (
        args.model or last_model(conversation, services.models) or services.settings.default_model
    )
    services.models.resolve(spec)
    cli_attachments.check_sendable(services, spec, text, attachments)
    runner = turn_runner(services, args)

    async def turn() -> ModelOutput:
        return await runner.run(
            conversation, spec, text, system=args.system, tools=tools, on_event=cli_turn.show,
            on_context=cli_turn.show_context, edit=args.seq, tuning=tuning_of(args),
            attachments=attachments,
        )  # fmt: skip

    return cli_turn.reply(services, conversation, turn)


def go_on(services: Services, args: argparse.Namespace) -> int:
    """``ask -c ID --continue``: the last reply, cut at its length limit, continued."""
    from app.cli import turn as cli_turn
    from app.cli.turn import last_model, turn_runner
    from app.turn import can_continue

    if not args.conversation:
        return cli_turn.fail("--continue needs -c ID: the conversation whose reply to go on with")
    library = services.library
    conversation = library.open(args.conversation)
    last = conversation.history.last_output
    if not can_continue(conversation.history, last):
        return cli_turn.fail(
            f"the last reply of {conversation.id} was not cut off at its length limit (or "
            "already goes on): there is nothing to continue"
        )
    spec = (
        args.model or last_model(conversation, services.models) or services.settings.default_model
    )
    services.models.resolve(spec)
    runner = turn_runner(services, args)

    async def turn() -> ModelOutput:
        return await runner.continue_reply(conversation, spec, on_event=cli_turn.show)

    return cli_turn.reply(services, conversation, turn)


def compare(
    services: Services,
    args: argparse.Namespace,
    conversation: Conversation | None,
    text: str,
    tools: list[str] | None,
) -> int:
    """``ask --compare A,B``: each reply printed whole as it finishes, with its usage and cost."""
    from app.cli import collector
    from app.cli import turn as cli_turn
    from app.cli.turn import tuning_of, turn_runner
    from app.pricing import format_cost
    from app.providers import TextDelta

    specs = [spec.strip() for spec in args.compare.split(",") if spec.strip()]
    if len(set(specs)) < 2:
        return cli_turn.fail("--compare needs at least two different models, comma-separated")
    for spec in specs:
        services.models.resolve(spec)  # an unknown model or a missing key fails before writing
    library = services.library
    conversation = conversation or library.create()
    runner = turn_runner(services, args)
    texts: dict[str, list[str]] = {spec: [] for spec in specs}

    def collect(spec: str, event: StreamEvent) -> None:
        collector.resume()  # a reply has started: start-up is over (app/cli/collector.py)
        if isinstance(event, TextDelta):
            texts[spec].append(event.text)

    async def turn() -> list[ModelOutput | BaseException]:
        return await runner.compare(
            conversation, specs, text, system=args.system, tools=tools, on_event=collect,
            on_context=cli_turn.show_context, tuning=tuning_of(args),
            knowledge=getattr(args, "knowledge", None), on_knowledge=show_knowledge,
        )  # fmt: skip

    again = f"crosstalk ask -c {conversation.id} --regenerate -m MODEL"
    status, results = cli_turn.run(services, conversation, turn, again)
    if results is None:
        return status
    prices = services.prices
    failed = 0
    for spec, result in zip(specs, results, strict=True):
        if isinstance(result, BaseException):
            failed += 1
            print(f"── {spec}: failed: {result}", file=sys.stderr)
            continue
        usage = result.usage
        price = format_cost(prices.cost(result.provider, result.model, usage))
        print(
            f"── {spec} · seq {result.seq} · {usage.input} in / {usage.output} out · {price} · "
            f"{result.meta.get('latency_ms', 0) / 1000:.1f} s"
        )
        print(result.text or "".join(texts[spec]))
        print()
    active = conversation.history.active_leaf
    print(
        f"[{conversation.id}: {len(specs) - failed} of {len(specs)} replies kept as branches; "
        f"seq {active} is active; `crosstalk switch {conversation.id} SEQ` picks another]",
        file=sys.stderr,
    )
    return cli_turn.EXIT_ERROR if failed == len(specs) else 0


def show_knowledge(record: Retrieval) -> None:
    """What the knowledge step searched and found, on stderr: "searching your documents:
    'the query' → 6 passages", and why the question was searched as written when a rewrite
    was tried and failed (or there was nothing to search). ``ask`` says the same: defined here,
    as ``app.cli.ask`` imports this module and not the other way round."""
    sent = len(record.sent)
    count = f"{sent} passage{'' if sent == 1 else 's'}"
    print(f"searching your documents: '{record.query}' → {count}", file=sys.stderr)
    if not record.rewritten and record.why_not and (record.rewrite_model or not record.sources):
        print(f"  (searched as written: {record.why_not})", file=sys.stderr)


def cmd_branches(services: Services, args: argparse.Namespace) -> int:
    conversation = services.library.open(args.id)
    found = branches.leaves(conversation.history)
    if args.json:
        sys.stdout.write(msgspec.json.encode([leaf.as_json() for leaf in found]).decode() + "\n")
        return 0
    if not found:
        print("no messages yet", file=sys.stderr)
    for leaf in found:
        mark = "*" if leaf.active else " "
        where = "" if leaf.active else f"  (leaves the active branch after seq {leaf.fork})"
        text = leaf.text if len(leaf.text) <= 60 else leaf.text[:59] + "…"
        print(f"{mark} {leaf.seq:>5}  {leaf.model or '-':<28} {text}{where}")
    return 0


def cmd_switch(services: Services, args: argparse.Namespace) -> int:
    library = services.library
    conversation = library.open(args.id)
    changed = branches.select(library, conversation, args.seq)
    history = conversation.history
    leaf = history.active_leaf
    said = "now active" if changed else "already active"
    print(f"{conversation.id}: the branch ending at seq {leaf} is {said}")
    return 0


def marked(history: History, entry: AnyEntry) -> str:
    """Marks before a message's text in `crosstalk show`: [2/3] [edited] [removed] ..."""
    if not history.is_message(entry.seq):
        return ""
    found = branches.marks(history, entry.seq)
    parts: list[str] = []
    if found.siblings > 1:
        parts.append(f"{found.position}/{found.siblings}")
    if found.edited:
        parts.append("edited")
    if found.regenerated:
        parts.append("regenerated")
    if found.excluded:
        parts.append("removed from context")
    return "".join(f"[{part}] " for part in parts)
