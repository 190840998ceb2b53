"""A formula as readable plain text, for "Copy as text": ``\\frac{n(n+1)}{2}`` is
``n(n+1)/2``, ``x^2`` is ``x²``, ``\\sum_{k=1}^n`` is ``∑ₖ₌₁ⁿ``.

Letters, operators and arrows become their Unicode characters; a superscript or subscript
whose every character Unicode has raised or lowered is written so, any other as ``^x`` or
``^(x+y)``; ``\\text{...}`` is its text; thin spaces are one space; an environment's rows are
lines, its ``&`` dropped. A command it does not know stays as written.

pylatexenc's ``LatexNodes2Text`` (2.11) was tried first: it leaves ``x^2`` as is, and loses
the braces of a script (``\\sum_{k=1}^n`` was ``∑_k=1^n``), so this is a small converter.
"""

from __future__ import annotations

import re

from app.markup.math_symbols import (
    ACCENTS,
    DOUBLE_STRUCK,
    FUNCTIONS,
    SUBSCRIPT,
    SUPERSCRIPT,
    SYMBOLS,
)

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\\$|[{}^_&~]|\s+|[^\\{}^_&~\s]")

# commands whose argument is shown as it stands
_AS_IS = frozenset(
    [
        "text",
        "textrm",
        "textbf",
        "textit",
        "texttt",
        "textsf",
        "mathrm",
        "mathbf",
        "mathit",
        "mathsf",
        "mathtt",
        "mathcal",
        "mathscr",
        "mathfrak",
        "operatorname",
        "boldsymbol",
        "bm",
        "boxed",
        "mbox",
        "hbox",
        "displaystyle_arg",
    ]
)
# commands dropped with their one argument
_DROPPED_WITH_ARGUMENT = frozenset(["label", "phantom", "hphantom", "vphantom"])
# commands dropped alone
_DROPPED = frozenset(
    [
        "left",
        "right",
        "big",
        "Big",
        "bigg",
        "Bigg",
        "bigl",
        "bigr",
        "Bigl",
        "Bigr",
        "biggl",
        "biggr",
        "middle",
        "displaystyle",
        "textstyle",
        "scriptstyle",
        "limits",
        "nolimits",
        "nonumber",
        "notag",
    ]
)
_SPACES = frozenset(["\\,", "\\;", "\\:", "\\ ", "\\quad", "\\qquad", "~", "\\enspace"])
_FRACTIONS = frozenset(["\\frac", "\\dfrac", "\\tfrac", "\\cfrac"])
_PRIMES = frozenset(["\u2032", "\u2033", "\u2034", "*", "\u2217", "°"])  # x^\prime, x^*
_OPERATOR = re.compile("[\\s+\\-\u2212=<>≤≥≠·\u00d7÷/±∓,]")  # a fraction's part needs ()
_ROOTS = {"": "√", "3": "∛", "4": "∜"}
_ENVIRONMENTS_WITH_SPEC = frozenset(["array", "alignedat", "alignat", "alignat*"])


