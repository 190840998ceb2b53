"""Each strategy against a scripted model: what it covers, what the next context carries, that a
failed summary is never used, and that undo brings the covered entries back."""

from __future__ import annotations

import asyncio

import pytest

from app.context import CompressionError, NothingToCompress, compress, parse_strategy, undo
from app.context.summaries import SMALL_SUMMARY_TOKENS
from app.context.tokens import count_text
from app.errors import RateLimited
from app.history import (
    Compression,
    History,
    ModelInput,
    ModelOutput,
    ToolResults,
    decode,
    encode,
    render_context,
)
from app.providers import Finished, TextDelta
from app.store import Conversation, Library
from tests.context.helpers import conversation_with_preamble, grow, summary
from tests.helpers.scripted_provider import ScriptedProvider


def run(library: Library, conversation: Conversation, provider: ScriptedProvider,
        strategy: str, **kw: object):  # type: ignore[no-untyped-def]  # fmt: skip
    return asyncio.run(
        compress(library, conversation, provider, "echo", parse_strategy(strategy), **kw)  # type: ignore[arg-type]
    )


def carried(history: History) -> list[int]:
    return [e.seq for e in render_context(history, None, keep_first_input=True).entries]


def texts(history: History) -> list[str]:
    context = render_context(history, None, keep_first_input=True)
    return [getattr(e, "text", "") for e in context.entries]


def check_pairs(history: History) -> None:
    """Every carried call is answered by the next carried entry, and every result has its call."""
    entries = render_context(history, None, keep_first_input=True).entries
    for index, entry in enumerate(entries):
        if isinstance(entry, ModelOutput) and entry.tool_calls:
            following = entries[index + 1]
            assert isinstance(following, ToolResults)
            assert [r.call_id for r in following.results] == [c.id for c in entry.tool_calls]
        if isinstance(entry, ToolResults):
            before = entries[index - 1]
            assert isinstance(before, ModelOutput) and before.tool_calls


def test_whole_replaces_everything_but_the_preserved(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 5, tools_every=2)
    provider = ScriptedProvider(scripts=[summary("Lighthouse project; times asked.")])
    outcome = run(library, conversation, provider, "whole")
    (entry,) = outcome.appended
    assert (entry.strategy, entry.covers, entry.provider, entry.model) == (
        "whole", (4, conversation.history.version - 1), "scripted", "echo")  # fmt: skip
    assert entry.usage.output == 9
    context = render_context(conversation.history, keep_first_input=True)
    assert context.system == "Be brief." and context.notebook == "The user likes tea."
    assert [e.seq for e in context.entries] == [3, entry.seq]
    assert context.entries[0].text == "My project is called Lighthouse."  # type: ignore[union-attr]
    assert "Lighthouse project; times asked." in context.entries[1].text  # type: ignore[union-attr]
    (request,) = provider.requests
    excerpt = request.context.entries[0].text  # type: ignore[union-attr]
    assert "User: question 0" in excerpt and "Assistant called current_time({})" in excerpt
    assert "Result of current_time: noon" in excerpt
    assert "My project is called Lighthouse" not in excerpt  # carried anyway
    assert request.max_tokens and request.context.system and "TL;DR" in request.context.system


def test_last_n_summarises_the_last_messages_and_drops_the_older(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 6, tools_every=3)  # turns 2 and 5 have a tool round
    outcome = run(library, conversation, ScriptedProvider(scripts=[summary("recent")]), "last-n:3")
    (entry,) = outcome.appended
    covered = [conversation.history.at(s) for s in range(entry.covers[0], entry.covers[1] + 1)]
    assert sum(isinstance(e, ModelInput | ModelOutput | ToolResults) for e in covered) >= 3
    assert not isinstance(covered[0], ToolResults)  # never starts between a call and results
    context = render_context(conversation.history, keep_first_input=True)
    assert [e.seq for e in context.entries] == [3, entry.seq]
    reasons = [o.reason for o in context.omitted]
    assert any(r.startswith(f"left out by compression seq {entry.seq}") for r in reasons)
    assert any(r.startswith(f"covered by compression seq {entry.seq}") for r in reasons)


