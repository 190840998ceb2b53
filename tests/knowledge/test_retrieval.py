"""The knowledge record (``app.knowledge.retrieval``): written as a debug log into a real
conversation, read back from the transcript on disk, and found from the reply it served."""

from __future__ import annotations

from app.history import DebugLog, ModelInput, ModelOutput, Usage
from app.knowledge.retrieval import (
    BLOCK_HEAD,
    CATEGORY,
    Retrieval,
    Retrieved,
    cited,
    read,
    retrieval_for,
    retrievals,
    sources_lines,
)
from app.store import Library


def _record(input_id: str, query: str = "lighthouse lamp") -> Retrieval:
    return Retrieval(
        input=input_id, question="how bright was it?", query=query, rewritten=True,
        rewrite_model="openai:gpt-mini", rewrite_ms=12.5, rewrite_usage=Usage(input=40, output=6),
        rewrite_cost=0.00001, search_ms=3.0, sources=[1],
        passages=[
            Retrieved(n=1, source=1, path="/docs/lamp.pdf", page=3, lexical=4.2, score=0.03,
                      sent=True, tokens=40, text="The lamp burned at 20,000 candela."),
            Retrieved(n=2, source=1, path="/docs/notes.md", first_line=10, last_line=24,
                      heading="Lamps", lexical=2.0, score=0.02, sent=True, tokens=30,
                      text="Oil lamps came first."),
            Retrieved(source=1, path="/docs/other.md", first_line=1, last_line=1, score=0.01,
                      tokens=900),
        ],
    )  # fmt: skip


def test_the_record_is_written_read_back_and_found_from_the_reply(library: Library) -> None:
    conversation = library.create()
    question = library.append(conversation, ModelInput(text="how bright was it?"))
    library.append(conversation, _record(question.id).entry())
    answer = library.append(
        conversation, ModelOutput(provider="openai", model="m", text="About 20,000 cd [1].")
    )
    library.append(conversation, DebugLog(category="other", message="x", meta={"input": "?"}))

    reopened = Library(library.data)
    history = reopened.open(conversation.id).history
    logs = [e for e in history if isinstance(e, DebugLog) and e.category == CATEGORY]
    assert len(logs) == 1 and "(rewritten)" in logs[0].message and "2 sent" in logs[0].message
    found = retrieval_for(history, history.at(answer.seq))
    assert found == _record(question.id)
    assert found is not None and found.rewrite_usage == Usage(input=40, output=6)
    assert [p.n for p in found.sent] == [1, 2] and found.passages[2].text == ""
    assert sources_lines(cited(history, answer)) == [
        "[1] /docs/lamp.pdf, page 3",
        "[2] /docs/notes.md, lines 10-24",
    ]
    assert list(retrievals(history)) == [question.id]
    block = found.block()
    assert block.startswith(BLOCK_HEAD)
    assert "[1] /docs/lamp.pdf:page 3\nThe lamp burned at 20,000 candela." in block
    assert "[2] /docs/notes.md:10-24 (Lamps)\nOil lamps came first." in block
    assert "/docs/other.md" not in block and "[1], [2]" in block
    reopened.close()


def test_a_newer_record_for_the_same_input_wins_and_a_damaged_one_is_skipped(
    library: Library,
) -> None:
    conversation = library.create()
    question = library.append(conversation, ModelInput(text="q"))
    library.append(conversation, _record(question.id, "first").entry())
    library.append(conversation, _record(question.id, "second").entry())
    damaged = DebugLog(category=CATEGORY, message="?", meta={"input": 3})
    library.append(conversation, damaged)
    assert read(damaged) is None
    assert retrievals(conversation.history)[question.id].query == "second"
    other = library.append(conversation, ModelInput(text="no search"))
    assert retrieval_for(conversation.history, other) is None


def test_each_reply_lists_its_sources_in_markdown_and_html_on_every_branch(
    library: Library,
) -> None:
    from app.transfer import html_page, markdown
    from app.transfer.export import readable

    conversation = library.create()
    question = library.append(conversation, ModelInput(text="how bright was it?"))
    record = _record(question.id)
    library.append(conversation, record.entry())
    first = library.append(
        conversation, ModelOutput(provider="openai", model="m", text="20,000 cd [1].")
    )
    library.append(  # a regenerated answer: a sibling, on a branch of its own
        conversation,
        ModelOutput(provider="openai", model="m", text="Bright [2]."),
        after=question.seq,
    )
    library.append(conversation, ModelInput(text="thanks"))  # no record: no sources
    library.append(conversation, ModelOutput(provider="openai", model="m", text="Welcome."))
    history = conversation.history
    assert history.on_active_path(first.seq) is False
    entries, others = readable(history, all_branches=True)
    text = markdown.render(conversation.header, entries, others)
    assert text.count("**Sources**") == 2
    assert "\\[1\\] /docs/lamp.pdf, page 3  \n\\[2\\] /docs/notes.md, lines 10-24" in text
    after_thanks = text[text.index("Welcome.") : text.index("## Branch")]
    assert "**Sources**" not in after_thanks  # the second question had no record
    page = html_page.render(conversation.header, entries, others)
    assert page.count('<div class="sources">') == 2
    assert "<li>[1] /docs/lamp.pdf, page 3</li><li>[2] /docs/notes.md, lines 10-24</li>" in page
