"""Where a reply's math is: the delimiters models write, found by a markdown-it-py parser.

``add_math`` teaches a parser every delimiter (docs/math.md, "Where math is found"):
``$...$`` and ``\\(...\\)`` inline; ``$$...$$`` and ``\\[...\\]`` display, on their own lines
or inside a paragraph, across lines too; ``\\begin{align}...\\end{align}`` and the other
environments as display math. Each formula is one token whose type is a key of
``MATH_TOKENS``; ``latex_of`` is the LaTeX to typeset, ``source_of`` the text as written.

Dollars are read as Pandoc reads them, which keeps prices and shell variables text: an
opening ``$`` has a non-space after it and no digit or ASCII letter before it, a closing
``$`` has a non-space before it and no digit after it; and more than Pandoc, a formula holds
no backtick (a code span wins) and does not end in ``/``, ``:`` or ``=`` (``$HOME/$USER``),
and shell variables side by side are text (``$a$b``, ``${HOME}${SUFFIX}``: ``_shell_variables``).
``$$`` on its own line needs its closing ``$$`` before a blank line, and a line holding
another ``$$`` (``$$a$$ and $$b$$``) is read as a paragraph's formulas. Words between
delimiters are text (``$$ is the shell PID; $$``, ``\\[Note\\]``: ``_prose``), and so is an
escaped task box (``- \\[x\\] done``).

mdit-py-plugins' ``dollarmath`` (its block rule) and ``amsmath`` do the blocks; dollars in
a paragraph, the bracket delimiters and the environments outside amsmath's list (``cases``,
``aligned``, ``array``...) are rules of this module. texmath's ``brackets`` rules
(mdit-py-plugins 0.7.0) drop the text after a ``\\]`` on the same line, read a parenthesis
after it as an equation number, do not see ``\\[`` inside a paragraph, and share their rule
names with dollarmath's.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.ruler import RuleOptionsType
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.amsmath import ENVIRONMENTS as AMSMATH_ENVIRONMENTS
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.dollarmath.index import math_block_dollar

# token type -> shown as display math (True) or in the line (False)
MATH_TOKENS: dict[str, bool] = {
    "math_inline": False,  # $x$ and \(x\)
    "math_inline_double": True,  # $$x$$, \[x\] or an environment inside a paragraph
    "math_block": True,  # $$x$$ and \[x\] on their own lines
    "math_block_label": True,  # dollarmath's $$x$$ (label): labels are off, kept for safety
    "amsmath": True,  # \begin{align}...\end{align} on its own lines
}

# the environments read as display math: amsmath's and those it leaves out
EXTRA_ENVIRONMENTS = (
    "cases",
    "dcases",
    "aligned",
    "gathered",
    "split",
    "alignedat",
    "array",
    "smallmatrix",
    "subequations",
)
ENVIRONMENTS = (*AMSMATH_ENVIRONMENTS, *EXTRA_ENVIRONMENTS)
_ENV = r"\\begin\{(" + "|".join(ENVIRONMENTS) + r")(\*?)\}"
_EXTRA_OPEN = re.compile(r"\\begin\{(" + "|".join(EXTRA_ENVIRONMENTS) + r")(\*?)\}")
_ENV_OPEN = re.compile(_ENV)

# what a shell variable before another ends with, and a formula does not
_SHELL_ENDS = frozenset("/:=")
# a shell variable's name, as a $...$ formula's content: ``$a$b``, ``${a}-${b}``
_SHELL_NAME = re.compile(r"\{?[A-Za-z_]\w*\}?-?")
# what starts the next shell variable or word right after ``$name$``
_SHELL_NEXT = re.compile(r"[A-Za-z_{$]")
# an English ordinal after a formula: ``the $n$th term``
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
# words, not math: letters, spaces and a sentence's punctuation, a word of two letters or more
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_PUNCTUATION = frozenset(".,;:!?'\u2019-")
_WORD = re.compile(r"[A-Za-z]{2}")

# markup -> closing delimiter, for source_of
_CLOSING = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


def add_math(md: MarkdownIt) -> MarkdownIt:
    """``md`` taught every math delimiter (the module's docstring); returns ``md``."""
    dollarmath_plugin(
        md,
        allow_labels=False,
        allow_space=False,
        allow_digits=False,
        allow_blank_lines=False,
        double_inline=True,
    )
    md.block.ruler.at("math_block", _dollar_block)
    md.inline.ruler.at("math_inline", _dollar_inline)
    amsmath_plugin(md)
    alt: RuleOptionsType = {"alt": ["paragraph", "reference", "blockquote", "list"]}
    md.block.ruler.before("amsmath", "math_environment", _environment_block, alt)
    md.block.ruler.before("amsmath", "math_bracket_block", _bracket_block, alt)
    md.inline.ruler.before("escape", "math_bracket", _bracket_inline)
    md.inline.ruler.before("escape", "math_environment_inline", _environment_inline)
    return md


@cache
def parser() -> MarkdownIt:
    """CommonMark with tables and math, raw HTML off, shared: parse with it, never add
    render rules to it (make your own with ``add_math(MarkdownIt(...))``)."""
    return add_math(MarkdownIt("commonmark", {"html": False}).enable("table"))


def is_math(token: Token) -> bool:
    return token.type in MATH_TOKENS


def is_display(token: Token) -> bool:
    return MATH_TOKENS[token.type]


def latex_of(token: Token) -> str:
    """The LaTeX to typeset: the formula without its delimiters; an environment whole, from
    ``\\begin`` to ``\\end`` (ziamath and latex2mathml read ``align``, ``cases``, the
    matrices... as written)."""
    return token.content.strip()


def source_of(token: Token) -> str:
    """The formula as the model wrote it, delimiters included."""
    closing = _CLOSING.get(token.markup)
    if closing is None:  # an environment: its content is its source
        return token.content.strip("\n")
    return f"{token.markup}{token.content}{closing}"


# --- dollars ----------------------------------------------------------------------------------

_DOLLAR_BLOCK = math_block_dollar(allow_labels=False, allow_blank_lines=False)


def _prose(content: str) -> bool:
    """Whether a formula's content is words, not math: ``$$ is the shell PID; $$``,
    ``\\[citation needed\\]``. ASCII letters, spaces and a sentence's punctuation only,
    with a word of two letters or more (``\\[x\\]``, ``\\[a, b\\]`` stay math)."""
    text = content.strip()
    plain = all(c in _LETTERS or c in _PUNCTUATION or c.isspace() for c in text)
    return plain and _WORD.search(text) is not None


def _dollar_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """dollarmath's block rule for ``$$`` lines, declining a formula that holds another
    unescaped ``$$`` (``$$a$$ and $$b$$`` on one line is two formulas, which the inline rule
    finds, not the one ``a$$ and $$b``) or is words (``_prose``)."""
    tokens, line = len(state.tokens), state.line
    if not _DOLLAR_BLOCK(state, start_line, end_line, False):
        return False
    content = state.tokens[-1].content
    found = _closing(content, "$$", 0, len(content)) < 0 and not _prose(content)
    if silent or not found:
        del state.tokens[tokens:]
        state.line = line
    return found


def _dollar_inline(state: StateInline, silent: bool) -> bool:
    """``$x$`` and ``$$x$$`` in a paragraph, read as the module's docstring says.

    dollarmath's own inline rule (mdit-py-plugins 0.7.0) reads the character before a ``$``
    that opens a paragraph as the paragraph's last one (``$x$ costs 5`` was no formula), and
    has none of the checks beyond Pandoc's; this rule replaces it."""
    src, start, stop = state.src, state.pos, state.posMax
    if src[start] != "$" or _escaped(src, start):
        return False
    before = src[start - 1] if start else ""
    if before.isdigit() or (before.isascii() and before.isalpha()):
        return False
    mark = "$$" if src.startswith("$$", start) else "$"
    end = _closing(src, mark, start + len(mark), stop)
    if end < 0:
        return False
    content = src[start + len(mark) : end]
    after = end + len(mark)
    if not content.strip() or "`" in content or src[after : after + 1].isdigit():
        return False
    if mark == "$" and (
        content[0].isspace() or content[-1].isspace() or content[-1] in _SHELL_ENDS
    ):
        return False
    if mark == "$" and _shell_variables(content, src[after:stop]):
        return False
    if mark == "$$" and _prose(content):
        return False
    if not silent:
        token = state.push("math_inline" if mark == "$" else "math_inline_double", "math", 0)
        token.content = content
        token.markup = mark
    state.pos = after
    return True


def _shell_variables(content: str, rest: str) -> bool:
    """Whether ``$content$`` then ``rest`` is shell variables side by side: ``$a$b``,
    ``$SRC$EXT``, ``${HOME}${SUFFIX}``, ``${a}-${b}`` (the name in braces, or the next
    variable or word right after the closing ``$``; ``the $n$th term`` stays math)."""
    if not _SHELL_NAME.fullmatch(content):
        return False
    if content.startswith("{"):
        return True
    return bool(_SHELL_NEXT.match(rest)) and not _ORDINAL.match(rest)


# --- \( \) and \[ \] ------------------------------------------------------------------------


def _escaped(src: str, pos: int) -> bool:
    """Whether the character at ``pos`` follows an odd number of backslashes."""
    count = 0
    while pos - count - 1 >= 0 and src[pos - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _closing(src: str, delimiter: str, start: int, end: int) -> int:
    """Where ``delimiter`` next stands unescaped in ``src[start:end]``, or -1."""
    while True:
        at = src.find(delimiter, start, end)
        if at < 0 or not _escaped(src, at):
            return at
        start = at + 1


def _bracket_inline(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos
    opening = src[start : start + 2]
    if opening not in ("\\(", "\\[") or _escaped(src, start):
        return False
    closing = _CLOSING[opening]
    end = _closing(src, closing, start + 2, state.posMax)
    if end < 0:
        return False
    content = src[start + 2 : end]
    if not content.strip() or "`" in content:
        return False
    if opening == "\\[" and (
        content.strip().isdigit()
        or src.startswith("(", end + 2)
        or _prose(content)
        or _checkbox(src, start, content, end + 2)
    ):
        return False  # Markdown's escaped brackets: \[1\], \[text\](...), \[Note\], - \[x\] done
    if not silent:
        token = state.push("math_inline" if opening == "\\(" else "math_inline_double", "math", 0)
        token.content = content
        token.markup = opening
    state.pos = end + 2
    return True


def _checkbox(src: str, start: int, content: str, after: int) -> bool:
    """Whether ``\\[x\\]`` at ``start`` is an escaped task box: ``x`` or ``X`` starting
    a line, words after it (``- \\[x\\] done``; ``\\[x\\] (where x is real)`` is math)."""
    if content.strip() not in ("x", "X") or src[:start].rstrip(" \t")[-1:] not in ("", "\n"):
        return False
    return re.match(r"[ \t]+[^\W\d_]", src[after:]) is not None


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _bracket_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``\\[`` starting a line, closed by ``\\]`` ending a line, with no blank line between;
    a ``\\]`` with text after it on its line leaves the lines to the paragraph."""
    if state.is_code_block(start_line):
        return False
    first = _line(state, start_line).rstrip()
    if not first.startswith("\\[") or _escaped(first, 0):
        return False
    line = start_line
    text = first[2:]
    while True:
        at = _closing(text, "\\]", 0, len(text))
        if at >= 0:
            if at != len(text) - 2 or (line == start_line and not text[:at].strip()):
                return False  # text after the \], or \[\] on one line
            break
        line += 1
        if line >= end_line or state.isEmpty(line):
            return False
        if state.sCount[line] < state.blkIndent:
            return False
        text = _line(state, line).rstrip()
    lines = [first[2:], *(_line(state, n) for n in range(start_line + 1, line + 1))]
    lines[-1] = lines[-1].rstrip()[:-2]
    if "\n".join(lines).strip().isdigit() or _prose("\n".join(lines)):
        return False  # Markdown's escaped brackets: \[1\], \[Note\]
    if silent:
        return True
    token = state.push("math_block", "math", 0)
    token.block = True
    token.content = "\n".join(lines)
    token.markup = "\\["
    token.map = [start_line, line + 1]
    state.line = line + 1
    return True


# --- environments -----------------------------------------------------------------------------


def _environment_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """amsmath's block rule for the environments outside its list, as an ``amsmath`` token."""
    if state.is_code_block(start_line):
        return False
    opened = _EXTRA_OPEN.match(_line(state, start_line))
    if opened is None:
        return False
    closing = rf"\end{{{opened[1]}{opened[2]}}}"
    line = start_line
    while not _line(state, line).rstrip().endswith(closing):
        line += 1
        if line >= end_line or state.isEmpty(line) or state.sCount[line] < state.blkIndent:
            return False
    if silent:
        return True
    state.line = line + 1
    token = state.push("amsmath", "math", 0)
    token.block = True
    token.content = state.getLines(start_line, state.line, state.sCount[start_line], False)
    token.meta = {"environment": opened[1], "numbered": opened[2]}
    token.map = [start_line, line]
    return True


def _environment_inline(state: StateInline, silent: bool) -> bool:
    """An environment inside a paragraph's text, as display math."""
    src, start = state.src, state.pos
    if not src.startswith("\\begin{", start) or _escaped(src, start):
        return False
    opened = _ENV_OPEN.match(src, start)
    if opened is None:
        return False
    closing = rf"\end{{{opened[1]}{opened[2]}}}"
    end = src.find(closing, opened.end(), state.posMax)
    if end < 0 or "`" in src[start:end]:
        return False
    end += len(closing)
    if not silent:
        token = state.push("math_inline_double", "math", 0)
        token.content = src[start:end]
        token.markup = ""
        token.meta = {"environment": opened[1], "numbered": opened[2]}
    state.pos = end
    return True
