"""Attachments on the command line, end to end: ``ask -a`` and ``edit -a`` against a local
server speaking OpenAI's wire protocol, ``show`` listing them, ``attachment`` writing one back
out, ``purge`` and ``trash --empty``, and every bad file refused in one line with nothing
written."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.main import main
from app.history import Attachment, ModelInput
from app.paths import DataDir
from app.store import Library
from app.store.blobs import digest
from tests.helpers import openai_events as oe
from tests.helpers.attachment_files import encrypted_pdf, pdf, png
from tests.helpers.wire_server import Reply, WireServer

CHAT = "openai:gpt-4.1"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[WireServer]:
    with WireServer() as running:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdefghij")
        monkeypatch.setenv("OPENAI_BASE_URL", f"{running.url}/v1")
        yield running


@pytest.fixture(autouse=True)
def _no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdin as a pipe with nothing in it, unless a test gives it text."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def reply(server: WireServer, text: str = "Seen.") -> None:
    server.enqueue(Reply(chunks=oe.chat_reply(text)))
    server.enqueue(Reply(chunks=oe.chat_reply("Title")))  # the first turn's title


def files(tmp_path: Path) -> dict[str, Path]:
    made = {"shot.png": png(), "report.pdf": pdf("Total 42", "Page two"), "notes.md": b"# Hi\n"}
    out = {}
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
        out[name] = tmp_path / name
    return out


def opened(data_dir: DataDir, conversation_id: str) -> list[ModelInput]:
    library = Library(data_dir)
    try:
        history = library.open(conversation_id).history
        return [e for e in history if isinstance(e, ModelInput)]
    finally:
        library.close()


def only_conversation(data_dir: DataDir) -> str:
    library = Library(data_dir)
    try:
        [row] = library.newest()
        return str(row["id"])
    finally:
        library.close()


def test_ask_sends_an_image_a_pdf_and_a_text_file_and_show_lists_them(
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    data_dir: DataDir,
) -> None:
    paths = files(tmp_path)
    reply(server)
    code, out, err = run(capsys, "ask", "-m", CHAT, "-a", str(paths["shot.png"]),
                         "--attach", str(paths["report.pdf"]), "-a", str(paths["notes.md"]),
                         "What are these?")  # fmt: skip
    assert code == 0, err
    assert out == "Seen.\n"
    sent = server.requests[0].json["messages"][-1]["content"]
    kinds = [part["type"] for part in sent]
    assert kinds.count("image_url") == 1 and kinds.count("file") == 1
    image = next(p for p in sent if p["type"] == "image_url")["image_url"]["url"]
    assert image == "data:image/png;base64," + base64.b64encode(png()).decode()
    assert any("# Hi" in part.get("text", "") for part in sent)  # the text file, as text
    assert any(part.get("text") == "What are these?" for part in sent)

    conversation_id = only_conversation(data_dir)
    [question] = opened(data_dir, conversation_id)
    assert [a.name for a in question.attachments] == ["shot.png", "report.pdf", "notes.md"]
    assert all(a.sha256 and not a.data for a in question.attachments)

    code, table, _ = run(capsys, "show", conversation_id)
    lines = table.splitlines()
    at = next(i for i, line in enumerate(lines) if "model_input" in line)
    assert lines[at + 1].split() == ["#1", "shot.png", "image/png", *size(png()), "64x48", "px"]
    assert lines[at + 2].split()[:3] == ["#2", "report.pdf", "application/pdf"]
    assert lines[at + 2].endswith("2 pages")
    assert lines[at + 3].split()[:3] == ["#3", "notes.md", "text/markdown"]
    assert "model_output" in lines[at + 4]  # the rest of the table as it was

    code, shown, _ = run(capsys, "show", conversation_id, "--json")
    first = json.loads(shown)["entries"][0]
    assert [a["name"] for a in first["attachments"]] == ["shot.png", "report.pdf", "notes.md"]
    stored = first["attachments"][0]
    assert (stored["sha256"], stored["size"], stored["width"], stored["height"]) == (
        digest(png()),
        len(png()),
        64,
        48,
    )
    assert "data" not in stored


def size(data: bytes) -> list[str]:
    from app.attachments.files import size_text

    return size_text(len(data)).split()


def test_stdin_text_with_an_attachment_and_an_attachment_alone(
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    data_dir: DataDir,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = files(tmp_path)
    reply(server)
    monkeypatch.setattr(sys, "stdin", io.StringIO("hi from stdin\n"))
    code, _, err = run(capsys, "ask", "-m", CHAT, "-a", str(paths["shot.png"]))
    assert code == 0, err
    conversation_id = only_conversation(data_dir)
    [question] = opened(data_dir, conversation_id)
    assert question.text == "hi from stdin\n" and len(question.attachments) == 1

    server.enqueue(Reply(chunks=oe.chat_reply("A PDF.")))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run(capsys, "ask", "-c", conversation_id, "-a", str(paths["report.pdf"]))
    assert code == 0, err
    second = opened(data_dir, conversation_id)[1]
    assert second.text == "" and [a.name for a in second.attachments] == ["report.pdf"]
    assert [p["type"] for p in server.requests[-1].json["messages"][-1]["content"]] == ["file"]


def test_edit_keeps_the_inputs_attachments_adds_more_or_drops_them(
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    data_dir: DataDir,
) -> None:
    paths = files(tmp_path)
    reply(server)
    code, _, err = run(capsys, "ask", "-m", CHAT, "-a", str(paths["shot.png"]), "Describe it")
    assert code == 0, err
    conversation_id = only_conversation(data_dir)
    server.enqueue(Reply(chunks=oe.chat_reply("Both.")))
    code, _, err = run(capsys, "edit", conversation_id, "1", "-a", str(paths["notes.md"]),
                       "Describe both")  # fmt: skip
    assert code == 0, err
    edited = opened(data_dir, conversation_id)[-1]
    assert [a.name for a in edited.attachments] == ["shot.png", "notes.md"]
    server.enqueue(Reply(chunks=oe.chat_reply("Nothing.")))
    code, _, err = run(capsys, "edit", conversation_id, "1", "--drop-attachments", "Just text")
    assert code == 0, err
    assert opened(data_dir, conversation_id)[-1].attachments == []
    assert server.requests[-1].json["messages"][-1]["content"] == "Just text"


def test_attachment_writes_one_back_out(
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    data_dir: DataDir,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = files(tmp_path)
    reply(server)
    code, _, err = run(capsys, "ask", "-m", CHAT, "-a", str(paths["shot.png"]),
                       "-a", str(paths["report.pdf"]), "Look")  # fmt: skip
    assert code == 0, err
    conversation_id = only_conversation(data_dir)
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)

    code, _, err = run(capsys, "attachment", conversation_id, "1")  # #1, under its own name
    assert code == 0, err
    assert (out / "shot.png").read_bytes() == png() and "shot.png" in err
    code, _, err = run(capsys, "attachment", conversation_id, "1")  # never over a file
    assert code == 1 and "already exists; --force replaces it" in err
    assert len(err.strip().splitlines()) == 1
    (out / "shot.png").write_bytes(b"mine")
    code, _, err = run(capsys, "attachment", conversation_id, "1", "--force")
    assert code == 0 and (out / "shot.png").read_bytes() == png()

    code, _, err = run(capsys, "attachment", conversation_id, "1", "2", "-o", "copy.pdf")
    assert code == 0 and (out / "copy.pdf").read_bytes() == paths["report.pdf"].read_bytes()
    code, _, err = run(capsys, "attachment", conversation_id, "1", "2", "-o", "no/x.pdf")
    assert code == 1 and err == "crosstalk: no is not a folder; create it first\n"
    (out / "sub").mkdir()
    code, _, err = run(capsys, "attachment", conversation_id, "1", "2", "-o", str(out / "sub"))
    assert code == 0 and (out / "sub" / "report.pdf").is_file()

    result = subprocess.run(  # the bytes on stdout, as a pipe gets them
        [sys.executable, "-m", "app.cli", "attachment", conversation_id, "1", "2", "-o", "-"],
        capture_output=True, env=os.environ.copy(), timeout=60,
    )  # fmt: skip
    assert result.returncode == 0 and result.stdout == paths["report.pdf"].read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("9",), "has no entry 9 (it has 1 to 3"),
        (("2",), "entry 2 of {id} has no attachments"),
        (("1", "3"), "entry 1 of {id} has 2 attachments (1 to 2), not #3"),
        (("1", "0"), "not #0"),
    ],
)
def test_attachment_says_clearly_what_is_not_there(
    capsys: pytest.CaptureFixture[str],
    data_dir: DataDir,
    tmp_path: Path,
    args: tuple[str, ...],
    message: str,
) -> None:
    conversation_id, _ = seeded(data_dir)
    code, out, err = run(capsys, "attachment", conversation_id, *args, "-o", str(tmp_path / "x"))
    assert code == 1 and out == "" and not (tmp_path / "x").exists()
    assert err.startswith("crosstalk: ") and message.format(id=conversation_id) in err
    assert len(err.strip().splitlines()) == 1


def seeded(data_dir: DataDir) -> tuple[str, Attachment]:
    """A conversation with an image (a blob) and an older inline file, written directly."""
    from app.attachments.files import attach_bytes
    from app.history import ModelOutput

    library = Library(data_dir)
    try:
        shot = attach_bytes(library.blobs, png(), "shot.png")
        old = Attachment(name="old.txt", mime_type="text/plain",
                         data=base64.b64encode(b"inline, from an import").decode())  # fmt: skip
        conversation = library.create()
        library.append(conversation, ModelInput(text="Look", attachments=[shot, old]))
        library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text="Ok"))
        library.append(conversation, ModelInput(text="Thanks"))
        return conversation.id, shot
    finally:
        library.close()


def test_attachment_of_an_older_inline_file_and_of_a_missing_blob(
    capsys: pytest.CaptureFixture[str], data_dir: DataDir, tmp_path: Path
) -> None:
    conversation_id, shot = seeded(data_dir)
    code, _, err = run(capsys, "attachment", conversation_id, "1", "2", "-o", str(tmp_path / "o"))
    assert code == 0 and (tmp_path / "o").read_bytes() == b"inline, from an import"

    Library(data_dir).blobs.path(shot.sha256).unlink()
    code, table, _ = run(capsys, "show", conversation_id)
    assert "shot.png  image/png" in table and "(missing from the data folder)" in table
    code, _, err = run(capsys, "attachment", conversation_id, "1", "-o", str(tmp_path / "p"))
    assert code == 1 and "shot.png cannot be written out" in err and "is not in" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "p").exists()


# --- bad files: one line, non-zero, nothing written ----------------------------------------


def bad_files(folder: Path) -> dict[str, Path]:
    made = {
        "empty.txt": b"",
        "fake.png": b"\x89PNG\r\n\x1a\n" + b"not really a png" * 10,
        "locked.pdf": encrypted_pdf(),
        "broken.pdf": pdf("Hello")[:60],
        "binary.bin": bytes(range(256)) * 4,
    }
    out = {}
    for name, data in made.items():
        (folder / name).write_bytes(data)
        out[name] = folder / name
    huge = folder / "huge.png"
    with huge.open("wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: 200 MB that take no room
    out["huge.png"] = huge
    out["gone.png"] = folder / "gone.png"  # removed before `ask` read it
    return out


BAD = [
    ("empty.txt", "empty.txt is empty: there is nothing to send"),
    ("huge.png", "huge.png is 200.0 MB; an attachment can be at most 100.0 MB"),
    ("fake.png", "fake.png starts like a PNG image but cannot be read"),
    ("locked.pdf", "locked.pdf is protected by a password"),
    ("broken.pdf", "broken.pdf cannot be read as a PDF"),
    ("binary.bin", "binary.bin cannot be sent: Crosstalk sends PNG, JPEG"),
    ("gone.png", "gone.png does not exist (was it moved or deleted?)"),
]


@pytest.mark.parametrize(("name", "message"), BAD)
def test_a_bad_file_is_refused_in_one_line_with_nothing_written(
    tmp_path: Path, data_dir: DataDir, name: str, message: str
) -> None:
    """As a person runs it (a process of its own); the conversation, new or continued, is
    exactly as it was, and no attachment file was stored."""
    conversation_id, _ = seeded(data_dir)
    before = (data_dir.conversations / f"{conversation_id}.jsonl").read_bytes()
    blobs_before = Library(data_dir).blobs.stored()
    path = bad_files(tmp_path)[name]
    for args in (("ask", "-a", str(path), "What is it?"),
                 ("ask", "-c", conversation_id, "-a", str(path), "And this?"),
                 ("edit", conversation_id, "1", "-a", str(path), "Look again")):  # fmt: skip
        result = subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            capture_output=True, text=True, env=os.environ.copy(), timeout=60,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert result.returncode == 1, result
        assert result.stderr.startswith("crosstalk: ") and result.stderr.count("\n") == 1
        assert message in result.stderr
        assert result.stdout == ""
    assert (data_dir.conversations / f"{conversation_id}.jsonl").read_bytes() == before
    assert sorted(p.name for p in data_dir.conversations.glob("*.jsonl")) == [
        f"{conversation_id}.jsonl"
    ]
    assert Library(data_dir).blobs.stored() == blobs_before


def test_a_file_over_the_providers_limit_is_refused_before_anything_is_written(
    server: WireServer, capsys: pytest.CaptureFixture[str], tmp_path: Path, data_dir: DataDir
) -> None:
    long = tmp_path / "long.pdf"
    long.write_bytes(pdf(*["page"] * 101))
    code, out, err = run(capsys, "ask", "-m", CHAT, "-a", str(long), "Summarise")
    assert code == 1 and out == ""
    assert (
        err.strip() == "crosstalk: long.pdf has 101 pages; openai reads at most 100 pages of a PDF"
    )
    assert list(data_dir.conversations.glob("*.jsonl")) == [] and server.requests == []


def test_attachments_do_not_go_with_regenerate_continue_or_compare(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data_dir: DataDir
) -> None:
    conversation_id, _ = seeded(data_dir)
    shot = files(tmp_path)["shot.png"]
    for extra in (("--regenerate",), ("--continue",), ("--compare", "a:b,c:d")):
        code, _, err = run(capsys, "ask", "-c", conversation_id, *extra, "-a", str(shot))
        assert code == 1 and "-a goes with a new message" in err


# --- purge and the trash -------------------------------------------------------------------


def test_purge_removes_a_trashed_conversation_and_only_its_own_files(
    capsys: pytest.CaptureFixture[str], data_dir: DataDir
) -> None:
    from app.attachments.files import attach_bytes

    library = Library(data_dir)
    shared = attach_bytes(library.blobs, png(), "shared.png")
    own = attach_bytes(library.blobs, pdf("mine"), "own.pdf")
    first, second = library.create(), library.create()
    library.append(first, ModelInput(text="a", attachments=[shared, own]))
    library.append(second, ModelInput(text="b", attachments=[shared]))
    library.close()

    code, _, err = run(capsys, "purge", first.id)
    assert code == 1 and f"{first.id} is not in the trash: it is not deleted" in err
    run(capsys, "delete", first.id)
    blobs = Library(data_dir).blobs
    assert blobs.has(own.sha256)  # the trash keeps them: restore brings all back
    code, _, err = run(capsys, "purge", first.id, "01KAGR6Z4N7W2X8Q3M5T9V0B1C")
    assert code == 1 and "01KAGR6Z4N7W2X8Q3M5T9V0B1C is not in the trash" in err
    assert "nothing was purged" in err and (data_dir.trash / f"{first.id}.jsonl").exists()

    code, out, _ = run(capsys, "purge", first.id)
    assert code == 0 and out == f"purged {first.id}\n"
    assert not (data_dir.trash / f"{first.id}.jsonl").exists()
    assert not blobs.has(own.sha256) and blobs.has(shared.sha256)  # still named by `second`
    code, _, err = run(capsys, "restore", first.id)
    assert code == 1 and "not in the trash" in err


def test_trash_empty_purges_everything_and_says_how_many(
    capsys: pytest.CaptureFixture[str], data_dir: DataDir
) -> None:
    ids = [seeded(data_dir)[0] for _ in range(2)]
    for conversation_id in ids:
        run(capsys, "delete", conversation_id)
    code, out, _ = run(capsys, "trash", "--empty")
    assert code == 0 and out == "purged 2 conversations from the trash\n"
    assert run(capsys, "trash")[1] == "" and Library(data_dir).blobs.stored() == []
    assert run(capsys, "trash", "--empty")[1] == "purged 0 conversations from the trash\n"


# --- export and import from the command line -----------------------------------------------


def test_export_to_stdout_carries_the_files_and_imports_them_elsewhere(
    capsys: pytest.CaptureFixture[str], data_dir: DataDir, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    conversation_id, shot = seeded(data_dir)
    code, out, _ = run(capsys, "export", conversation_id)
    document = json.loads(out)
    assert document["version"] == 2
    assert base64.b64decode(document["blobs"][shot.sha256]) == png()
    (tmp_path / "c.json").write_text(out)
    monkeypatch.setenv("CROSSTALK_HOME", str(tmp_path / "elsewhere"))
    code, listed, err = run(capsys, "import", str(tmp_path / "c.json"))
    assert code == 0 and conversation_id in listed, err
    assert Library(DataDir(tmp_path / "elsewhere")).blobs.read(shot.sha256) == png()


def test_ask_says_what_the_request_changed_of_its_files(
    server: WireServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wide = tmp_path / "wide.png"
    wide.write_bytes(png(3000, 1000))
    reply(server)
    code, _, err = run(capsys, "ask", "-m", CHAT, "-a", str(wide), "What is this?")
    assert code == 0, err
    [note] = [line for line in err.splitlines() if line.startswith("[wide.png")]
    assert note.startswith("[wide.png (seq 1)") and "downscaled" in note
    content = server.requests[0].json["messages"][-1]["content"]
    [image] = [part["image_url"]["url"] for part in content if part["type"] == "image_url"]
    scaled = base64.b64decode(image.split(",", 1)[1])
    from PIL import Image

    assert Image.open(io.BytesIO(scaled)).size[0] == 2048  # OpenAI's 2048 px long side
    assert wide.read_bytes() == png(3000, 1000)  # the original is never changed


def test_edit_of_an_input_whose_file_has_gone_is_refused_with_nothing_written(
    server: WireServer, capsys: pytest.CaptureFixture[str], data_dir: DataDir
) -> None:
    conversation_id, shot = seeded(data_dir)
    before = (data_dir.conversations / f"{conversation_id}.jsonl").read_bytes()
    Library(data_dir).blobs.path(shot.sha256).unlink()
    code, out, err = run(capsys, "edit", conversation_id, "1", "-m", CHAT, "Look again")
    assert code == 1 and out == "" and server.requests == []
    assert err.startswith("crosstalk: shot.png is no longer stored in ") and err.count("\n") == 1
    assert (data_dir.conversations / f"{conversation_id}.jsonl").read_bytes() == before
