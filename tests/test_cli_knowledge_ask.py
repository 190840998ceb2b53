"""``crosstalk ask --knowledge`` end to end: documents added with ``crosstalk knowledge add``,
the question searched, the passages sent to the real SDK against ``WireServer``, what was
searched said on stderr, and the reply's sources listed by ``show`` and the Markdown and HTML
exports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.main import main
from app.knowledge.retrieval import BLOCK_HEAD, retrievals
from app.paths import DataDir
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

LIGHTHOUSE = (
    "# Bell Rock\n\nThe Bell Rock Lighthouse, off the coast of Angus, was designed by Robert "
    "Stevenson. The light was first lit on 1 February 1811.\n"
)
ROSES = "# Roses\n\nPrune roses in late winter, just above an outward-facing bud.\n"


@pytest.fixture
def server(data_dir: DataDir, monkeypatch: pytest.MonkeyPatch) -> Iterator[WireServer]:
    data_dir.root.mkdir(parents=True, exist_ok=True)
    data_dir.settings_file.write_text(
        'default_model = "openai:gpt-4.1"\nrecall_model = "openai:gpt-4.1-mini"\n'
        '[providers.openai]\nkind = "openai"\nmodels = ["gpt-4.1", "gpt-4.1-mini"]\n',
        encoding="utf-8",
    )
    with WireServer() as running:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdefghij")
        monkeypatch.setenv("OPENAI_BASE_URL", f"{running.url}/v1")
        yield running


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def last_user(server: WireServer) -> str:
    content = server.requests[-1].json["messages"][-1]["content"]
    assert isinstance(content, str)
    return content


def conversation_ids(data_dir: DataDir) -> list[str]:
    return [path.name.split(".")[0] for path in data_dir.conversations.iterdir()]


def test_ask_with_knowledge_searches_sends_and_lists_the_sources(
    data_dir: DataDir,
    tmp_path: Path,
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lighthouse.md").write_text(LIGHTHOUSE, encoding="utf-8")
    (folder / "roses.md").write_text(ROSES, encoding="utf-8")
    code, out, err = run(capsys, "knowledge", "add", str(folder))
    assert code == 0, err

    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson designed it [1].")))
    code, out, err = run(capsys, "ask", "--knowledge", "Who designed the Bell Rock Lighthouse?")
    assert code == 0, err
    assert out == "Robert Stevenson designed it [1].\n"
    assert "searching your documents: 'Who designed the Bell Rock Lighthouse?' → 1 passage" in err
    sent = last_user(server)
    assert sent.startswith(BLOCK_HEAD) and "lighthouse.md" in sent and "Cite the passages" in sent
    assert "Prune roses" not in sent
    (conversation_id,) = conversation_ids(data_dir)

    # a follow-up: rewritten by the recall model, then searched
    server.enqueue(Reply(chunks=oe.chat_reply("Bell Rock Lighthouse first lit")))
    server.enqueue(Reply(chunks=oe.chat_reply("In 1811 [1].")))
    code, out, err = run(capsys, "ask", "--knowledge", "-c", conversation_id,
                         "When was it first lit?")  # fmt: skip
    assert code == 0, err
    assert "searching your documents: 'Bell Rock Lighthouse first lit' → 1 passage" in err
    rewrite = server.requests[-2].json
    assert rewrite["model"] == "gpt-4.1-mini"
    assert "first lit on 1 February 1811" in last_user(server)

    code, out, err = run(capsys, "show", conversation_id)
    assert code == 0, err
    listed = [line.strip() for line in out.splitlines()]
    where = f"[1] {folder.resolve() / 'lighthouse.md'}, lines 1-3"
    assert listed.count(where) == 2  # under each reply
    assert listed.index(where) > next(i for i, line in enumerate(listed) if "model_output" in line)

    code, markdown, err = run(capsys, "export", conversation_id, "-f", "markdown")
    assert code == 0, err
    assert markdown.count("**Sources**") == 2 and "lighthouse.md, lines 1-3" in markdown
    code, html, err = run(capsys, "export", conversation_id, "-f", "html")
    assert code == 0, err
    assert html.count('<div class="sources">') == 2 and "lighthouse.md, lines 1-3</li>" in html
    code, native, err = run(capsys, "export", conversation_id, "-f", "json")
    assert (
        code == 0
        and native.count('"category":"knowledge"') + native.count('"category": "knowledge"') == 2
    )  # the records go along in the native JSON

    # --no-knowledge: not searched; a conversation with no sources of its own is not either
    server.enqueue(Reply(chunks=oe.chat_reply("Sure.")))
    code, out, err = run(capsys, "ask", "--no-knowledge", "-c", conversation_id, "Thanks!")
    assert code == 0 and "searching your documents" not in err
    assert not last_user(server).startswith(BLOCK_HEAD)
    library = Library(data_dir)
    assert len(retrievals(library.open(conversation_id).history)) == 2
    library.close()


def test_a_conversations_own_sources_are_used_without_asking(
    data_dir: DataDir,
    tmp_path: Path,
    server: WireServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "roses.md").write_text(ROSES, encoding="utf-8")
    server.enqueue(Reply(chunks=oe.chat_reply("Hello.")))
    code, _, err = run(capsys, "ask", "Hello")
    assert code == 0, err
    (conversation_id,) = conversation_ids(data_dir)
    code, _, err = run(capsys, "knowledge", "add", str(folder), "-c", conversation_id)
    assert code == 0, err
    server.enqueue(Reply(chunks=oe.chat_reply("In late winter [1].")))
    code, out, err = run(capsys, "ask", "-c", conversation_id, "When should I prune roses?")
    assert code == 0 and out == "In late winter [1].\n", err
    assert "searching your documents: 'When should I prune roses?' → 1 passage" in err
    assert "Prune roses in late winter" in last_user(server)
    # asked for with no documents at all: said, and answered anyway
    code, listed, err = run(capsys, "knowledge", "list", "--json")
    (source,) = json.loads(listed)
    run(capsys, "knowledge", "remove", str(source["id"]))
    server.enqueue(Reply(chunks=oe.chat_reply("No documents.")))
    code, _, err = run(capsys, "ask", "--knowledge", "-c", conversation_id, "And tulips?")
    assert code == 0, err
    assert "→ 0 passages" in err and "crosstalk knowledge add" in err


def test_knowledge_options_go_with_a_new_question_only(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    server.enqueue(Reply(chunks=oe.chat_reply("Hello.")))
    code, _, err = run(capsys, "ask", "Hello")
    assert code == 0, err
    (conversation_id,) = conversation_ids(data_dir)
    for extra in (["--regenerate"], ["--continue"]):
        code, out, err = run(capsys, "ask", "--knowledge", "-c", conversation_id, *extra, "Hi")
        assert code != 0 and out == "" and "--knowledge goes with a new question" in err
    assert len(server.requests) == 1  # nothing was sent
