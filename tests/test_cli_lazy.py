"""The command line imports what a command needs and nothing more (issue 23: a command that
starts in 150 ms cannot afford Qt, an SDK it does not use, or a token vocabulary).

Each command runs in a fresh interpreter, as a person runs it; a small wrapper reports which of
the heavy packages ended up imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

HEAVY = ("PySide6", "bpe_openai", "openai", "anthropic", "google.genai", "llama_cpp", "mcp")
WRAPPER = f"""
import json, sys
from app.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:  # argparse's --help
    code = exit.code
heavy = {HEAVY!r}
print(json.dumps(sorted(h for h in heavy if h in sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def imported(*args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )  # fmt: skip
    return json.loads(result.stderr.strip().splitlines()[-1]), result


def home() -> Path:
    return Path(os.environ["CROSSTALK_HOME"])


def test_reading_commands_import_no_sdk_no_qt_no_vocabulary() -> None:
    for args in (["--help"], ["list", "-n", "20"], ["search", "hello"], ["models"]):
        heavy, result = imported(*args)
        assert heavy == [], (args, heavy)
        assert result.returncode == (1 if args[0] == "search" else 0)  # search: no match


def test_asking_a_cloud_model_loads_its_sdk_alone_and_no_vocabulary() -> None:
    """A short conversation is far inside the window: nothing needs counting (the provider's
    usage is the count), so the vocabulary stays unloaded; the OpenAI SDK is the only SDK."""
    with WireServer() as server:
        home().mkdir(parents=True, exist_ok=True)
        (home() / "settings.toml").write_text(
            'default_model = "box:tiny"\ntitle_model = "box:tiny"\n\n'
            '[providers.box]\nkind = "openai-compatible"\n'
            f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n'
        )
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Hi.")))
        heavy, first = imported("ask", "--new", "Hello there")
        assert first.returncode == 0 and first.stdout.strip() == "Hi." and heavy == ["openai"]
        (conversation_id,) = [line.split()[0] for line in _listed()]
        heavy, again = imported("ask", "-c", conversation_id, "And again")
        assert again.returncode == 0 and again.stdout.strip() == "Hi." and heavy == ["openai"]
        # a message over the window is still counted, and refused with the numbers
        huge = "lorem ipsum dolor " * 80_000
        refused = subprocess.run(
            [sys.executable, "-m", "app.cli", "ask", "-c", conversation_id], input=huge,
            capture_output=True, text=True, timeout=120, env=os.environ.copy(),
        )  # fmt: skip
        assert refused.returncode != 0 and "over box:tiny's window" in refused.stderr


def _listed() -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(), check=True,
    )  # fmt: skip
    return result.stdout.splitlines()
