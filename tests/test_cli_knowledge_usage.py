"""What a turn's knowledge step costs and shows on the command line, end to end against the
real SDK and ``WireServer``: the rewrite of a follow-up counted like any other call (the
conversation's usage, the ledger of ``crosstalk show --entries``), the sources the next
question will search in ``crosstalk context``, and ``ask --compare`` searching a
conversation's own sources for every model it asks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.main import main
from app.history import DebugLog, Usage
from app.history.history import KNOWLEDGE_LOG, rewrite_call
from app.inspect.ledger import ledger
from app.knowledge.retrieval import BLOCK_HEAD, CATEGORY, retrievals
from app.paths import DataDir
from app.pricing import PriceTable
from app.settings import load_settings
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
        '[providers.openai]\nkind = "openai"\nmodels = ["gpt-4.1", "gpt-4.1-mini"]\n'
        '[prices."gpt-4.1-mini"]\ninput = 1.0\noutput = 2.0\n'
        '[prices."gpt-4.1"]\ninput = 10.0\noutput = 20.0\n',
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


def documents(folder: Path) -> Path:
    folder.mkdir()
    (folder / "lighthouse.md").write_text(LIGHTHOUSE, encoding="utf-8")
    (folder / "roses.md").write_text(ROSES, encoding="utf-8")
    return folder


def only_conversation(data_dir: DataDir) -> str:
    (path,) = data_dir.conversations.iterdir()
    return path.name.split(".")[0]


def test_the_rewrite_is_counted_like_any_other_call(
    data_dir: DataDir, tmp_path: Path, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = documents(tmp_path / "docs")
    assert run(capsys, "knowledge", "add", str(folder))[0] == 0
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson [1].", prompt=100, completion=7)))
    code, _, err = run(capsys, "ask", "--knowledge", "Who designed the Bell Rock Lighthouse?")
    assert code == 0, err
    conversation_id = only_conversation(data_dir)
    # a follow-up: rewritten by gpt-4.1-mini (40 in, 6 out), then answered by gpt-4.1
    server.enqueue(Reply(chunks=oe.chat_reply("Bell Rock Lighthouse first lit", prompt=40,
                                              completion=6)))  # fmt: skip
    server.enqueue(Reply(chunks=oe.chat_reply("In 1811 [1].", prompt=120, completion=4)))
    code, _, err = run(capsys, "ask", "--knowledge", "-c", conversation_id,
                       "When was it first lit?")  # fmt: skip
    assert code == 0, err
    assert server.requests[-2].json["model"] == "gpt-4.1-mini"

    library = Library(data_dir)
    try:
        history = library.open(conversation_id).history
    finally:
        library.close()
    records = list(retrievals(history).values())
    assert [r.rewritten for r in records] == [False, True]  # the first question stands alone
    rewrite = records[1]
    assert rewrite.rewrite_usage == Usage(input=40, output=6)
    assert rewrite.rewrite_cost == pytest.approx((40 * 1.0 + 6 * 2.0) / 1e6)
    # the conversation's usage: both replies and the rewrite
    assert history.usage() == Usage(input=100 + 40 + 120, output=7 + 6 + 4)

    prices = PriceTable(load_settings(data_dir).prices)
    book = ledger(history, prices)
    logs = [row for row in book if row.kind == "debug_log"]
    assert len(logs) == 2  # one record per question; the first made no call
    assert (logs[0].provider, logs[0].usage) == ("", None)
    counted = logs[1]
    assert (counted.provider, counted.model) == ("openai", "gpt-4.1-mini")
    assert counted.usage == Usage(input=40, output=6)
    assert counted.cost == pytest.approx(rewrite.rewrite_cost)
    totals = {(t.provider, t.model): t for t in book.by_model()}
    assert totals["openai", "gpt-4.1-mini"].calls == 1
    assert totals["openai", "gpt-4.1"].calls == 2
    assert book.rows[-1].total_tokens == 100 + 7 + 40 + 6 + 120 + 4
    first, second = book.turns()
    assert (first.calls, second.calls) == (1, 2)  # the rewrite belongs to its question's turn
    assert second.models == ("openai:gpt-4.1-mini", "openai:gpt-4.1")
    assert second.cost == pytest.approx((40 + 12 + 1200 + 80) / 1e6)

    code, out, err = run(capsys, "show", conversation_id, "--entries", "--json")
    assert code == 0, err
    rows = {row["seq"]: row for row in json.loads(out)}
    shown = rows[counted.seq]
    assert shown["kind"] == "debug_log" and shown["model"] == "gpt-4.1-mini"
    assert shown["usage"]["input"] == 40 and shown["cost"] == pytest.approx(counted.cost)
    code, out, err = run(capsys, "show", conversation_id, "--entries")
    assert code == 0, err
    assert "openai:gpt-4.1-mini: 1 call, 40 in / 6 out" in out


def test_the_rewrite_is_read_only_from_a_knowledge_record_with_tokens() -> None:
    assert KNOWLEDGE_LOG == CATEGORY  # the history reads the records app/knowledge writes

    def record(category: str = CATEGORY, **meta: object) -> DebugLog:
        return DebugLog(category=category, message="", meta={"rewrite_model": "a:b", **meta})

    made = record(rewrite_usage={"input": 3, "output": 2})
    assert rewrite_call(made) == ("a:b", Usage(input=3, output=2))
    other = record("context", rewrite_usage={"input": 3, "output": 2})
    none = record(rewrite_usage={})
    failed = record()  # no usage: the rewrite failed before a reply
    odd = record(rewrite_usage={"input": "x"})
    assert [rewrite_call(e) for e in (other, none, failed, odd)] == [None] * 4


def test_context_shows_the_sources_the_next_question_will_search(
    data_dir: DataDir, tmp_path: Path, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = documents(tmp_path / "docs")
    server.enqueue(Reply(chunks=oe.chat_reply("Hello.")))
    assert run(capsys, "ask", "Hello")[0] == 0
    conversation_id = only_conversation(data_dir)
    code, out, err = run(capsys, "context", conversation_id, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["knowledge_sources"] == []
    assert all(row["pending"] is False for row in report["carried"])
    assert "knowledge" not in [row["kind"] for row in report["carried"]]

    code, _, err = run(capsys, "knowledge", "add", str(folder), "-c", conversation_id)
    assert code == 0, err
    code, out, err = run(capsys, "context", conversation_id, "--json")
    assert code == 0, err
    report = json.loads(out)
    where = str(folder.resolve())
    assert report["knowledge_sources"] == [where]
    (pending,) = [row for row in report["carried"] if row["kind"] == "knowledge"]
    assert pending == {"seq": None, "kind": "knowledge", "tokens": 0, "text": where,
                       "pending": True}  # fmt: skip
    assert report["carried"][-1] == pending  # where the next question's passages will go

    code, out, err = run(capsys, "context", conversation_id)
    assert code == 0, err
    lines = out.splitlines()
    (at,) = [i for i, line in enumerate(lines) if "searched when you send" in line]
    assert lines[at].split()[:3] == ["-", "knowledge", "-"]
    assert lines[at].endswith("searched when you send: 1 source")
    assert lines[at + 1].strip() == where  # the whole path, not cut


def test_compare_searches_the_conversations_sources_for_every_model(
    data_dir: DataDir, tmp_path: Path, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = documents(tmp_path / "docs")
    server.enqueue(Reply(chunks=oe.chat_reply("Hello.")))
    assert run(capsys, "ask", "Hello")[0] == 0
    conversation_id = only_conversation(data_dir)
    assert run(capsys, "knowledge", "add", str(folder), "-c", conversation_id)[0] == 0
    server.enqueue(Reply(chunks=oe.chat_reply("In late winter [1].")))
    server.enqueue(Reply(chunks=oe.chat_reply("Late winter [1].")))
    asked = len(server.requests)
    models = "openai:gpt-4.1,openai:gpt-4.1-mini"
    question = "When should I prune roses?"
    code, out, err = run(capsys, "ask", "-c", conversation_id, "--compare", models, question)
    assert code == 0, err
    assert "searching your documents: 'When should I prune roses?' → 1 passage" in err
    compared = server.requests[asked:]
    assert sorted(r.json["model"] for r in compared) == ["gpt-4.1", "gpt-4.1-mini"]
    for request in compared:  # both models get the passages with the question
        content = request.json["messages"][-1]["content"]
        assert content.startswith(BLOCK_HEAD) and "Prune roses in late winter" in content
        assert "Bell Rock" not in content
    assert "── openai:gpt-4.1 " in out and "── openai:gpt-4.1-mini " in out
    library = Library(data_dir)
    try:
        history = library.open(conversation_id).history
    finally:
        library.close()
    (record,) = retrievals(history).values()
    assert [p.sent for p in record.passages].count(True) == 1


def test_crosstalk_usage_counts_the_rewrite(
    data_dir: DataDir, tmp_path: Path, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The index counts the rewrite as a call of the model that made it (``usage_rows``)."""
    folder = documents(tmp_path / "docs")
    assert run(capsys, "knowledge", "add", str(folder))[0] == 0
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson [1].", prompt=100, completion=7)))
    assert run(capsys, "ask", "--knowledge", "Who designed the Bell Rock Lighthouse?")[0] == 0
    conversation_id = only_conversation(data_dir)
    server.enqueue(Reply(chunks=oe.chat_reply("Bell Rock first lit", prompt=40, completion=6)))
    server.enqueue(Reply(chunks=oe.chat_reply("In 1811 [1].", prompt=120, completion=4)))
    code, _, err = run(capsys, "ask", "--knowledge", "-c", conversation_id,
                       "When was it first lit?")  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, "usage", conversation_id, "--by", "model", "--json")
    assert code == 0, err
    groups = {group["key"]: group for group in json.loads(out)["groups"]}
    assert groups["openai:gpt-4.1-mini"]["calls"] == 1
    assert groups["openai:gpt-4.1-mini"]["usage"]["input"] == 40
    assert groups["openai:gpt-4.1-mini"]["cost"] == pytest.approx((40 * 1.0 + 6 * 2.0) / 1e6)
    assert groups["openai:gpt-4.1"]["calls"] == 2
    code, out, err = run(capsys, "reindex")  # the index rebuilt from the files says the same
    assert code == 0, err
    code, out, err = run(capsys, "usage", "--by", "model", "--json")
    assert code == 0, err
    groups = {group["key"]: group for group in json.loads(out)["groups"]}
    assert groups["openai:gpt-4.1-mini"]["calls"] == 1


