from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import RateLimited, TurnRefused, UnknownModel
from app.history import (
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResults,
    Usage,
    render_context,
)
from app.providers import Finished, Models, TextDelta, ToolCallDelta, UsageReport
from app.store import Library
from app.turn import TurnRunner
from tests.helpers.scripted_provider import Pause, ScriptedProvider
from tests.helpers.turns import runner


def turns(library: Library, models: Models, **knobs: Any) -> TurnRunner:
    """The runner of these tests: the scripted model titles, unless told otherwise."""
    return runner(library, models, **{"title_model": "scripted:echo", **knobs})


def reply(text: str, usage: Usage | None = None) -> list[object]:
    return [
        TextDelta(text[:3]),
        TextDelta(text[3:]),
        UsageReport(usage or Usage(input=5, output=2)),
        Finished("stop"),
    ]


def test_a_turn_appends_input_output_and_a_generated_title(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("Paris."), reply("Capitals")])
    conversation = library.create()
    seen: list[object] = []
    output = asyncio.run(
        turns(library, Models.of(provider)).run(
            conversation,
            "scripted:echo",
            "Capital of France?",
            system="Be brief",
            on_event=seen.append,
        )
    )
    assert output.text == "Paris." and output.finish_reason == "stop" and not output.partial
    assert output.usage == Usage(input=5, output=2)
    assert output.meta["latency_ms"] >= 0 and "first_token_ms" in output.meta
    kinds = [type(e) for e in conversation.history]
    assert kinds == [SystemInstruction, ModelInput, ModelOutput, Title]
    assert conversation.history.title == "Capitals"
    assert [e for e in seen if isinstance(e, TextDelta)] == [TextDelta("Par"), TextDelta("is.")]
    [first_request, title_request] = provider.requests
    assert first_request.context.system == "Be brief"
    assert [e.seq for e in first_request.context.entries] == [2]
    assert "Capital of France?" in title_request.context.entries[0].text  # type: ignore[union-attr]


def test_the_second_turn_carries_the_first_and_no_new_title(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("one"), reply("Title"), reply("two")])
    models = Models.of(provider)
    conversation = library.create()
    asyncio.run(turns(library, models).run(conversation, "scripted:echo", "q1"))
    asyncio.run(turns(library, models).run(conversation, "scripted:echo", "q2"))
    carried = provider.requests[-1].context.entries
    assert [getattr(e, "text", None) for e in carried] == ["q1", "one", "q2"]
    assert sum(isinstance(e, Title) for e in conversation.history) == 1


def test_cancel_keeps_what_arrived_marked_partial(library: Library) -> None:
    provider = ScriptedProvider(scripts=[[TextDelta("half an an"), Pause(30), TextDelta("swer")]])
    conversation = library.create()

    async def cancel_soon() -> None:
        task = asyncio.create_task(
            turns(library, Models.of(provider)).run(conversation, "scripted:echo", "q")
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_soon())
    output = library.open(conversation.id).history.at(2)
    assert isinstance(output, ModelOutput)
    assert (output.text, output.partial, output.error) == (
        "half an an",
        True,
        "stopped by the user",
    )


def test_a_provider_error_is_recorded_and_raised(library: Library) -> None:
    provider = ScriptedProvider(scripts=[[TextDelta("so far"), RateLimited("slow down", 3.0)]])
    conversation = library.create()
    with pytest.raises(RateLimited):
        asyncio.run(turns(library, Models.of(provider)).run(conversation, "scripted:echo", "q"))
    output = library.open(conversation.id).history.at(2)
    assert isinstance(output, ModelOutput)
    assert (output.text, output.partial, output.error) == ("so far", True, "slow down")


def test_a_failed_title_falls_back_to_the_first_words(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("fine"), [RateLimited("no titles today")]])
    conversation = library.create()
    text = "Please explain the difference between threads and processes in Python"
    asyncio.run(turns(library, Models.of(provider)).run(conversation, "scripted:echo", text))
    title = conversation.history.at(3)
    assert isinstance(title, Title)
    assert title.text == "Please explain the difference between threads"  # not "... and"
    assert title.meta["fallback"] == "no titles today"