def linear(latex: str) -> str:
    """``latex`` (a formula without its delimiters, or an environment) as one line of
    readable text, or one line per row."""
    text = _Reader(_TOKEN.findall(latex)).sequence()
    lines = (_tidy(line) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _tidy(line: str) -> str:
    """One space between words, none inside brackets' edges."""
    line = re.sub(r"[ \t]+", " ", line).strip()
    return re.sub(r"([(\[]) | ([)\]])", lambda m: m[1] or m[2], line)


class _Reader:
    """A recursive reading of the tokens: each method returns the text of what it read."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def take(self) -> str:
        piece = self.peek()
        self.at += 1
        return piece

    def sequence(self, until: str = "") -> str:
        parts: list[str] = []
        while self.at < len(self.tokens):
            if self.peek() == "}" or (until and self.peek() == until):
                break
            parts.append(self.item())
        return "".join(parts)

    def skip_spaces(self) -> None:
        while self.peek().isspace() and self.peek():
            self.at += 1

    def argument(self) -> str:
        """The next group's text, or the next single item."""
        self.skip_spaces()
        if self.peek() == "{":
            self.take()
            text = self.sequence()
            if self.peek() == "}":
                self.take()
            return text
        if not self.peek():
            return ""
        return self.item()

    def optional(self) -> str:
        """A ``[...]`` argument's text, or "" when there is none."""
        self.skip_spaces()
        if self.peek() != "[":
            return ""
        self.take()
        text = self.sequence(until="]")
        if self.peek() == "]":
            self.take()
        return text

    def item(self) -> str:
        piece = self.take()
        if piece == "{":
            text = self.sequence()
            if self.peek() == "}":
                self.take()
            return text
        if piece in ("^", "_"):
            return _script(self.argument(), SUPERSCRIPT if piece == "^" else SUBSCRIPT, piece)
        if piece == "&":
            return " "
        if piece == "\\\\":
            self.optional()
            return "\n"
        if piece in _SPACES:
            return " "
        if piece.startswith("\\"):
            return self.command(piece)
        return piece

    def command(self, piece: str) -> str:
        name = piece[1:]
        if piece in _FRACTIONS:
            top, bottom = self.argument(), self.argument()
            return f"{_wrapped(top)}/{_wrapped(bottom)}"
        if name == "sqrt":
            degree = self.optional()
            root = _ROOTS.get(degree) or f"{_script(degree, SUPERSCRIPT, '^')}√"
            return root + _wrapped(self.argument())
        if name == "binom":
            top, bottom = self.argument(), self.argument()
            return f"C({top}, {bottom})"
        if name == "begin":
            return self.environment(self.argument())
        if name == "end":
            self.argument()
            return "\n"
        if name in ("overset", "underset", "stackrel"):
            self.argument()
            return self.argument()
        if name == "tag":
            return f" ({self.argument()})"
        if name == "not":
            following = self.argument()
            return {"=": "≠", "<": "≮", ">": "≯", "∈": "∉", "⊂": "⊄"}.get(following, following)
        if name in _AS_IS:
            return self.argument()
        if name in _DROPPED_WITH_ARGUMENT:
            self.argument()
            return ""
        if name in _DROPPED:
            return self.delimiter() if name not in ("displaystyle", "textstyle") else ""
        if name in ("mathbb", "Bbb"):
            text = self.argument()
            return "".join(DOUBLE_STRUCK.get(c, c) for c in text)
        if name in ACCENTS:
            return _accented(self.argument(), ACCENTS[name])
        if name in FUNCTIONS:
            following = self.peek()
            if following[:1].isalnum() or (following[:1] == "\\" and following[1:2].isalpha()):
                return f"{name} "
            return name
        if piece in SYMBOLS:
            return SYMBOLS[piece]
        groups = []
        while self.peek() == "{":
            groups.append(f"{{{self.argument()}}}")
        return piece + "".join(groups)

    def delimiter(self) -> str:
        """What follows ``\\left``, ``\\big``...: the delimiter, ``.`` being none."""
        if self.peek() in ("(", ")", "[", "]", "|", "/", "<", ">"):
            return self.take()
        if self.peek() == ".":
            self.take()
            return ""
        return ""

    def environment(self, name: str) -> str:
        if name in _ENVIRONMENTS_WITH_SPEC:
            self.argument()
        body = self.sequence_until_end()
        return f"\n{body}\n"

    def sequence_until_end(self) -> str:
        parts: list[str] = []
        while self.at < len(self.tokens) and self.peek() != "\\end":
            if self.peek() == "}":  # a stray brace ends nothing here
                self.take()
                continue
            parts.append(self.item())
        if self.peek() == "\\end":
            self.take()
            self.argument()
        return "".join(parts)


def _script(text: str, table: dict[str, str], mark: str) -> str:
    """``text`` raised or lowered if Unicode has every character of it so, else ``^x`` /
    ``^(x+1)``."""
    stripped = text.strip()
    if not stripped:
        return ""
    if mark == "^" and stripped in _PRIMES:
        return stripped
    squeezed = stripped.replace(" ", "")
    if all(c in table for c in squeezed):
        return "".join(table[c] for c in squeezed)
    return mark + (stripped if len(stripped) == 1 else f"({stripped})")


def _wrapped(text: str) -> str:
    """``text`` in parentheses when it is more than one term."""
    text = text.strip()
    if len(text) <= 1 or _enclosed(text):
        return text
    bare = text
    while (inner := re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", bare)) != bare:
        bare = inner
    if _OPERATOR.search(bare):
        return f"({text})"
    return text


def _enclosed(text: str) -> bool:
    """Whether ``text`` is one parenthesised whole, as ``(a+b)`` and not ``(a)(b)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _accented(text: str, mark: str) -> str:
    text = text.strip()
    if len(text) == 1:
        return text + mark
    if mark == "\u0305":  # an overline over each character
        return "".join(c + mark for c in text)
    return f"{text}{mark}" if not text else f"({text}){mark}"
