"""A writer process for the crash tests: appends entries until it is killed.

Run as ``python crash_writer.py DATA_ROOT [CONVERSATION_ID] [--limit N]``. It opens the library,
opens the conversation (or creates one and prints ``conv <id>``), prints ``ready``, then appends
``entry_for(seq)`` for the next seq in a loop, printing ``ack <id> <seq>`` (and flushing) each time
``Library.append`` has returned. The content of every entry is derived from its seq alone, so the
parent can tell exactly what any acknowledged (or half-written) entry must contain.
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec

from app.history import AnyEntry, ModelInput, ModelOutput, Reasoning, Title, ToolCall, Usage

MAX_TEXT = 200_000
_EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
_TRICKY = 'é "quoted" \\ back\nslash\ttab ✓ 漢字 \u2028 '


def _text(rng: random.Random, size: int) -> str:
    """About ``size`` characters: tricky JSON characters, then hex words."""
    raw = rng.randbytes(size // 2).hex()
    return _TRICKY + " ".join(raw[i : i + 160] for i in range(0, len(raw), 160))


def _size(rng: random.Random, large: int) -> int:
    return rng.randint(large // 10, large) if rng.random() < 0.15 else rng.randint(0, 2_000)


def entry_for(seq: int) -> AnyEntry:
    """The entry the writer appends at ``seq``: the same every time, in every process, with
    the id and parent the store gives it (each message follows the message before it)."""
    body = _body(seq)
    previous = next((s for s in range(seq - 1, 0, -1) if _is_message(s)), None)
    is_message = not isinstance(body, Title)
    parent = f"crash-{previous}" if is_message and previous is not None else None
    return msgspec.structs.replace(body, id=f"crash-{seq}", parent=parent)


def _is_message(seq: int) -> bool:
    return random.Random(f"crosstalk-crash-{seq}").random() >= TITLE_ODDS


TITLE_ODDS = 0.05


def _body(seq: int) -> AnyEntry:
    rng = random.Random(f"crosstalk-crash-{seq}")
    ts = (_EPOCH + timedelta(seconds=seq)).isoformat(timespec="milliseconds")
    ts = ts.replace("+00:00", "Z")
    roll = rng.random()
    if roll < TITLE_ODDS:
        return Title(seq=seq, ts=ts, text=f"crash test {seq}", source="user")
    if roll < 0.55:
        return ModelInput(seq=seq, ts=ts, text=_text(rng, _size(rng, MAX_TEXT)))
    return ModelOutput(
        seq=seq,
        ts=ts,
        provider="fake",
        model=f"model-{rng.randint(1, 3)}",
        text=_text(rng, _size(rng, MAX_TEXT // 2)),
        reasoning=(
            [Reasoning(provider="fake", model="m", text=_text(rng, 300), signature="sig")]
            if rng.random() < 0.3
            else []
        ),
        tool_calls=(
            [ToolCall(id=f"call-{seq}", name="lookup", arguments='{"q": "x"')]
            if rng.random() < 0.2
            else []
        ),
        finish_reason="stop",
        usage=Usage(
            input=rng.randint(0, 100_000),
            cached=rng.randint(0, 1_000),
            output=rng.randint(0, 10_000),
            reasoning=rng.randint(0, 500),
        ),
        meta={"latency_ms": rng.randint(1, 9_000)},
    )


def main(argv: list[str]) -> int:
    from app.paths import DataDir
    from app.store import Library

    limit = None
    if "--limit" in argv:
        at = argv.index("--limit")
        limit = int(argv[at + 1])
        del argv[at : at + 2]
    root, *rest = argv
    library = Library(DataDir(Path(root)))
    if rest:
        conversation = library.open(rest[0])
    else:
        conversation = library.create()
        print(f"conv {conversation.id}", flush=True)
    # what the first append loads (sqlite-utils, for writing the index; the search's character
    # classes): loaded now, so that "ready" means appending, and the parent's kills land in
    # writes rather than in an import
    import app.store.index_schema  # noqa: F401
    from app.store import search_text

    search_text.warm()

    print("ready", flush=True)
    written = 0
    while limit is None or written < limit:
        seq = conversation.history.version + 1
        stamped = library.append(conversation, entry_for(seq))
        if stamped.seq != seq:
            raise SystemExit(f"appended seq {stamped.seq}, expected {seq}")
        print(f"ack {conversation.id} {seq}", flush=True)
        written += 1
    library.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