def test_an_unknown_model_fails_before_anything_is_written(library: Library) -> None:
    conversation = library.create()
    with pytest.raises(UnknownModel, match="available: scripted:echo"):
        asyncio.run(turns(library, Models.of(ScriptedProvider())).run(conversation, "nope:x", "q"))
    assert conversation.history.version == 0


# --- tools -----------------------------------------------------------------------------------


def call(index: int, name: str, arguments: str, call_id: str | None = None) -> list[object]:
    return [ToolCallDelta(index, call_id or f"c{index}", name, arguments)]


def test_a_tool_round_appends_calls_results_and_asks_again(library: Library) -> None:
    other = library.create()
    library.append(other, ModelInput(text="we planned the lighthouse trip"))
    provider = ScriptedProvider(
        scripts=[
            [*call(0, "search_conversations", '{"query": "lighthouse"}'),
             *call(1, "current_time", ""), Finished("tool_calls")],
            reply("You planned a lighthouse trip."),
            reply("Trip"),
        ]
    )  # fmt: skip
    conversation = library.create()
    tools = ["search_conversations", "current_time"]
    asking = turns(library, Models.of(provider))
    output = asyncio.run(
        asking.run(conversation, "scripted:echo", "what did we plan?", tools=tools)
    )
    assert output.text == "You planned a lighthouse trip."
    kinds = [e.kind for e in conversation.history]
    assert kinds == ["model_input", "model_output", "tool_results", "model_output", "title"]
    assert conversation.history.at(1).meta["tools"] == ["search_conversations", "current_time"]
    results = conversation.history.at(3)
    assert isinstance(results, ToolResults)
    assert [r.call_id for r in results.results] == ["c0", "c1"]
    assert "[lighthouse] trip" in results.results[0].content
    assert other.id in results.results[0].content
    assert not any(r.is_error for r in results.results)
    first, second = provider.requests[:2]
    assert [t.name for t in first.tools] == ["search_conversations", "current_time"]
    assert [e.seq for e in second.context.entries] == [1, 2, 3]
    assert conversation.history.at(2).meta["replay_notes"] == ["scripted: nothing is sent anywhere"]


def test_tools_are_remembered_for_the_conversation(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("a"), reply("T"), reply("b")])
    conversation = library.create()
    models = Models.of(provider)
    asyncio.run(
        turns(library, models).run(conversation, "scripted:echo", "q1", tools=["current_time"])
    )
    asyncio.run(turns(library, models).run(conversation, "scripted:echo", "q2"))
    assert [t.name for t in provider.requests[-1].tools] == ["current_time"]


def test_update_notebook_appends_and_the_next_request_carries_it(library: Library) -> None:
    provider = ScriptedProvider(
        scripts=[
            [*call(0, "update_notebook", '{"content": "likes tea"}'), Finished("tool_calls")],
            reply("Noted."),
            reply("Tea"),
        ]
    )
    conversation = library.create()
    tools = ["update_notebook", "read_notebook"]
    asyncio.run(
        turns(library, Models.of(provider)).run(
            conversation, "scripted:echo", "remember", tools=tools
        )
    )
    assert conversation.history.notebook == "likes tea"
    assert provider.requests[1].context.notebook == "likes tea"


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("update_notebook", "{not json", "not valid JSON"),
        ("update_notebook", "[1, 2]", "must be a JSON object"),
        ("update_notebook", '{"content": 5}', "'content' (a string)"),
        ("delete_everything", "{}", "no tool named 'delete_everything' is enabled"),
        ("search_conversations", '{"query": " "}', "non-empty 'query'"),
    ],
)
def test_bad_tool_calls_become_error_results_the_model_can_read(
    library: Library, name: str, arguments: str, message: str
) -> None:
    provider = ScriptedProvider(
        scripts=[[*call(0, name, arguments), Finished("tool_calls")], reply("ok"), reply("T")]
    )
    conversation = library.create()
    tools = ["update_notebook", "search_conversations"]
    asyncio.run(
        turns(library, Models.of(provider)).run(conversation, "scripted:echo", "q", tools=tools)
    )
    [result] = conversation.history.at(3).results  # type: ignore[union-attr]
    assert result.is_error and message in result.content


