"""How text is folded and cut into search terms: one definition for the index, the queries and
the highlighting, so what is indexed, what is asked and what is marked always agree
(docs/search.md).

Folding makes matching case-, width- and accent-insensitive ("CAFÉ", "café" and "cafe" fold
alike, as do full-width and ordinary letters). It uses the Unicode 3.2 tables that every Python
ships (``unicodedata.ucd_3_2_0``), never the running Python's newer ones: the index does not keep
the folded text (that would store everything twice), so removing a message's terms means folding
its text again, which must give the same terms under any later Python. Characters assigned
after Unicode 3.2 are kept as they are.

A message's terms, in one FTS5 column (``ascii`` tokenizer, ``detail=none``):

- its words: runs of letters, digits and marks ("capital", "parse", "args", "2026"), each by
  its first three letters ("cap", "par", "arg", "202"): a query word of three letters or more
  is the start of a word (``Way.PREFIX``), so those three are what its lookup needs, and the
  rest is checked with the trigrams; a word of one or two letters is kept whole ("go");
- each character of a script written without spaces (Han, kana, Hangul, Thai, ...) and each
  pair of neighbours in such a run ("東", "京", "東京"), so one- and two-character queries in
  those scripts are single index lookups;
- every three characters of the folded text, spaces and punctuation included (and two spaces
  after its end, so that every character starts one): a substring of three or more characters
  is found through the trigrams it is made of (and then checked in the text), a shorter one
  ("c#", "😀") as the start of a trigram.
"""

from __future__ import annotations

import bisect
import enum
import functools
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec

_UCD = unicodedata.ucd_3_2_0

# Marks that are accents on a letter, not letters of their own: dropped ("é" -> "e", Greek
# tonos, Arabic harakat, Hebrew points). Japanese voicing marks (U+3099, U+309A) stay.
_ACCENTS = re.compile(
    "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
    "\u064b-\u065f\u0670\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]"
)

# Scripts written without spaces between words (code point ranges, the same in every Unicode
# version): each of their letters is a term of its own.
_NO_SPACE = (
    (0x0E00, 0x0FFF),  # Thai, Lao, Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul jamo
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x9FFF),  # CJK symbols (々), kana, Bopomofo, CJK unified ideographs
    (0xA000, 0xA4CF),  # Yi
    (0xA960, 0xA97F),  # Hangul jamo extended
    (0xAC00, 0xD7FF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF65, 0xFFDC),  # halfwidth kana and Hangul
)
_NO_SPACE_ASTRAL = ((0x1B000, 0x1B2FF), (0x20000, 0x3FFFF))  # kana supplements, CJK B and on
_LETTERS_ASTRAL = ((0x10300, 0x1044F), (0x1D000, 0x1D7FF))  # other astral letters of 3.2

# The index's tokenizer splits at spaces only (ASCII punctuation is made part of its tokens,
# ``search.SCHEMA``); in trigrams a space stands in as a noncharacter, which folding never
# outputs, and words carry a marker that keeps them apart from trigrams ("cat" the word, "cat"
# the three letters in "concatenate").
PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
SPACE = "\ufffe"
WORD_MARK = "\uffff"
MAX_GRAMS = 24  # a long substring is looked up by this many of its trigrams, then checked
PREFIX_FROM = 3  # shorter words match whole words: "go" is not every word starting with go
# the documents' index (app/knowledge) keeps each word whole, up to LONGEST_WORD letters
# (longer runs, base64 or "qqqq...", by their start), with a prefix index of the marker and
# the first three letters; the messages' index keeps those three letters alone
PREFIX_INDEXED = PREFIX_FROM + 1
LONGEST_WORD = 40

# ASCII folds by a byte table: letters lowered, control characters made spaces
_ASCII = bytes.maketrans(
    bytes([*range(32), 127, *range(65, 91)]), b" " * 33 + bytes(range(97, 123))
)


def _ascii(text: str) -> str:
    return text.encode("ascii").translate(_ASCII).decode("ascii")