def test_compare_with_knowledge_searches_every_source_for_a_conversation_with_none(
    data_dir: DataDir, tmp_path: Path, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = documents(tmp_path / "docs")
    assert run(capsys, "knowledge", "add", str(folder))[0] == 0  # no conversation's own
    server.enqueue(Reply(chunks=oe.chat_reply("Stevenson [1].")))
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson [1].")))
    models = "openai:gpt-4.1,openai:gpt-4.1-mini"
    question = "Who designed the Bell Rock Lighthouse?"
    code, _, err = run(capsys, "ask", "--knowledge", "--compare", models, question)
    assert code == 0, err
    assert f"searching your documents: '{question}' → 1 passage" in err
    for request in server.requests:
        content = request.json["messages"][-1]["content"]
        assert content.startswith(BLOCK_HEAD) and "Robert Stevenson" in content
    conversation_id = only_conversation(data_dir)
    server.enqueue(Reply(chunks=oe.chat_reply("A")))
    server.enqueue(Reply(chunks=oe.chat_reply("B")))
    code, _, err = run(capsys, "ask", "--no-knowledge", "-c", conversation_id, "--compare",
                       models, "Who built it?")  # fmt: skip
    assert code == 0 and "searching your documents" not in err, err
    assert not any(r.json["messages"][-1]["content"].startswith(BLOCK_HEAD)
                   for r in server.requests[2:])  # fmt: skip
