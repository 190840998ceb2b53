"""``crosstalk context`` and ``crosstalk compress``: what the next request carries, and making
it smaller without deleting anything.

    crosstalk context ID [-m MODEL] [--json]            the entries, their tokens, what is left out
    crosstalk context ID -m MODEL --wire [--draft TEXT] the exact request body the adapter sends
    crosstalk context ID --set auto_compress=on         the conversation's own context policy
    crosstalk compress ID --strategy chunked:10 [-m MODEL] [--preview]
    crosstalk compress ID --undo SEQ
    crosstalk recall ID QUESTION                        search, the question made standalone first
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass
from typing import Any

import msgspec

from app.composition import Services
from app.context import (
    Compressed,
    Compressing,
    CompressionFailed,
    ContextEvent,
    Outcome,
    compress,
    parse_assignment,
    parse_strategy,
    undo,
)
from app.context.recall import rewrite_query
from app.context.tokens import exact_count
from app.errors import AuthFailed, CrosstalkError
from app.history import Compression, History, ModelOutput
from app.inspect.next_request import Carried, NextRequest, next_request, pending_request, wire_json
from app.notes import english
from app.store import Conversation


@dataclass(frozen=True)
class _Named:
    """A provider by name only: showing a context needs no key."""

    name: str


def _fail(message: str) -> int:
    print(f"crosstalk: {message}", file=sys.stderr)
    return 1


def _target_model(services: Services, conversation: Conversation, spec: str | None) -> str:
    """-m, else the model of the last reply, else the default model."""
    output = conversation.history.last_output
    last = f"{output.provider}:{output.model}" if output else None
    return spec or last or services.settings.default_model


# --- context --------------------------------------------------------------------------------


def cmd_context(services: Services, args: argparse.Namespace) -> int:
    conversation = services.library.open(args.id)
    contexts = services.contexts
    if args.reset or args.set:
        changes = dict(parse_assignment(item) for item in args.set)
        contexts.set_policy(conversation.id, {} if args.reset else changes)
    spec = _target_model(services, conversation, args.model)
    services.renderer(spec)  # an unknown model fails here, listing the models there are
    # what the next turn sends, rendered as the turn renders it: no SDK call, no key needed
    upcoming = next_request(services, conversation, spec, draft=args.draft)
    if args.wire:
        for note in (*upcoming.attachments, *upcoming.notes):
            print(f"note: {english(note)}", file=sys.stderr)
        if upcoming.body is None:
            return _fail(upcoming.body_error or f"no request body for {spec}")
        sys.stdout.write(wire_json(upcoming.body) + "\n")
        return 0
    report = _report(services, conversation, upcoming)
    if args.exact:
        report["exact"] = _exact(services, conversation, spec, args.draft)
    if args.json:
        sys.stdout.write(msgspec.json.encode(report).decode() + "\n")
    else:
        _print_report(report)
    return 0


def _report(
    services: Services, conversation: Conversation, upcoming: NextRequest
) -> dict[str, Any]:
    contexts = services.contexts
    method = contexts.method(_Named(upcoming.provider), upcoming.model)
    reported = _reported(conversation.history, upcoming.spec)
    return {
        "conversation": conversation.id,
        "model": upcoming.spec,
        "window": upcoming.window,
        "budget": upcoming.budget,
        "tokens": upcoming.tokens,
        "tool_tokens": upcoming.tool_tokens,
        "over_budget": upcoming.over_budget,
        "would_compress": upcoming.would_compress,
        "counting": {
            "encoding": method.encoding,
            "estimate": upcoming.estimate,
            "label": english(upcoming.counting),
        },
        "policy": msgspec.to_builtins(contexts.policy(conversation.id)),
        "carried": [_row(part, conversation.history) for part in upcoming.carried],
        "omitted": [
            {"first_seq": o.first_seq, "last_seq": o.last_seq, "reason": o.reason}
            for o in upcoming.omitted
        ],
        "notes": [english(note) for note in upcoming.notes],
        "attachments": [english(note) for note in upcoming.attachments],
        "tools_left_out": list(upcoming.tools_left_out),
        "knowledge_sources": list(upcoming.knowledge_sources),
        "reported": {"seq": reported.seq, "input_tokens": reported.usage.input}
        if reported
        else None,
    }


def _exact(services: Services, conversation: Conversation, spec: str, draft: str) -> dict[str, Any]:
    """The provider's own count of the next request (with the conversation's tools)."""
    try:
        provider = services.models.resolve(spec)[0]
    except AuthFailed:
        name = spec.partition(":")[0]
        return {"error": f"no key for {name}: `crosstalk key set {name}`"}
    request = pending_request(services, conversation, spec, draft=draft)

    async def ask() -> int | None:
        try:
            return await exact_count(provider, request)
        finally:
            await services.models.aclose()

    try:
        tokens = asyncio.run(ask())
    except CrosstalkError as exc:
        return {"error": str(exc)}
    if tokens is None:
        return {"error": f"{provider.name} has no token-counting endpoint"}
    return {"input_tokens": tokens}


def _row(part: Carried, history: History) -> dict[str, Any]:
    """A part as the JSON says it; ``pending``: passages not searched yet, ``text`` the
    sources the next question will search, one a line."""
    row: dict[str, Any] = {"seq": part.seq, "kind": part.kind, "tokens": part.tokens,
                           "text": part.text, "pending": part.pending}  # fmt: skip
    if part.covers is not None and part.seq is not None:
        compression = history.at(part.seq)
        row["covers"] = list(part.covers)
        if isinstance(compression, Compression):
            row["strategy"] = compression.strategy
    return row


def _reported(history: History, spec: str) -> ModelOutput | None:
    """The newest reply from ``spec`` whose provider reported its input tokens."""
    for seq in range(history.version, 0, -1):
        entry = history.at(seq)
        mine = isinstance(entry, ModelOutput) and f"{entry.provider}:{entry.model}" == spec
        if mine and isinstance(entry, ModelOutput) and entry.usage.input:
            return entry
    return None


def _print_report(report: dict[str, Any]) -> None:
    policy = report["policy"]
    auto = "on" if policy["auto_compress"] else "off"
    window_turns = policy["window_turns"]
    turns = f"last {window_turns} turns" if window_turns else "as many turns as the budget holds"
    print(
        f"{report['conversation']} → {report['model']}: window {report['window']} tokens, "
        f"budget {report['budget']}; {turns}; "
        f"auto-compress {auto} ({policy['compress_strategy']} past "
        f"{round(policy['compress_threshold'] * 100)}%)"
    )
    print(f"{'seq':>5}  {'kind':<13} {'tokens':>7}  text")
    for row in report["carried"]:
        seq = row["seq"] if row["seq"] is not None else "-"
        if row["pending"]:  # the sources, each on a line of its own: a path cut is unreadable
            sources = row["text"].splitlines()
            count = f"{len(sources)} source{'' if len(sources) == 1 else 's'}"
            print(f"{seq:>5}  {row['kind']:<13} {'-':>7}  searched when you send: {count}")
            for source in sources:
                print(f"{'':>30}{source}")
            continue
        text = " ".join(row["text"].split())
        text = text if len(text) <= 60 else text[:59] + "…"
        print(f"{seq:>5}  {row['kind']:<13} {row['tokens']:>7}  {text}")
    counting = report["counting"]
    approx = "≈ " if counting["estimate"] else ""
    over = "  OVER BUDGET: the newest turn alone does not fit" if report["over_budget"] else ""
    print(f"total {approx}{report['tokens']} of {report['budget']} tokens, "
          f"{counting['label']}{over}")  # fmt: skip
    if report["reported"]:
        reported = report["reported"]
        print(f"the last request to {report['model']} (seq {reported['seq']}) was "
              f"{reported['input_tokens']} input tokens, as the provider reported")  # fmt: skip
    exact = report.get("exact")
    if exact is not None:
        if "input_tokens" in exact:
            print(f"{exact['input_tokens']} input tokens, as {report['model']}'s own "
                  "counting endpoint counts the next request (tools included)")  # fmt: skip
        else:
            print(f"no exact count: {exact['error']}")
    if report["would_compress"]:
        print("auto-compression would run before this request")
    if report["notes"]:
        print("replaying the history to this provider:")
    for note in report["notes"]:
        print(f"  {note}")
    if report["omitted"]:
        print("left out:")
    for omission in report["omitted"]:
        first, last = omission["first_seq"], omission["last_seq"]
        where = f"seq {first}" if first == last else f"seq {first}-{last}"
        print(f"  {where}: {omission['reason']}")
    if report["attachments"]:  # the inspector's "attachment:" lines: scaled, converted, left out
        print("attachments, as this model gets them:")
    for note in report["attachments"]:
        print(f"  {note}")
    if report["tools_left_out"]:  # the inspector's "tools:" line (app/tools.py choose)
        print("tools not declared, to keep their definitions within their share of the budget:")
        print(f"  {', '.join(report['tools_left_out'])}")


# --- compress -------------------------------------------------------------------------------


def cmd_compress(services: Services, args: argparse.Namespace) -> int:
    conversation = services.library.open(args.id)
    if args.undo is not None:
        retraction = undo(services.library, conversation, args.undo)
        first, last = retraction.covers
        what = f"seq {first}" if first == last else f"seq {first}-{last}"
        print(f"undid the compression at {what} (seq {retraction.seq}); the entries it covered "
              "are back in the context")  # fmt: skip
        return 0
    if not args.strategy:
        return _fail("give --strategy whole|last-n:N|chunked:N|facts:CONCEPTS, or --undo SEQ")
    strategy = parse_strategy(args.strategy)
    policy = services.contexts.policy(conversation.id)
    spec = args.model or policy.compression_model
    provider, model = services.models.resolve(spec)
    target = _target_model(services, conversation, None)
    before = _tokens(services, conversation, target)

    async def run() -> Outcome:
        try:
            return await compress(
                services.library, conversation, provider, model, strategy,
                keep_first_input=policy.keep_first_input,
                limit=services.contexts.window(provider, model),
                preview=args.preview, on_context=_progress,
            )  # fmt: skip
        finally:
            await services.models.aclose()

    outcome = asyncio.run(run())
    for summary in outcome.summaries:
        first, last = summary.job.covers
        print(f"seq {first}-{last} ({len(summary.job.items)} messages):\n{summary.text}\n")
    if args.preview:
        print(f"(preview: nothing was appended; context stays at ≈ {before} tokens)")
        return 0
    after = _tokens(services, conversation, target)
    seqs = ", ".join(str(entry.seq) for entry in outcome.appended)
    if outcome.superseded:
        older = ", ".join(map(str, outcome.superseded))
        print(f"supersedes compression seq {older} (kept in the history, out of the context)")
    print(f"appended compression seq {seqs} ({outcome.spec}); the next request to {target}: "
          f"≈ {before} → ≈ {after} tokens. `crosstalk compress {conversation.id} --undo "
          f"{outcome.appended[0].seq}` undoes it")  # fmt: skip
    return 0


def _tokens(services: Services, conversation: Conversation, spec: str) -> int:
    name, _, model = spec.partition(":")
    context = services.contexts.render(conversation, _Named(name), model)
    return context.tokens or 0


def _progress(event: ContextEvent) -> None:
    if isinstance(event, Compressing):
        first, last = event.covers
        print(f"[compressing seq {first}-{last} with {event.model}: {event.parts} "
              f"summar{'y' if event.parts == 1 else 'ies'}]", file=sys.stderr)  # fmt: skip
    elif isinstance(event, Compressed):
        print(f"[compressed: seq {', '.join(map(str, event.seqs))}]", file=sys.stderr)
    elif isinstance(event, CompressionFailed):
        print(f"[compression failed: {event.message}]", file=sys.stderr)


# --- recall ---------------------------------------------------------------------------------


def cmd_recall(services: Services, args: argparse.Namespace) -> int:
    """The last turns and the question, rewritten into a standalone query, then searched."""
    conversation = services.library.open(args.id)
    question = " ".join(args.question)
    spec = args.model or services.contexts.policy(conversation.id).compression_model
    provider, model = services.models.resolve(spec)

    async def rewrite() -> str:
        try:
            return await rewrite_query(provider, model, conversation.history, question)
        finally:
            await services.models.aclose()

    query = asyncio.run(rewrite())
    print(f"[searching for: {query}]", file=sys.stderr)
    hits = [h for h in services.library.search(query, args.limit + 1, per_conversation=1)
            if h.conversation["id"] != conversation.id][: args.limit]  # fmt: skip
    for hit in hits:
        print(f"{hit.conversation['id']}  {hit.conversation['title'] or 'Untitled'}")
        for message in hit.hits:
            print(f"    #{message.seq} {message.kind}: {message.snippet}")
    if not hits:
        print("no matches", file=sys.stderr)
    return 0
