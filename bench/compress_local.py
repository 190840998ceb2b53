"""Compression on the built-in model: how long it takes over a 200-turn conversation, and what
it wrote, for each strategy a user would try first.

A benchmark, not a test: it prints figures and the start of each summary, and always exits 0.

    .venv/bin/python bench/compress_local.py             # 200 turns
    .venv/bin/python bench/compress_local.py --turns 50

The conversation is real transcript entries in a throw-away data dir: questions with facts in
them (a budget, dates, names) and short answers, so a summary can be judged by eye. Each
strategy runs on a fresh copy, through ``compress`` as ``crosstalk compress`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.context import Contexts, compress, parse_strategy
from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.providers.local import LocalProvider
from app.store import Library

FACTS = [
    "the trip budget is 900 euros",
    "we fly on 12 May from Berlin",
    "the hotel is in Monti near the Cavour metro",
    "Anna is vegetarian",
    "the museum pass costs 55 euros",
    "day 2 is the Vatican, booked for 9:00",
    "rain is expected on day 3",
    "the return flight leaves Fiumicino at 18:40",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-compress-"))
    try:
        asyncio.run(run(root, args.turns))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


async def run(root: Path, turns: int) -> None:
    provider = LocalProvider(threads=2)
    contexts = Contexts()
    window = contexts.window(provider, "smollm2")
    try:
        for spec in ("whole", "chunked:40", "last-n:20", "facts:budget; flights"):
            library = Library(DataDir(root / spec.replace(":", "-").replace(" ", "")))
            conversation = library.create()
            for n in range(turns):
                fact = FACTS[n % len(FACTS)]
                library.append(conversation, ModelInput(text=f"Remember that {fact}. Step {n}?"))
                library.append(conversation, ModelOutput(
                    provider="local", model="smollm2",
                    text=f"Noted: {fact}. For step {n}, book early and walk where you can.",
                ))  # fmt: skip
            library.append(conversation, Title(text="Rome", source="user"))
            before = contexts.render(conversation, provider, "smollm2").tokens or 0
            started = time.perf_counter()
            outcome = await compress(library, conversation, provider, "smollm2",
                                     parse_strategy(spec), limit=window)  # fmt: skip
            seconds = time.perf_counter() - started
            after = contexts.render(conversation, provider, "smollm2").tokens or 0
            methods = sorted({entry.meta["summary"] for entry in outcome.appended})
            print(
                f"{spec:<22} {seconds:6.1f} s  {len(outcome.appended)} summar"
                f"{'y' if len(outcome.appended) == 1 else 'ies'} ({', '.join(methods)}); "
                f"next request ≈ {before:,} → {after:,} tokens"
            )
            sample = " ".join(outcome.appended[0].summary.split())
            print(f"    {sample[:300]}{'…' if len(sample) > 300 else ''}")
            library.close()
    finally:
        await provider.aclose()


if __name__ == "__main__":
    sys.exit(main())
