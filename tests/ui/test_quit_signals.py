"""Ctrl-C in the terminal that started the window closes it as its close button does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_closes_the_window_and_saves_its_state(tmp_path: Path, number: int) -> None:
    home = tmp_path / "home"
    env = os.environ | {"CROSSTALK_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen(
        [sys.executable, "-m", "ui.shell.main"], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        log = home / "crosstalk.log"
        deadline = time.monotonic() + 60
        while "language" not in (log.read_text() if log.exists() else ""):
            assert app.poll() is None and time.monotonic() < deadline, app.stdout
            time.sleep(0.1)
        time.sleep(2)  # the window is up and its loop waiting
        app.send_signal(number)
        output, _ = app.communicate(timeout=30)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    assert app.returncode == 0, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output
    assert (home / "window.ini").exists()  # closed as by its button: the state was saved
