"""``index_terms`` for many messages at once, the work done in numpy rather than a Python step
per term (docs/indexing-speed.md).

``search_text.index_terms`` is the definition: one message's words, no-space letters and
pairs, and trigrams, each once. This gives the same terms for each message of a batch, each
as often as it occurs rather than once: the index keeps a term once per message whatever
(``detail=none``: a message's row under a term, nothing more), so a message is indexed, and
taken out again (``drop_terms``), with the same terms either way
(tests/store/test_search_text_batch.py checks that, for any text in any script).

How: the batch is folded message by message (``search_text._raw``, the definition), joined
with a separator that folding never gives and that no text of the batch holds, and read as an
array of code points once. Each code point's class (a word letter, a no-space letter, neither)
is one lookup in a table of every code point; words (their first ``PREFIX_FROM`` letters,
behind the marker), trigrams, letters and pairs are then written straight into an array of
the output, every message's terms followed by the separator, which is decoded to one string
and split: no Python step per term, nor per message but the folding and the split.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.store.search_text import _FOLD, PREFIX_FROM, SPACE, WORD_MARK, _raw, index_terms

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# A private-use character: folding keeps it as it is, no other character folds to it, it is
# neither a word letter nor a no-space letter, and NFC never joins anything to or across it.
SEP = "\uf8fe"
_SEP = ord(SEP)
_SPACE = ord(SPACE)
_MARK = ord(WORD_MARK)
# below this many characters in a batch, message by message is faster (numpy's fixed costs)
SMALL_BATCH = 1000
CHUNK = 1 << 20


def index_terms_many(texts: Sequence[str]) -> list[str]:
    """The terms of each text: for each, the terms ``index_terms`` gives (as often as they
    occur), separated by spaces."""
    if sum(map(len, texts)) < SMALL_BATCH:
        return [index_terms(text) for text in texts]
    return batched(texts)


def batched(texts: Sequence[str]) -> list[str]:
    """``index_terms_many`` the numpy way, however few the texts: about ``CHUNK`` characters
    at a time (its arrays take some tens of bytes a character)."""
    made: list[str] = []
    start = held = 0
    for end, text in enumerate(texts, start=1):
        held += len(text)
        if held >= CHUNK or end == len(texts):
            made += _batched(texts[start:end])
            start, held = end, 0
    return made


def _batched(texts: Sequence[str]) -> list[str]:
    import numpy as np

    joined = _GAP + _GAP.join(texts) + _GAP
    try:
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    except UnicodeEncodeError:  # a lone surrogate: the definition drops it
        return [index_terms(text) for text in texts]
    if np.count_nonzero(codes == _SEP) != 2 * (len(texts) + 1):  # a text holds SEP
        return [index_terms(text) for text in texts]
    return _terms(_squeezed(_folded(codes, texts)), len(texts))


_GAP = SEP * 2  # before each text and after the last: the ends of its last trigrams


class _Tables:
    """Each code point folded (``_FOLD``), worked out on first sight (0 until then), as an
    array; each one's class (1 a word letter, 2 a no-space letter, 0 neither); and whether
    NFC may join it to the one before."""

    ODD = 0xFFFFFFFF  # folds to none or to several characters

    def __init__(self) -> None:
        import numpy as np

        from app.store.unicode_classes import JOINING, LETTERS, WORDS

        self.fold = np.zeros(0x110000, dtype=np.uint32)
        self.kind = np.zeros(0x110000, dtype=np.uint8)
        for ranges, kind in ((WORDS, 1), (LETTERS, 2)):
            for low, high in ranges:
                self.kind[low : high + 1] = kind
        self.joining = np.zeros(0x110000, dtype=bool)
        for low, high in JOINING:
            self.joining[low : high + 1] = True

    def folded(self, codes: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
        import numpy as np

        folded = self.fold[codes]
        new = folded == 0  # not seen yet (no character folds to U+0000)
        if not new.any():
            return folded
        for code in np.unique(codes[new]).tolist():
            one = _FOLD[code]
            self.fold[code] = ord(one) if len(one) == 1 else self.ODD
        return self.fold[codes]


@functools.cache
def _tables() -> _Tables:
    return _Tables()


def _folded(codes: npt.NDArray[np.uint32], texts: Sequence[str]) -> npt.NDArray[np.uint32]:
    """``_raw`` of each text, laid out as the texts are (each between two ``SEP``): each code
    point folded by the table (those that fold to none or several replaced by what they
    fold to), and the texts NFC may change then (a character it may join to the one before)
    by ``_raw`` itself."""
    import numpy as np

    tables = _tables()
    folded = tables.folded(codes)
    odd = np.flatnonzero(folded == _Tables.ODD)
    if len(odd):
        folded = _expanded(codes, folded, odd)
    joining = np.flatnonzero(tables.joining[folded])
    if not len(joining):
        return folded
    seps = np.flatnonzero(folded == _SEP)
    owners = np.unique(np.searchsorted(seps, joining) // 2 - 1).tolist()
    pieces, at = [], 0
    for owner in owners:  # each such text's span replaced by its ``_raw``
        start, end = int(seps[2 * owner + 1]) + 1, int(seps[2 * owner + 2])
        raw = np.frombuffer(_raw(texts[owner]).encode("utf-32-le"), dtype=np.uint32)
        pieces += [folded[at:start], raw]
        at = end
    return np.concatenate([*pieces, folded[at:]])


def _expanded(
    codes: npt.NDArray[np.uint32], folded: npt.NDArray[np.uint32], odd: npt.NDArray[np.intp]
) -> npt.NDArray[np.uint32]:
    """``folded`` with the characters at ``odd`` (those of ``codes`` that fold to none or to
    several) replaced by what they fold to."""
    import numpy as np

    kinds = np.unique(codes[odd])
    folds = [_FOLD[code] for code in kinds.tolist()]
    lengths = np.array([len(f) for f in folds], dtype=np.int64)
    data = np.frombuffer("".join(folds).encode("utf-32-le"), dtype=np.uint32)
    which = np.searchsorted(kinds, codes[odd])
    counts = np.ones(len(folded), dtype=np.int64)
    counts[odd] = lengths[which]
    out = np.repeat(folded, counts)
    runs = lengths[which]  # each odd character's fold
    total = int(runs.sum())
    if total:
        into = np.cumsum(counts) - counts  # where each character's fold starts in ``out``
        within = np.arange(total) - np.repeat(np.cumsum(runs) - runs, runs)
        origin = np.cumsum(lengths) - lengths
        out[np.repeat(into[odd], runs) + within] = data[np.repeat(origin[which], runs) + within]
    return out


def _squeezed(codes: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """``fold`` from ``_raw``: runs of spaces made one, none next to a ``SEP``."""
    import numpy as np

    space = codes == 32
    after = np.empty(len(codes), dtype=bool)  # a space after a space or a SEP
    after[0] = space[0]
    after[1:] = space[1:] & (space[:-1] | (codes[:-1] == _SEP))
    codes = codes[~after]
    before = np.zeros(len(codes), dtype=bool)  # a space before a SEP
    before[:-1] = (codes[:-1] == 32) & (codes[1:] == _SEP)
    return codes[~before] if before.any() else codes


def _terms(codes: npt.NDArray[np.uint32], count: int) -> list[str]:
    """The terms of ``count`` folded texts, each between two ``SEP``: four strings of terms,
    each text's ended by a ``SEP`` (the first of the two after it), split and put together."""
    import numpy as np

    size = len(codes)
    gap = codes == _SEP
    end = np.zeros(size, dtype=bool)  # the first SEP after each text
    end[np.flatnonzero(gap)[2::2]] = True
    kinds = _tables().kind[codes]
    parts = [_words(codes, kinds == 1, end), _grams(codes, gap, end)]
    letter = kinds == 2
    if letter.any():
        pair = np.zeros(size, dtype=bool)
        pair[:-1] = letter[:-1] & letter[1:]
        taken = np.flatnonzero(letter | end)
        letters = np.full((len(taken), 2), 32, dtype=np.uint32)
        letters[:, 0] = codes[taken]
        taken = np.flatnonzero(pair | end)
        pairs = np.full((len(taken), 3), 32, dtype=np.uint32)
        pairs[:, 0] = codes[taken]
        pairs[:, 1] = np.where(end[taken], 32, codes[np.minimum(taken + 1, size - 1)])
        parts += [_text(letters.ravel()), _text(pairs.ravel())]
    split = [part.split(SEP)[:count] for part in parts]
    return list(map("".join, zip(*split, strict=True)))


