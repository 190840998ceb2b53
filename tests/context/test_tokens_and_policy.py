"""Offline token counts (once per entry), model windows and budgets, and policies' values."""

from __future__ import annotations

import base64
import subprocess
import sys
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.context import (
    ContextPolicy,
    Contexts,
    PolicyStore,
    TokenCounter,
    count_entry,
    count_text,
    method_for,
    parse_assignment,
)
from app.context.windows import context_window
from app.history import Attachment, ModelInput, ModelOutput, ToolCall
from app.paths import DataDir
from app.providers.local import LocalProvider
from app.settings import Settings
from app.store import Library
from tests.context.helpers import grow


def test_counts_match_openais_tokenizer() -> None:
    # "hello world" is two tokens in both o200k_base and cl100k_base (tiktoken agrees)
    assert count_text("hello world") == 2
    assert count_text("hello world", "cl100k_base") == 2
    assert count_text("") == 0
    # longer than one encode call takes, cut between words as one call would count it
    assert count_text("word " * 120_000) == 120_001  # "word", " word" x N-1, " "


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
@example("a lone \ud800 surrogate, 東京タワー")
def test_counts_are_those_of_bpe_openais_own_encoding(text: str) -> None:
    """The Rust tokenizer is loaded without bpe_openai's package (app/context/tokens.py):
    its counts are the package's, lone surrogates included."""
    for name in ("o200k_base", "cl100k_base"):
        assert count_text(text, name) == len(_public(name).encode_ordinary(text))


@cache
def _public(name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai  # type: ignore[import-untyped]

        return bpe_openai.get_encoding(name)


def test_counting_reads_no_vocabulary_into_python() -> None:
    """Importing bpe_openai reads its three vocabularies (1.1 s, ~75 MB); counting needs none
    of them."""
    script = (
        "import sys\n"
        "from app.context.tokens import count_text\n"
        "assert count_text('hello world') == 2\n"
        "print(sorted(m for m in sys.modules if m.startswith('bpe_openai')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['bpe_openai._bindings']"


def test_an_entry_counts_its_calls_attachments_and_framing() -> None:
    plain = count_entry(ModelInput(text="hello world"))
    assert plain == 2 + 4
    text_file = Attachment(name="a.txt", mime_type="text/plain",
                           data=base64.b64encode(b"hello world").decode())  # fmt: skip
    assert count_entry(ModelInput(text="hello world", attachments=[text_file])) == plain + 2
    call = ToolCall(id="c", name="current_time", arguments="{}")
    with_call = ModelOutput(provider="p", model="m", text="hello world", tool_calls=[call])
    assert count_entry(with_call) > plain


def test_each_entry_is_counted_once_per_conversation() -> None:
    counter = TokenCounter()
    count = counter.counting("c1")
    entry = ModelInput(text="hello world", seq=7)
    assert count(entry) == count(entry) == 6 and len(counter) == 1
    counter.counting("c2")(entry)
    assert len(counter) == 2
    count(ModelInput(text="not appended yet"))  # seq 0: never cached
    assert len(counter) == 2


def test_only_openai_models_get_an_exact_label() -> None:
    assert method_for("openai", "gpt-4.1").estimate is False
    assert method_for("openai", "gpt-4-turbo").encoding == "cl100k_base"
    assert method_for("openai", "gpt-4o-mini").encoding == "o200k_base"
    assert method_for("anthropic", "claude-sonnet-4-6").estimate is True
    assert "estimate" in method_for("local", "smollm2").label


def test_windows_come_from_the_provider_the_table_or_the_settings() -> None:
    from app.providers.local import CONTEXT_WINDOW, LocalProvider

    assert context_window("local:smollm2", LocalProvider(), "smollm2") == CONTEXT_WINDOW
    assert context_window("anthropic:claude-haiku-5-5", object(), "claude-haiku-5-5") == 200_000
    assert context_window("gemini:gemini-2.5-pro", object(), "gemini-2.5-pro") == 1_048_576
    assert context_window("ollama:llama3.2", object(), "llama3.2", server=True) == 8_192
    assert (
        context_window("ollama:llama3.2", object(), "llama3.2", {"ollama:llama3.2": 131072})
        == 131072
    )


def test_the_budget_leaves_room_for_the_reply_and_the_tools() -> None:
    policy = ContextPolicy()
    assert policy.budget(200_000) == 150_000
    assert policy.budget(8192) == 6144  # a quarter of a small window is kept for the reply
    assert policy.budget(8192, max_tokens=4000) == 4192
    assert policy.budget(8192, reserved=100) == 6044


def test_settings_carry_the_default_policy_and_check_it() -> None:
    settings = Settings(auto_compress=True, compress_strategy="whole", window_turns=7)
    policy = settings.context_policy()
    assert (policy.auto_compress, policy.compress_strategy, policy.window_turns) == (
        True,
        "whole",
        7,
    )
    for bad in ({"compress_strategy": "most"}, {"compress_threshold": 0}, {"budget_share": 2.0},
                {"keep_recent_turns": 0}, {"context_windows": {"nocolon": 5}}):  # fmt: skip
        with pytest.raises(ValueError):
            Settings(**bad)  # type: ignore[arg-type]


def test_assignments_read_like_a_person_writes_them() -> None:
    assert parse_assignment("auto_compress=on") == ("auto_compress", True)
    assert parse_assignment("auto-compress = off") == ("auto_compress", False)
    assert parse_assignment("window_turns=40") == ("window_turns", 40)
    assert parse_assignment("window_turns=none") == ("window_turns", None)
    assert parse_assignment("compress_threshold=0.5") == ("compress_threshold", 0.5)
    assert parse_assignment("compress_strategy=facts:a,b") == ("compress_strategy", "facts:a,b")
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_assignment("colour=blue")


def test_services_follow_replaced_settings_and_keep_the_counts(tmp_path: Path) -> None:
    from app.composition import build

    services = build(DataDir(tmp_path / "home"), {}, reconcile=False)
    try:
        first = services.contexts
        assert first is services.contexts  # built once
        first.counter.counting("c")(ModelInput(text="hello", seq=1))
        services.settings = Settings(window_turns=3, auto_compress=True)  # as the window does
        second = services.contexts
        assert second is not first and second.defaults.window_turns == 3
        assert second.defaults.auto_compress and len(second.counter) == 1
    finally:
        services.close()


def test_by_default_the_budget_alone_decides_how_many_turns_go(library: Library) -> None:
    """60 short turns fit the local model's budget: all are carried, none cut at 20 turns;
    a fixed window still applies when set, and says so."""
    conversation = library.create()
    grow(library, conversation, 60)
    contexts = Contexts(Settings().context_policy(), PolicyStore(library))
    provider = LocalProvider(threads=1)  # named only: nothing is started
    context = contexts.render(conversation, provider, "smollm2")
    assert sum(isinstance(e, ModelInput) for e in context.entries) == 60
    assert context.omitted == ()
    contexts.set_policy(conversation.id, {"window_turns": 20})
    windowed = contexts.render(conversation, provider, "smollm2")
    assert sum(isinstance(e, ModelInput) for e in windowed.entries) == 21  # + the first input
    assert windowed.omitted[0].reason == "window: older than the last 20 turns"
