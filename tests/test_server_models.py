"""Asking an OpenAI-compatible server what it serves, against a real HTTP server on 127.0.0.1,
and keeping its answer (or why there is none) in the data dir."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from app.paths import DataDir
from app.server_models import FOLDER, ServerListError, ServerModels, fetch_models
from tests.helpers.wire_server import Delay, Reply, WireServer

KEY = "gateway-key-0123456789abcdefXYZ"  # no known key shape: only its value can find it
LISTED = {
    "object": "list",
    "data": [
        {"id": "qwen3:8b", "object": "model", "owned_by": "library"},
        {"id": "Llama3.2:latest", "object": "model"},
        {"id": "qwen3:8b", "object": "model"},  # said twice: listed once
        {"object": "model"},  # no id: nothing to pick
    ],
}


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as wire:
        yield wire


def closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_models_a_server_lists_with_the_key_as_bearer(server: WireServer) -> None:
    server.enqueue(Reply(body=LISTED))
    assert fetch_models(f"{server.url}/v1/", KEY) == ["Llama3.2:latest", "qwen3:8b"]
    (request,) = server.requests
    assert (request.method, request.path) == ("GET", "/v1/models")
    assert request.headers["authorization"] == f"Bearer {KEY}"


def test_no_key_no_authorization_header(server: WireServer) -> None:
    server.enqueue(Reply(body={"data": []}))
    assert fetch_models(f"{server.url}/v1", None) == []
    assert "authorization" not in server.requests[0].headers


def test_a_refresh_is_kept_with_its_time_and_read_back(
    server: WireServer, data_dir: DataDir
) -> None:
    base_url = f"{server.url}/v1"
    servers = ServerModels(data_dir)
    assert servers.cached("ollama", base_url) is None  # never asked
    server.enqueue(Reply(body=LISTED))

    listed = servers.refresh("ollama", base_url, None)

    assert listed.models == ("Llama3.2:latest", "qwen3:8b") and listed.error is None
    assert listed.fetched_at is not None
    assert servers.cached("ollama", base_url) == listed
    path = data_dir.root / FOLDER / "ollama.json"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    assert json.loads(path.read_text())["models"] == ["Llama3.2:latest", "qwen3:8b"]
    assert servers.cached("ollama", "http://elsewhere/v1") is None  # another server's list
    assert not list(path.parent.glob(".*"))  # no staging file left


def test_a_failed_refresh_keeps_the_last_list_and_says_why(
    server: WireServer, data_dir: DataDir
) -> None:
    base_url = f"http://127.0.0.1:{closed_port()}/v1"
    servers = ServerModels(data_dir)
    failed = servers.refresh("ollama", base_url, None)
    assert failed.models == () and failed.fetched_at is None
    assert failed.error == (f"cannot reach {base_url}: connection refused — is the server running?")

    good = f"{server.url}/v1"
    server.enqueue(Reply(body=LISTED))
    first = servers.refresh("lan", good, None)
    server.enqueue(Reply(status=500, body="out of memory"))
    second = servers.refresh("lan", good, None)
    assert second.models == first.models and second.fetched_at == first.fetched_at
    assert second.error == f"{good}/models answered HTTP 500: out of memory"
    assert servers.cached("lan", good) == second  # the error is kept with the list


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Reply(status=401, body={"error": "no"}), "refused the request (HTTP 401)"),
        (Reply(status=404, body="404 page not found"), "does not exist (HTTP 404)"),
        (Reply(body="<html>a web page</html>"), "not with a model list in OpenAI's form"),
        (Reply(body={"models": [{"name": "x"}]}), "not with a model list in OpenAI's form"),
    ],
    ids=["unauthorized", "not-found", "html", "other-json"],
)
def test_what_went_wrong_in_words(
    server: WireServer, data_dir: DataDir, reply: Reply, said: str
) -> None:
    server.enqueue(reply)
    listed = ServerModels(data_dir).refresh("x", f"{server.url}/v1", None)
    assert listed.error is not None and said in listed.error


def test_a_server_that_does_not_answer_in_time(server: WireServer) -> None:
    server.enqueue(Reply(chunks=[Delay(2.0), json.dumps(LISTED)], content_type="application/json"))
    with pytest.raises(ServerListError, match=r"did not answer within 0\.3 s"):
        fetch_models(f"{server.url}/v1", None, timeout=0.3)


def test_the_key_never_shows_in_an_error(server: WireServer, data_dir: DataDir) -> None:
    """A server that echoes what it was sent (many do, in their error bodies)."""
    server.enqueue(Reply(status=400, body=f"bad header: Authorization: Bearer {KEY}"))
    listed = ServerModels(data_dir).refresh("gateway", f"{server.url}/v1", KEY)
    assert listed.error is not None and "HTTP 400" in listed.error
    assert KEY not in listed.error
    for path in data_dir.root.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes()


def test_a_cache_that_cannot_be_read_is_as_good_as_none(data_dir: DataDir) -> None:
    folder = data_dir.root / FOLDER
    folder.mkdir(parents=True)
    (folder / "ollama.json").write_text("{not json")
    assert ServerModels(data_dir).cached("ollama", "http://127.0.0.1:11434/v1") is None
    (folder / "ollama.json").write_text(
        json.dumps({"format": "crosstalk.server-models", "version": 99, "base_url": "u"})
    )
    assert ServerModels(data_dir).cached("ollama", "u") is None  # a newer Crosstalk's
