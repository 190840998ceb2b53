"""Compression with the real built-in model, offline: the summary it writes is what the next
request carries, or, if it fails (it is a 135M model), nothing changes and the reason is clear."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.cli import main
from app.context import CompressionError, Contexts, compress, parse_strategy
from app.history import Compression, ModelInput
from app.providers import Models
from app.providers.local import LocalProvider
from app.store import Library
from app.turn import TurnSettings, run_turn
from tests.context.helpers import conversation_with_preamble, grow

pytestmark = pytest.mark.slow


def test_the_local_model_compresses_and_the_next_request_carries_it(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 3, words=10, tools_every=2)
    provider = LocalProvider(threads=2)
    contexts = Contexts()
    before = list(conversation.history)
    tokens_before = contexts.render(conversation, provider, "smollm2").tokens or 0

    async def go() -> str | None:
        try:
            await compress(library, conversation, provider, "smollm2", parse_strategy("whole"),
                           limit=contexts.window(provider, "smollm2"))  # fmt: skip
        except CompressionError as exc:
            return str(exc)
        finally:
            settings = TurnSettings(window_turns=20, max_tokens=16, contexts=contexts)
            await run_turn(library, conversation, Models.of(provider), "local:smollm2",
                           "And what was my project called?", settings)  # fmt: skip
            await provider.aclose()
        return None

    failure = asyncio.run(go())
    compressions = [e for e in conversation.history if isinstance(e, Compression)]
    output = conversation.history.last_output
    assert output is not None and output.error is None and output.text
    if failure is not None:  # a failed summary was not used: the history only grew by the turn
        assert "\n" not in failure and "local:smollm2" in failure
        assert not compressions
        assert list(conversation.history)[: len(before)] == before
        return
    (entry,) = compressions
    assert entry.provider == "local" and entry.model == "smollm2" and entry.summary.strip()
    assert entry.usage.input > 0 and entry.usage.output > 0
    context = contexts.render(conversation, provider, "smollm2")
    summaries = [
        e for e in context.entries if isinstance(e, ModelInput) and "compression" in e.meta
    ]
    assert [s.seq for s in summaries] == [entry.seq]
    carried = output.meta["context"]  # what the turn's request carried: the summary, not them
    assert carried["omitted"] >= 1 and carried["tokens"] != tokens_before
    assert context.entries[0].text == "My project is called Lighthouse."  # type: ignore[union-attr]


def test_the_readme_compression_commands_work_on_the_built_in_model(
    library: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    """whole, then chunked, then last-n, then facts, then undo: each one succeeds on
    local:smollm2 with the defaults and changes what the next request carries, as `crosstalk
    context` reports it; each redo supersedes the one before."""
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