def _fold_char(char: str) -> str:
    category = _UCD.category(char)
    if category in ("Zs", "Zl", "Zp", "Cc"):
        return " "
    if category in ("Cf", "Cs"):  # format controls (soft hyphen, joiners), lone surrogates
        return ""
    if category == "Cn":  # unassigned in Unicode 3.2 (newer emoji, ...): kept as it is
        code = ord(char)
        return " " if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE else char
    lowered = _ACCENTS.sub("", _UCD.normalize("NFKD", char)).casefold()
    return _UCD.normalize("NFC", _ACCENTS.sub("", _UCD.normalize("NFKD", lowered)))


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table that folds each character, worked out once per character;
    it notes the characters that fold to none or to several (an accent, "ß", "ﬁ")."""

    def __init__(self) -> None:
        super().__init__()
        self.irregular: set[str] = set()  # it only grows: its size says if a pattern is stale
        self._irregular = (re.compile("[\x00]"), 0)

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        if len(folded) != 1:
            self.irregular.add(chr(code))
        return folded

    def irregulars(self) -> re.Pattern[str]:
        """The irregular characters met so far (all of those in a text just folded)."""
        pattern, size = self._irregular
        if size != len(self.irregular):
            chars = sorted(self.irregular)
            pattern = re.compile(f"[{re.escape(''.join(chars))}]")
            self._irregular = pattern, len(chars)
        return pattern


_FOLD = _FoldTable()


class _Classes(msgspec.Struct, frozen=True):
    token: re.Pattern[str]  # a no-space letter (group 1), or a word: a run of other letters
    word: re.Pattern[str]  # a word
    letter: re.Pattern[str]  # a no-space letter
    pair: re.Pattern[str]  # two no-space letters (group 1; overlapping, by lookahead)
    joining: re.Pattern[str]  # a character NFC may join to the one before it
    word_letter: str  # one letter of a word (a regex)


def unicode_ranges() -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """The code point ranges of no-space-script letters, word letters and characters NFC may
    join to the one before, from the Unicode 3.2 tables. They never change, and computing them
    is slow, so they ship precomputed in ``unicode_classes.py`` (written by
    ``python -m app.store.search_text``; a test checks it matches)."""
    inside = bytearray(0x10000)  # in a no-space script (the BMP ones; astral ones below)
    for low, high in _NO_SPACE:
        inside[low : high + 1] = b"\x01" * (high + 1 - low)
    codes = [*range(0x10000), *(c for low, high in _LETTERS_ASTRAL for c in range(low, high + 1))]
    chars = list(map(chr, codes))
    kinds = [
        (2 if code < 0x10000 and inside[code] else 1)
        if category[0] in "LNM" or (category == "Cn" and code < 0x10000 and inside[code])
        else 0
        for code, category in zip(codes, map(_UCD.category, chars), strict=True)
    ]
    joins = [
        code for code, combining in zip(codes, map(_UCD.combining, chars), strict=True) if combining
    ]
    letters = _runs(codes, kinds, 2) + list(_NO_SPACE_ASTRAL)
    words = _runs(codes, kinds, 1)
    joining = [(c, c) for c in joins] + [(0x1160, 0x11FF), (0x3099, 0x309A)]
    return letters, words, joining


@functools.cache
def _both() -> tuple[_Classes, _Classes]:
    """The classes, compiled once on first use: for text of the BMP alone, and for any text.
    ``re`` tests a BMP class with one table lookup, but one with astral ranges range by range:
    several times slower on every character."""
    from app.store.unicode_classes import JOINING, LETTERS, WORDS

    bmp = [[(low, min(high, 0xFFFF)) for low, high in part if low <= 0xFFFF]
           for part in (LETTERS, WORDS, JOINING)]  # fmt: skip
    return _compiled(*bmp), _compiled(LETTERS, WORDS, JOINING)


def warm() -> None:
    """Compile the classes now, which takes a noticeable while: the window does it on a thread
    after its first paint, rather than inside the first append with non-ASCII text."""
    _both()


def write_unicode_classes(path: Path) -> None:
    """Write ``unicode_ranges()`` as the module ``_both`` reads."""
    letters, words, joining = unicode_ranges()
    lines = [
        '"""Generated by `python -m app.store.search_text`: the ranges of',
        '``search_text.unicode_ranges()`` (Unicode 3.2, frozen). Do not edit."""',
        "",
    ]
    for name, ranges in (("LETTERS", letters), ("WORDS", words), ("JOINING", joining)):
        lines.append(f"{name}: list[tuple[int, int]] = [")
        lines += [f"    ({low:#x}, {high:#x})," for low, high in ranges]
        lines.append("]")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _compiled(
    letters: list[tuple[int, int]], words: list[tuple[int, int]], joining: list[tuple[int, int]]
) -> _Classes:
    letter, word_letter = f"[{_ranges(letters)}]", f"[{_ranges(words)}]"
    return _Classes(
        token=re.compile(f"({letter})|{word_letter}+"),
        word=re.compile(f"{word_letter}+"),
        letter=re.compile(letter),
        pair=re.compile(f"(?=({letter}{letter}))"),
        joining=re.compile(f"[{_ranges(joining)}]"),
        word_letter=word_letter,
    )


