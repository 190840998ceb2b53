"""``crosstalk mcp …`` (``app/cli/mcp.py``), in-process on a real data dir, with the demo MCP
server (tests/helpers/mcp_demo_server.py) over stdio for the commands that start one."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.keys import SERVICE
from app.paths import DataDir
from tests.helpers.mcp_servers import DEMO as DEMO_PATH
from tests.helpers.mcp_servers import demo_http
from tests.helpers.memory_keyring import MemoryKeyring, memory_keyring

DEMO = str(DEMO_PATH)

MCP_USER = "mcp:"  # the keyring user of an MCP secret: "mcp:fs.API_TOKEN"


def crosstalk(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def saved(data_dir: DataDir) -> dict[str, Any]:
    return json.loads(data_dir.mcp_file.read_text())["mcpServers"]  # type: ignore[no-any-return]


@pytest.fixture
def keyring_in_memory() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def test_add_list_tools_remove_with_the_demo_server(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = crosstalk(
        capsys, "mcp", "add", "demo", "--env", "DEMO_TOKEN=t0", "--timeout", "30", "--",
        sys.executable, DEMO,
    )  # fmt: skip
    assert status == 0, err
    assert out.startswith(f"added demo: {sys.executable} {DEMO}\n")
    assert "note: --env DEMO_TOKEN looks like a secret" in err
    assert saved(data_dir)["demo"] == {
        "command": sys.executable, "args": [DEMO], "env": {"DEMO_TOKEN": "t0"}, "timeout": 30.0,
    }  # fmt: skip
    assert oct(data_dir.mcp_file.stat().st_mode & 0o777) == "0o600"

    status, out, err = crosstalk(capsys, "mcp", "list")
    assert status == 0, err
    assert out.splitlines() == ["NAME  TRANSPORT  STATE    TOOLS  LAST ERROR",
                                "demo  stdio      stopped  ?"]  # fmt: skip

    status, out, err = crosstalk(capsys, "mcp", "tools", "demo")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "demo  (demo 1.2.3, stdio, protocol 2026-07-28)"
    assert any(line.split()[:4] == ["mcp__demo__add", "Add", "two", "integers"] for line in lines)
    assert "  prompts: /review" in lines
    assert "  resources: 2" in lines

    status, out, err = crosstalk(capsys, "mcp", "list", "--json")
    [listed] = json.loads(out)["servers"]
    assert (listed["name"], listed["state"], listed["tool_count"]) == ("demo", "stopped", 9)
    assert listed["info"]["name"] == "demo"

    status, out, err = crosstalk(capsys, "mcp", "remove", "demo")
    assert status == 0, err
    assert saved(data_dir) == {}
    status, out, err = crosstalk(capsys, "mcp", "remove", "demo")
    assert status == 1 and "no server 'demo'" in err


def test_a_server_that_cannot_start_says_why(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "broken.py"
    script.write_text("import sys\nprint('cannot find my config', file=sys.stderr)\nsys.exit(2)\n")
    status, _, err = crosstalk(capsys, "mcp", "add", "broken", "--", sys.executable, str(script))
    assert status == 0, err
    status, out, err = crosstalk(capsys, "mcp", "tools")
    assert status == 1
    assert err.startswith("crosstalk: ") and "broken" in err
    assert "cannot find my config" in err
    status, out, err = crosstalk(capsys, "mcp", "list")
    [row] = out.splitlines()[1:]
    assert row.startswith("broken  stdio") and "cannot find my config" in row  # the last error


def test_add_test_adds_only_a_server_that_starts(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = crosstalk(
        capsys, "mcp", "add", "nothing", "--test", "--", "/nonexistent/server"
    )
    assert status == 1
    assert "nothing was not added" in err
    assert not data_dir.mcp_file.exists()
    status, out, err = crosstalk(capsys, "mcp", "add", "demo", "--test", "--", sys.executable, DEMO)
    assert status == 0, err
    assert "mcp__demo__echo" in out and "started in" in out
    assert list(saved(data_dir)) == ["demo"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("demo",), "what runs demo?"),
        (("my server", "--", "x"), "server name 'my server' is not usable"),
        (("a", "--url", "https://x", "--", "cmd"), "not both"),
        (("a", "--url", "https://x", "--env", "A=1"), "are for a command"),
        (("a", "--header", "A: 1", "--", "cmd"), "are for a --url server"),
        (("a", "--env", "NOEQUALS", "--", "cmd"), "--env 'NOEQUALS': write it as K=V"),
    ],
)
def test_bad_add_says_what_to_do(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, _, err = crosstalk(capsys, "mcp", "add", *args)
    assert status == 1
    assert message in err and len(err.strip().splitlines()) == 1


def test_url_server_with_a_secret_header_and_replace(
    data_dir: DataDir,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    keyring_in_memory: MemoryKeyring,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("Bearer s3cret\n"))
    status, out, err = crosstalk(
        capsys, "mcp", "add", "remote", "--url", "https://r.example/mcp",
        "--header", "X-Team: blue", "--secret-header", "Authorization",
    )  # fmt: skip
    assert status == 0, err
    assert saved(data_dir)["remote"] == {
        "url": "https://r.example/mcp",
        "headers": {"X-Team": "blue", "Authorization": "keyring:remote.Authorization"},
    }
    assert keyring_in_memory.passwords[(SERVICE, MCP_USER + "remote.Authorization")] == (
        "Bearer s3cret"
    )
    assert "s3cret" not in data_dir.mcp_file.read_text()
    status, _, err = crosstalk(capsys, "mcp", "add", "remote", "--url", "https://other.example")
    assert status == 1 and "--replace replaces it" in err
    status, _, err = crosstalk(
        capsys, "mcp", "add", "remote", "--url", "https://other.example", "--sse", "--replace"
    )
    assert status == 0, err
    assert saved(data_dir)["remote"] == {"url": "https://other.example", "type": "sse"}
    status, out, _ = crosstalk(capsys, "mcp", "list")
    assert "remote  sse" in out


def test_remove_forget_secrets(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], keyring_in_memory: MemoryKeyring
) -> None:
    keyring_in_memory.passwords[(SERVICE, MCP_USER + "gh.TOKEN")] = "t"
    data_dir.ensure()
    data_dir.mcp_file.write_text(json.dumps({"mcpServers": {
        "gh": {"command": "gh", "env": {"GH_TOKEN": "keyring:gh.TOKEN"}},
        "other": {"command": "x"}}}))  # fmt: skip
    status, out, _ = crosstalk(capsys, "mcp", "remove", "other")
    assert status == 0 and "keyring" not in out
    status, out, _ = crosstalk(capsys, "mcp", "remove", "gh")
    assert "its secrets stay in the OS keyring (gh.TOKEN)" in out
    data_dir.mcp_file.write_text(json.dumps({"mcpServers": {
        "gh": {"command": "gh", "env": {"GH_TOKEN": "keyring:gh.TOKEN"}}}}))  # fmt: skip
    status, out, _ = crosstalk(capsys, "mcp", "remove", "gh", "--forget-secrets")
    assert status == 0
    assert "removed from the OS keyring: gh.TOKEN" in out
    assert keyring_in_memory.passwords == {}


def test_import_a_file(
    data_dir: DataDir,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    keyring_in_memory: MemoryKeyring,
) -> None:
    other = tmp_path / "claude_desktop_config.json"
    other.write_text(json.dumps({"mcpServers": {
        "fs": {"command": "npx", "args": ["-y", "server-fs", "/notes"]},
        "gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_x"}}}}))  # fmt: skip
    status, out, err = crosstalk(capsys, "mcp", "import", str(other), "--dry-run")
    assert status == 0, err
    assert out.splitlines() == [
        f"Claude Desktop: {other}",
        "  fs: would be added (npx -y server-fs /notes)",
        "  gh: would be added (gh-mcp); env GITHUB_TOKEN would be kept in the OS keyring",
    ]
    assert not data_dir.mcp_file.exists() and keyring_in_memory.passwords == {}
    status, out, err = crosstalk(capsys, "mcp", "import", str(other))
    assert status == 0, err
    assert saved(data_dir)["gh"]["env"] == {"GITHUB_TOKEN": "keyring:gh.GITHUB_TOKEN"}
    assert keyring_in_memory.passwords == {(SERVICE, MCP_USER + "gh.GITHUB_TOKEN"): "ghp_x"}
    status, out, err = crosstalk(capsys, "mcp", "import", str(other))
    assert "fs: skipped (a server of that name exists" in out
    assert "nothing to import" in err


def test_import_finds_the_apps_configs(
    data_dir: DataDir,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    status, _, err = crosstalk(capsys, "mcp", "import")
    assert status == 1 and "found no other app's MCP config" in err
    cursor = home / ".cursor" / "mcp.json"
    cursor.parent.mkdir(parents=True)
    cursor.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "web": {"url": "https://w.example/mcp", "headers": {"Api-Token": "plain"}}
                }
            }
        )
    )
    status, out, err = crosstalk(capsys, "mcp", "import", "--plain-secrets")
    assert status == 0, err
    assert f"Cursor: {cursor}" in out
    assert saved(data_dir)["web"] == {"url": "https://w.example/mcp",
                                      "headers": {"Api-Token": "plain"}}  # fmt: skip


def test_secret_set_and_delete(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = crosstalk(capsys, "mcp", "secret", "set", "fs.API_TOKEN")
    assert status == 1 and "no usable OS keyring" in err  # the fail backend of conftest
    with memory_keyring() as backend:
        monkeypatch.setattr(sys, "stdin", io.StringIO("tok\n"))
        status, out, err = crosstalk(capsys, "mcp", "secret", "set", "fs.API_TOKEN")
        assert status == 0, err
        assert "keyring:fs.API_TOKEN" in out
        assert backend.passwords == {(SERVICE, MCP_USER + "fs.API_TOKEN"): "tok"}
        status, out, err = crosstalk(capsys, "mcp", "secret", "delete", "fs.API_TOKEN")
        assert out.startswith("removed secret fs.API_TOKEN") and backend.passwords == {}


def test_ask_resource_attaches_what_the_server_serves(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import openai_events as oe
    from tests.helpers.wire_server import Reply, WireServer

    status, _, err = crosstalk(capsys, "mcp", "add", "demo", "--", sys.executable, DEMO)
    assert status == 0, err
    with WireServer() as server:
        data_dir.settings_file.write_text(
            'default_model = "box:tiny"\n\n[providers.box]\nkind = "openai-compatible"\n'
            f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n'
        )
        server.enqueue(Reply(chunks=oe.chat_reply("Read them.")))
        status, out, err = crosstalk(
            capsys, "ask", "--resource", "demo:file:///notes.txt", "--resource",
            "demo:file:///pixel.png", "what is in these?",
        )  # fmt: skip
        (request,) = server.requests
    assert status == 0, err
    assert out.strip() == "Read them."
    sent = json.dumps(request.json["messages"])
    assert "my notes" in sent and "notes.txt" in sent
    # both are kept with the input; the image is not sent to a model not known to see images
    conversation_id = err.split("[")[-1].split(" ")[0]
    status, out, _ = crosstalk(capsys, "show", conversation_id, "--json")
    [question] = [e for e in json.loads(out)["entries"] if e["kind"] == "model_input"]
    kept = [(a["name"], a["mime_type"]) for a in question["attachments"]]
    assert kept == [("notes.txt", "text/plain"), ("pixel.png", "image/png")]
    status, _, err = crosstalk(capsys, "ask", "--resource", "nope:file:///x", "hi")
    assert status == 1 and "no server nope in mcp.json" in err
    status, _, err = crosstalk(capsys, "ask", "--resource", "demo", "hi")
    assert status == 1 and "write it as SERVER:URI" in err


def test_the_command_goes_after_dashes(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = crosstalk(capsys, "mcp", "add", "one", "--", "srv", "-y", "--flag")
    assert status == 0, err
    assert saved(data_dir)["one"] == {"command": "srv", "args": ["-y", "--flag"]}
    with pytest.raises(SystemExit):
        main(["mcp", "add", "two", "srv", "-y"])
    assert "a server's command goes after --" in capsys.readouterr().err


def test_a_remote_server_gets_its_header_from_the_keyring(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    keyring_in_memory: MemoryKeyring,
) -> None:  # fmt: skip
    with demo_http() as url:
        monkeypatch.setattr(sys, "stdin", io.StringIO("Bearer from-keyring\n"))
        status, _, err = crosstalk(
            capsys, "mcp", "add", "web", "--url", url, "--secret-header", "Authorization", "--test"
        )
        assert status == 0, err
        assert saved(data_dir)["web"]["headers"] == {"Authorization": "keyring:web.Authorization"}
        status, out, err = crosstalk(capsys, "mcp", "tools", "web")
        assert status == 0, err
        assert out.startswith("web  (demo 1.2.3, http")
        assert "mcp__web__whoami" in out
