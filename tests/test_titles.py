from __future__ import annotations

import pytest

from app.titles import clean_title, cut, fallback_title


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"Capital Cities of Europe".', "Capital Cities of Europe"),
        ("Title: **Paris trip**\nmore text", "Paris trip"),
        ("\n\n  # Heading  \n", "Heading"),
        ("   \n", None),
        ("x" * 100, "x" * 49 + "…"),
        # what the built-in model wrote as a title: a reply, not a title
        ("I'm glad to help, but I'm also here to assist you with any c", None),
        ("Sure! Here is a title for you", None),
        ("What is the capital of France?", None),
        ("Planning a cheap three day trip to Rome with friends in the spring", None),
    ],
)
def test_clean_title(raw: str, expected: str | None) -> None:
    assert clean_title(raw) == expected


def test_fallback_title_is_the_first_words_cut_at_a_word_boundary() -> None:
    assert fallback_title("  one two\nthree four five six seven ") == (
        "one two three four five six seven"
    )
    assert fallback_title("   ") == "Untitled"
    long = "Please **summarise** the attached quarterly statements for the board meeting"
    title = fallback_title(long)
    assert len(title) <= 50 and long.replace("**", "").startswith(title)
    assert not title.endswith(" ") and title.split()[-1] in long  # a whole word, never cut


def test_cut_never_splits_a_word() -> None:
    text = "Configuring reverse proxies with automatic certificate renewal everywhere"
    assert cut(text) == "Configuring reverse proxies with automatic"
    assert cut("short") == "short"