def test_tool_rounds_are_bounded_and_the_history_stays_well_formed(library: Library) -> None:
    looping = [[*call(0, "current_time", "{}"), Finished("tool_calls")] for _ in range(3)]
    provider = ScriptedProvider(scripts=[*looping, reply("T")])
    bounded = turns(library, Models.of(provider), max_tool_rounds=2)
    conversation = library.create()
    asyncio.run(bounded.run(conversation, "scripted:echo", "q", tools=["current_time"]))
    kinds = [e.kind for e in conversation.history]
    assert kinds == ["model_input"] + ["model_output", "tool_results"] * 3 + ["title"]
    last = conversation.history.at(7)
    assert isinstance(last, ToolResults) and last.results[0].is_error
    assert "limit of 2 tool rounds" in last.results[0].content


def test_retry_answers_again_and_the_failed_answer_leaves_the_context(library: Library) -> None:
    provider = ScriptedProvider(
        scripts=[[TextDelta("half"), RateLimited("slow down")], reply("whole answer"), reply("T")]
    )
    models = Models.of(provider)
    conversation = library.create()
    with pytest.raises(RateLimited):
        asyncio.run(turns(library, models).run(conversation, "scripted:echo", "q"))
    output = asyncio.run(turns(library, models).regenerate(conversation, "scripted:echo"))
    assert output.text == "whole answer"
    assert [e.kind for e in conversation.history] == [
        "model_input", "model_output", "model_output", "title"
    ]  # fmt: skip
    retried = provider.requests[1].context
    assert [e.seq for e in retried.entries] == [1]  # the failed answer is not sent
    history = conversation.history
    assert history.siblings(3) == [2, 3]  # the new answer is a sibling, the failed one kept
    assert output.meta["regenerates"] == history.id_of(2)
    later = render_context(history)
    assert [e.seq for e in later.entries] == [1, 3]
    assert later.omitted == ()  # the other branch is not part of this path at all


def test_the_reasoning_setting_reaches_the_request(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("a"), reply("T")])
    thinking = turns(library, Models.of(provider), reasoning="high")
    conversation = library.create()
    asyncio.run(thinking.run(conversation, "scripted:echo", "q"))
    assert provider.requests[0].reasoning == "high"


def test_a_new_conversation_starts_with_the_default_tools(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("a"), reply("T"), reply("b")])
    conversation = library.create()
    defaults = turns(library, Models.of(provider), default_tools=("current_time",))
    asyncio.run(defaults.run(conversation, "scripted:echo", "q1"))
    assert [t.name for t in provider.requests[0].tools] == ["current_time"]
    asyncio.run(defaults.run(conversation, "scripted:echo", "q2", tools=[]))
    assert provider.requests[-1].tools == ()


def test_with_a_context_policy_the_request_is_budgeted_and_the_output_says_so(
    library: Library,
) -> None:
    from app.context import ContextPolicy, Contexts

    provider = ScriptedProvider(scripts=[reply("one"), reply("T"), reply("two"), reply("three")])
    contexts = Contexts(ContextPolicy(window_turns=1), windows={"scripted:echo": 10_000})
    budgeted = turns(library, Models.of(provider), contexts=contexts)
    conversation = library.create()
    for question in ("first question", "q2", "q3"):
        asyncio.run(budgeted.run(conversation, "scripted:echo", question))
    last = provider.requests[-1].context
    assert [getattr(e, "text", None) for e in last.entries] == ["first question", "q3"]
    assert last.budget == 7_500 and last.tokens is not None and 0 < last.tokens < 50
    assert [o.reason for o in last.omitted] == ["window: older than the last 1 turns"]
    output = conversation.history.last_output
    assert output is not None
    assert output.meta["context"] == {"tokens": last.tokens, "budget": 7_500, "omitted": 1}


# --- recall: query rewriting -----------------------------------------------------------------


def _follow_up(library: Library, rewrite: list[object]):  # type: ignore[no-untyped-def]
    """A second turn whose model searches for "that"; ``rewrite`` is the cheap model's script."""
    other = library.create()
    library.append(other, ModelInput(text="restoring the Fresnel lens of a lighthouse"))
    search = [*call(0, "search_conversations", '{"query": "that"}'), Finished("tool_calls")]
    second = [search, rewrite, reply("Found it.")] if rewrite else [search, reply("Found it.")]
    provider = ScriptedProvider(scripts=[reply("Use distilled water."), reply("Lens"), *second])
    models, conversation = Models.of(provider), library.create()
    tools = ["search_conversations"]
    recall = turns(library, models, recall_model="scripted:echo")
    asyncio.run(recall.run(conversation, "scripted:echo", "How do I clean a Fresnel lens?",
                           tools=tools))  # fmt: skip
    asyncio.run(recall.run(conversation, "scripted:echo", "did I do that before?"))
    [result] = next(e for e in conversation.history if isinstance(e, ToolResults)).results
    return provider, result, other.id


