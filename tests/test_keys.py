"""API keys: the real OS keyring (Secret Service via gnome-keyring), then the environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.keys import KeyringUnavailable, Keys


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


@pytest.mark.skipif(
    not (shutil.which("dbus-run-session") and shutil.which("gnome-keyring-daemon")),
    reason="needs gnome-keyring and dbus (.ci/run installs them)",
)
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


@pytest.mark.skipif(
    not (shutil.which("dbus-run-session") and shutil.which("gnome-keyring-daemon")),
    reason="needs gnome-keyring and dbus (.ci/run installs them)",
)
def test_a_key_read_from_the_os_keyring_is_scrubbed_whatever_its_shape(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env |= {"PY": sys.executable, "HOME": str(tmp_path)}  # a fresh keyring of its own
    result = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SCRUB_SESSION],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "scrubbed: 401: invalid key [redacted]" in result.stdout.splitlines()
