"""A reply's citations as links: each ``[n]`` in a reply that names a passage sent with its
question (``app.knowledge.retrieval``) links ``cite:<seq>:<n>``, and a small "Sources" line
under the reply lists them (``[1] notes.md:10-24``). The view turns a click into
``ChatView.citation_clicked``; the shell opens the source viewer.

The reply's HTML is made by ``ui.chat.html`` from the entry alone; the records are in the
conversation's history, which the view names here when it shows a conversation (``follow``).
The records are read once per version of the history, and a history without any costs one
look per version.
"""

from __future__ import annotations

import re
import weakref
from html import escape
from pathlib import PurePath

from app.history import History, ModelInput, ModelOutput
from app.history.entries import entry_id
from app.history.history import ROOT
from app.knowledge.retrieval import Retrieval, Retrieved, retrievals
from ui.common.i18n import Context

SCHEME = "cite"
# [1], [2, 3] and [1][2]: the labels the request's block gives (app.knowledge.retrieval)
_LABELS = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")
_TAG = re.compile(r"(<[^>]*>)")
_SKIP = ("pre", "code", "a")  # no links inside code, nor inside another link


class Citations(Context):
    """The translation context of the Sources line."""


class _Followed:
    def __init__(self) -> None:
        self.history: weakref.ref[History] | None = None
        self.version = -1
        self.records: dict[str, Retrieval] = {}


_followed = _Followed()


def follow(history: History | None) -> None:
    """The history whose replies are drawn next (the conversation the view shows)."""
    if _followed.history is not None and history is _followed.history():
        return
    _followed.history = weakref.ref(history) if history is not None else None
    _followed.version = -1
    _followed.records = {}


def sent_for(entry: ModelOutput) -> list[Retrieved]:
    """The passages sent with the question ``entry`` answers, in label order (none: the
    reply is not in the history followed, or used no knowledge)."""
    history = _followed.history() if _followed.history is not None else None
    if history is None:
        return []
    if _followed.version != history.version:
        _followed.records = retrievals(history)
        _followed.version = history.version
    if not _followed.records:
        return []
    if not 1 <= entry.seq <= history.version or history.id_of(entry.seq) != entry_id(entry):
        return []  # a reply of another conversation
    question = _input_of(history, entry.seq)
    record = _followed.records.get(entry_id(question)) if question is not None else None
    return record.sent if record is not None else []


def _input_of(history: History, seq: int) -> ModelInput | None:
    """The input a reply answers: the nearest up its parents (``retrieval.input_of`` builds
    the whole path from the root, once per reply drawn: long in a long conversation)."""
    if not 1 <= seq <= history.version or not history.is_message(seq):
        return None
    while seq != ROOT:
        found = history.at(seq)
        if isinstance(found, ModelInput):
            return found
        seq = history.parent_of(seq)
    return None


def record_for(history: History, seq: int) -> Retrieval | None:
    """The retrieval the entry at ``seq`` was answered with."""
    from app.knowledge.retrieval import retrieval_for

    if not 1 <= seq <= history.version:
        return None
    return retrieval_for(history, history.at(seq))


def cited(html: str, entry: ModelOutput) -> str:
    """``html`` (a reply's, as rendered) with its labels linked and the Sources line after it;
    unchanged for a reply that used no knowledge."""
    sent = {p.n: p for p in sent_for(entry)}
    if not sent:
        return html
    return link_labels(html, entry.seq, sent) + sources_html(entry.seq, list(sent.values()))


def link_labels(html: str, seq: int, sent: dict[int, Retrieved]) -> str:
    """Each ``[n]`` in the text of ``html`` (not in code, not in a link) whose ``n`` was sent
    as a link; a label not sent stays text."""
    parts = _TAG.split(html)
    inside = dict.fromkeys(_SKIP, 0)
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", part)
            tag = name.group(1).lower() if name else ""
            if tag in inside and not part.endswith("/>"):
                inside[tag] += -1 if part.startswith("</") else 1
                inside[tag] = max(inside[tag], 0)
            continue
        if any(inside.values()) or "[" not in part:
            continue
        parts[i] = _LABELS.sub(lambda m: _linked(m, seq, sent), part)
    return "".join(parts)


def _linked(match: re.Match[str], seq: int, sent: dict[int, Retrieved]) -> str:
    numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
    if not any(n in sent for n in numbers):
        return match.group(0)
    linked = [
        f'<a class="cite" href="{SCHEME}:{seq}:{n}" title="{escape(sent[n].where, quote=True)}">'
        f"{n}</a>"
        if n in sent
        else str(n)
        for n in numbers
    ]
    return "[" + ", ".join(linked) + "]"


def place(passage: Retrieved) -> str:
    """``almanac.md, lines 33-36``, ``charts.pdf, page 2``: the passage's file by its name,
    and where in it, in the window's language."""
    name = PurePath(passage.path).name
    if passage.page is not None:
        return Citations.tr("{file}, page {page}").format(file=name, page=passage.page)
    if passage.first_line is not None:
        last = passage.last_line if passage.last_line is not None else passage.first_line
        if last == passage.first_line:
            return Citations.tr("{file}, line {line}").format(file=name, line=last)
        said = Citations.tr("{file}, lines {first}-{last}")
        return said.format(file=name, first=passage.first_line, last=last)
    return name


def sources_html(seq: int, sent: list[Retrieved]) -> str:
    """``Sources: [1] notes.md:10-24 · [2] paper.pdf:page 3``, each a link to its passage."""
    items = []
    for passage in sent:
        where = place(passage)
        items.append(
            f'<a class="cite" href="{SCHEME}:{seq}:{passage.n}" '
            f'title="{escape(passage.where, quote=True)}">[{passage.n}]&nbsp;{escape(where)}</a>'
        )
    said = escape(Citations.tr("Sources:"))
    return f'<p class="sources">{said} {" &nbsp;·&nbsp; ".join(items)}</p>\n'


def parse(rest: str) -> tuple[int, int] | None:
    """``12:3`` (what follows ``cite:``) as the reply's seq and the label, or None."""
    seq, _, n = rest.partition(":")
    return (int(seq), int(n)) if seq.isdigit() and n.isdigit() else None
