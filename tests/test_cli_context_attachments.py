"""``crosstalk context ID -m MODEL``, run as a person runs it (the installed command, a process
of its own, over a real library): the plain text lists every note on the conversation's files
that the inspector's Next request lists (left out, scaled, sent as text, and why), the same
notes ``--json`` carries, from the same ``next_request``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import composition
from app.attachments.files import attach_bytes
from app.history import ModelInput, ModelOutput
from app.inspect.next_request import next_request
from app.notes import english
from app.paths import DataDir
from app.store import Library
from tests.helpers.attachment_files import pdf, png

CROSSTALK = Path(sys.executable).with_name("crosstalk")  # the command `pip install` made
HEADING = "attachments, as this model gets them:"
BLIND, SEEING, SCALING = "box:tiny", "box:eye", "anthropic:claude-sonnet-4-6"


def seeded(data_dir: DataDir) -> str:
    """An image and a PDF in the first turn, a wide image in the second; box:eye reads images,
    box:tiny does not (an OpenAI-compatible server's models, named in settings.toml)."""
    data_dir.ensure()
    data_dir.settings_file.write_text(
        'vision_models = ["box:eye"]\n\n[providers.box]\nkind = "openai-compatible"\n'
        'base_url = "http://127.0.0.1:9/v1"\nmodels = ["tiny", "eye"]\n'
    )
    library = Library(data_dir)
    try:
        shot = attach_bytes(library.blobs, png(), "shot.png")
        report = attach_bytes(library.blobs, pdf("Total 42", "Page two"), "report.pdf")
        wide = attach_bytes(library.blobs, png(3000, 1000), "wide.png")
        conversation = library.create()
        for entry in (
            ModelInput(text="What are these?", attachments=[shot, report]),
            ModelOutput(provider="box", model="tiny", text="A picture and a report."),
            ModelInput(text="And this one?", attachments=[wide]),
            ModelOutput(provider="box", model="tiny", text="A wide one."),
        ):
            library.append(conversation, entry)
        return conversation.id
    finally:
        library.close()


def crosstalk(*args: str) -> str:
    result = subprocess.run(
        [str(CROSSTALK), *args], capture_output=True, text=True, env=os.environ.copy(),
        stdin=subprocess.DEVNULL, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result
    return result.stdout


def attachment_lines(plain: str) -> list[str]:
    """The lines under the attachments heading, which closes the report."""
    lines = plain.splitlines()
    assert lines.count(HEADING) == 1, plain
    return lines[lines.index(HEADING) + 1 :]


def inspectors_notes(data_dir: DataDir, conversation_id: str, spec: str) -> list[str]:
    """What the inspector's Next request lists as "attachment: ..." for ``spec``: the same
    call its request watch makes, rendered (as when the tab is shown)."""
    services = composition.build(data_dir)
    try:
        conversation = services.library.open(conversation_id)
        return [english(note) for note in next_request(services, conversation, spec).attachments]
    finally:
        services.close()


def test_context_lists_every_attachment_note_the_inspector_lists(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    blind = "tiny is not marked as reading images (settings: vision_models)"
    expected = {
        BLIND: [
            f"  wide.png (seq 3) left out: {blind}",
            f"  shot.png (seq 1) left out: {blind}",
            "  report.pdf (seq 1): openai-compatible reads no PDFs; its text was extracted "
            "(2 pages) and sent as text",
        ],
        SEEING: [
            "  wide.png (seq 3): downscaled from 3,000x1,000 to 2,048x682 for "
            "openai-compatible's limits; about 1,445 tokens (estimate)",
            "  shot.png (seq 1): about 255 tokens (estimate)",
            "  report.pdf (seq 1): openai-compatible reads no PDFs; its text was extracted "
            "(2 pages) and sent as text",
        ],
        SCALING: [  # Anthropic reads the PDF as it is: nothing to say of it
            "  wide.png (seq 3): downscaled from 3,000x1,000 to 1,568x522 for anthropic's "
            "limits; about 1,092 tokens (estimate)",
            "  shot.png (seq 1): about 5 tokens (estimate)",
        ],
    }
    for spec, lines in expected.items():
        plain = crosstalk("context", conversation_id, "-m", spec)
        assert attachment_lines(plain) == lines, plain
        report = json.loads(crosstalk("context", conversation_id, "-m", spec, "--json"))
        notes = [line.removeprefix("  ") for line in lines]
        assert report["attachments"] == notes
        assert inspectors_notes(data_dir, conversation_id, spec) == notes


def test_context_of_a_conversation_without_files_has_no_attachments_heading(
    data_dir: DataDir,
) -> None:
    conversation_id = seeded(data_dir)
    library = Library(data_dir)
    try:
        plain_conversation = library.create()
        library.append(plain_conversation, ModelInput(text="Hello"))
    finally:
        library.close()
    assert HEADING in crosstalk("context", conversation_id, "-m", BLIND)
    assert HEADING not in crosstalk("context", plain_conversation.id, "-m", BLIND)


def test_context_names_the_tools_left_out_as_the_inspector_does(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tools over their share of the budget: the inspector's "tools:" line, in the plain text
    and the --json of `crosstalk context` (the command line shows what the window does)."""
    from app.cli.main import main
    from tests.helpers.mcp_servers import DEMO

    assert main(["mcp", "add", "demo", "--", sys.executable, str(DEMO)]) == 0
    assert main(["mcp", "tools", "demo"]) == 0  # listed once: known from then on
    (data_dir.root / "settings.toml").write_text(
        'tool_share = 0.03\n[context_windows]\n"openai:gpt-4.1" = 8000\n'
    )
    library = Library(data_dir)
    conversation = library.create()
    library.append(conversation, ModelInput(text="Add 2 and 3.", meta={"tools": ["mcp:demo"]}))
    library.close()
    capsys.readouterr()

    assert main(["context", conversation.id, "-m", "openai:gpt-4.1", "--json"]) == 0
    left_out = json.loads(capsys.readouterr().out)["tools_left_out"]
    assert left_out and all(name.startswith("mcp__demo__") for name in left_out)
    assert main(["context", conversation.id, "-m", "openai:gpt-4.1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    heading = lines.index(
        "tools not declared, to keep their definitions within their share of the budget:"
    )
    assert lines[heading + 1] == "  " + ", ".join(left_out)
