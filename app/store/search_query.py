"""The search query language, parsed into a ``Query`` (docs/search.md, "Query language"; the
syntax is ``HELP``).

Pure: no SQL here, and nothing of how terms are looked up (``search_text`` decides that).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import ClassVar

import msgspec

from app.errors import CrosstalkError

KINDS: dict[str, str] = {
    "user": "model_input",
    "input": "model_input",
    "model_input": "model_input",
    "assistant": "model_output",
    "reply": "model_output",
    "output": "model_output",
    "model_output": "model_output",
    "tool": "tool_results",
    "tool_results": "tool_results",
    "title": "title",
    "system": "system_instruction",
    "system_instruction": "system_instruction",
    "notebook": "memory_notebook",
    "memory_notebook": "memory_notebook",
    "summary": "compression",
    "compression": "compression",
}
FILTERS = ("model", "provider", "kind", "before", "after", "project", "tag")
HELP = """\
query syntax:
  tokyo weather          messages with both words; a word finds the words it starts
                         ("capit" finds capital), a one- or two-letter word itself only
  東京  迁移  서울       Chinese, Japanese, Korean, Thai...: any part of the text
  "capital of France"    the exact text (case and accents aside); any part of a word too
  tokyo OR kyoto         either (OR joins its neighbours; the rest are all needed)
  -rain  -"light rain"   leave out messages with this word or phrase
  model:gpt-4o           replies and summaries by a model whose provider:model has this
  provider:anthropic     ... by this provider
  kind:user              also assistant (or reply), tool, title, system, notebook, summary
  after:2026-01-31       from that day on (local time); before:2026-02-01 before that day
  project:Thesis         in conversations of this project (its name or id; quote a name
                         with spaces: project:"Side work")
  tag:urgent             in conversations with this tag
  -kind:tool             filters but dates can be negated
Case, accents and full-width letters are ignored: cafe finds Café."""
# opening -> closing: typed, curly, full-width, German
QUOTES = {'"': '"', "\u201c": "\u201d", "\u201d": "\u201d", "\uff02": "\uff02", "\u201e": "\u201c"}
SYNTAX = (
    'words, "exact phrases", OR between alternatives, -word to leave out, and the filters '
    "model:NAME, provider:NAME, kind:KIND, project:NAME, tag:NAME, after:YYYY-MM-DD, "
    "before:YYYY-MM-DD"
)


class QueryError(CrosstalkError):
    """A search query that cannot be read; the message says what is accepted."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "or_after": f"OR joins words and phrases, not what comes before it; {SYNTAX}",
        "or_before": f"OR joins words and phrases, not what comes after it; {SYNTAX}",
        "unknown_filter": (
            f'unknown filter "{{name}}:"; a query takes {SYNTAX} '
            '(put "{word}" in quotes to search for it as text)'
        ),
        "negated_date": "{filter}: cannot be used: use {other}: instead",
        "not_a_kind": (
            "kind:{value} is not a kind; kind: takes user, assistant (or reply), tool, title, "
            "system, notebook, summary, or an entry kind (model_input, model_output, "
            "tool_results, title, system_instruction, memory_notebook, compression)"
        ),
        "not_a_date": (
            "{name}:{value} is not a date: {name}: takes YYYY-MM-DD, e.g. {name}:2026-01-31"
        ),
    }


class Term(msgspec.Struct, frozen=True):
    text: str  # as typed, quotes taken off
    phrase: bool  # it was quoted: matched as it is, never as a word prefix


class Filters(msgspec.Struct, frozen=True):
    kinds: frozenset[str] = frozenset()  # entry kinds; empty: any
    not_kinds: frozenset[str] = frozenset()
    providers: tuple[str, ...] = ()  # any of them; empty: any
    not_providers: tuple[str, ...] = ()
    models: tuple[str, ...] = ()  # any of them (a part of provider:model)
    not_models: tuple[str, ...] = ()
    after: date | None = None  # from this day on
    before: date | None = None  # before this day
    projects: tuple[str, ...] = ()  # in any of these projects (a name or an id)
    not_projects: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()  # with every one of these tags
    not_tags: tuple[str, ...] = ()


class Query(msgspec.Struct, frozen=True):
    """Every clause must match (a clause: any of its terms), no excluded term may."""

    clauses: tuple[tuple[Term, ...], ...] = ()
    excluded: tuple[Term, ...] = ()
    filters: Filters = msgspec.field(default_factory=Filters)

    @property
    def empty(self) -> bool:
        return not self.clauses and not self.excluded and self.filters == Filters()


class _Item(msgspec.Struct, frozen=True):
    kind: str  # "term", "or", "filter"
    text: str = ""
    phrase: bool = False
    negated: bool = False
    name: str = ""  # a filter's


