"""The inspector's words for what ``app.inspect`` says in English: entry kinds, a row's status
("failed: ...; other branch"), why an entry is left out of the next request, how its tokens
were counted. ``app/`` never imports Qt, so its sentences are matched here and said again
through the translator; a sentence not matched (a newer wording) is shown as it came. Also
what the dialogs' translations use too: ``QT_TRANSLATE_NOOP``, typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from ui.common import locale_format

_CONTEXT = "InspectorWording"


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Marks ``source`` for pyside6-lupdate under ``context`` and returns it untranslated, to be
    translated where it is shown. PySide's own marker is typed ``object``; this one is ``str``."""
    return source


KIND_NAMES = {  # the history's kinds (app/history/entries.py) as the inspector names them
    "system_instruction": QT_TRANSLATE_NOOP("InspectorWording", "system"),
    "memory_notebook": QT_TRANSLATE_NOOP("InspectorWording", "notebook"),
    "model_input": QT_TRANSLATE_NOOP("InspectorWording", "input"),
    "model_output": QT_TRANSLATE_NOOP("InspectorWording", "output"),
    "tool_results": QT_TRANSLATE_NOOP("InspectorWording", "tool results"),
    "compression": QT_TRANSLATE_NOOP("InspectorWording", "compression"),
    "title": QT_TRANSLATE_NOOP("InspectorWording", "title"),
    "debug_log": QT_TRANSLATE_NOOP("InspectorWording", "debug log"),
    "select": QT_TRANSLATE_NOOP("InspectorWording", "branch switch"),
    "exclude": QT_TRANSLATE_NOOP("InspectorWording", "context change"),
}


def _translated(source: str) -> str:
    """A source text marked with QT_TRANSLATE_NOOP above, in the user's language."""
    return QCoreApplication.translate(_CONTEXT, source)


def kind_label(kind: str) -> str:
    """A kind's display name; an unknown kind as it is written, underscores spaced."""
    name = KIND_NAMES.get(kind)
    return _translated(name) if name is not None else kind.replace("_", " ")


def kind_tip(kind: str) -> str:
    """The raw kind, as transcripts and ``crosstalk show`` write it."""
    return QCoreApplication.translate("InspectorWording", "Kind: {kind}").format(kind=kind)


