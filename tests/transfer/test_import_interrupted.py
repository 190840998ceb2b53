"""Ctrl-C during `crosstalk import`: the import stops between two conversations, says what
was imported, leaves no half-imported conversation and prints no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.history import History, ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library
from tests.helpers.signals import interruptible

pytestmark = pytest.mark.slow


def make_archive(tmp_path: Path, count: int) -> Path:
    source = DataDir(tmp_path / "source")
    library = Library(source)
    for n in range(count):  # each written whole, in one go: 1,500 take seconds, not 20
        history = History()
        for turn in range(5):
            history.append(history.stamp(ModelInput(text=f"question {n}.{turn} " * 30)))
            history.append(history.stamp(ModelOutput(provider="p", model="m", text="answer " * 60)))
        history.append(history.stamp(Title(text=f"Conversation {n}", source="user")))
        library.create(history)
    library.close()
    archive = tmp_path / "all.zip"
    env = os.environ | {"CROSSTALK_HOME": str(source.root)}
    subprocess.run([sys.executable, "-m", "app.cli", "export", "--all", "-f", "zip", "-o",
                    str(archive)], env=env, check=True, capture_output=True)  # fmt: skip
    return archive


def test_ctrl_c_stops_between_conversations_and_says_what_was_imported(tmp_path: Path) -> None:
    archive = make_archive(tmp_path, 1500)
    target = DataDir(tmp_path / "target")
    env = os.environ | {"CROSSTALK_HOME": str(target.root)}
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "import", str(archive)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=interruptible,
    )  # fmt: skip
    conversations = target.conversations
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(conversations.glob("*.jsonl"))) < 20:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    printed = {line.split()[0] for line in out.splitlines()}
    library = Library(target)
    try:
        on_disk = {p.stem for p in conversations.glob("*.jsonl")}
        assert 20 <= len(on_disk) < 1500
        assert printed == on_disk  # every conversation there was reported, and only those
        for conversation_id in on_disk:  # and each is whole
            history = library.open(conversation_id).history
            assert len(history) == 11 and history.title is not None
    finally:
        library.close()
