"""Context rendering benchmark: the cost of rendering the next request's context as a
conversation grows to 100, 1,000 and 10,000 turns (target: at most 5 ms, and flat).

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/context.py

Each conversation is a real ``Library`` conversation in a throw-away data dir (system
instruction, notebook, turns of ~60 words with a tool round every fifth turn). "next request"
is what a turn pays: one more input is appended, then ``Contexts.render`` runs with the
default policy (20 turns, budget from the model's window, first input kept, tokens counted
with bpe-openai and cached per entry). "first render" is the one after opening the
conversation: the outline of the history is built and the carried entries are counted once.
"chunked" histories have every older ten turns replaced by a summary (C = turns / 10
compression entries), all of which are carried while the budget allows.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.context import ContextPolicy, Contexts
from app.context.tokens import count_text
from app.history import (
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolCall,
    ToolResult,
    ToolResults,
)
from app.paths import DataDir
from app.store import Conversation, Library

SIZES = (100, 1_000, 10_000)
REPEATS = 200
MODELS = ("local:smollm2", "anthropic:claude-sonnet-4-6")
WORDS = "the migration plan copies tables verifies counts and switches readers " * 4


@dataclass(frozen=True)
class Named:
    name: str


def grow(library: Library, conversation: Conversation, turns: int, chunked: bool) -> None:
    library.append(conversation, SystemInstruction(text="You are a careful data engineer."))
    library.append(conversation, MemoryNotebook(content="Plan: copy, verify, switch."))
    start = conversation.history.version + 1
    for n in range(turns):
        library.append(conversation, ModelInput(text=f"question {n}: {WORDS}"))
        if n % 5 == 4:
            call = ToolCall(id=f"c{n}", name="current_time", arguments="{}")
            library.append(conversation, ModelOutput(provider="local", model="smollm2",
                                                     tool_calls=[call]))  # fmt: skip
            result = ToolResult(call_id=call.id, name=call.name, content="2026-11-21T09:00")
            library.append(conversation, ToolResults(results=[result]))
        library.append(conversation, ModelOutput(provider="local", model="smollm2",
                                                 text=f"answer {n}: {WORDS}"))  # fmt: skip
        if chunked and n % 10 == 9 and n < turns - 20:
            end = conversation.history.version
            summary = f"Turns {n - 9}-{n}: the plan was discussed; counts verified."
            library.append(conversation, Compression(strategy="chunked:20", covers=(start, end),
                                                     summary=summary, provider="local",
                                                     model="smollm2"))  # fmt: skip
            start = conversation.history.version + 1


def measure(data: DataDir, turns: int, chunked: bool, spec: str) -> tuple[float, float, float]:
    library = Library(data)
    conversation = library.create()
    grow(library, conversation, turns, chunked)
    library.close()
    library = Library(data)
    conversation = library.open(conversation.id)
    contexts = Contexts(ContextPolicy())
    name, _, model = spec.partition(":")
    provider = Named(name)
    began = time.perf_counter()
    contexts.render(conversation, provider, model)
    first = (time.perf_counter() - began) * 1000
    times = []
    for n in range(REPEATS):
        library.append(conversation, ModelInput(text=f"one more question {n}"))
        began = time.perf_counter()
        context = contexts.render(conversation, provider, model)
        times.append((time.perf_counter() - began) * 1000)
    library.close()
    assert context.tokens is not None
    return first, statistics.median(times), sorted(times)[int(len(times) * 0.95)]


def main() -> int:
    count_text("warm up the tokenizer")  # loading the vocabulary (~0.5 s) is not rendering
    print(f"{'history':<9} {'turns':>7} {'model':<28} {'first render':>13} "
          f"{'next request p50':>17} {'p95':>8}")  # fmt: skip
    for chunked in (False, True):
        for turns in SIZES:
            for spec in MODELS:
                with tempfile.TemporaryDirectory() as tmp:
                    first, p50, p95 = measure(DataDir(Path(tmp)), turns, chunked, spec)
                print(f"{'chunked' if chunked else 'plain':<9} {turns:>7,} {spec:<28} "
                      f"{first:>10.2f} ms {p50:>14.3f} ms {p95:>5.3f} ms")  # fmt: skip
    print("target: next request <= 5 ms and flat from 100 to 10,000 turns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