def test_a_search_in_a_follow_up_is_rewritten_by_the_cheap_model(library: Library) -> None:
    rewrite = [TextDelta("Fresnel lens"), Finished("stop")]
    provider, result, other = _follow_up(library, rewrite)
    asked = provider.requests[3]
    assert "standalone" in (asked.context.system or "") and asked.max_tokens == 40
    prompt = asked.context.entries[0].text  # type: ignore[union-attr]
    assert "How do I clean a Fresnel lens?" in prompt and prompt.endswith("Last question: that")
    assert not result.is_error and other in result.content
    assert "rewritten from 'that'" in result.content and "'Fresnel lens'" in result.content


def test_a_failed_rewrite_searches_the_query_as_written_and_says_so(library: Library) -> None:
    provider, result, other = _follow_up(library, [RateLimited("slow down")])
    assert not result.is_error and "Query rewriting failed: slow down" in result.content
    assert other not in result.content  # "that" was searched, not the lens
    assert provider.scripts == []


def test_without_a_cheap_model_the_query_is_searched_as_written(library: Library) -> None:
    provider = ScriptedProvider(
        scripts=[reply("a"), reply("T"), [*call(0, "search_conversations", '{"query": "that"}'),
                                          Finished("tool_calls")], reply("b")]
    )  # fmt: skip
    models, conversation = Models.of(provider), library.create()
    plain = turns(library, models, title_model=None)
    asyncio.run(plain.run(conversation, "scripted:echo", "q1", tools=["search_conversations"]))
    asyncio.run(plain.run(conversation, "scripted:echo", "q2"))
    [result] = conversation.history.at(conversation.history.version - 1).results  # type: ignore[union-attr]
    assert result.content == "No conversations mention 'that'."
    assert len(provider.requests) == 4


def test_retry_answers_an_input_left_unanswered_rather_than_an_older_reply(
    library: Library,
) -> None:
    provider = ScriptedProvider(scripts=[reply("A2")])
    conversation = library.create()
    for entry in (ModelInput(text="Q1"), ModelOutput(provider="p", model="m", text="A1"),
                  Title(text="T", source="user"), ModelInput(text="Q2")):  # fmt: skip
        library.append(conversation, entry)  # Q2's reply never came (the app was killed)
    output = asyncio.run(
        turns(library, Models.of(provider)).regenerate(conversation, "scripted:echo")
    )
    history = conversation.history
    assert history.parent_of(output.seq) == 4 and history.siblings(2) == [2]
    assert [e.seq for e in provider.requests[0].context.entries] == [1, 2, 4]
    assert "regenerates" not in output.meta


def test_regenerating_a_continued_reply_answers_the_question_again(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("a fresh whole answer")])
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    cut = library.append(conversation, ModelOutput(provider="p", model="m", text="first,",
                                                   finish_reason="length"))  # fmt: skip
    part = ModelOutput(provider="p", model="m", text=" rest.", meta={"continues": cut.id})
    rest = library.append(conversation, part, after=cut.seq)
    library.append(conversation, Title(text="T", source="user"))
    again = turns(library, Models.of(provider))
    output = asyncio.run(again.regenerate(conversation, "scripted:echo", reply=rest.seq))
    assert conversation.history.parent_of(output.seq) == 1  # a sibling of the whole reply
    assert [e.seq for e in provider.requests[0].context.entries] == [1]


def test_continue_is_refused_for_a_reply_with_calls_or_one_that_already_goes_on(
    library: Library,
) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    call = ToolCall(id="c", name="current_time", arguments="{}")
    library.append(conversation, ModelOutput(provider="p", model="m", tool_calls=[call],
                                             finish_reason="length"))  # fmt: skip
    models = Models.of(ScriptedProvider())
    with pytest.raises(TurnRefused, match="nothing to continue"):
        asyncio.run(turns(library, models).continue_reply(conversation, "scripted:echo"))
