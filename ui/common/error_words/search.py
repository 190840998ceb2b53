"""The window's sentences for errors about a search (app/store/search_query.py)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    ("QueryError", "or_after"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'OR joins words and phrases, not what comes before it; a search takes words, "exact '
        'phrases", OR between alternatives, -word to leave out, and the filters model:NAME, '
        "provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD",
    ),
    ("QueryError", "or_before"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'OR joins words and phrases, not what comes after it; a search takes words, "exact '
        'phrases", OR between alternatives, -word to leave out, and the filters model:NAME, '
        "provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD",
    ),
    ("QueryError", "unknown_filter"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        'Unknown filter “{name}:”; a search takes words, "exact phrases", OR between '
        "alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, "
        "after:YYYY-MM-DD, before:YYYY-MM-DD (put “{word}” in quotes to search for it as text)",
    ),
    ("QueryError", "negated_date"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{filter}: cannot be used: use {other}: instead"
    ),
    ("QueryError", "not_a_kind"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "kind:{value} is not a kind; kind: takes user, assistant (or reply), tool, title, "
        "system, notebook, summary, or an entry kind (model_input, model_output, tool_results, "
        "title, system_instruction, memory_notebook, compression)",
    ),
    ("QueryError", "not_a_date"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name}:{value} is not a date: {name}: takes YYYY-MM-DD, e.g. {name}:2026-01-31",
    ),
}
