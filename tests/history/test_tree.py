"""The tree of messages: the active path, and a context that is exactly that path.

The property test drives random sequences of ask / edit / regenerate / switch / remove /
compress through a ``History`` (what the store appends, without the disk) and checks, after
every step, that the context carries the active path and nothing else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.history import (
    ROOT,
    Compression,
    Exclude,
    History,
    ModelInput,
    ModelOutput,
    Select,
    decode_many,
    encode,
    render_context,
)


def out(text: str) -> ModelOutput:
    return ModelOutput(provider="p", model="m", text=text)


def add(history: History, entry: object, after: int | None = None) -> int:
    stamped = history.stamp(entry, after)  # type: ignore[type-var]
    history.append(stamped)
    return stamped.seq


def test_the_newest_branch_is_active_until_a_switch() -> None:
    history = History()
    q1 = add(history, ModelInput(text="q1"))
    a1 = add(history, out("a1"))
    a1b = add(history, out("a1 again"), after=q1)
    assert history.siblings(a1) == [a1, a1b] and history.active_path() == [q1, a1b]
    add(history, Select(target=history.id_of(a1)))
    assert history.active_path() == [q1, a1]
    q2 = add(history, ModelInput(text="q2"))  # follows the active leaf
    assert history.active_path() == [q1, a1, q2]
    add(history, Select(target=history.id_of(a1b)))
    assert history.active_leaf == a1b
    add(history, Select(target=history.id_of(q1)))  # under q1, the branch touched last wins
    assert history.active_leaf == a1b  # selected (seq 6) after q2 was asked (seq 5)


def test_a_removed_input_takes_its_turn_and_can_be_put_back() -> None:
    history = History()
    for n in range(3):
        add(history, ModelInput(text=f"q{n}"))
        add(history, out(f"a{n}"))
    add(history, Exclude(target=history.id_of(3)))
    context = render_context(history, None)
    assert [e.seq for e in context.entries] == [1, 2, 5, 6]
    assert [(o.first_seq, o.reason) for o in context.omitted] == [
        (3, "removed from context by the user"),
        (4, "removed from context by the user"),
    ]
    add(history, Exclude(target=history.id_of(3), excluded=False))
    assert [e.seq for e in render_context(history, None).entries] == [1, 2, 3, 4, 5, 6]


def test_a_compression_applies_only_to_the_branch_it_was_made_on() -> None:
    history = History()
    for n in range(3):
        add(history, ModelInput(text=f"q{n}"))
        add(history, out(f"a{n}"))
    summary = Compression(strategy="whole", covers=(1, 4), summary="s", provider="p", model="m")
    add(history, summary)  # made at seq 6, the active leaf
    assert [e.seq for e in render_context(history, None).entries] == [7, 5, 6]
    add(history, ModelInput(text="q1 edited"), after=2)  # a branch from before seq 4
    add(history, out("a1 edited"))
    assert [e.seq for e in render_context(history, None).entries] == [1, 2, 8, 9]


Op = tuple[str, int]
ops = st.lists(
    st.tuples(
        st.sampled_from(["ask", "ask", "edit", "regenerate", "switch", "remove", "compress"]),
        st.integers(min_value=0, max_value=10_000),
    ),
    max_size=40,
)


def _pick(seqs: list[int], n: int) -> int | None:
    return seqs[n % len(seqs)] if seqs else None


def _apply(history: History, op: Op) -> None:
    name, n = op
    messages = [e.seq for e in history if history.is_message(e.seq)]
    inputs = [s for s in messages if isinstance(history.at(s), ModelInput)]
    outputs = [s for s in messages if isinstance(history.at(s), ModelOutput)]
    if name == "ask" or (name == "edit" and not inputs):
        add(history, ModelInput(text=f"q{history.version}"))
        add(history, out(f"a{history.version}"))
    elif name == "edit" and (target := _pick(inputs, n)) is not None:
        add(history, ModelInput(text=f"edited {target}"), after=history.parent_of(target))
        add(history, out(f"a{history.version}"))
    elif name == "regenerate" and (target := _pick(outputs, n)) is not None:
        add(history, out(f"again {target}"), after=history.parent_of(target))
    elif name == "switch" and (target := _pick(messages, n)) is not None:
        add(history, Select(target=history.id_of(target)))
    elif name == "remove" and (target := _pick(messages, n)) is not None:
        add(
            history, Exclude(target=history.id_of(target), excluded=not history.is_excluded(target))
        )
    elif name == "compress":
        path = history.active_path()
        if len(path) >= 3:
            last = path[n % (len(path) - 1)]
            add(history, Compression(strategy="whole", covers=(path[0], last),
                                     summary="s", provider="p", model="m"))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(ops)
def test_the_context_is_exactly_the_active_path(sequence: list[Op]) -> None:
    history = History()
    for op in sequence:
        _apply(history, op)
        path = history.active_path()
        assert history.active_leaf == (path[-1] if path else ROOT)
        on_path = set(path)
        context = render_context(history, None)
        carried = [e.seq for e in context.entries if "compression" not in e.meta]
        assert carried == sorted(carried) and set(carried) <= on_path  # nothing from elsewhere
        for summary in (e for e in context.entries if "compression" in e.meta):
            assert history.anchor_of(summary.meta["compression"]) in on_path
        accounted = set(carried)
        for omission in context.omitted:
            spanned = {s for s in path if omission.first_seq <= s <= omission.last_seq}
            if history.is_message(omission.first_seq):
                assert omission.first_seq in on_path  # only the path's own are left out
            accounted |= spanned
        assert accounted == on_path  # every message of the path is carried or accounted for
    # the same history, written out and read back, has the same active path
    again = History(decode_many([encode(entry) for entry in history], "t"))
    assert again.active_path() == history.active_path()


def test_removing_either_part_of_a_continued_reply_removes_the_whole_reply() -> None:
    for removed in (2, 3):
        history = History()
        add(history, ModelInput(text="q"))
        cut = add(history, ModelOutput(provider="p", model="m", text="first half,",
                                       finish_reason="length"))  # fmt: skip
        rest = ModelOutput(provider="p", model="m", text=" second half.",
                           meta={"continues": history.id_of(cut)})  # fmt: skip
        add(history, rest, after=cut)
        add(history, ModelInput(text="next"))
        assert [e.text for e in render_context(history, None).entries] == [  # type: ignore[union-attr]
            "q", "first half, second half.", "next"]  # fmt: skip
        add(history, Exclude(target=history.id_of(removed)))
        carried = [e.text for e in render_context(history, None).entries]  # type: ignore[union-attr]
        assert carried == ["q", "next"], removed
