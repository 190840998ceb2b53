"""A turn in a project's conversation (docs/projects.md): the project's instructions open every
request, before the conversation's own, counted and shown in the Next request; its tools and
sampling defaults apply unless the conversation chose its own."""

from __future__ import annotations

import asyncio

from app.context import ContextPolicy, Contexts, PolicyStore
from app.providers import Models
from app.store import Library
from app.store.projects import Projects
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.turns import runner
from tests.test_turn import reply


def _runner(library: Library, provider: ScriptedProvider, **knobs: object):  # type: ignore[no-untyped-def]
    contexts = Contexts(ContextPolicy(), PolicyStore(library), {"scripted:echo": 50_000})
    return runner(library, Models.of(provider), contexts=contexts, **knobs)


def test_the_projects_instructions_open_every_request_and_are_counted(library: Library) -> None:
    projects = Projects(library)
    project = projects.create("Thesis", instructions="You advise a thesis on lighthouses.")
    provider = ScriptedProvider(scripts=[reply("one"), reply("T"), reply("two"), reply("three")])
    turns = _runner(library, provider)
    conversation = library.create()
    projects.move([conversation.id], project.id)
    asyncio.run(turns.run(conversation, "scripted:echo", "first", system="Be brief."))
    first = provider.requests[0].context
    assert first.system == "You advise a thesis on lighthouses.\n\nBe brief."
    assert first.project_system == "You advise a thesis on lighthouses."
    alone = Contexts(ContextPolicy(), None, {"scripted:echo": 50_000})  # no project known
    counted = alone.render(conversation, provider, "echo")
    assert first.tokens is not None and counted.tokens is not None
    assert first.tokens > counted.tokens  # the instructions are counted in the budget

    projects.edit(project.id, instructions="Now answer in French.")  # applies to the next turn
    asyncio.run(turns.run(conversation, "scripted:echo", "second"))
    assert provider.requests[-1].context.system == "Now answer in French.\n\nBe brief."
    projects.move([conversation.id], None)
    asyncio.run(turns.run(conversation, "scripted:echo", "third"))
    assert provider.requests[-1].context.system == "Be brief."
    assert provider.requests[-1].context.project_system is None
    assert all(not e.kind.startswith("project") for e in conversation.history
               if e.kind == "system_instruction")  # fmt: skip


def test_the_projects_tools_and_sampling_apply_unless_the_conversation_chose(
    library: Library,
) -> None:
    projects = Projects(library)
    project = projects.create("P", tools=["current_time"], temperature=0.3, max_tokens=900,
                              reasoning="off")  # fmt: skip
    provider = ScriptedProvider(
        scripts=[reply("a"), reply("T"), reply("b"), reply("c"), reply("T")]
    )
    turns = _runner(library, provider, temperature=1.0, reasoning="high")
    conversation = library.create()
    projects.move([conversation.id], project.id)
    asyncio.run(turns.run(conversation, "scripted:echo", "q1"))
    first = provider.requests[0]
    assert [t.name for t in first.tools] == ["current_time"]
    assert (first.temperature, first.max_tokens, first.reasoning) == (0.3, 900, None)
    asyncio.run(
        turns.run(conversation, "scripted:echo", "q2", tools=[], tuning={"temperature": 0.9})
    )
    second = provider.requests[-1]
    assert second.tools == () and second.temperature == 0.9 and second.max_tokens == 900
    outside = library.create()
    asyncio.run(turns.run(outside, "scripted:echo", "q3"))
    third = provider.requests[-2]  # the last is the title's
    assert third.temperature == 1.0 and third.tools == () and third.reasoning == "high"
