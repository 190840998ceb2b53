from __future__ import annotations

import pytest

from app.titles import clean_title, fallback_title


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"Capital Cities of Europe".', "Capital Cities of Europe"),
        ("Title: **Paris trip**\nmore text", "Paris trip"),
        ("\n\n  # Heading  \n", "Heading"),
        ("   \n", None),
        ("x" * 100, "x" * 60),
    ],
)
def test_clean_title(raw: str, expected: str | None) -> None:
    assert clean_title(raw) == expected


def test_fallback_title() -> None:
    assert fallback_title("  one two\nthree four five six seven ") == "one two three four five six"
    assert fallback_title("   ") == "Untitled"
