"""Search results as rows of the conversation list: each conversation, then each message in it.

``Library.search`` answers with conversations (newest matching message first), each with how
many of its messages match and the newest of them. The list shows them flat, in that order: a
conversation row ("12 matches"), one row per message under it (its snippet, the matched words
highlighted), and when more match than were sent, a last row saying how many more.
"""

from __future__ import annotations

from html import escape
from typing import Any

from app.store import ConversationHits
from ui.common.i18n import Context

Row = dict[str, Any]

CONVERSATION = "conversation"  # a conversation (also every row of the list when not searching)
HIT = "hit"  # a message that matches
MORE = "more"  # "5 more in this conversation"

CUT_BEFORE = 12  # characters kept before a match when a snippet is cut to show it
_FLAT = str.maketrans({"\n": " ", "\r": " ", "\t": " ", "\u2028": " ", "\u2029": " "})


class SearchResults(Context):
    """The translation context of the search results' texts."""


def result_rows(found: list[ConversationHits]) -> list[Row]:
    """The list's rows for these results, in the order shown."""
    rows: list[Row] = []
    for group in found:
        conversation = group.conversation
        newest = group.hits[0] if group.hits else None
        rows.append(
            conversation
            | {
                "row": CONVERSATION,
                "count": group.count,
                "hit": newest.seq if newest else None,
                "snippet": newest.snippet if newest else None,
                "marks": newest.marks if newest else (),
            }
        )
        shared = {"id": conversation["id"], "title": conversation.get("title")}
        for hit in group.hits:
            rows.append(
                shared
                | {
                    "row": HIT,
                    "hit": hit.seq,
                    "kind": hit.kind,
                    "snippet": hit.snippet,
                    "marks": tuple(hit.marks),
                }
            )
        if group.count > len(group.hits):
            oldest = group.hits[-1].seq if group.hits else None
            rows.append(
                shared | {"row": MORE, "hit": oldest, "more": group.count - len(group.hits)}
            )
    return rows


def summary(found: list[ConversationHits], more: bool = False) -> str:
    """How many matches in how many conversations; ``more``: others are listed as the list
    scrolls."""
    total = sum(group.count for group in found)
    matches = SearchResults.tr("%n match(es)", None, total)
    conversations = SearchResults.tr("%n conversation(s)", None, len(found))
    if more:
        return SearchResults.tr("{matches} in the newest {conversations}; more below").format(
            matches=matches, conversations=conversations
        )
    return SearchResults.tr("{matches} in {conversations}").format(
        matches=matches, conversations=conversations
    )


def no_matches(query: str) -> str:
    return SearchResults.tr("No matches for “{query}”").format(query=query)


def match_count(count: int) -> str:
    return SearchResults.tr("%n match(es)", None, count)


def more_text(more: int) -> str:
    return SearchResults.tr("%n more in this conversation: open it and press Ctrl+F", None, more)


def kind_label(kind: str) -> str:
    """What a matching message is, in a word: You, Reply, Tool ..."""
    labels = {
        "model_input": SearchResults.tr("You"),
        "model_output": SearchResults.tr("Reply"),
        "tool_results": SearchResults.tr("Tool"),
        "system_instruction": SearchResults.tr("System"),
        "memory_notebook": SearchResults.tr("Notebook"),
        "compression": SearchResults.tr("Summary"),
        "title": SearchResults.tr("Title"),
    }
    return labels.get(kind, kind)


def query_help() -> str:
    """The search box's tooltip: what a query may hold."""
    return SearchResults.tr(
        "Finds every message with all the words (any part of a word, in any script; "
        "case and accents are ignored).\n"
        '"exact phrase"   -leave_out   this OR that\n'
        "model:gpt-4o   provider:openai   kind:user / reply / tool\n"
        'project:Thesis   project:"Side work"   tag:urgent   -tag:done\n'
        "after:2025-01-31   before:2025-12-31"
    )


def flat(snippet: str) -> str:
    """One line: line breaks and tabs become spaces, one for one (the marks stay in place)."""
    return snippet.translate(_FLAT)


def from_first_mark(
    snippet: str, marks: tuple[tuple[int, int], ...], before: int = CUT_BEFORE
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The snippet from a few characters before its first match ("…" where cut), and the
    marks moved with it."""
    if not marks:
        return snippet, marks
    start = min(first for first, _ in marks) - before
    if start <= 1:
        return snippet, marks
    shift = start - 1  # "…" takes the place of what is cut
    moved = tuple((a - shift, b - shift) for a, b in marks if a >= start)
    return "…" + snippet[start:], moved


def snippet_html(snippet: str, marks: tuple[tuple[int, int], ...], style: str) -> str:
    """The snippet as rich text, every marked span wrapped in a span with ``style``."""
    text = flat(snippet)
    parts: list[str] = []
    at = 0
    for start, end in sorted(marks):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        parts.append(escape(text[at:start]))
        parts.append(f'<span style="{style}">{escape(text[start:end])}</span>')
        at = end
    parts.append(escape(text[at:]))
    return "".join(parts)
