"""No key reaches a file, a log or an export: one scrubber (app/scrub.py) for all of them.

The Anthropic case is real: its 401 body can echo the key it was sent. Here the real SDK talks
to a local server that does exactly that, with a key of no known shape, so only scrubbing the
configured value itself can catch it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import stat

import pytest

from app.cli.main import main
from app.context.service import FixedWindow
from app.errors import AuthFailed
from app.keys import Keys
from app.paths import DataDir
from app.providers import Models
from app.providers.anthropic_messages import AnthropicProvider
from app.scrub import REDACTED, scrub
from app.store import Library
from tests.helpers.turns import runner
from tests.helpers.wire_server import Reply, WireServer

ODD_KEY = "team-proxy-0123456789abcdefXYZ"  # a self-hosted gateway's key: no known shape


def test_scrub_removes_configured_values_and_known_shapes() -> None:
    text = f"bad key {ODD_KEY}; also sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and AIza{'x' * 35}"
    assert scrub(text, [ODD_KEY]) == f"bad key {REDACTED}; also {REDACTED} and {REDACTED}"
    assert scrub("not-needed is no secret", ["not-needed"]) == "not-needed is no secret"


def test_an_anthropic_401_that_echoes_the_key_never_reaches_the_transcript_or_export(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    library = Library(data_dir)
    conversation = library.create()
    with WireServer() as server:
        body = {
            "type": "error",
            "error": {"type": "authentication_error", "message": f"invalid x-api-key: {ODD_KEY}"},
        }
        server.enqueue(Reply(status=401, body=body))
        provider = AnthropicProvider("anthropic", ["claude-x"], ODD_KEY, server.url, max_retries=0)
        models = Models.of(provider)

        async def turn() -> None:
            try:
                turns = runner(library, models, contexts=FixedWindow(5))
                await turns.run(conversation, "anthropic:claude-x", "Hi")
            finally:
                await models.aclose()

        with pytest.raises(AuthFailed) as raised:
            asyncio.run(turn())
    assert ODD_KEY not in str(raised.value) and REDACTED in str(raised.value)
    output = library.open(conversation.id).history.last_output
    assert output is not None and output.error is not None and ODD_KEY not in output.error
    library.close()
    assert ODD_KEY not in (data_dir.conversations / f"{conversation.id}.jsonl").read_text()
    assert main(["export", conversation.id]) == 0
    exported = capsys.readouterr().out
    assert "rejected the API key" in json.dumps(json.loads(exported)) and ODD_KEY not in exported


def test_log_lines_are_scrubbed(tmp_path: object) -> None:
    from ui.shell.log_file import ScrubbedLog

    keys = Keys({"ANTHROPIC_API_KEY": ODD_KEY})
    record = logging.LogRecord("x", logging.WARNING, "f", 1, "failed with %s", (ODD_KEY,), None)
    assert ScrubbedLog(keys).filter(record)
    assert record.getMessage() == f"failed with {REDACTED}"


def test_a_data_dir_opened_up_is_made_private_again(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.root.chmod(0o755)
    data_dir.conversations.chmod(0o777)
    data_dir.ensure()
    for folder in (data_dir.root, data_dir.conversations, data_dir.trash):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Incorrect API key provided: sk-proj-********************abcd.", "provided: "),
        (f"GET /v1beta/models?key=AIza{'A' * 35}&alt=sse", "&alt=sse"),
        ("x-api-key: team-gateway-0123456789", "x-api-key: "),
        ('{"api_key": "odd_value_0123456789"}', '{"api_key": "'),
        ("Authorization: Bearer abc.def.0123456789xyz", "Authorization: "),
        ("hf_abcdefghijklmnopqrstuvwxyz0123 and gsk_abcdefghijklmnopqrstuvwxyz", " and "),
        ("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig-nature_x", "token "),
        ("InvalidAccessKeyId: AKIAIOSFODNN7EXAMPLE does not exist", " does not exist"),
        (
            "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY",
            "aws_secret_access_key = ",
        ),
        ("?X-Amz-Signature=0a1b2c3d4e5f60718293a4b5c6d7e8f9&X-Amz-Date=1", "&X-Amz-Date=1"),
    ],
)
def test_known_shapes_and_named_values_are_scrubbed(text: str, kept: str) -> None:
    scrubbed = scrub(text)
    assert REDACTED in scrubbed and kept in scrubbed
    assert not any(len(word) >= 20 and word.isalnum() for word in scrubbed.split())


@pytest.mark.parametrize(
    "text",
    [
        '{"key": "conversation_summary"}',  # a tool's argument, not a credential
        "the task-scheduler-0123456789 ran; desk-0123456789abcdefghij",
        "see keyboard shortcuts",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert scrub(text) == text


def test_keys_knows_the_environment_and_every_key_it_read_or_stored() -> None:
    keys = Keys({"MY_GATEWAY_API_KEY": ODD_KEY, "HOME": "/home/someone-with-a-long-name"})
    assert keys.secrets() == {ODD_KEY}
    with pytest.raises(Exception, match="keyring"):  # no keyring in tests: still remembered
        keys.store("gateway", "stored-0123456789abcdef")
    assert "stored-0123456789abcdef" in keys.secrets()
