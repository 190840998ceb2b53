"""The built-in model, for real: streaming, history replay, token counts, cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.history import Context, History, ModelInput, ModelOutput, render_context
from app.providers import Finished, Request, TextDelta, UsageReport
from app.providers.local import LocalProvider, bundled_model_path, chat_messages

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local() -> Iterator[LocalProvider]:
    provider = LocalProvider(threads=2)
    yield provider
    asyncio.run(provider.aclose())


def ask(provider: LocalProvider, context: Context, max_tokens: int = 12) -> list[object]:
    async def collect() -> list[object]:
        request = Request("smollm2", context, max_tokens=max_tokens, temperature=0.0)
        return [event async for event in provider.stream(request)]

    return asyncio.run(collect())


def single(text: str) -> Context:
    return Context(system=None, notebook=None, entries=(ModelInput(text=text, seq=1, ts="t"),))


def test_the_model_ships_inside_the_wheel() -> None:
    path = bundled_model_path()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000


def test_a_real_turn_streams_text_with_token_counts(local: LocalProvider) -> None:
    events = ask(local, single("What is the capital of France?"))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    [usage] = [e.usage for e in events if isinstance(e, UsageReport)]
    assert text.strip()
    assert usage.input > 10 and 0 < usage.output <= 12
    assert isinstance(events[-1], Finished) and events[-1].finish_reason in ("stop", "length")


def test_the_second_request_carries_the_first_turn(local: LocalProvider) -> None:
    history = History()
    history.append(history.stamp(ModelInput(text="My name is Zebulon. Remember it.")))
    first = ask(local, render_context(history))
    answer = "".join(e.text for e in first if isinstance(e, TextDelta))
    [first_usage] = [e.usage for e in first if isinstance(e, UsageReport)]
    history.append(history.stamp(ModelOutput(provider="local", model="smollm2", text=answer)))
    history.append(history.stamp(ModelInput(text="What is my name?")))
    context = render_context(history)
    assert [m["content"] for m in chat_messages(context)] == [
        "My name is Zebulon. Remember it.",
        answer,
        "What is my name?",
    ]
    [second_usage] = [e.usage for e in ask(local, context) if isinstance(e, UsageReport)]
    # the second prompt holds the first question and answer as well as the new question
    assert second_usage.input > first_usage.input + 5


def test_the_system_instruction_and_notebook_lead_the_prompt() -> None:
    context = Context(system="Be brief.", notebook="User likes tea.", entries=())
    assert chat_messages(context) == [{"role": "system", "content": "Be brief.\n\nUser likes tea."}]


def test_cancel_stops_generation_mid_stream(local: LocalProvider) -> None:
    async def cancel_after_first_text() -> int:
        seen = 0

        async def consume() -> None:
            nonlocal seen
            request = Request("smollm2", single("Count from 1 to 1000 in words."), max_tokens=2000)
            async for event in local.stream(request):
                if isinstance(event, TextDelta):
                    seen += 1

        task = asyncio.create_task(consume())
        while seen == 0:
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task  # returns only once the worker has stopped generating
        return seen

    seen = asyncio.run(cancel_after_first_text())
    assert seen < 200
    # the model's context holds the prompt and what was generated: a few dozen tokens, not 2,000
    assert local._llama.n_tokens < 400
    # the worker is free again: a new request completes
    assert any(isinstance(e, Finished) for e in ask(local, single("Hi")))
