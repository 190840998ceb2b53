from __future__ import annotations

import asyncio

import pytest

from app.errors import RateLimited, UnknownModel
from app.history import ModelInput, ModelOutput, SystemInstruction, Title, Usage
from app.providers import Finished, Models, TextDelta, UsageReport
from app.store import Library
from app.turn import TurnSettings, run_turn
from tests.helpers.scripted_provider import Pause, ScriptedProvider

SETTINGS = TurnSettings(window_turns=20, title_model="scripted:echo")


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
        run_turn(
            library,
            conversation,
            Models([provider]),
            "scripted:echo",
            "Capital of France?",
            SETTINGS,
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
    models = Models([provider])
    conversation = library.create()
    asyncio.run(run_turn(library, conversation, models, "scripted:echo", "q1", SETTINGS))
    asyncio.run(run_turn(library, conversation, models, "scripted:echo", "q2", SETTINGS))
    carried = provider.requests[-1].context.entries
    assert [getattr(e, "text", None) for e in carried] == ["q1", "one", "q2"]
    assert sum(isinstance(e, Title) for e in conversation.history) == 1


def test_cancel_keeps_what_arrived_marked_partial(library: Library) -> None:
    provider = ScriptedProvider(scripts=[[TextDelta("half an an"), Pause(30), TextDelta("swer")]])
    conversation = library.create()

    async def cancel_soon() -> None:
        task = asyncio.create_task(
            run_turn(library, conversation, Models([provider]), "scripted:echo", "q", SETTINGS)
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
        asyncio.run(
            run_turn(library, conversation, Models([provider]), "scripted:echo", "q", SETTINGS)
        )
    output = library.open(conversation.id).history.at(2)
    assert isinstance(output, ModelOutput)
    assert (output.text, output.partial, output.error) == ("so far", True, "slow down")


def test_a_failed_title_falls_back_to_the_first_words(library: Library) -> None:
    provider = ScriptedProvider(scripts=[reply("fine"), [RateLimited("no titles today")]])
    conversation = library.create()
    text = "Please explain the difference between threads and processes in Python"
    asyncio.run(
        run_turn(library, conversation, Models([provider]), "scripted:echo", text, SETTINGS)
    )
    title = conversation.history.at(3)
    assert isinstance(title, Title)
    assert title.text == "Please explain the difference between threads"
    assert title.meta["fallback"] == "no titles today"


def test_an_unknown_model_fails_before_anything_is_written(library: Library) -> None:
    conversation = library.create()
    with pytest.raises(UnknownModel, match="available: scripted:echo"):
        asyncio.run(
            run_turn(library, conversation, Models([ScriptedProvider()]), "nope:x", "q", SETTINGS)
        )
    assert conversation.history.version == 0
