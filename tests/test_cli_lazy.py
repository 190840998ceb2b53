"""The command line imports what a command needs and nothing more (a reading command must start
quickly, docs/performance.md: it cannot afford Qt, an SDK it does not use, or a token vocabulary).

Each command runs in a fresh interpreter, as a person runs it; a small wrapper reports which of
the heavy packages ended up imported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import parser as cli_base
from app.cli.main import resolved
from app.history import ModelInput
from app.paths import DataDir
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.box_provider import write_box_settings
from tests.helpers.wire_server import Reply, WireServer

HEAVY = (
    "PySide6", "bpe_openai", "openai", "anthropic", "google.genai", "llama_cpp", "mcp",
    "sqlite_utils",  # making or upgrading the index only (app/store/index_schema.py)
    "aiohttp",  # the OpenAI SDK's optional transport, when installed: never used here
)  # fmt: skip
# imported by the commands that need them only: a command that reads (--help, list, show,
# search) starts without them (bench/cli.py times it: 150 ms on a 100k library)
LAZY = (
    "asyncio", "ulid", "app.composition", "app.mcp", "app.context",
    "app.turn", "app.tools", "app.inspect", "app.providers", "app.settings", "app.pricing",
    "app.cli.turn", "app.cli.context", "app.cli.usage", "app.cli.mcp", "app.cli.approval",
    "wcwidth",  # text that is not plain ASCII only: an ASCII line cut with "…" needs none
)  # fmt: skip
LIBRARY = ("app.store", "app.history", "msgspec")  # what reading needs; --help does not
WRAPPER = f"""
import json, sys
from app.cli.main import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:  # argparse's --help
    code = exit.code
watched = {HEAVY + LAZY + LIBRARY!r}
print(json.dumps(sorted(h for h in watched if h in sys.modules)), file=sys.stderr)
sys.exit(code)
"""


EVERY_MODULE = """
import json, sys
from app.cli.main import main
code = main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""
# What ``ask`` never imports with its key in the environment and no tool enabled, even with an
# mcp.json that names a server: nothing of MCP, no compression, no keyring (nor a backend of
# it), no token vocabulary, no other provider's SDK, no Qt. ``app.mcp`` itself may come: the
# approver reads tool selectors with ``app.mcp.naming``.
ASK_NEVER = (
    "app.mcp.manager", "app.mcp.config", "app.mcp.source", "app.mcp.connection", "mcp",
    "app.cli.mcp", "app.context.compression", "app.context.summaries", "keyring",
    "secretstorage", "jeepney", "bpe_openai", "anthropic", "google.genai", "llama_cpp",
    "aiohttp", "PySide6",
)  # fmt: skip


