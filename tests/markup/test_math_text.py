"""A formula's readable linear form, for "Copy as text"."""

# ruff: noqa: RUF001  (Unicode look-alikes are what is tested)

from __future__ import annotations

import pytest

from app.markup.math_text import linear

CASES = [
    ("\\frac{n(n+1)}{2}", "n(n+1)/2"),
    ("\\frac{a+b}{c-d}", "(a+b)/(c-d)"),
    ("x^2", "x²"),
    ("x^{n+1}", "xⁿ⁺¹"),
    ("e^{i\\pi} + 1 = 0", "e^(iπ) + 1 = 0"),
    ("x_i", "xᵢ"),
    ("a_{n-1}", "aₙ₋₁"),
    ("x_{\\text{Q}}", "x_Q"),
    ("\\alpha + \\beta \\le \\infty", "α + β ≤ ∞"),
    ("\\int_0^1 x^2\\,dx", "∫₀¹ x² dx"),
    ("\\sum_{k=1}^n k = \\frac{n(n+1)}{2}", "∑ₖ₌₁ⁿ k = n(n+1)/2"),
    ("\\sqrt{x}", "√x"),
    ("\\sqrt{x+1}", "√(x+1)"),
    ("\\sqrt[3]{8}", "∛8"),
    ("\\text{cost} = 5\\ \\text{dollars}", "cost = 5 dollars"),
    ("a \\cdot b \\to c", "a · b → c"),
    ("\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1", "lim_(x → 0) (sin x)/x = 1"),
    ("\\left( \\frac{1}{2} \\right)^2", "(1/2)²"),
    ("\\mathbb{R}^n", "ℝⁿ"),
    ("\\hat{x}", "x\u0302"),
    ("x^{\\prime}", "x′"),
    ("a \\ne b \\quad a \\not= c", "a ≠ b a ≠ c"),
    ("\\begin{align}\na &= b \\\\\nc &= d\n\\end{align}", "a = b\nc = d"),
    ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "1 2\n3 4"),
    ("f(x) = \\begin{cases} 1 & x > 0 \\\\ 0 & x \\le 0 \\end{cases}", "f(x) =\n1 x > 0\n0 x ≤ 0"),
    ("\\begin{array}{cc} a & b \\end{array}", "a b"),
    ("\\unknown{x} + 1", "\\unknown{x} + 1"),
    ("\\frac{1}{2", "1/2"),
    ("x^", "x"),
]


@pytest.mark.parametrize(("latex", "text"), CASES)
def test_linear(latex: str, text: str) -> None:
    assert linear(latex) == text
