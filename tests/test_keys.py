"""API keys: one kept for the session, the real OS keyring (Secret Service via gnome-keyring),
then the environment."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.backends.chainer
import keyring.backends.fail
import keyring.backends.null
import pytest

from app import composition
from app.errors import AuthFailed
from app.keys import SERVICE, KeyringUnavailable, Keys
from app.keys import SESSION as FOR_THE_SESSION
from app.paths import DataDir
from app.scrub import scrub
from tests.helpers import openai_events as oe
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.prerequisites import NEEDS_KEYRING
from tests.helpers.wire_server import Reply, WireServer


def test_environment_is_the_fallback_in_a_documented_order() -> None:
    keys = Keys({"GOOGLE_API_KEY": "g2", "GEMINI_API_KEY": "g1", "OLLAMA_API_KEY": "o"})
    gemini = keys.lookup("gemini")
    assert gemini is not None and (gemini.value, gemini.source) == ("g1", "GEMINI_API_KEY")
    assert keys.lookup("ollama").source == "OLLAMA_API_KEY"  # type: ignore[union-attr]
    assert keys.lookup("openai") is None


def test_a_key_never_shows_in_its_repr() -> None:
    key = Keys({"OPENAI_API_KEY": "sk-very-secret"}).lookup("openai")
    assert "sk-very-secret" not in repr(key) and "OPENAI_API_KEY" in repr(key)


def test_without_a_keyring_the_messages_say_where_a_key_can_come_from() -> None:
    keys = Keys({})
    assert keys.lookup("anthropic") is None
    message = keys.missing_message("anthropic")
    assert "crosstalk key set anthropic" in message and "ANTHROPIC_API_KEY" in message
    assert "keyring is unavailable" in message
    with pytest.raises(KeyringUnavailable, match="set OPENAI_API_KEY in the environment instead"):
        keys.store("openai", "sk-x")


SECRET = "sk-crosstalk-test-0123456789"

SESSION = f"""
set -e
eval "$(printf '\\n' | gnome-keyring-daemon --unlock --components=secrets)"
echo {SECRET} | "$PY" -m app.cli key set openai
"$PY" -m app.cli models | grep '^openai '
"$PY" -c "import keyring; print('stored:', keyring.get_password('crosstalk', 'openai'))"
"$PY" -m app.cli key delete openai
"$PY" -m app.cli models | grep '^openai '
"""


@NEEDS_KEYRING
def test_key_set_stores_in_the_os_keyring_and_nowhere_else(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env |= {"PY": sys.executable, "HOME": str(tmp_path)}  # a fresh keyring of its own
    result = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SESSION],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "stored the key for openai in the OS keyring" in lines
    assert "openai  (openai, key from keyring)" in lines
    assert f"stored: {SECRET}" in lines
    assert "removed key for openai in the OS keyring" in lines
    assert lines[-1] == "openai  (openai, no key: crosstalk key set openai)"
    data = Path(os.environ["CROSSTALK_HOME"])
    for path in data.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


ODD = "gateway-key-0123456789abcdefXYZ"  # no known shape: only the value itself finds it
SCRUB_SESSION = f"""
set -e
eval "$(printf '\\n' | gnome-keyring-daemon --unlock --components=secrets)"
"$PY" -c "import keyring; keyring.set_password('crosstalk', 'gateway', '{ODD}')"
"$PY" -c "
from app.keys import Keys
from app.scrub import scrub
keys = Keys({{}})
assert keys.lookup('gateway').value == '{ODD}'
print('scrubbed:', scrub('401: invalid key {ODD}', keys.secrets()))
"
"""


@NEEDS_KEYRING
def test_a_key_read_from_the_os_keyring_is_scrubbed_whatever_its_shape(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env |= {"PY": sys.executable, "HOME": str(tmp_path)}  # a fresh keyring of its own
    result = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SCRUB_SESSION],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "scrubbed: 401: invalid key [redacted]" in result.stdout.splitlines()


# --- keys kept for the session (no usable keyring) -----------------------------------------

SESSION_KEY = "session-key-0123456789abcdefXYZ"  # no known shape: only the value finds it


@pytest.fixture
def backend() -> Iterator[Callable[[keyring.backend.KeyringBackend], None]]:
    """Install a keyring backend for one test, through keyring's own set_keyring."""
    previous = keyring.get_keyring()
    yield keyring.set_keyring
    keyring.set_keyring(previous)


