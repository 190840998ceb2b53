"""``crosstalk models [--refresh]``: each provider's key status, its models with their window
and price, and what OpenAI-compatible servers serve, asked of a real server on 127.0.0.1."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from app.cli.main import main
from app.paths import DataDir
from tests.helpers.wire_server import Reply, WireServer


@pytest.fixture
def off_url() -> str:
    """The base URL of a server that is off: a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


@pytest.fixture
def server(data_dir: DataDir, off_url: str) -> Iterator[WireServer]:
    with WireServer() as wire:
        data_dir.ensure()
        data_dir.settings_file.write_text(
            f'[providers.ollama]\nkind = "openai-compatible"\nbase_url = "{wire.url}/v1"\n'
            'models = ["llama3.2"]\n\n'
            f'[providers.lmstudio]\nkind = "openai-compatible"\nbase_url = "{off_url}"\n'
        )
        yield wire


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_models_lists_keys_windows_and_prices(
    capsys: pytest.CaptureFixture[str], server: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdefghij")
    code, out, err = run(capsys, "models")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "local  (built in, offline)" in lines
    assert "    local:smollm2  (default)  8k ctx · free" in lines
    assert "openai  (openai, key from OPENAI_API_KEY)" in lines
    assert "    openai:gpt-4.1  1M ctx · $2/$8 per M" in lines
    assert "anthropic  (anthropic, no key: crosstalk key set anthropic)" in lines
    assert f"ollama  (openai-compatible, no key needed, {server.url}/v1)" in lines
    assert "    ollama:llama3.2  ≈8k ctx" in lines
    assert lines.count("    (never asked what the server serves: crosstalk models --refresh)") == 2
    assert server.requests == []  # nothing is asked without --refresh
    assert "sk-test" not in out


def test_refresh_asks_each_server_and_says_which_failed(
    capsys: pytest.CaptureFixture[str], server: WireServer, off_url: str
) -> None:
    server.enqueue(Reply(body={"object": "list", "data": [{"id": "qwen3:8b"}, {"id": "llama3.2"}]}))
    code, out, err = run(capsys, "models", "--refresh")

    assert code == 1  # one server could not be asked
    off = off_url
    assert err == (
        f"crosstalk: lmstudio: cannot reach {off}: connection refused — is the server running?\n"
    )
    assert [r.path for r in server.requests] == ["/v1/models"]
    ollama = out.split("ollama  (")[1].split("lmstudio  (")[0].splitlines()
    assert ollama[1:3] == ["    ollama:llama3.2  ≈8k ctx", "    ollama:qwen3:8b  (served)  ≈8k ctx"]
    assert ollama[3].startswith("    (2 served, as the server said at ")

    code, out, err = run(capsys, "models")  # the lists are kept: no server is asked again
    assert (code, err) == (0, "")
    assert len(server.requests) == 1
    assert "    ollama:qwen3:8b  (served)  ≈8k ctx" in out.splitlines()
    assert f"failed: cannot reach {off}: connection refused" in out
