"""Branches through export and import: JSON and ZIP keep every branch (export -> import ->
export gives the same bytes, and the same active branch); Markdown and HTML show the active
branch, and with ``--all-branches`` each other branch, labelled."""

from __future__ import annotations

import zipfile
from pathlib import Path

from app.cli.main import main
from app.history import ModelInput, ModelOutput, Select, Title
from app.paths import DataDir
from app.store import Library
from app.transfer import export, import_paths


def branched(library: Library) -> str:
    """Q1 -> (A1 | A1b) ; A1 -> Q2 -> A2 ; the first answer's branch active again."""
    conversation = library.create()
    for entry in (
        ModelInput(text="Which river is longest?"),
        ModelOutput(provider="p", model="m", text="The Nile, most say."),
        Title(text="Rivers", source="user"),
        ModelInput(text="And in Europe?"),
        ModelOutput(provider="p", model="m", text="The Volga."),
    ):
        library.append(conversation, entry)
    regenerated = ModelOutput(provider="p", model="n", text="The Amazon, by some counts.")
    library.append(conversation, regenerated, after=1)
    library.append(conversation, Select(target=conversation.history.id_of(5)))
    return conversation.id


def test_json_and_zip_keep_every_branch_byte_for_byte(library: Library, tmp_path: Path) -> None:
    conversation_id = branched(library)
    for fmt, name in (("json", "one.json"), ("zip", "all.zip")):
        there = Library(DataDir(tmp_path / f"there-{fmt}"))
        try:
            export(library, [conversation_id], fmt, tmp_path / name)
            import_paths(there, [tmp_path / name])
            again = tmp_path / f"again-{name}"
            export(there, [conversation_id], fmt, again)
            if fmt == "json":
                assert again.read_bytes() == (tmp_path / name).read_bytes()
            else:
                with zipfile.ZipFile(tmp_path / name) as a, zipfile.ZipFile(again) as b:
                    key = f"conversations/{conversation_id}.json"
                    assert a.read(key) == b.read(key)
            history = there.open(conversation_id).history
            assert sorted(history.leaves()) == [5, 6] and history.active_leaf == 5
        finally:
            there.close()


def test_markdown_shows_the_active_branch_and_all_branches_when_asked(
    library: Library, tmp_path: Path
) -> None:
    conversation_id = branched(library)
    library.close()
    active = tmp_path / "active.md"
    assert main(["export", conversation_id, "-f", "markdown", "-o", str(active)]) == 0
    text = active.read_text()
    assert "The Volga." in text and "The Amazon" not in text
    every = tmp_path / "every.md"
    assert main(["export", conversation_id, "-f", "markdown", "-o", str(every),
                 "--all-branches"]) == 0  # fmt: skip
    text = every.read_text()
    assert "## Branch 2 of 2 (ends at entry 6; leaves after entry 1)" in text
    assert text.index("The Volga.") < text.index("The Amazon, by some counts.")
    page = tmp_path / "every.html"
    assert main(["export", conversation_id, "-f", "html", "-o", str(page),
                 "--all-branches"]) == 0  # fmt: skip
    assert '<section class="branch">' in page.read_text() and "Amazon" in page.read_text()


def test_a_reply_cut_at_its_length_limit_is_marked_in_markdown_and_html(
    library: Library, tmp_path: Path
) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="Tell a story"))
    library.append(conversation, ModelOutput(provider="p", model="m", text="Once upon",
                                             finish_reason="length"))  # fmt: skip
    for fmt in ("markdown", "html"):
        export(library, [conversation.id], fmt, tmp_path / f"story.{fmt}")
        assert "ut off at its length limit" in (tmp_path / f"story.{fmt}").read_text()