def test_a_session_key_comes_first_and_only_its_source_is_shown(
    backend: Callable[[keyring.backend.KeyringBackend], None],
) -> None:
    memory = MemoryKeyring()
    memory.passwords[SERVICE, "openai"] = "sk-from-the-keyring-0123"
    backend(memory)
    keys = Keys({"OPENAI_API_KEY": "sk-from-the-environment"})
    keys.keep_for_session("openai", f"  {SESSION_KEY}\n")
    key = keys.lookup("openai")
    assert key is not None and (key.value, key.source) == (SESSION_KEY, FOR_THE_SESSION)
    assert SESSION_KEY not in repr(key) and SESSION_KEY not in repr(keys)
    assert SESSION_KEY in keys.secrets()
    assert keys.lookup("anthropic") is None  # for openai only
    assert keys.forget_session("openai") and not keys.forget_session("openai")
    assert keys.lookup("openai").source == "keyring"  # type: ignore[union-attr]
    assert SESSION_KEY in keys.secrets()  # what was sent with it may still come back
    with pytest.raises(ValueError, match="the key is empty; nothing was kept"):
        keys.keep_for_session("openai", "  \n")


class CountingKeyring(MemoryKeyring):
    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def get_password(self, service: str, username: str) -> str | None:
        self.asked += 1
        return super().get_password(service, username)


def test_the_command_lines_order_asks_the_environment_before_the_keyring(
    backend: Callable[[keyring.backend.KeyringBackend], None],
) -> None:
    """The window's keys: the keyring's first. The command line's: the environment's, and the
    keyring is then not asked at all; without one there, the keyring's as always."""
    memory = CountingKeyring()
    memory.passwords[SERVICE, "openai"] = "sk-from-the-keyring-0123"
    memory.passwords[SERVICE, "box"] = "box-from-the-keyring"
    backend(memory)
    environ = {"OPENAI_API_KEY": "sk-from-the-environment", "BOX_API_KEY": ""}
    window = Keys(environ)
    assert window.lookup("openai").source == "keyring"  # type: ignore[union-attr]
    assert window.shadowing("openai") is None
    memory.asked = 0
    terminal = Keys(environ, environment_first=True)
    key = terminal.lookup("openai")
    assert key is not None and (key.value, key.source) == (
        "sk-from-the-environment",
        "OPENAI_API_KEY",
    )
    assert memory.asked == 0
    assert terminal.shadowing("openai") == "OPENAI_API_KEY"
    assert terminal.lookup("box").source == "keyring"  # type: ignore[union-attr]
    assert terminal.shadowing("box") is None  # an empty variable is no key
    assert terminal.trial("box", "typed").environment_first
    terminal.keep_for_session("openai", SESSION_KEY)  # the session's still comes first
    assert terminal.lookup("openai").source == FOR_THE_SESSION  # type: ignore[union-attr]


def test_storing_a_key_in_the_keyring_replaces_the_session_key(
    backend: Callable[[keyring.backend.KeyringBackend], None],
) -> None:
    memory = MemoryKeyring()
    backend(memory)
    keys = Keys({})
    keys.keep_for_session("gemini", SESSION_KEY)
    keys.store("gemini", "AIza-stored-now")
    assert keys.lookup("gemini").source == "keyring"  # type: ignore[union-attr]


def test_without_a_keyring_the_session_key_is_used(
    backend: Callable[[keyring.backend.KeyringBackend], None],
) -> None:
    backend(keyring.backends.fail.Keyring())
    keys = Keys({"ANTHROPIC_API_KEY": "sk-ant-environment"})
    assert not keys.keyring_usable()
    with pytest.raises(KeyringUnavailable):
        keys.store("anthropic", SESSION_KEY)
    assert keys.problem == "No recommended backend was available"
    keys.keep_for_session("anthropic", SESSION_KEY)
    key = keys.lookup("anthropic")
    assert key is not None and (key.value, key.source) == (SESSION_KEY, FOR_THE_SESSION)
    assert scrub(f"401: bad key {SESSION_KEY}", keys.secrets()) == "401: bad key [redacted]"


