"""``crosstalk export`` and ``crosstalk import`` as a person runs them."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.test_cli import home, listed, run, seed_conversation
from tests.transfer.conftest import FIXTURES


def test_export_then_import_into_another_home(tmp_path: Path) -> None:
    conversation_id = seed_conversation(home())
    single = run("export", conversation_id)  # one conversation, JSON, to stdout
    assert json.loads(single.stdout)["header"]["id"] == conversation_id
    archive = tmp_path / "all.zip"
    result = run("export", "--all", "--format", "zip", "-o", str(archive))
    assert "exported 1 conversation to" in result.stderr
    with zipfile.ZipFile(archive) as zf:
        assert f"conversations/{conversation_id}.json" in zf.namelist()
    markdown = run("export", conversation_id, "-f", "markdown").stdout
    assert "### You" in markdown and "Paris" in markdown
    again = run("import", str(archive))  # already there: skipped, nothing changes
    assert "skipped 1" in again.stderr and again.returncode == 0


def test_import_reports_each_conversation_and_each_failure(tmp_path: Path) -> None:
    chatgpt = FIXTURES / "chatgpt" / "conversations.json"
    broken = tmp_path / "broken.json"
    broken.write_text('[{"mapping": {"a": {"parent": 5}}}, ')
    dry = run("import", "--dry-run", str(chatgpt))
    assert "would import 2 conversations" in dry.stderr and listed() == []
    result = run("import", str(chatgpt), str(broken), check=False)
    assert result.returncode == 1
    assert [line.split("  ")[1] for line in result.stdout.splitlines()] == [
        "Three days in Rome",  # its other branch is inside it, not a conversation of its own
        "Quick question",
    ]
    failures = [line for line in result.stderr.splitlines() if "not imported" in line]
    assert failures == [
        "crosstalk: not imported: broken.json: line 1, conversation [0] at "
        '[0].mapping["a"].parent: expected a string, found a number',
        "crosstalk: not imported: broken.json: line 1 column 37: expected valid JSON "
        "(Expecting value)",
    ]
    assert "imported 2 conversations, skipped 1, failed 2" in result.stderr
    assert len(listed()) == 2


def test_bad_export_requests_are_one_line(tmp_path: Path) -> None:
    conversation_id = seed_conversation(home())
    for args, message in [
        (("export", "--all", "-f", "zip"), "-o PATH is needed"),
        (("export",), "nothing to export"),
        (("export", "nonsense"), "is not a conversation id"),
    ]:
        result = run(*args, check=False)
        assert result.returncode == 1 and message in result.stderr
        assert result.stderr.count("\n") == 1
    target = tmp_path / "c.json"
    target.write_text("keep")
    result = run("export", conversation_id, "-o", str(target), check=False)
    assert "already exists; --force replaces it" in result.stderr and target.read_text() == "keep"
    run("export", conversation_id, "-o", str(target), "--force")
    assert json.loads(target.read_text())["format"] == "crosstalk.conversation"


def test_the_command_line_offers_every_format() -> None:
    from app import transfer
    from app.cli import transfer as cli_transfer

    assert cli_transfer.FORMATS == transfer.FORMATS
    assert cli_transfer.SOURCES == transfer.SOURCES