def test_chunked_summarises_chunks_and_keeps_tool_pairs_whole(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 9, tools_every=2)
    provider = ScriptedProvider(scripts=[summary(f"chunk {n}") for n in range(10)])
    outcome = run(library, conversation, provider, "chunked:4")
    assert len(outcome.appended) >= 3
    assert [e.meta["part"] for e in outcome.appended] == [
        [n, len(outcome.appended)] for n in range(1, len(outcome.appended) + 1)
    ]
    for entry in outcome.appended:
        first, last = entry.covers
        assert not isinstance(conversation.history.at(first), ToolResults)
        end = conversation.history.at(last)
        assert not (isinstance(end, ModelOutput) and end.tool_calls)
    ends = [e.covers[1] for e in outcome.appended]
    starts = [e.covers[0] for e in outcome.appended]
    assert starts[1:] == [end + 1 for end in ends[:-1]]  # chunks meet: nothing lost between
    assert texts(conversation.history)[1:] == [
        f"[Summary of earlier in this conversation (entries {e.covers[0]}-{e.covers[1]})]\n"
        f"chunk {n}"
        for n, e in enumerate(outcome.appended)
    ]


def test_automatic_chunks_only_whole_chunks_and_the_rest_stays(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 7, tools_every=3)
    provider = ScriptedProvider(scripts=[summary(f"chunk {n}") for n in range(10)])
    outcome = run(library, conversation, provider, "chunked:4", keep_recent=2, automatic=True)
    assert outcome.appended
    check_pairs(conversation.history)
    context = render_context(conversation.history, keep_first_input=True)
    last_inputs = [e.seq for e in context.entries if isinstance(e, ModelInput) and not e.meta]
    assert len(last_inputs) >= 3  # the first input, and the two kept turns at least


def test_facts_carries_only_the_facts(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 3)
    provider = ScriptedProvider(scripts=[summary("[project] called Lighthouse")])
    outcome = run(library, conversation, provider, "facts:project name; deadline")
    (entry,) = outcome.appended
    assert entry.strategy == "facts:project name; deadline"
    system = provider.requests[0].context.system or ""
    assert "project name; deadline" in system
    assert texts(conversation.history)[1].startswith("[Facts from earlier in this conversation")
    assert len(carried(conversation.history)) == 2


def test_a_provider_failure_appends_nothing(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 4)
    before = list(conversation.history)
    context = render_context(conversation.history, keep_first_input=True)
    script = [TextDelta("half"), RateLimited("slow down")]
    with pytest.raises(CompressionError, match="failed: slow down") as raised:
        run(library, conversation, ScriptedProvider(scripts=[script]), "whole")
    assert "\n" not in str(raised.value)
    assert list(conversation.history) == before  # nothing appended
    assert render_context(conversation.history, keep_first_input=True) == context


@pytest.mark.parametrize(
    ("script", "method", "starts"),
    [
        ([TextDelta("   "), *summary("")[1:]], "extractive", "[Extractive summary"),
        (summary("The user asked about", finish="length"), "extractive", "[Extractive summary"),
        (summary("They chose Lighthouse. Then they", finish="length"), "trimmed",
         "They chose Lighthouse."),
    ],
)  # fmt: skip
def test_an_unusable_summary_falls_back_rather_than_failing(
    library: Library, script: list[object], method: str, starts: str
) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 4)
    (entry,) = run(library, conversation, ScriptedProvider(scripts=[script]), "whole").appended
    assert entry.meta["summary"] == method and entry.summary.startswith(starts)
    if method == "trimmed":
        assert entry.summary == "They chose Lighthouse."
    else:  # the first sentence of each message, who said it
        assert "\nUser: " in entry.summary and "\nAssistant: " in entry.summary


def test_one_failed_chunk_appends_none_of_the_run(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 6)
    scripts = [summary("one"), [RateLimited("slow down")], summary("three")]
    with pytest.raises(CompressionError):
        run(library, conversation, ScriptedProvider(scripts=scripts), "chunked:4")
    assert not any(isinstance(e, Compression) for e in conversation.history)


def test_preview_appends_nothing(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 3)
    outcome = run(library, conversation, ScriptedProvider(scripts=[summary("s")]), "whole",
                  preview=True)  # fmt: skip
    assert outcome.summaries[0].text == "s" and outcome.appended == ()
    assert not any(isinstance(e, Compression) for e in conversation.history)


def test_undo_retracts_a_whole_run_and_the_entries_come_back(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 6)
    before = carried(conversation.history)
    provider = ScriptedProvider(scripts=[summary(f"chunk {n}") for n in range(5)])
    outcome = run(library, conversation, provider, "chunked:4")
    assert carried(conversation.history) != before
    retraction = undo(library, conversation, outcome.appended[-1].seq)
    assert retraction.strategy == "retract"
    assert retraction.covers == (outcome.appended[0].seq, outcome.appended[-1].seq)
    assert carried(conversation.history) == before
    reasons = {o.reason for o in render_context(conversation.history).omitted}
    assert reasons == {f"compression undone by seq {retraction.seq}"}
    with pytest.raises(CompressionError, match="already undone"):
        undo(library, conversation, outcome.appended[0].seq)
    with pytest.raises(CompressionError, match="not a compression"):
        undo(library, conversation, 3)
    reopened = library.open(conversation.id)  # the retraction round-trips the transcript
    assert carried(reopened.history) == before
    assert decode(encode(retraction)) == retraction


