"""Fuzzy matching: the query's characters in order anywhere, runs and word starts first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.fuzzy import fuzzy_rank, fuzzy_score

SPECS = [
    "local:smollm2",
    "openai:gpt-4.1",
    "openai:gpt-4.1-mini",
    "openai:gpt-4o",
    "openai:o4-mini",
    "anthropic:claude-sonnet-4-5",
    "gemini:gemini-2.5-pro",
    "ollama:qwen3:8b",
]


def ranked(query: str) -> list[str]:
    return [spec for spec, _ in fuzzy_rank(query, SPECS)]


def test_characters_match_in_order_anywhere_and_ignoring_case() -> None:
    assert fuzzy_score("SONNET", "anthropic:claude-sonnet-4-5") is not None
    assert fuzzy_score("oai4o", "openai:gpt-4o") is not None  # pieces, not a prefix
    assert fuzzy_score("o4", "openai:gpt-4o") is not None  # the o of openai, then the 4
    assert fuzzy_score("4o", "openai:o4-mini") is None  # a 4 followed by an o: not in it
    assert fuzzy_score("gpt5", "openai:gpt-4.1") is None
    assert fuzzy_score("oll qwen", "ollama:qwen3:8b") is not None  # spaces only help typing


def test_an_empty_query_matches_everything_alike() -> None:
    assert fuzzy_score("", "anything") == 0
    assert fuzzy_score("  ", "") == 0
    assert ranked("") == SPECS


def test_a_word_start_beats_the_same_letters_inside_a_word() -> None:
    # "mini" is a word of its own in openai:o4-mini, inside "gemini" in the Gemini model
    word = fuzzy_score("mini", "openai:o4-mini")
    inside = fuzzy_score("mini", "gemini:gemini-2.5-pro")
    assert word is not None and inside is not None and word > inside


def test_a_run_beats_scattered_letters() -> None:
    together = fuzzy_score("son", "anthropic:claude-sonnet-4-5")
    scattered = fuzzy_score("son", "local:smollm2-o-n")
    assert together is not None and scattered is not None and together > scattered


def test_ranking_puts_the_likely_wish_first() -> None:
    assert ranked("4o")[0] == "openai:gpt-4o"
    assert ranked("mini")[:2] == ["openai:o4-mini", "openai:gpt-4.1-mini"]  # shorter first
    assert ranked("qwen") == ["ollama:qwen3:8b"]
    assert ranked("cs")[0] == "anthropic:claude-sonnet-4-5"  # c and s both start words


@given(st.text(max_size=8), st.text(max_size=30))
def test_a_score_exactly_when_the_query_is_a_subsequence(query: str, text: str) -> None:
    needle = [c.lower() for c in query if not c.isspace()]
    hay = iter(c.lower() for c in text)
    expected = all(c in hay for c in needle)
    assert (fuzzy_score(query, text) is not None) == expected