# Each English sentence of app/ (app/inspect/ledger.py, app/history/context.py,
# app/history/outline.py, app/inspect/next_request.py) and what says it in the user's language.
# Named groups fill the placeholders; those in _NUMBERS are reformatted for the locale.
_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"partial", QT_TRANSLATE_NOOP("InspectorWording", "partial")),
        (r"partial: stopped by the user",
         QT_TRANSLATE_NOOP("InspectorWording", "partial: stopped by the user")),
        (r"failed: (?P<error>.*)", QT_TRANSLATE_NOOP("InspectorWording", "failed: {error}")),
        (r"other branch", QT_TRANSLATE_NOOP("InspectorWording", "other branch")),
        (r"retried at seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "retried at seq {seq}")),
        (r"replaced by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "replaced by seq {seq}")),
        (r"undoes (?P<first>\d+)-(?P<last>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "undoes {first}-{last}")),
        (r"retracted by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "retracted by seq {seq}")),
        (r"undone by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "undone by seq {seq}")),
        (r"superseded by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "superseded by seq {seq}")),
        (r"not used: its summary is empty",
         QT_TRANSLATE_NOOP("InspectorWording", "not used: its summary is empty")),
        (r"not used: it covers seq (?P<first>\d+)-(?P<last>\d+), not entries before it",
         QT_TRANSLATE_NOOP("InspectorWording",
                           "not used: it covers seq {first}-{last}, not entries before it")),
        (r"compression undone by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "compression undone by seq {seq}")),
        (r"compression superseded by seq (?P<seq>\d+)",
         QT_TRANSLATE_NOOP("InspectorWording", "compression superseded by seq {seq}")),
        (r"compression not used: its summary is empty",
         QT_TRANSLATE_NOOP("InspectorWording", "compression not used: its summary is empty")),
        (r"compression not used: it covers seq (?P<first>\d+)-(?P<last>\d+), "
         r"not entries before it",
         QT_TRANSLATE_NOOP("InspectorWording", "compression not used: it covers seq "
                           "{first}-{last}, not entries before it")),
        (r"failed reply with no content",
         QT_TRANSLATE_NOOP("InspectorWording", "failed reply with no content")),
        (r"superseded by a retry", QT_TRANSLATE_NOOP("InspectorWording", "superseded by a retry")),
        (r"tool calls of a broken reply, never run",
         QT_TRANSLATE_NOOP("InspectorWording", "tool calls of a broken reply, never run")),
        (r"removed from context by the user",
         QT_TRANSLATE_NOOP("InspectorWording", "removed from context by the user")),
        (r"before the first input: a reply must answer something",
         QT_TRANSLATE_NOOP("InspectorWording",
                           "before the first input: a reply must answer something")),
        (r"window: older than the last (?P<turns>[\d,]+) turns",
         QT_TRANSLATE_NOOP("InspectorWording", "window: older than the last {turns} turns")),
        (r"budget: over (?P<tokens>[\d,]+) tokens \(older turns fall out first\)",
         QT_TRANSLATE_NOOP("InspectorWording",
                           "budget: over {tokens} tokens (older turns fall out first)")),
        (r"covered by compression seq (?P<seq>\d+) \((?P<strategy>[^)]*)\)",
         QT_TRANSLATE_NOOP("InspectorWording", "covered by compression seq {seq} ({strategy})")),
        (r"left out by compression seq (?P<seq>\d+) \((?P<strategy>[^)]*)\): "
         r"only the last are summarised",
         QT_TRANSLATE_NOOP("InspectorWording", "left out by compression seq {seq} ({strategy}): "
                           "only the last are summarised")),
        (r"first input: only its first part is carried \((?P<tokens>[\d,]+) tokens, "
         r"over half the budget\)",
         QT_TRANSLATE_NOOP("InspectorWording", "first input: only its first part is carried "
                           "({tokens} tokens, over half the budget)")),
        (r"estimated with (?P<encoding>\S+) \((?P<who>.*) counts differently\)",
         QT_TRANSLATE_NOOP("InspectorWording", "estimated with {encoding} ({who} counts "
                           "differently)")),
        (r"exact \(OpenAI's own tokenizer, (?P<encoding>[^)]*)\)",
         QT_TRANSLATE_NOOP("InspectorWording", "exact (OpenAI's own tokenizer, {encoding})")),
        (r"temperature (?P<value>\S+)",
         QT_TRANSLATE_NOOP("InspectorWording", "temperature {value}")),
        (r"at most (?P<tokens>[\d,]+) tokens",
         QT_TRANSLATE_NOOP("InspectorWording", "at most {tokens} tokens")),
        (r"thinking (?P<effort>\S+)", QT_TRANSLATE_NOOP("InspectorWording", "thinking {effort}")),
    )
)  # fmt: skip
_NUMBERS = frozenset({"turns", "tokens"})
_WHO = {  # app/inspect/next_request.py, _OWN_COUNTERS: who counts differently
    "the local model": QT_TRANSLATE_NOOP("InspectorWording", "the local model"),
}


def phrase(text: str) -> str:
    """One of app/'s sentences in the user's language (as it is, if it is not known)."""
    for pattern, template in _PHRASES:
        found = pattern.fullmatch(text)
        if found is not None:
            values = found.groupdict()
            for name in _NUMBERS & values.keys():
                values[name] = locale_format.count(int(values[name].replace(",", "")))
            if "who" in values and values["who"] in _WHO:
                values["who"] = _translated(_WHO[values["who"]])
            return _translated(template).format(**values)
    return text


def _joined(text: str, separator: str, say: Callable[[str], str]) -> str:
    return separator.join(say(part) for part in text.split(separator)) if text else ""


def status_text(status: str) -> str:
    """A ledger row's status, each of its "; "-separated parts said in the user's language."""
    return _joined(status, "; ", phrase)


def sampling_text(sampling: str) -> str:
    """What a request sets ("temperature 0.2 · at most 800 tokens"), part by part."""
    return _joined(sampling, " · ", phrase)
