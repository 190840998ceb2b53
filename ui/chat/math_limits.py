"""What the chat will not typeset or draw: formulas that would keep the typesetter busy for
seconds, and pictures too big to keep.

ziamath's time grows exponentially with the nesting of fractions and roots (each level lays
its contents out again), so a formula is refused before it is typeset (``too_hard``) when it
is longer than ``MAX_CHARS``, nests braces deeper than ``MAX_BRACES``, or fractions and roots
(or ``\\left`` delimiters, sized the same way) deeper than ``MAX_NESTED``; it shows as its
source, as a formula that fails does. A picture is at most ``MAX_SIDE`` device pixels a side
and ``MAX_PIXELS`` in all (half of ``math_images.CACHE_BYTES``, so one picture never empties
the cache); a bigger one is drawn smaller (``fitted``) if that keeps it at least
``LEAST_SCALE`` of its size, else refused.
"""

from __future__ import annotations

import math
import re

MAX_CHARS = 2_000
MAX_BRACES = 8
MAX_NESTED = 6
MAX_SIDE = 4096  # device pixels
MAX_PIXELS = 4_000_000  # device pixels (16 MB)
LEAST_SCALE = 0.5

# the commands whose arguments ziamath lays out again for each level: how many they take
_NESTING = {
    "frac": 2,
    "dfrac": 2,
    "tfrac": 2,
    "cfrac": 2,
    "binom": 2,
    "dbinom": 2,
    "tbinom": 2,
    "genfrac": 6,
    "sqrt": 1,
    "root": 1,
}
_TOKEN = re.compile(r"\\([A-Za-z]+)|\\.|\S", re.DOTALL)


def too_hard(latex: str) -> bool:
    """Whether ``latex`` is too long or nests too deeply to be typeset."""
    if len(latex) > MAX_CHARS:
        return True
    level = 0  # how many fractions and roots the group being read is inside
    # per open brace: the level outside it, and the arguments its command still takes after it
    stack: list[tuple[int, int, int]] = []
    pending: tuple[int, int] | None = None  # (the next argument's level, arguments left)
    optional = False  # inside a root's [degree]
    delimiters = 0  # \left without its \right yet
    for found in _TOKEN.finditer(latex):
        part, command = found.group(), found.group(1)
        if optional:
            optional = part != "]"
            continue
        if command in ("left", "right"):
            delimiters += 1 if command == "left" else -1
            if delimiters > MAX_NESTED:
                return True
        elif command in _NESTING:
            base = pending[0] if pending is not None else level
            pending = (base + 1, _NESTING[command])
            if base + 1 > MAX_NESTED:
                return True
        elif part == "[" and pending is not None:
            optional = True
        elif part == "{":
            if len(stack) >= MAX_BRACES:
                return True
            if pending is not None:
                stack.append((level, pending[0], pending[1] - 1))
                level = pending[0]
            else:
                stack.append((level, level, 0))
            pending = None
        elif part == "}":
            if stack:
                level, inner, left = stack.pop()
                pending = (inner, left) if left > 0 else None
        elif pending is not None:  # an argument without braces: \frac12
            pending = (pending[0], pending[1] - 1) if pending[1] > 1 else None
    return False


def fitted(width: float, height: float, ratio: float) -> float:
    """The scale (at most 1) that brings a picture of this logical size within the bounds."""
    side = max(width, height, 1e-9) * ratio
    area = max(width * height, 1e-9) * ratio * ratio
    return min(1.0, MAX_SIDE / side, math.sqrt(MAX_PIXELS / area))