def test_redo_with_another_strategy_supersedes_the_older(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 6)
    chunker = ScriptedProvider(scripts=[summary(f"c{n}") for n in range(5)])
    chunks = run(library, conversation, chunker, "chunked:4")
    provider = ScriptedProvider(scripts=[summary("all of it")])
    whole = run(library, conversation, provider, "whole").appended[0]
    excerpt = provider.requests[0].context.entries[0].text  # type: ignore[union-attr]
    assert "(An earlier summary) c0" in excerpt  # the chunk summaries, not the raw turns
    assert carried(conversation.history) == [3, whole.seq]
    notes = {o.first_seq: o.reason for o in render_context(conversation.history).omitted}
    for entry in chunks.appended:
        assert notes[entry.seq] == f"compression superseded by seq {whole.seq}"


def test_nothing_to_compress_says_so(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    with pytest.raises(NothingToCompress):
        run(library, conversation, ScriptedProvider(), "chunked:10", keep_recent=2,
            automatic=True)  # fmt: skip


def test_too_long_for_the_compressing_model_goes_in_pieces(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 20, words=200)
    provider = ScriptedProvider(scripts=[summary(f"Part {n} said.") for n in range(20)])
    (entry,) = run(library, conversation, provider, "whole", limit=2000).appended
    asked = [count_text(r.context.entries[0].text) for r in provider.requests]  # type: ignore[union-attr]
    assert len(asked) >= 3 and max(asked) + SMALL_SUMMARY_TOKENS <= 2000  # each piece fits
    assert all(r.max_tokens == SMALL_SUMMARY_TOKENS for r in provider.requests)
    assert "(Part 1) Part 0 said." in provider.requests[-1].context.entries[0].text  # type: ignore[union-attr]
    assert entry.meta["summary"] == "pieces" and entry.summary == f"Part {len(asked) - 1} said."


def test_strategies_parse_or_say_what_is_accepted() -> None:
    assert parse_strategy("chunked:10").spec == "chunked:10"
    assert parse_strategy("facts:a, b").concepts == ("a", "b")
    assert parse_strategy("facts:the deadline, roughly; budget").concepts == (
        "the deadline, roughly", "budget")  # fmt: skip
    for bad in ("chunked", "chunked:0", "last-n:x", "facts:", "summary"):
        with pytest.raises(ValueError, match=r"whole|number|concepts"):
            parse_strategy(bad)


@pytest.mark.parametrize(
    "written",
    [
        "I'm sorry, but I can't summarise that.",
        "User: Remember the budget.\n\nAssistant: Noted the budget.",
        "It is noted. " * 8,
    ],
)
def test_a_refusal_a_replay_or_a_loop_is_not_a_summary(library: Library, written: str) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 3)
    (entry,) = run(library, conversation, ScriptedProvider(scripts=[summary(written)]),
                   "whole").appended  # fmt: skip
    assert entry.meta["summary"] == "extractive"
    assert entry.summary.startswith("[Extractive summary: the first sentence of each message")


def test_a_redo_over_what_is_summarised_supersedes_it(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 6)
    whole = run(library, conversation, ScriptedProvider(scripts=[summary("all")]), "whole")
    provider = ScriptedProvider(scripts=[summary(f"c{n}") for n in range(10)])
    redo = run(library, conversation, provider, "chunked:4")  # nothing new: the raw entries
    assert len(redo.appended) >= 2 and redo.superseded == (whole.appended[0].seq,)
    excerpt = provider.requests[0].context.entries[0].text  # type: ignore[union-attr]
    assert "(An earlier summary)" not in excerpt  # the messages themselves, summarised again
    notes = {o.first_seq: o.reason for o in render_context(conversation.history).omitted}
    assert notes[whole.appended[0].seq].startswith("compression superseded by seq")
    assert whole.appended[0] in list(conversation.history)  # kept, out of the context


def test_an_extractive_summary_is_short_and_counts_what_it_leaves_out(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 60, words=30)
    empty = [TextDelta(""), Finished("stop")]
    provider = ScriptedProvider(scripts=[empty] * 10)
    (entry,) = run(library, conversation, provider, "whole", limit=8192).appended
    assert entry.meta["summary"] == "extractive"
    assert count_text(entry.summary) <= SMALL_SUMMARY_TOKENS + 40  # a summary, not a copy
    assert entry.summary.rstrip().endswith("more messages, not summarised)")