def parse(query: str) -> Query:
    """Read a query; ``QueryError`` says what is wrong and what is accepted."""
    clauses: list[list[Term]] = []
    excluded: list[Term] = []
    filters: dict[str, list[str]] = {}
    last = ""  # what the item before was: "term", "or", "excluded", "filter"
    for item in _items(query):
        joining = last == "or" and bool(clauses)
        if item.kind == "or":
            if last in ("excluded", "filter"):
                raise QueryError(cause="or_after")
            last = "or" if last == "term" else last  # a dangling OR is let be
            continue
        if item.kind == "filter" or item.negated:
            if joining:
                raise QueryError(cause="or_before")
            if item.kind == "filter":
                filters.setdefault(f"-{item.name}" if item.negated else item.name, []).append(
                    item.text
                )
                last = "filter"
            else:
                excluded.append(Term(item.text, item.phrase))
                last = "excluded"
            continue
        if joining:
            clauses[-1].append(Term(item.text, item.phrase))
        else:
            clauses.append([Term(item.text, item.phrase)])
        last = "term"
    return Query(tuple(tuple(clause) for clause in clauses), tuple(excluded), _filters(filters))


def highlight_terms(query: str) -> list[str]:
    """The literal strings to highlight where a hit is shown: its words and phrases as typed,
    not its filters or excluded words."""
    try:
        parsed = parse(query)
    except QueryError:
        return []
    found = (term.text for clause in parsed.clauses for term in clause)
    return list(dict.fromkeys(text for text in found if text.strip()))


# --- reading ---------------------------------------------------------------------------------


_FILTER = re.compile(r"([A-Za-z]{3,}):(.*)", re.DOTALL)  # "C:\\path", "re:" are text


def _items(query: str) -> list[_Item]:
    items: list[_Item] = []
    at = 0
    while at < len(query):
        if query[at].isspace():
            at += 1
            continue
        negated = query[at] == "-" and at + 1 < len(query) and not query[at + 1].isspace()
        start = at + negated
        if query[start] in QUOTES:
            text, at = _quoted(query, start)
            items.append(_Item("term", text, phrase=True, negated=negated))
            continue
        at = start
        while at < len(query) and not query[at].isspace() and query[at] not in QUOTES:
            at += 1
        word = query[start:at]
        if word == "-":  # the start of a word to leave out, being typed
            continue
        if word == "OR" and not negated:
            items.append(_Item("or"))
            continue
        named = _FILTER.fullmatch(word)
        if named and (named.group(2) or (at < len(query) and query[at] in QUOTES)):
            name, value = named.group(1).lower(), named.group(2)
            if not value:
                value, at = _quoted(query, at)
            if name in FILTERS:
                items.append(_Item("filter", value, negated=negated, name=name))
                continue
            if not value.startswith((":", "/")):  # std::vector, https://... are text
                raise QueryError(cause="unknown_filter", name=named.group(1), word=word)
        items.append(_Item("term", word, negated=negated))
    return items


def _quoted(query: str, at: int) -> tuple[str, int]:
    """The text inside the quotes at ``at`` and where reading goes on (an unclosed quote runs
    to the end: a query is often read while it is being typed)."""
    closing = QUOTES[query[at]]
    end = query.find(closing, at + 1)
    if end < 0:
        return query[at + 1 :], len(query)
    return query[at + 1 : end], end + 1


def _filters(given: dict[str, list[str]]) -> Filters:
    for key in ("-before", "-after"):
        if key in given:
            other = "after" if key == "-before" else "before"
            raise QueryError(cause="negated_date", filter=key, other=other)
    kinds = [_kind(value) for value in given.get("kind", [])]
    not_kinds = [_kind(value) for value in given.get("-kind", [])]
    afters = [_day("after", value) for value in given.get("after", [])]
    befores = [_day("before", value) for value in given.get("before", [])]
    return Filters(
        kinds=frozenset(kinds),
        not_kinds=frozenset(not_kinds),
        providers=tuple(value.lower() for value in given.get("provider", [])),
        not_providers=tuple(value.lower() for value in given.get("-provider", [])),
        models=tuple(value.lower() for value in given.get("model", [])),
        not_models=tuple(value.lower() for value in given.get("-model", [])),
        after=max(afters) if afters else None,
        before=min(befores) if befores else None,
        projects=tuple(given.get("project", [])),
        not_projects=tuple(given.get("-project", [])),
        tags=tuple(given.get("tag", [])),
        not_tags=tuple(given.get("-tag", [])),
    )


def _kind(value: str) -> str:
    kind = KINDS.get(value.lower())
    if kind is None:
        raise QueryError(cause="not_a_kind", value=value)
    return kind


def _day(name: str, value: str) -> date:
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise QueryError(cause="not_a_date", name=name, value=value)