def test_whether_the_keyring_can_keep_keys_is_known_without_trying(
    backend: Callable[[keyring.backend.KeyringBackend], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = Keys({})
    backend(keyring.backends.fail.Keyring())  # what keyring falls back to with no backend
    assert not keys.keyring_usable()
    backend(keyring.backends.null.Keyring())  # drops what it is given
    assert not keys.keyring_usable()
    backend(MemoryKeyring())
    assert keys.keyring_usable()  # asked again: another backend was installed
    monkeypatch.setattr(keyring.backends.chainer.ChainerBackend, "backends", [])
    backend(keyring.backends.chainer.ChainerBackend())  # a chainer with nothing to chain
    assert not Keys({}).keyring_usable()
    monkeypatch.setattr(keyring.backends.chainer.ChainerBackend, "backends", [MemoryKeyring()])
    assert Keys({}).keyring_usable()


def test_a_trial_key_answers_one_provider_and_is_kept_nowhere(
    backend: Callable[[keyring.backend.KeyringBackend], None],
) -> None:
    memory = MemoryKeyring()
    backend(memory)
    keys = Keys({"OPENAI_API_KEY": "sk-from-the-environment"})
    tried = keys.trial("openai", f" {SESSION_KEY} ")
    assert tried.lookup("openai").value == SESSION_KEY  # type: ignore[union-attr]
    assert keys.lookup("openai").source == "OPENAI_API_KEY"  # type: ignore[union-attr]
    assert memory.passwords == {} and SESSION_KEY in keys.secrets()
    tried.lookup("openai")
    assert keys.secrets() == tried.secrets()  # one set: whatever the trial reads is scrubbed


def test_the_base_url_from_the_environment_and_where_it_comes_from() -> None:
    keys = Keys({"OPENAI_BASE_URL": "https://gw/v1", "GOOGLE_GEMINI_BASE_URL": ""})
    assert keys.base_url_from_environment("openai", "openai") == (
        "OPENAI_BASE_URL",
        "https://gw/v1",
    )
    assert keys.base_url_from_environment("proxy", "openai-responses") == (
        "OPENAI_BASE_URL",
        "https://gw/v1",
    )
    assert keys.base_url_from_environment("gemini", "gemini") is None  # set, but empty
    assert keys.base_url_from_environment("ollama", "openai-compatible") is None


def test_a_session_key_reaches_the_provider_and_never_a_file(data_dir: DataDir) -> None:
    """The key goes in the request's header; the provider's error echoes it, and what is saved
    of that error (the transcript, the index) has it scrubbed."""
    refusal = oe.api_error(f"Incorrect API key provided: {SESSION_KEY}", "invalid_api_key")
    with WireServer() as server:
        server.enqueue(Reply(status=401, body=refusal))
        services = composition.build(data_dir, {"OPENAI_BASE_URL": f"{server.url}/v1"})
        try:
            services.keys.keep_for_session("openai", SESSION_KEY)
            conversation = services.library.create()

            async def turn() -> None:
                try:
                    await services.runner.run(conversation, "openai:gpt-4.1", "Hello?")
                finally:
                    await services.models.aclose()

            with pytest.raises(AuthFailed) as failed:
                asyncio.run(turn())
        finally:
            services.close()
        (request,) = server.requests
    assert request.headers["authorization"] == f"Bearer {SESSION_KEY}"
    assert SESSION_KEY not in str(failed.value)
    written = [path for path in data_dir.root.rglob("*") if path.is_file()]
    (transcript,) = [path for path in written if path.suffix == ".jsonl"]
    assert "(Incorrect API key provided: [redacted])" in transcript.read_text()
    for path in written:
        assert SESSION_KEY.encode() not in path.read_bytes(), path
