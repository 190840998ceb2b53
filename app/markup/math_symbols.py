"""The Unicode of LaTeX's letters, operators and scripts, for ``math_text.linear``."""

# ruff: noqa: RUF001  (a table of look-alike characters, on purpose)

from __future__ import annotations

_GREEK = (
    "alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ vartheta ϑ "
    "iota ι kappa κ lambda λ mu μ nu ν xi ξ omicron ο pi π varpi ϖ rho ρ varrho ϱ sigma σ "
    "varsigma ς tau τ upsilon υ phi ϕ varphi φ chi χ psi ψ omega ω "
    "Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Upsilon Υ Phi Φ Psi Ψ Omega Ω"
)
_OPERATORS = (
    "int ∫ iint ∬ iiint ∭ oint ∮ sum ∑ prod ∏ coprod ∐ bigcup ⋃ bigcap ⋂ "
    "le ≤ leq ≤ ge ≥ geq ≥ leqslant ⩽ geqslant ⩾ ne ≠ neq ≠ approx ≈ equiv ≡ sim ∼ "
    "simeq ≃ cong ≅ propto ∝ ll ≪ gg ≫ cdot · times × div ÷ pm ± mp ∓ ast ∗ star ⋆ "
    "circ ∘ bullet • oplus ⊕ ominus ⊖ otimes ⊗ odot ⊙ infty ∞ partial ∂ nabla ∇ "
    "forall ∀ exists ∃ nexists ∄ in ∈ notin ∉ ni ∋ subset ⊂ subseteq ⊆ supset ⊃ "
    "supseteq ⊇ cup ∪ cap ∩ emptyset ∅ varnothing ∅ setminus ∖ land ∧ wedge ∧ lor ∨ "
    "vee ∨ neg ¬ lnot ¬ to → rightarrow → leftarrow ← gets ← Rightarrow ⇒ Leftarrow ⇐ "
    "leftrightarrow ↔ Leftrightarrow ⇔ iff ⇔ implies ⟹ impliedby ⟸ mapsto ↦ "
    "longrightarrow ⟶ longleftarrow ⟵ Longrightarrow ⟹ uparrow ↑ downarrow ↓ "
    "ldots … dots … cdots ⋯ vdots ⋮ ddots ⋱ angle ∠ perp ⊥ parallel ∥ mid ∣ "
    "degree ° prime ′ hbar ℏ ell ℓ Re ℜ Im ℑ aleph ℵ langle ⟨ rangle ⟩ lfloor ⌊ "
    "rfloor ⌋ lceil ⌈ rceil ⌉ bot ⊥ top ⊤ vdash ⊢ models ⊨ therefore ∴ because ∵ "
    "triangle △ square □ checkmark ✓ dagger † colon : lvert | rvert | lVert ‖ rVert ‖ "
    "vert | Vert ‖ backslash \\ sqcup ⊔ sqcap ⊓ wp ℘ complement ∁ top ⊤ "
    "preceq ⪯ succeq ⪰ prec ≺ succ ≻ nleq ≰ ngeq ≱ asymp ≍ doteq ≐"
)
SYMBOLS: dict[str, str] = {
    **{f"\\{k}": v for k, v in zip(*[iter(_GREEK.split())] * 2, strict=True)},
    **{f"\\{k}": v for k, v in zip(*[iter(_OPERATORS.split())] * 2, strict=True)},
    "\\{": "{",
    "\\}": "}",
    "\\%": "%",
    "\\$": "$",
    "\\&": "&",
    "\\_": "_",
    "\\#": "#",
    "\\|": "‖",
    "\\!": "",
}

FUNCTIONS = frozenset(
    [
        "sin",
        "cos",
        "tan",
        "cot",
        "sec",
        "csc",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "coth",
        "log",
        "ln",
        "lg",
        "exp",
        "lim",
        "liminf",
        "limsup",
        "max",
        "min",
        "sup",
        "inf",
        "det",
        "gcd",
        "lcm",
        "arg",
        "deg",
        "dim",
        "ker",
        "hom",
        "Pr",
        "mod",
        "bmod",
        "pmod",
    ]
)

SUPERSCRIPT: dict[str, str] = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθιφχ",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᶥᵠᵡ",
        strict=True,
    )
)

SUBSCRIPT: dict[str, str] = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)

DOUBLE_STRUCK: dict[str, str] = {
    "N": "ℕ",
    "Z": "ℤ",
    "Q": "ℚ",
    "R": "ℝ",
    "C": "ℂ",
    "P": "ℙ",
    "H": "ℍ",
    "E": "𝔼",
    "1": "𝟙",
}

# accent command -> the combining character written after its letter
ACCENTS: dict[str, str] = {
    "hat": "\u0302",
    "widehat": "\u0302",
    "bar": "\u0304",
    "overline": "\u0305",
    "vec": "\u20d7",
    "dot": "\u0307",
    "ddot": "\u0308",
    "tilde": "\u0303",
    "widetilde": "\u0303",
    "check": "\u030c",
    "acute": "\u0301",
    "grave": "\u0300",
    "breve": "\u0306",
    "underline": "\u0332",
}
