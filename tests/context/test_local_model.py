"""Compression with the real built-in model, offline: the summary it writes is what the next
request carries; a summary it writes that cannot be used is replaced by an extractive one, said
so; and if the model cannot be run at all, nothing changes and the reason is clear. Each test
checks which of these happened (the compression's ``meta["summary"]``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.context import CompressionError, Contexts, compress, parse_strategy, summaries
from app.context.summaries import BY_MODEL, EXTRACTED, TRIMMED
from app.history import Compression, ModelInput, ModelOutput
from app.providers import Models
from app.providers.local import LocalProvider
from app.store import Conversation, Library
from tests.context.helpers import conversation_with_preamble, grow, out, tool_turn
from tests.helpers.turns import runner

pytestmark = pytest.mark.slow

# what a user might have said: the model's summary of it has no reason to repeat itself (the
# "word word word" of ``grow`` makes any faithful summary a loop, which is refused)
TALK = [
    ("The Lighthouse app must ship on 3 March. Which database should we use?",
     "Use PostgreSQL: it handles the reporting queries well."),
    ("The team is Ana, Bruno and Chen. Chen writes the backend.",
     "Then Chen can set up PostgreSQL this week."),
    ("What is still open?", "The hosting provider and its budget are still open."),
]  # fmt: skip


def talked(library: Library) -> Conversation:
    conversation = conversation_with_preamble(library)
    for question, answer in TALK[:2]:
        library.append(conversation, ModelInput(text=question))
        library.append(conversation, out(answer))
    for entry in tool_turn(0):
        library.append(conversation, entry)
    question, answer = TALK[2]
    library.append(conversation, ModelInput(text=question))
    library.append(conversation, out(answer))
    return conversation


def compressed_then_asked(
    library: Library, conversation: Conversation, provider: LocalProvider, contexts: Contexts
) -> tuple[Compression, ModelOutput]:
    """A whole compression by local:smollm2 (a CompressionError fails the test), then a turn; the
    compression appended and the turn's reply."""

    async def go() -> None:
        try:
            await compress(library, conversation, provider, "smollm2", parse_strategy("whole"),
                           limit=contexts.window(provider, "smollm2"))  # fmt: skip
            turns = runner(library, Models.of(provider), contexts=contexts, max_tokens=16)
            await turns.run(conversation, "local:smollm2", "And what was my project called?")
        finally:
            await provider.aclose()

    asyncio.run(go())
    (entry,) = [e for e in conversation.history if isinstance(e, Compression)]
    output = conversation.history.last_output
    assert output is not None and output.error is None and output.text
    return entry, output


def check_carried(conversation: Conversation, provider: LocalProvider, contexts: Contexts,
                  entry: Compression, output: ModelOutput, tokens_before: int) -> None:  # fmt: skip
    """The next request carries the preserved first input and the summary, not what it covers."""
    context = contexts.render(conversation, provider, "smollm2")
    summaries_carried = [
        e for e in context.entries if isinstance(e, ModelInput) and "compression" in e.meta
    ]
    assert [s.seq for s in summaries_carried] == [entry.seq]
    assert entry.summary.strip() in summaries_carried[0].text
    carried = output.meta["context"]  # what the turn's request carried: the summary, not them
    assert carried["omitted"] >= 1 and carried["tokens"] != tokens_before
    assert context.entries[0].text == "My project is called Lighthouse."  # type: ignore[union-attr]


def test_the_local_model_writes_the_summary_and_the_next_request_carries_it(
    library: Library,
) -> None:
    conversation = talked(library)
    provider, contexts = LocalProvider(threads=2), Contexts()
    tokens_before = contexts.render(conversation, provider, "smollm2").tokens or 0
    entry, output = compressed_then_asked(library, conversation, provider, contexts)
    # the model's own summary: an extractive stand-in (its summary refused) fails here
    assert entry.meta["summary"] in (BY_MODEL, TRIMMED), (entry.meta, entry.summary)
    assert not entry.summary.startswith("[Extractive summary")
    assert entry.provider == "local" and entry.model == "smollm2" and entry.summary.strip()
    assert entry.usage.input > 0 and entry.usage.output > 0
    check_carried(conversation, provider, contexts, entry, output, tokens_before)


def test_a_refused_summary_is_replaced_by_an_extractive_one_said_so(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model writes; what it wrote is refused (as a loop or a replay would be): the
    compression is still made, extractive and labelled, and carried like any other."""
    written: list[str] = []

    def refused(text: str) -> bool:
        written.append(text)
        return False

    monkeypatch.setattr(summaries, "usable", refused)
    conversation = talked(library)
    provider, contexts = LocalProvider(threads=2), Contexts()
    tokens_before = contexts.render(conversation, provider, "smollm2").tokens or 0
    entry, output = compressed_then_asked(library, conversation, provider, contexts)
    assert len(written) == 1 and written[0].strip()  # the model was asked, and answered
    assert entry.meta["summary"] == EXTRACTED
    assert entry.summary.startswith(
        "[Extractive summary: the first sentence of each message; "
        "the model's summary was not usable]\n"
    )
    assert "User: The team is Ana, Bruno and Chen." in entry.summary.splitlines()
    assert entry.usage.output > 0  # what the refused summary cost is still counted
    check_carried(conversation, provider, contexts, entry, output, tokens_before)


def test_a_model_that_cannot_run_fails_the_compression_and_changes_nothing(
    library: Library, tmp_path: Path
) -> None:
    conversation = talked(library)
    before = list(conversation.history)
    provider = LocalProvider(model_path=tmp_path / "missing.gguf", threads=1)

    async def go() -> None:
        try:
            await compress(library, conversation, provider, "smollm2", parse_strategy("whole"))
        finally:
            await provider.aclose()

    with pytest.raises(CompressionError) as failed:
        asyncio.run(go())
    said = str(failed.value)
    assert "\n" not in said and said.startswith("the summary from local:smollm2 failed: ")
    assert "the built-in model file is missing" in said
    assert list(conversation.history) == before  # nothing appended, not even an extractive one


def test_the_readme_compression_commands_work_on_the_built_in_model(
    library: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    """whole, then chunked, then last-n, then facts, then undo: each one succeeds on
    local:smollm2 with the defaults and changes what the next request carries, as `crosstalk
    context` reports it; each redo supersedes the one before. Whether a summary is the model's
    or extractive is not checked here (on these repetitive messages it is mostly extractive):
    test_the_local_model_writes_the_summary_and_the_next_request_carries_it holds the model to
    writing it."""
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 8, words=12)
    conversation_id = conversation.id
    library.close()

    def context() -> dict[str, Any]:
        assert main(["context", conversation_id, "--json"]) == 0
        return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]

    def compress_(*args: str) -> str:
        code = main(["compress", conversation_id, *args])
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    seen = [context()["tokens"]]
    superseded = []
    for strategy in ("whole", "chunked:4", "last-n:2", "facts:project; deadline"):
        out = compress_("--strategy", strategy)
        assert "appended compression seq" in out
        superseded.append("supersedes compression seq" in out)
        shown = context()
        assert any(row["kind"] == "summary" for row in shown["carried"])
        seen.append(shown["tokens"])
    assert superseded == [False, True, True, True]  # each redo replaced the one before
    assert len(set(seen)) > 2  # the context changed as they went
    last = max(row["seq"] for row in context()["carried"] if row["kind"] == "summary")
    compress_("--undo", str(last))
    assert context()["tokens"] != seen[-1]
