"""Counting only when it matters: bounds made without a vocabulary (``bound_text``) decide that
a request fits, and then give the context exact counts would have given.

The command line renders with ``exact=False`` (docs/architecture.md, "Counting only when it
matters"), so ``crosstalk ask`` loads no vocabulary for a conversation far from its budget
(tests/test_cli_lazy.py).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from app.context import ContextPolicy, Contexts, PolicyStore, count_text
from app.context.tokens import CL100K, O200K, bound_text
from app.history import ModelInput
from app.providers.local import LocalProvider
from app.store import Library
from tests.context.helpers import grow

# every script the tokenizers meet: CJK, emoji, combining marks, control characters
texts = st.text(st.characters(codec="utf-8"), max_size=400)


@given(texts, st.sampled_from([O200K, CL100K]))
@settings(max_examples=300, deadline=None)
def test_a_bound_is_never_below_the_count(text: str, encoding: str) -> None:
    assert bound_text(text, encoding) >= count_text(text, encoding)


def test_a_bound_is_not_wildly_above_for_ordinary_text() -> None:
    english = "The meeting moved to Thursday; bring the notes. " * 40
    assert bound_text(english) <= 6 * count_text(english)


@given(
    turns=st.integers(1, 40),
    words=st.integers(0, 60),
    share=st.floats(0.001, 0.9),
    auto=st.booleans(),
    keep_first=st.booleans(),
)
@settings(max_examples=25, deadline=None)
def test_rendering_by_bounds_carries_what_counting_carries(
    tmp_path_factory: object, turns: int, words: int, share: float, auto: bool, keep_first: bool
) -> None:
    from app.paths import DataDir

    root = Path(tmp_path_factory.mktemp("lib"))  # type: ignore[attr-defined]
    library = Library(DataDir(root))
    try:
        conversation = library.create()
        grow(library, conversation, turns, words=words)
        policy = ContextPolicy(budget_share=share, auto_compress=auto, keep_first_input=keep_first)
        contexts = Contexts(policy, PolicyStore(library))
        provider = LocalProvider(threads=1)  # named only: nothing is started
        exact = contexts.render(conversation, provider, "smollm2")
        lazy = contexts.render(conversation, provider, "smollm2", exact=False)
        assert lazy.entries == exact.entries and lazy.omitted == exact.omitted
        if lazy.tokens is None:  # it fitted by bounds: then it fits by counts
            assert exact.tokens is not None and exact.budget is not None
            assert not exact.over_budget and not Contexts.past_threshold(exact, policy)
        else:
            assert lazy == exact
    finally:
        library.close()


def test_a_conversation_near_its_budget_is_counted(library: Library, tmp_path: Path) -> None:
    conversation = library.create()
    grow(library, conversation, 30, words=200)
    contexts = Contexts(ContextPolicy(budget_share=0.1), PolicyStore(library))
    lazy = contexts.render(conversation, LocalProvider(threads=1), "smollm2", exact=False)
    assert lazy.tokens is not None and lazy.omitted  # counted: some turns fall out
    assert sum(isinstance(e, ModelInput) for e in lazy.entries) < 30