def imported(*args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The heavy packages the command imported, and how it ended."""
    loaded, result = watched(*args)
    return [name for name in loaded if name in HEAVY], result


def watched(
    *args: str, library: bool = False
) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """Every module of HEAVY and LAZY the command imported (LIBRARY: ``library=True`` says
    whether to count them), and how it ended."""
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )  # fmt: skip
    loaded = json.loads(result.stderr.strip().splitlines()[-1])
    return [name for name in loaded if library or name not in LIBRARY], result


def home() -> Path:
    return Path(os.environ["CROSSTALK_HOME"])


def test_reading_commands_import_no_sdk_no_qt_no_vocabulary() -> None:
    imported("list")  # the first command makes the library (and its index: sqlite-utils)
    for args in (["--help"], ["list", "-n", "20"], ["search", "hello"], ["models"]):
        heavy, result = imported(*args)
        assert heavy == [], (args, heavy)
        assert result.returncode == (1 if args[0] == "search" else 0)  # search: no match


def test_asking_a_cloud_model_loads_its_sdk_alone_and_no_vocabulary() -> None:
    """A short conversation is far inside the window: nothing needs counting (the provider's
    usage is the count), so the vocabulary stays unloaded; the OpenAI SDK is the only SDK, and
    not its aiohttp transport (installed by another package, it would cost 0.2 s)."""
    with WireServer() as server:
        write_box_settings(home(), server)
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Hi.")))
        heavy, first = imported("ask", "--new", "Hello there")
        assert first.returncode == 0 and first.stdout.strip() == "Hi." and "openai" in heavy
        assert set(heavy) <= {"openai", "sqlite_utils"}  # the first command makes the index
        (conversation_id,) = [line.split()[0] for line in _listed()]
        heavy, again = imported("ask", "-c", conversation_id, "And again")
        assert again.returncode == 0 and again.stdout.strip() == "Hi."
        assert heavy == ["openai"]  # appending to an index that exists: plain SQL
        heavy, shown = imported("show", conversation_id)
        assert "And again" in shown.stdout and heavy == []
        # a message over the window is still counted, and refused with the numbers
        huge = "lorem ipsum dolor " * 80_000
        refused = subprocess.run(
            [sys.executable, "-m", "app.cli", "ask", "-c", conversation_id], input=huge,
            capture_output=True, text=True, timeout=120, env=os.environ.copy(),
        )  # fmt: skip
        assert refused.returncode != 0 and "over box:tiny's window" in refused.stderr


def every_module(
    *args: str, env: dict[str, str]
) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """Every module the command imported, and how it ended."""
    result = subprocess.run(
        [sys.executable, "-c", EVERY_MODULE, *args],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    return set(json.loads(result.stderr.strip().splitlines()[-1])), result


def test_asking_with_the_key_in_the_environment_and_no_tools_imports_only_what_it_sends() -> None:
    """The key in the environment (BOX_API_KEY, as llm takes OPENAI_API_KEY) is used before the
    keyring, which is never loaded; no tool is enabled, so MCP stays unread though mcp.json names
    a server; nothing is compressed, so the compression machinery stays unloaded. A new
    conversation and a second turn of it alike."""
    with WireServer() as server:
        write_box_settings(home(), server, "needs_key = true\n")
        (home() / "mcp.json").write_text(
            json.dumps({"mcpServers": {"never": {"command": "false", "args": []}}})
        )
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Hi.")))
        env = os.environ.copy() | {"BOX_API_KEY": "box-key-from-the-environment"}
        env.pop("PYTHON_KEYRING_BACKEND", None)  # keyring would look for its backends
        loaded, first = every_module("ask", "--new", "Hello there", env=env)
        assert first.returncode == 0 and first.stdout.strip() == "Hi.", first.stderr
        assert "openai" in loaded and not loaded & set(ASK_NEVER), sorted(loaded & set(ASK_NEVER))
        assert server.requests[0].headers["authorization"] == "Bearer box-key-from-the-environment"
        (conversation_id,) = [line.split()[0] for line in _listed()]
        loaded, again = every_module("ask", "-c", conversation_id, "And again", env=env)
        assert again.returncode == 0 and again.stdout.strip() == "Hi.", again.stderr
        assert not loaded & {*ASK_NEVER, "sqlite_utils"}, sorted(
            loaded & {*ASK_NEVER, "sqlite_utils"}
        )
        # a tool asked for by name is a built-in: still nothing of MCP
        loaded, timed = every_module("ask", "-c", conversation_id, "--tools", "current_time",
                                     "What time is it?", env=env)  # fmt: skip
        assert timed.returncode == 0, timed.stderr
        assert not loaded & set(ASK_NEVER), sorted(loaded & set(ASK_NEVER))
        # the server named: MCP is loaded (and its server refused: `false` exits at once)
        loaded, _ = every_module("ask", "-c", conversation_id, "--tools", "mcp:never", "Hi",
                                 env=env)  # fmt: skip
        assert "app.mcp.manager" in loaded


def _listed() -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(), check=True,
    )  # fmt: skip
    return result.stdout.splitlines()


def test_reading_commands_import_only_the_library() -> None:
    """--help imports not even the library; list, show and search open the library alone:
    no composition (providers, tools, MCP), no asyncio, no ULIDs (made on writes only)."""
    data = DataDir.default()
    library = Library(data)
    conversation = library.create()
    library.append(conversation, ModelInput(text="the quokka smiles" + " and smiles" * 20))
    library.close()
    reading = (["list", "-n", "20"], ["show", conversation.id], ["search", "quokka"])
    loaded, result = watched("--help", library=True)
    assert result.returncode == 0 and "COMMAND" in result.stdout
    assert loaded == [], loaded
    for args in reading:
        loaded, result = watched(*args)
        assert result.returncode == 0 and conversation.id in result.stdout, (args, result.stderr)
        assert loaded == [], (args, loaded)
    # with a settings file, reading it imports app.settings (and what it imports), never the
    # rest of composition; a broken one is still said, in one line
    data.settings_file.write_text("window_turns = 0\n")
    for args in reading:
        loaded, result = watched(*args)
        assert result.returncode == 0 and conversation.id in result.stdout, (args, result.stderr)
        assert "window_turns must be at least 1" in result.stderr.splitlines()[0]
        assert "app.settings" in loaded
        assert not {"ulid", "app.composition", "app.mcp", "app.turn", "app.inspect"} & set(
            loaded
        ), (args, loaded)
        assert not [name for name in loaded if name.startswith("app.cli_")], (args, loaded)
    # the commands that need more still get it: show --entries prices (composition)
    loaded, result = watched("show", conversation.id, "--entries")
    assert result.returncode == 0 and "app.composition" in loaded and "app.cli.usage" in loaded


def test_the_parsers_copies_match_their_sources() -> None:
    """Values the parser shows without importing where they live."""
    from app.store.index import GROUPS
    from app.tool_names import BUILTIN_NAMES, DEFAULT_MAX_ROUNDS
    from app.tools import BUILTIN
    from app.tools import DEFAULT_MAX_ROUNDS as USED

    assert tuple(BUILTIN) == BUILTIN_NAMES and USED == DEFAULT_MAX_ROUNDS
    assert GROUPS == cli_base.USAGE_GROUPS
    from app.cli import ask
    from app.inspect import fit

    assert ask.MARGIN == fit.MARGIN


def test_every_handler_named_by_the_parser_exists() -> None:
    """A handler is a "module:function" string, imported when its command runs: a name that no
    longer resolves would fail only then, so every one is resolved here."""
    found = 0
    pending = [cli_base.build_parser()]
    while pending:
        parser = pending.pop()
        handler = parser.get_default("handler")
        if handler is not None:
            assert callable(resolved(handler)), handler
            found += 1
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending += list(action.choices.values())
    assert found > 30


def test_only_the_parser_of_the_command_run_is_made(capsys: pytest.CaptureFixture[str]) -> None:
    """The others are listed, not made (argparse costs ~1 ms a parser): the command parses as
    with every parser made, the help lists every command, a mistyped one is told them all."""
    full = cli_base.build_parser()
    for argv in (
        ["list", "-n", "3", "--json"],
        ["ask", "-c", "01KAGR6Z4N7W2X8Q3M5T9V0B1C", "--think", "low", "why", "not"],
        ["mcp", "add", "fs", "--url", "http://127.0.0.1:9/mcp", "--header", "A: b"],
        ["_title", "01KAGR6Z4N7W2X8Q3M5T9V0B1C"],
    ):
        assert vars(cli_base.build_parser(argv).parse_args(argv)) == vars(full.parse_args(argv))
    assert cli_base.build_parser(["--help"]).format_help() == full.format_help()
    assert cli_base.build_parser([]).format_help() == full.format_help()
    with pytest.raises(SystemExit):
        cli_base.build_parser(["lsit"]).parse_args(["lsit"])
    told = capsys.readouterr().err
    assert "invalid choice: 'lsit'" in told
    lines = full.format_help().splitlines()
    listed = [line.split()[0] for line in lines if line[:4] == " " * 4 and line[4] != " "]
    assert len(listed) > 20 and all(repr(name) in told for name in listed)
