"""The real app in a real X server (Xvfb): launch, one turn with the local model, a screenshot.

Set CROSSTALK_SCREENSHOT_DIR to keep the screenshot somewhere to look at.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.prerequisites import needs

pytestmark = [
    pytest.mark.slow,
    needs("Xvfb", "xdotool", "import", why="needs Xvfb, xdotool and ImageMagick (scripts/check)"),
]


def wait_until(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
def display() -> Iterator[str]:
    number = next(n for n in range(91, 140) if not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until(lambda: Path(f"/tmp/.X11-unix/X{number}").exists(), 10, "Xvfb")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def replies(home: Path) -> list[dict[str, object]]:
    found = []
    for path in (home / "conversations").glob("*.jsonl"):
        for line in path.read_text().splitlines()[1:]:
            entry = json.loads(line)
            if entry["kind"] in ("model_output", "title"):
                found.append(entry)
    return found


def test_the_real_window_holds_a_turn_with_the_local_model(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env |= {"DISPLAY": display, "CROSSTALK_HOME": str(home)}
    app = subprocess.Popen(
        [sys.executable, "-m", "ui.shell.main"], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip

    def run(*command: str) -> str:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout

    try:
        window = run("xdotool", "search", "--sync", "--onlyvisible", "--name", "^Crosstalk$")
        window = window.split()[0]
        run("xdotool", "windowfocus", "--sync", window)  # Xvfb has no window manager to activate
        run("xdotool", "key", "ctrl+l")
        run("xdotool", "type", "--delay", "20", "What is the capital of France?")
        run("xdotool", "key", "Return")
        wait_until(
            lambda: {e["kind"] for e in replies(home)} == {"model_output", "title"},
            90, "the local model's reply and the title",
        )  # fmt: skip
        [output] = [e for e in replies(home) if e["kind"] == "model_output"]
        assert output["text"] and not output["partial"] and output["provider"] == "local"
        time.sleep(1.0)  # let the last paint land
        shot = Path(os.environ.get("CROSSTALK_SCREENSHOT_DIR", tmp_path)) / "crosstalk-window.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        run("import", "-window", "root", str(shot))
        assert shot.stat().st_size > 10_000
        run("xdotool", "key", "ctrl+q")
        assert app.wait(timeout=30) == 0
    finally:
        if app.poll() is None:
            app.kill()
        output_text = app.communicate(timeout=10)[0]
        if "Traceback" in output_text:
            pytest.fail(f"the app printed a traceback:\n{output_text}")