def _classes(text: str = "\U00010000") -> _Classes:
    """The classes for ``text``: the fast ones if it is all in the BMP."""
    bmp, full = _both()
    return full if _ASTRAL.search(text) else bmp


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _runs(codes: list[int], kinds: list[int], kind: int) -> list[tuple[int, int]]:
    """The ranges of consecutive codes of this kind."""
    ranges: list[tuple[int, int]] = []
    start = previous = -2
    for code, this in zip(codes, kinds, strict=True):
        if this == kind and start >= 0 and code == previous + 1:
            previous = code
            continue
        if start >= 0:
            ranges.append((start, previous))
        start = previous = code if this == kind else -2
    if start >= 0:
        ranges.append((start, previous))
    return ranges


def _ranges(ranges: list[tuple[int, int]]) -> str:
    """A regex class body for these code point ranges, merged."""
    merged: list[list[int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return "".join(
        f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}" for low, high in merged
    )


# --- folding ------------------------------------------------------------------------------


def _raw(text: str) -> str:
    """Each character folded (then composed, where NFC joins them); whitespace as it was."""
    if text.isascii():
        return _ascii(text)
    folded = text.translate(_FOLD)
    return _UCD.normalize("NFC", folded) if _classes(folded).joining.search(folded) else folded


def fold(text: str) -> str:
    """``text`` folded for matching: its whitespace runs made single spaces, its ends stripped."""
    return " ".join(_raw(text).split())


class _Map(msgspec.Struct, frozen=True):
    """A piecewise map of positions: ``p`` goes to ``origins[k] + p - anchors[k]`` for the
    last anchor ``anchors[k] <= p``, so text that folds one character to one (nearly all of
    it) needs no per-character bookkeeping."""

    anchors: list[int]
    origins: list[int]

    def __call__(self, position: int) -> int:
        k = bisect.bisect_right(self.anchors, position) - 1
        return self.origins[k] + position - self.anchors[k]


class Folded:
    """Folded text (as ``fold`` gives it) that knows where its characters came from."""

    def __init__(self, text: str, squeezing: _Map, folding: Callable[[], _Map]) -> None:
        self.text = text
        self.squeezing = squeezing  # folded position -> position before squeezing whitespace
        self._folding = folding  # that -> position in the original text (worked out if asked)

    @functools.cached_property
    def folding(self) -> _Map:
        return self._folding()

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of folded ``text[start:end]`` (``end > start``): from where its
        first character came from to where the next one starts (an accent dropped after it,
        the rest of a composed cluster included)."""
        last = self.squeezing(end - 1)
        after = max(self.folding(last) + 1, self.folding(last + 1))
        return self.folding(self.squeezing(start)), after


def fold_mapped(text: str) -> Folded:
    """``fold(text)``, knowing the origin of each character (to mark matches in ``text``)."""
    folding: Callable[[], _Map]
    if text.isascii():
        raw, folding = _ascii(text), lambda: _Map([0], [0])
    else:
        raw = text.translate(_FOLD)
        if _classes(raw).joining.search(raw):
            raw, composed = _composed(text)
            folding = lambda: composed  # noqa: E731
        else:
            folding = lambda: _irregular(text)  # noqa: E731
    anchors, origins = [0], [0]
    removed = 0
    for run in _SPACE_RUNS.finditer(raw):
        start, end = run.span()
        removed += end - start - (start > 0 and end < len(raw))  # one inner space stays
        anchors.append(end - removed)
        origins.append(end)
    return Folded(" ".join(raw.split()), _Map(anchors, origins), folding)


_SPACE_RUNS = re.compile("^ +| +$| {2,}")


def _irregular(text: str) -> _Map:
    """Anchors at the characters that fold to none or to several (an accent, "ß", "ﬁ")."""
    anchors, origins = [0], [0]
    shift = 0  # folded position minus original position, so far
    for found in _FOLD.irregulars().finditer(text):
        index, length = found.start(), len(_FOLD[ord(found.group())])
        position = index + shift
        anchors += range(position + 1, position + length)  # "ß" -> "ss": both from index
        origins += [index] * (length - 1)
        anchors.append(position + length)
        origins.append(index + 1)
        shift += length - 1
    return _Map(anchors, origins)


def _composed(text: str) -> tuple[str, _Map]:
    """The slow way, for text NFC changes after folding (decomposed or halfwidth kana, Thai,
    Devanagari, ...): a cluster (a character and what joins it) at a time."""
    joining = _classes(text).joining
    parts: list[str] = []
    anchors: list[int] = []
    origins: list[int] = []
    index = position = 0
    while index < len(text):
        end = index + 1
        while end < len(text) and (
            not _FOLD[ord(text[end])] or joining.match(_FOLD[ord(text[end])])
        ):
            end += 1
        part = _UCD.normalize("NFC", text[index:end].translate(_FOLD))
        parts.append(part)
        anchors += range(position, position + len(part))
        origins += [index] * len(part)
        position += len(part)
        index = end
    return "".join(parts), _Map([*anchors, position], [*origins, len(text)])


# --- terms --------------------------------------------------------------------------------


def words(folded: str) -> Iterator[re.Match[str]]:
    """The words of folded text: runs of word characters, and each letter of a no-space
    script (group 1 set)."""
    return _tokenizer(folded).finditer(folded)


def _tokenizer(folded: str) -> re.Pattern[str]:
    return _ASCII_TOKEN if folded.isascii() else _classes(folded).token


_ASCII_TOKEN = re.compile("((?!))|[0-9a-z]+")  # the same as _classes().token on folded ASCII


def index_terms(text: str) -> str:
    """What the index holds for a message: its words (their first three letters), its
    no-space letters and their pairs, its trigrams (see the module's docstring), each once,
    separated by spaces."""
    folded = fold(text)
    if folded.isascii():
        terms = _ASCII_WORD.findall(folded)
    else:
        classes = _classes(folded)
        terms = classes.word.findall(folded)
    terms = [t[:PREFIX_FROM] for t in terms]
    marked = WORD_MARK + f" {WORD_MARK}".join(dict.fromkeys(terms)) if terms else ""
    grams = _TRIGRAMS.findall(f"{folded}  ".replace(" ", SPACE))  # every character starts one
    parts = [marked, " ".join(dict.fromkeys(grams))]
    if not folded.isascii():
        parts.append(" ".join(dict.fromkeys(classes.letter.findall(folded))))
        parts.append(" ".join(dict.fromkeys(classes.pair.findall(folded))))
    return " ".join(parts)


_ASCII_WORD = re.compile("[0-9a-z]+")
_TRIGRAMS = re.compile("(?=(...))", re.DOTALL)


class Way(enum.Enum):
    """How a term is looked up (docs/search.md, "Query language")."""

    WORD = "a whole word"  # words shorter than PREFIX_FROM
    PREFIX = "a word prefix"  # "capit" finds "capital"
    LETTERS = "one or two no-space letters"  # "猫", "東京": one index term
    GRAMS = "a substring"  # three or more characters, through its trigrams
    SHORT = "a short substring"  # "c#", "😀", "ab" in quotes: the start of a trigram


class TermPlan(msgspec.Struct, frozen=True):
    """A query term, folded, and how it is looked up."""

    needle: str
    way: Way

    @property
    def exact(self) -> bool:
        """Whether the index alone decides (else each candidate's text is checked)."""
        if self.way is Way.GRAMS or self.way is Way.PREFIX:
            return len(self.needle) == 3  # one trigram, or the three letters the index keeps
        return True

    def match(self) -> str:
        """The FTS5 expression that finds (at least) the messages with this term."""
        if self.way is Way.WORD or self.way is Way.LETTERS:
            return _quoted(WORD_MARK + self.needle if self.way is Way.WORD else self.needle)
        if self.way is Way.PREFIX:  # a word starting with its first three letters (the term
            # the index keeps for every word), with the rest's trigrams
            start = _quoted(WORD_MARK + self.needle[:PREFIX_FROM])
            return (
                f"({' AND '.join([start, *map(_quoted, self._spread())])})"
                if len(self.needle) > PREFIX_FROM
                else start
            )
        if self.way is Way.GRAMS:
            return "(" + " AND ".join(map(_quoted, self._spread())) + ")"
        return _quoted(self.needle.replace(" ", SPACE)) + "*"  # SHORT: a trigram's start

    @property
    def merged(self) -> bool:
        """Whether its lookup merges many index terms into memory each time it is made (the
        trigrams a short substring starts): one lookup is fine, one per message is not."""
        return self.way is Way.SHORT

    def _spread(self) -> list[str]:
        """Its distinct trigrams, at most ``MAX_GRAMS`` spread over the whole needle."""
        grams = list(dict.fromkeys(self._grams()))
        if len(grams) > MAX_GRAMS:
            grams = [grams[n * len(grams) // MAX_GRAMS] for n in range(MAX_GRAMS)]
        return grams

    def _grams(self) -> list[str]:
        return _TRIGRAMS.findall(self.needle.replace(" ", SPACE))

    def found(self, folded: str) -> bool:
        """Whether the term is in folded text."""
        if self.way is Way.WORD or self.way is Way.PREFIX:
            return self._pattern(folded).search(folded) is not None
        return self.needle in folded

    def spans(self, folded: str) -> Iterator[tuple[int, int]]:
        """Where the term is in folded text: (start, end) of each match."""
        if self.way is Way.WORD or self.way is Way.PREFIX:
            for match in self._pattern(folded).finditer(folded):
                yield match.span()
            return
        start = folded.find(self.needle)
        while start >= 0:
            yield start, start + len(self.needle)
            start = folded.find(self.needle, start + len(self.needle))

    def _pattern(self, folded: str) -> re.Pattern[str]:
        """The needle at the start of a word (and, for a whole word, at its end too)."""
        letter = "[0-9a-z]" if folded.isascii() else _classes(folded).word_letter
        return _word_pattern(self.needle, self.way is Way.WORD, letter)


@functools.lru_cache(maxsize=256)
def _word_pattern(needle: str, whole: bool, letter: str) -> re.Pattern[str]:
    after = f"(?!{letter})" if whole else ""
    return re.compile(f"(?<!{letter}){re.escape(needle)}{after}")


def _quoted(term: str) -> str:
    """An FTS5 string: one term, taken as it is."""
    return '"' + term.replace('"', '""') + '"'


def plan(text: str, phrase: bool) -> TermPlan | None:
    """How a query term is looked up; None if it folds to nothing (a lone accent, a joiner).

    A word of a spaced script (not quoted) is a word or a word prefix; anything else is a
    substring: found through its trigrams from three characters on, below that as a no-space
    letter or pair, or else as the start of a trigram."""
    needle = fold(text)
    if not needle:
        return None
    token = _tokenizer(needle).fullmatch(needle)
    if not phrase and token is not None and token.group(1) is None:
        return TermPlan(needle, Way.PREFIX if len(needle) >= PREFIX_FROM else Way.WORD)
    if len(needle) >= 3:
        return TermPlan(needle, Way.GRAMS)
    letters = [m for m in words(needle) if m.group(1) is not None]
    if sum(len(m.group()) for m in letters) == len(needle):
        return TermPlan(needle, Way.LETTERS)
    return TermPlan(needle, Way.SHORT)


if __name__ == "__main__":
    write_unicode_classes(Path(__file__).with_name("unicode_classes.py"))
