"""Where math is found, and where it is not: a dollar in a sentence never turns into a
formula, code is never touched, an unclosed delimiter is text (docs/math.md)."""

from __future__ import annotations

import pytest
from markdown_it.token import Token

from app.markup.math_syntax import MATH_TOKENS, latex_of, parser, source_of

I = False  # noqa: E741  (inline)
D = True  # display


def math_in(text: str) -> list[tuple[str, bool]]:
    """Every formula in ``text``: its LaTeX and whether it is display math."""
    return [(latex_of(token), MATH_TOKENS[token.type]) for token in _math_tokens(text)]


def _math_tokens(text: str) -> list[Token]:
    found: list[Token] = []

    def walk(tokens: list[Token]) -> None:
        for token in tokens:
            if token.type in MATH_TOKENS:
                found.append(token)
            if token.children:
                walk(token.children)

    walk(parser().parse(text))
    return found


ALIGN = "\\begin{align}\na &= b \\\\\nc &= d\n\\end{align}"
PMATRIX = "\\begin{pmatrix}\n1 & 2 \\\\\n3 & 4\n\\end{pmatrix}"
CASES = "\\begin{cases}\n1 & x > 0 \\\\\n0 & x \\le 0\n\\end{cases}"

CASES_TABLE: list[tuple[str, list[tuple[str, bool]]]] = [
    # --- prices stay text (peers' bug reports: dollar amounts taken for math) ---
    ("it costs $5 and $10", []),
    ("$5-$10", []),
    ("$3.50 or $4", []),
    ("US$5", []),
    ("US$5 and US$10", []),
    ("between $5 and $10, or $20 at most", []),
    ("from $1,000 to $2,000", []),
    ("The range is $20M-$30M.", []),
    ("costs 5$ and 10$", []),
    ("I paid $5, you paid $6.", []),
    ("Cost: **$5** (was $7)", []),
    ("Tickers $AAPL and $TSLA rose", []),
    # --- shell stays text ---
    ("echo $HOME", []),
    ("$PATH", []),
    ("export X=$Y", []),
    ("${HOME}", []),
    ("echo $HOME $PATH", []),
    ("cp $HOME/$USER here", []),
    ("PATH=$PATH:$HOME/bin", []),
    # shell variables side by side (a reviewer's report: read as $a$ then b)
    ("echo $a$b", []),
    ("cp $SRC$EXT out", []),
    ("echo ${HOME}${SUFFIX}", []),
    ("Template ${a}-${b}", []),
    ("echo $A_1$_x", []),
    ("$$ is the shell PID; $$", []),
    ("the $i$th and $k$nd", [("i", I), ("k", I)]),
    ("$a$-th", [("a", I)]),
    # --- code is never touched ---
    ("`$x$`", []),
    ("```\n$x$ and \\(y\\)\n```", []),
    ("    $x$ in an indented block", []),
    ("```\n$$\nx\n$$\n```", []),
    ("```latex\n\\[x^2\\]\n\\begin{align}a&=b\\end{align}\n```", []),
    ("Use `a$` and `$b`", []),
    ("$HOME is `a$`", []),
    ("`\\(x\\)` stays code", []),
    # --- unclosed delimiters are text (and a formula streaming in shows as its source) ---
    ("$x", []),
    ("$$x", []),
    ("\\(x", []),
    ("\\[x", []),
    ("$$\n\\int_0^1", []),
    ("$$\nx\n\ny\n$$", []),
    ("\\[\nx\n\ny\n\\]", []),
    ("\\begin{align}\na &= b", []),
    # --- escaped dollars and brackets ---
    ("\\$5 and \\$10", []),
    ("\\$x\\$", []),
    ("\\\\(x\\\\)", []),
    ("see \\[1\\] and \\[2\\]", []),
    ("\\[not a link\\](https://example.org)", []),
    ("\\[3\\]", []),
    # escaped brackets around words, and escaped task boxes (a reviewer's report)
    ("- \\[x\\] done", []),
    ("- \\[ \\] to do\n- \\[X\\] done", []),
    ("\\[x\\] done, and more", []),
    ("\\[Note\\] this is", []),
    ("See \\[citation needed\\] here", []),
    ("\\[TODO\\]", []),
    ("\\[ x^2 \\]", [("x^2", D)]),
    ("\\[\\int_0^1 f\\]", [("\\int_0^1 f", D)]),
    ("see \\[a, b\\] here", [("a, b", D)]),
    # --- $$ alone, a dollar at the end of a line, a space after $ ---
    ("$$", []),
    ("a $$ b", []),
    ("It costs $\nand $x$ is", [("x", I)]),
    ("Price: 5$", []),
    ("$ x $", []),
    ("$ x$", []),
    ("$x $", []),
    # --- currency in tables, math in tables ---
    ("| item | price |\n| --- | --- |\n| a | $5 |\n| b | $10 |", []),
    ("| f | f' |\n|---|---|\n| $x^2$ | $2x$ |", [("x^2", I), ("2x", I)]),
    # --- $ inside words ---
    ("a$x$b", []),
    ("the $n$th term", [("n", I)]),
    ("函数$f(x)$的导数", [("f(x)", I)]),
    # --- \( \) and \[ \] (peers' bug reports: Open WebUI did not recognise these) ---
    ("\\(x^2\\)", [("x^2", I)]),
    ("\\[x^2\\]", [("x^2", D)]),
    ("where \\(a\\) and \\(b\\) are real", [("a", I), ("b", I)]),
    ("so \\[x = 1\\] holds", [("x = 1", D)]),
    ("\\[x\\] (where x is real)", [("x", D)]),
    # --- multi-line display math ---
    ("\\[\n\\int_0^1 x^2\\,dx = \\tfrac13\n\\]", [("\\int_0^1 x^2\\,dx = \\tfrac13", D)]),
    ("The sum is\n\\[\n\\sum_k k\n\\]\nwhich grows", [("\\sum_k k", D)]),
    ("$$\n\\sum_{k=1}^n k = \\frac{n(n+1)}{2}\n$$", [("\\sum_{k=1}^n k = \\frac{n(n+1)}{2}", D)]),
    ("The sum is\n$$\n\\sum_k k\n$$\nwhich grows", [("\\sum_k k", D)]),
    ("$$\\sum_k k$$", [("\\sum_k k", D)]),
    ("a $$x$$ b", [("x", D)]),
    # several $$...$$ on one line (a reviewer's report: one formula "a$$ and $$b")
    ("$$a$$ and $$b$$", [("a", D), ("b", D)]),
    ("$$x$$, $$y$$", [("x", D), ("y", D)]),
    ("$$a$$ or $b$ then $$c$$", [("a", D), ("b", I), ("c", D)]),
    ("$$\na\n$$ and $$\nb\n$$", [("a", D), ("b", D)]),
    ("$$x$$ (1)", [("x", D)]),
    # --- environments, alone and inside a paragraph ---
    (ALIGN, [(ALIGN, D)]),
    (PMATRIX, [(PMATRIX, D)]),
    (CASES, [(CASES, D)]),
    ("\\begin{align*}\nx &= 1\n\\end{align*}", [("\\begin{align*}\nx &= 1\n\\end{align*}", D)]),
    ("so\n" + CASES + "\nthus", [(CASES, D)]),
    ("the matrix \\begin{bmatrix}1&2\\end{bmatrix} is", [("\\begin{bmatrix}1&2\\end{bmatrix}", D)]),
    ("\\begin{equation}E=mc^2\\end{equation}", [("\\begin{equation}E=mc^2\\end{equation}", D)]),
    # --- in lists, blockquotes ---
    ("- $x$\n- $y$", [("x", I), ("y", I)]),
    ("> $$\n> x\n> $$", [("x", D)]),
    ("1. \\[\n   x\n   \\]", [("x", D)]),
    ("> \\(x\\) quoted", [("x", I)]),
    ("- item\n\n  " + ALIGN.replace("\n", "\n  "), [(ALIGN, D)]),
    # --- two formulas on a line, prices beside formulas ---
    ("$a$ and $b$", [("a", I), ("b", I)]),
    ("$a$, $b$", [("a", I), ("b", I)]),
    ("$x$ costs $5", [("x", I)]),
    ("$10 and $x$", [("x", I)]),
    ("$E = mc^2$", [("E = mc^2", I)]),
    # --- LaTeX with \$ inside ---
    ("$\\$5 + x$", [("\\$5 + x", I)]),
    ("$a \\$ b$", [("a \\$ b", I)]),
    # --- emphasis next to math ---
    ("*x*", []),
    ("$*x*$", [("*x*", I)]),
    ("$a*b$ and $c*d$", [("a*b", I), ("c*d", I)]),
    ("*$x$*", [("x", I)]),
    ("$a_1$ and $b_2$", [("a_1", I), ("b_2", I)]),
    ("[$x$](https://example.org)", [("x", I)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES_TABLE)
def test_math_is_found_only_where_it_is(text: str, expected: list[tuple[str, bool]]) -> None:
    assert math_in(text) == expected


def test_the_table_is_long_enough() -> None:
    assert len(CASES_TABLE) >= 50


@pytest.mark.parametrize(
    "source",
    [
        "$x^2$",
        "\\(x^2\\)",
        "$$x^2$$",
        "\\[x^2\\]",
        "$$\n\\int f\n$$",
        "\\[\n\\int f\n\\]",
        ALIGN,
        CASES,
    ],
)
def test_the_source_is_the_text_as_written(source: str) -> None:
    (token,) = _math_tokens(source)
    assert source_of(token) == source


def test_a_formula_inside_a_paragraph_keeps_its_source() -> None:
    (token,) = _math_tokens("so \\begin{bmatrix}1&2\\end{bmatrix} is")
    assert source_of(token) == "\\begin{bmatrix}1&2\\end{bmatrix}"
    (token,) = _math_tokens("so $$x$$ and")
    assert source_of(token) == "$$x$$"


def test_text_around_math_is_kept() -> None:
    html = parser().render("so \\[x\\] holds, and \\(y\\) too")
    assert "so" in html and "holds, and" in html and "too" in html


def test_every_token_type_is_listed() -> None:
    """Every math token the parser makes, over the whole table, has an entry."""
    kinds = {t.type for text, _ in CASES_TABLE for t in _math_tokens(text)}
    assert kinds <= set(MATH_TOKENS)
    assert {"math_inline", "math_inline_double", "math_block", "amsmath"} <= kinds
