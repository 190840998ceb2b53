"""Query rewriting for recall: the last turns and a follow-up become one standalone query."""

from __future__ import annotations

import asyncio

import pytest

from app.context.recall import rewrite_query
from app.errors import RateLimited
from app.history import ModelInput
from app.providers import Finished, TextDelta
from app.store import Library
from tests.context.helpers import out
from tests.helpers.scripted_provider import ScriptedProvider


def conversation_about_lighthouses(library: Library):  # type: ignore[no-untyped-def]
    conversation = library.create()
    for n, (question, answer) in enumerate([
        ("Which paint holds up on a sea-facing wall?", "Silicate paint."),
        ("How do I restore a lighthouse lens?", "Clean the Fresnel prisms with distilled water."),
        ("And the brass fittings?", "Citric acid, then wax."),
        ("Thanks", "You're welcome."),
    ]):  # fmt: skip
        library.append(conversation, ModelInput(text=question))
        library.append(conversation, out(answer))
        assert n < 4
    return conversation


def test_a_follow_up_is_rewritten_from_the_last_three_turns(library: Library) -> None:
    conversation = conversation_about_lighthouses(library)
    provider = ScriptedProvider(
        scripts=[[TextDelta('"Query: restore lighthouse Fresnel lens brass"\n'), Finished("stop")]]
    )
    query = asyncio.run(rewrite_query(provider, "echo", conversation.history, "how do I do that?"))
    assert query == "restore lighthouse Fresnel lens brass"
    (request,) = provider.requests
    prompt = request.context.entries[0].text  # type: ignore[union-attr]
    assert "sea-facing" not in prompt  # older than the last three turns
    assert "User: How do I restore a lighthouse lens?" in prompt
    assert prompt.endswith("Last question: how do I do that?")
    assert request.max_tokens == 40 and "standalone" in (request.context.system or "")


@pytest.mark.parametrize(
    "script",
    [
        [RateLimited("slow down")],
        [TextDelta("  \n"), Finished("stop")],
        [TextDelta("restore the lighthouse lens and"), Finished("length")],
    ],
)
def test_a_failed_rewrite_searches_the_question_itself(
    library: Library, script: list[object]
) -> None:
    conversation = conversation_about_lighthouses(library)
    provider = ScriptedProvider(scripts=[script])
    query = asyncio.run(rewrite_query(provider, "echo", conversation.history, "and that?"))
    assert query == "and that?"


def test_a_new_conversation_needs_no_rewrite(library: Library) -> None:
    provider = ScriptedProvider()
    assert asyncio.run(rewrite_query(provider, "echo", library.create().history, "tea?")) == "tea?"
    assert provider.requests == []