def _words(
    codes: npt.NDArray[np.uint32], word: npt.NDArray[np.bool_], end: npt.NDArray[np.bool_]
) -> str:
    """The words: runs of word letters, their first PREFIX_FROM letters, each behind the
    marker and followed by a space; a SEP after each text's."""
    import numpy as np

    size = len(codes)
    first = np.zeros(size, dtype=bool)
    first[1:] = word[1:] & ~word[:-1]
    at = np.arange(size)
    head = np.where(first, at, 0)
    np.maximum.accumulate(head, out=head)  # where the word each letter is in starts
    word = word & (at - head < PREFIX_FROM)
    last = np.zeros(size, dtype=bool)
    last[:-1] = word[:-1] & ~word[1:]
    taken = np.flatnonzero(word | end)
    heads, tails = first[taken], last[taken]
    # each taken character moves on by the markers up to it and the spaces before it
    spot = np.arange(len(taken)) + np.cumsum(heads) + np.cumsum(tails) - tails
    out = np.full(len(taken) + int(heads.sum()) + int(tails.sum()), 32, dtype=np.uint32)
    out[spot] = codes[taken]
    out[spot[heads] - 1] = _MARK
    return _text(out)


def _grams(
    codes: npt.NDArray[np.uint32], gap: npt.NDArray[np.bool_], end: npt.NDArray[np.bool_]
) -> str:
    """Every character's trigram (a space, and the end, as SPACE), each followed by a space;
    a SEP after each text's."""
    import numpy as np

    spaced = np.where(gap | (codes == 32), _SPACE, codes).astype(np.uint32)
    grams = np.full((len(codes), 4), 32, dtype=np.uint32)
    grams[:-2, 0] = spaced[:-2]
    grams[:-2, 1] = spaced[1:-1]
    grams[:-2, 2] = spaced[2:]
    grams[gap, :3] = 32
    grams[end, 0] = _SEP
    return _text(grams.ravel())


def _text(codes: npt.NDArray[np.uint32]) -> str:
    """A string of these code points (all valid ones: folded text, the marker, SEP): made
    by CPython's ``PyUnicode_FromKindAndData`` from the array as it is, several times faster
    than decoding it as UTF-32, which checks each one; the codec where that is not there."""
    make = _from_kind_and_data()
    if make is None:
        return codes.tobytes().decode("utf-32-le")
    codes = codes if codes.flags.c_contiguous else codes.copy()
    text: str = make(4, codes.ctypes.data, len(codes))
    return text


@functools.cache
def _from_kind_and_data() -> Any:
    try:
        import ctypes

        make = ctypes.pythonapi.PyUnicode_FromKindAndData
    except (ImportError, AttributeError):  # not CPython
        return None
    make.restype = ctypes.py_object
    make.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ssize_t]
    return make
