"""``crosstalk usage`` and ``crosstalk show ID --entries``: what was used, and what it cost.

    crosstalk usage [ID] [--since YYYY-MM-DD] [--by model|conversation|day] [--json]
    crosstalk show ID --entries [--json]      every entry with tokens, cost and running totals

Tokens come from the index (``usage``) or the conversation's ledger; costs are computed here with
the price table of the settings, so changing a price changes every figure. A model with no price
shows "no price", never a made-up zero, and the output says how to add one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from app.composition import Services
from app.errors import InvalidValue
from app.history import Usage
from app.inspect.ledger import Ledger, Row, ledger, preview
from app.pricing import PriceTable, format_cost
from app.store import Conversation
from app.store.index import ModelUsage
from app.store.library import check_day


def _emit(value: Any) -> None:
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


def _fail(message: str) -> int:
    print(f"crosstalk: {message}", file=sys.stderr)
    return 1


def _tokens(n: int) -> str:
    return f"{n:,}" if n else ""


def price_hint(services: Services, specs: Iterable[str]) -> str:
    """How to give these models a price (settings.toml), for a note under a table."""
    specs = list(specs)
    model = specs[0].partition(":")[2] or specs[0]
    return (
        f"no price for {', '.join(specs)}: add one to {services.data.settings_file}, e.g.\n"
        f'    [prices."{model}"]\n'
        "    input = 1.0     # USD per million input tokens\n"
        "    output = 4.0    # USD per million output tokens"
    )


# --- usage ---------------------------------------------------------------------------------


@dataclass
class Group:
    key: str
    title: str = ""
    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    priced: bool = False  # some model of the group has a price
    unpriced: list[str] = field(default_factory=list)  # provider:model with no price
    models: list[dict[str, Any]] = field(default_factory=list)

    def add(self, used: ModelUsage, prices: PriceTable) -> None:
        spec = f"{used.provider}:{used.model}"
        cost = prices.cost(used.provider, used.model, used.usage)
        self.calls += used.calls
        self.usage = self.usage + used.usage
        if cost is None:
            if spec not in self.unpriced:
                self.unpriced.append(spec)
        else:
            self.cost += cost
            self.priced = True
        self.models.append(
            {
                "provider": used.provider,
                "model": used.model,
                "calls": used.calls,
                "usage": used.usage,
                "cost": cost,
            }
        )

    @property
    def known_cost(self) -> float | None:
        """The known costs; None when no model of the group has a price."""
        return self.cost if self.priced or not self.unpriced else None

    def cost_text(self) -> str:
        if not self.unpriced:
            return format_cost(self.cost)
        return f"{format_cost(self.cost)} + no price" if self.priced else "no price"

    def as_json(self, models: bool = True) -> dict[str, Any]:
        value = {
            "key": self.key,
            "calls": self.calls,
            "usage": self.usage,
            "cost": self.known_cost,
            "unpriced": self.unpriced,
        }
        value |= {"models": self.models} if models else {}
        return value | ({"title": self.title} if self.title else {})


def cmd_usage(services: Services, args: argparse.Namespace) -> int:
    library, prices = services.library, services.prices
    try:
        since = check_day(args.since) if args.since else None
    except InvalidValue as exc:
        return _fail(f"--since: {exc}")
    conversation_id = library.open(args.id).id if args.id else None
    groups: dict[str, Group] = {}
    total = Group("total")
    for used in library.usage_rows(conversation_id, since, args.by):
        key = used.key if args.by != "model" else f"{used.provider}:{used.model}"
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(key)
            if args.by == "conversation":
                row = library.index.row(key)
                group.title = (row or {}).get("title") or "Untitled"
        group.add(used, prices)
        total.add(used, prices)
    if args.json:
        _emit(
            {
                "by": args.by,
                "since": since,
                "conversation": conversation_id,
                "groups": [group.as_json() for group in groups.values()],
                "total": total.as_json(models=False),
            }
        )
        return 0
    if not groups:
        where = f" in {conversation_id}" if conversation_id else ""
        print(f"no usage recorded{where}{f' since {since}' if since else ''}", file=sys.stderr)
        return 0
    heading = {"model": "model", "conversation": "conversation", "day": "day (UTC)"}[args.by]
    width = max(28, *(len(g.key) for g in groups.values())) if args.by != "conversation" else 26
    print(
        f"{heading:<{width}} {'calls':>6} {'input':>12} {'cached':>11} {'output':>11} "
        f"{'reasoning':>10} {'cost':>18}" + ("  title" if args.by == "conversation" else "")
    )
    for group in [*groups.values(), total]:
        u = group.usage
        title = f"  {group.title}" if group.title else ""
        print(
            f"{group.key:<{width}} {group.calls:>6} {u.input:>12,} {u.cached:>11,} "
            f"{u.output:>11,} {u.reasoning:>10,} {group.cost_text():>18}{title}"
        )
    if total.unpriced:
        print(price_hint(services, total.unpriced))
    return 0


# --- show --entries ------------------------------------------------------------------------


def row_json(row: Row, conversation: Conversation) -> dict[str, Any]:
    value = msgspec.structs.asdict(row)
    del value["statuses"]
    value["status"] = row.status  # in English, as the line prints it
    value["text"] = preview(conversation.history.at(row.seq), 200)
    return value


def _notes(row: Row) -> str:
    notes = [row.status] if row.status else []
    if row.covered_by is not None:
        notes.append(f"summarised by #{row.covered_by}")
    return "".join(f"[{note}] " for note in notes)


def show_entries(services: Services, conversation: Conversation, as_json: bool) -> int:
    """Every entry with its tokens, cost and the running totals, from the ledger."""
    policy = services.contexts.policy(conversation.id)
    book: Ledger = ledger(
        conversation.history, services.prices, keep_first_input=policy.keep_first_input
    )
    if as_json:
        _emit([row_json(row, conversation) for row in book.rows])
        return 0
    print(f"{conversation.id}  {conversation.history.title or 'Untitled'}")
    print(
        f"{'seq':>5}  {'time':<19}  {'kind':<18} {'provider:model':<28} {'in':>8} {'cached':>8} "
        f"{'out':>7} {'reason':>7} {'cost':>9} {'latency':>8} {'Σ tokens':>10} {'Σ cost':>9}  text"
    )
    for row in book.rows:
        u = row.usage or Usage()
        spec = f"{row.provider}:{row.model}" if row.provider or row.model else ""
        cost = format_cost(row.cost) if row.usage is not None else ""
        latency = f"{row.latency_ms / 1000:.1f} s" if row.latency_ms is not None else ""
        cumulative = format_cost(row.total_cost) + ("*" if row.unpriced else "")
        text = _notes(row) + preview(conversation.history.at(row.seq), 60)
        print(
            f"{row.seq:>5}  {row.ts[:19].replace('T', ' '):<19}  {row.kind:<18} {spec:<28} "
            f"{_tokens(u.input):>8} {_tokens(u.cached):>8} {_tokens(u.output):>7} "
            f"{_tokens(u.reasoning):>7} {cost:>9} {latency:>8} "
            f"{row.total_tokens:>10,} {cumulative:>9}  {text}"
        )
    models = book.by_model()
    for total in models:
        print(
            f"{total.provider}:{total.model}: {total.calls} call{'' if total.calls == 1 else 's'}, "
            f"{total.usage.input:,} in / {total.usage.output:,} out, {format_cost(total.cost)}"
        )
    unpriced = [f"{t.provider}:{t.model}" for t in models if t.cost is None]
    if unpriced:
        print(f"* the total leaves out calls with no price; {price_hint(services, unpriced)}")
    return 0
