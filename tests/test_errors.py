"""Errors by type: each CrosstalkError of app/ says its English on the command line, as one
line, from its cause and data where it has them; a ValueError or KeyError from a command is a
bug, left to show its traceback, never turned into a line that reads like the user's mistake.
(The window's words for the same errors: tests/ui/test_errors_text.py.)"""

from __future__ import annotations

import argparse
import pickle
from typing import Any

import msgspec
import pytest

from app.cli import main as cli
from app.errors import (
    AuthFailed,
    CrosstalkError,
    EmptyValue,
    InvalidValue,
    RateLimited,
    Unavailable,
    stored,
)
from app.keys import Keys
from app.settings import Settings
from app.sync.errors import Unreachable
from tests.helpers.error_samples import error_classes, fields, own_causes, samples

SAMPLES = samples()


def run_raising(exc: BaseException, monkeypatch: pytest.MonkeyPatch) -> int:
    """``crosstalk list`` with a handler that raises ``exc``: the command line's own path."""

    def handler(services: Any, args: argparse.Namespace) -> int:
        raise exc

    monkeypatch.setattr(cli, "resolved", lambda name: handler)
    return cli.main(["list"])


@pytest.mark.parametrize(("where", "errors"), SAMPLES, ids=[where for where, _ in SAMPLES])
def test_the_command_line_says_each_type_of_error_in_english_on_one_line(
    where: str, errors: list[CrosstalkError], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Every class found in app/, made from a message alone and for each of its causes."""
    for exc in errors:
        assert run_raising(exc, monkeypatch) == 1
        assert capsys.readouterr().err == f"crosstalk: {exc}\n"
        if not exc.cause:
            assert str(exc) and not exc.data and stored(exc) is None
            continue
        template = type(exc).TEMPLATES[exc.cause]  # its sentence, with its data
        assert set(fields(template)) <= set(exc.data)
        assert str(exc) == template.format_map(type(exc).spelled(exc.data))
        assert "{" not in str(exc).replace("${VARIABLE}", "")
        assert stored(exc) == {"error": type(exc).__name__, "cause": exc.cause, "data": exc.data}


def test_each_class_words_only_its_own_causes() -> None:
    """A cause is a key of the class that raises it, never inherited silently: a subclass
    that words nothing of its own has no TEMPLATES of its own."""
    for cls in error_classes():
        for cause in own_causes(cls):
            assert cls.TEMPLATES[cause] == vars(cls)["TEMPLATES"][cause]


@pytest.mark.parametrize("bug", [ValueError("bad index 3"), KeyError("seq")])
def test_a_value_error_in_a_command_is_a_bug_not_a_one_line_message(
    bug: Exception, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    with pytest.raises(type(bug)):
        run_raising(bug, monkeypatch)
    assert "crosstalk: " not in capsys.readouterr().err


def test_the_sentences_people_meet_most_are_as_the_command_line_always_said_them() -> None:
    missing = Keys({}).missing("openai", "openai")
    assert isinstance(missing, AuthFailed) and str(missing) == (
        "no API key for openai: run `crosstalk key set openai` to keep one in the OS keyring, "
        "or set OPENAI_API_KEY"
    )
    assert missing.data == {"provider": "openai", "variables": "OPENAI_API_KEY"}
    limited = RateLimited("", 2.5, cause="rate_wait", provider="anthropic", seconds=3, kept=1)
    assert str(limited) == "rate limited by anthropic: retry in 3 s; what arrived was kept"
    assert limited.retry_after == 2.5
    offline = Unavailable(cause="unreachable", provider="ollama", url="http://localhost:11434")
    assert str(offline) == (
        "could not reach ollama at http://localhost:11434: check that the server is running, "
        "the network and the base URL"
    )
    sync = Unreachable(
        cause="unreachable", remote="s3://b/f", doing="writing", name="probes/x", detail="refused"
    )
    assert str(sync) == (
        "s3://b/f: writing probes/x: cannot reach the remote (refused); check the network "
        "connection and the URL"
    )


def test_a_value_a_person_gives_is_still_a_value_error_where_msgspec_reads_it() -> None:
    """Settings validate in __post_init__: msgspec takes only a ValueError there as a value
    that fails, keeping the InvalidValue (and its data) as the cause."""
    with pytest.raises(msgspec.ValidationError, match="max_tool_rounds must be at least 1") as got:
        msgspec.convert({"max_tool_rounds": 0}, Settings)
    cause = got.value.__cause__
    assert isinstance(cause, InvalidValue) and cause.data == {
        "field": "max_tool_rounds",
        "bound": 1,
    }
    with pytest.raises(EmptyValue, match="the key is empty; nothing was stored"):
        Keys({}).store("openai", "  ")


def test_a_stored_error_goes_through_the_cleaning_given() -> None:
    """A failed reply keeps its error's values in the transcript: scrubbed as its English is."""
    key = "sk-" + "a" * 40
    exc = AuthFailed(cause="rejected", provider="openai", words=f"bad key {key}")
    kept = stored(exc, lambda text: text.replace(key, "[key]"))
    assert kept == {
        "error": "AuthFailed",
        "cause": "rejected",
        "data": {"provider": "openai", "words": "bad key [key]"},
    }


@pytest.mark.parametrize(("name", "errors"), SAMPLES, ids=[name for name, _ in SAMPLES])
def test_an_error_crosses_to_another_process_whole(name: str, errors: list[CrosstalkError]) -> None:
    """Pickled (an import's indexer sends its errors back so: app/transfer/batch_indexer.py),
    an error is the same class with the same sentence, cause and data."""
    for exc in errors:
        again = pickle.loads(pickle.dumps(exc))
        assert type(again) is type(exc)
        assert (str(again), again.cause, again.data) == (str(exc), exc.cause, exc.data)
