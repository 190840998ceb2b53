"""Answering from the user's documents in a turn (docs/knowledge-answers.md): the follow-up
rewritten by the cheap model and searched, the passages on the wire with the citation
instruction for each protocol, the record written and read back, the skip rule, the fallback,
the budget.

Real components: a real Library and Knowledge on a tmp data dir, real files, the runner the
composition root builds, the real SDKs against ``WireServer`` on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.composition import Services, build_models
from app.context.recall import KNOWLEDGE_INSTRUCTION
from app.history import History, ModelInput, ModelOutput
from app.keys import Keys
from app.knowledge.retrieval import BLOCK_HEAD, Retrieval, retrieval_for, retrievals
from app.knowledge.service import Knowledge
from app.paths import DataDir
from app.providers import Models
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library
from app.turn.knowledge import search_terms, stands_alone
from tests.helpers import anthropic_events as ae
from tests.helpers import gemini_events as ge
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

SECRETS = {
    "OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789",
    "GEMINI_API_KEY": "AIzaDummyGEMINIsecret0123456789abcdef",
}
CHAT = "openai:gpt-4.1"
REWRITER = "openai:gpt-4.1-mini"
LIGHTHOUSE = (
    "# Bell Rock\n\nThe Bell Rock Lighthouse, off the coast of Angus, was designed by Robert "
    "Stevenson. Work on the rock began in 1807 and the light was first lit on 1 February "
    "1811. Its lamps were Argand oil lamps with silvered reflectors.\n"
)
PAINT = (
    "# Skerryvore\n\nSkerryvore's tower was given a fresh paint finish in 1995. Keepers "
    "said he who climbs it twice a day needs no other exercise.\n"
)
ROSES = "# Roses\n\nPrune roses in late winter, just above an outward-facing bud.\n"


def documents(root: Path) -> Path:
    folder = root / "docs"
    folder.mkdir()
    (folder / "lighthouse.md").write_text(LIGHTHOUSE, encoding="utf-8")
    (folder / "skerryvore.md").write_text(PAINT, encoding="utf-8")
    (folder / "roses.md").write_text(ROSES, encoding="utf-8")
    return folder


def indexed(data: DataDir, folder: Path, **scope: str) -> int:
    knowledge = Knowledge(data)
    try:
        source = knowledge.add(folder, **scope)
        report = knowledge.update(source.id)
        assert report.files_read == 3 and not report.problems
        return source.id
    finally:
        knowledge.close()


def settings_for(server: WireServer, kind: str = "openai", **more: Any) -> Settings:
    base = f"{server.url}/v1" if kind.startswith("openai") else server.url
    models = {"openai": ["gpt-4.1", "gpt-4.1-mini"], "openai-responses": ["gpt-5"],
              "anthropic": ["claude-sonnet-4-6"], "gemini": ["gemini-2.5-flash"]}[kind]  # fmt: skip
    name = "openai" if kind.startswith("openai") else kind
    return Settings(
        providers={name: ProviderConfig(kind=kind, base_url=base, models=models)},
        recall_model=REWRITER if kind == "openai" else None,
        context_windows={"openai:gpt-4.1": 100_000},
        **more,
    )


def services_for(library: Library, settings: Settings) -> Services:
    keys = Keys(SECRETS)
    models = build_models(settings, keys, SECRETS)
    _MODELS.append(models)
    services = Services(library.data, settings, keys, library, models, environ=SECRETS)
    _SERVICES.append(services)
    return services


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as running:
        yield running


_LOOP: list[asyncio.AbstractEventLoop] = []
_MODELS: list[Models] = []
_SERVICES: list[Services] = []


@pytest.fixture(autouse=True)
def _one_loop() -> Iterator[None]:
    """One event loop for every turn of a test: an SDK's client belongs to the loop it was
    first used on."""
    loop = asyncio.new_event_loop()
    _LOOP.append(loop)
    yield
    for models in _MODELS:
        loop.run_until_complete(models.aclose())  # the SDKs' clients, on their loop
    _MODELS.clear()
    for services in _SERVICES:
        services.searcher.close()
    _SERVICES.clear()
    _LOOP.remove(loop)
    loop.close()


def on_loop(job: Any) -> Any:
    return _LOOP[-1].run_until_complete(job)


def ask(services: Services, conversation: Conversation, spec: str, text: str,
        **options: Any) -> ModelOutput:  # fmt: skip
    return on_loop(services.runner.run(conversation, spec, text, **options))


def user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of an OpenAI chat body."""
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def test_a_follow_up_is_rewritten_and_finds_what_the_question_alone_does_not(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = documents(tmp_path)
    conversation = library.create()
    indexed(library.data, folder, conversation=conversation.id)
    # the question as written finds the wrong passage ("he", "finish": Skerryvore's paint)
    knowledge = Knowledge(library.data)
    raw = knowledge.search(search_terms("When did he finish it?"), conversation=conversation.id)
    knowledge.close()
    assert raw and all(not p.path.endswith("lighthouse.md") for p in raw)

    services = services_for(library, settings_for(server))
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson designed it [1].")))
    ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?")
    first = retrievals(conversation.history)
    (only,) = first.values()
    assert only.why_not == "first question" and not only.rewritten and only.rewrite_ms is None
    assert len(server.requests) == 1  # no rewrite asked of a first question

    server.enqueue(Reply(chunks=oe.chat_reply("Bell Rock Lighthouse first lit",
                                              prompt=120, completion=6)))  # fmt: skip
    server.enqueue(Reply(chunks=oe.chat_reply("It was first lit in 1811 [1].")))
    answer = ask(services, conversation, CHAT, "When did he finish it?")

    rewrite, main = (request.json for request in server.requests[1:])
    assert rewrite["model"] == "gpt-4.1-mini"
    assert rewrite["messages"][0] == {"role": "system", "content": KNOWLEDGE_INSTRUCTION}
    prompt = user_text(rewrite)
    assert "Who designed the Bell Rock Lighthouse?" in prompt
    assert "Robert Stevenson designed it" in prompt and "When did he finish it?" in prompt
    record = retrieval_for(conversation.history, answer)
    assert record is not None and record.rewritten
    assert record.query == "Bell Rock Lighthouse first lit"
    assert record.rewrite_model == REWRITER and record.rewrite_ms is not None
    assert record.rewrite_usage is not None and record.rewrite_usage.input == 120
    assert record.rewrite_cost is not None and record.rewrite_cost > 0
    assert record.sent[0].path.endswith("lighthouse.md") and record.sent[0].n == 1
    sent = user_text(main)
    assert sent.startswith(BLOCK_HEAD) and sent.endswith("When did he finish it?")
    assert f"[1] {record.sent[0].path}:" in sent and "first lit on 1 February 1811" in sent
    assert "Cite the passages you use as [1], [2]" in sent
    # only the newest question's passages go: the first question is carried as it was typed
    earlier = next(m for m in main["messages"] if m["role"] == "user")
    assert earlier["content"] == "Who designed the Bell Rock Lighthouse?"

    reopened = Library(library.data)  # the record is in the transcript
    history = reopened.open(conversation.id).history
    again = retrieval_for(history, history.at(answer.seq))
    assert again == record
    reopened.close()

    # a regenerated answer sends the same passages, searched no more
    server.enqueue(Reply(chunks=oe.chat_reply("In 1811 [1].")))
    on_loop(services.runner.regenerate(conversation, CHAT))
    assert len(server.requests) == 4 and user_text(server.requests[-1].json) == sent
    assert len(retrievals(conversation.history)) == 2


def test_a_failed_rewrite_searches_the_question_with_the_earlier_ones_words_and_says_why(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = documents(tmp_path)
    conversation = library.create()
    indexed(library.data, folder, conversation=conversation.id)
    services = services_for(library, settings_for(server))
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson.")))
    ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?")
    server.enqueue(Reply(status=400, body=oe.api_error("no such model")))
    server.enqueue(Reply(chunks=oe.chat_reply("Argand lamps [1].")))
    answer = ask(services, conversation, CHAT, "What lamps did it use?")
    record = retrieval_for(conversation.history, answer)
    assert record is not None and not record.rewritten
    assert record.query == "What lamps did it use? Who designed the Bell Rock Lighthouse?"
    assert record.why_not.startswith("the rewrite failed:") and "no such model" in record.why_not
    assert record.rewrite_model == REWRITER and record.rewrite_usage is None
    assert record.sent and record.sent[0].path.endswith("lighthouse.md")  # "lamps" found it
    assert answer.text == "Argand lamps [1]."


def test_the_skip_rule() -> None:
    history = History()
    for entry in (ModelInput(text="Who designed Bell Rock?"),
                  ModelOutput(provider="p", model="m", text="Stevenson."),
                  ModelInput(text="x")):  # fmt: skip
        history.append(history.stamp(entry))
    first = History([history.at(1)])
    assert stands_alone(first, 1, "When did he finish it?") == "first question"
    assert stands_alone(history, 3, "How tall is the Eiffel Tower in Paris?") == (
        "no reference to earlier turns"
    )
    japanese = "\u706f\u53f0\u306f\u3044\u3064\u5b8c\u6210\u3057\u305f"  # when was it built
    for follow_up in ("When did he finish it?", "What about the other one?", "Why?",
                      "And the Skerryvore light house?", "Tell me more", japanese):  # fmt: skip
        assert stands_alone(history, 3, follow_up) is None, follow_up
    assert search_terms("How do I prune the roses?") == "prune OR roses"
    assert search_terms("how is it?") == "how OR is OR it"  # nothing but common words: all


PROTOCOLS = {
    "openai": ("openai:gpt-4.1", lambda: Reply(chunks=oe.chat_reply("Stevenson [1]."))),
    "openai-responses": (
        "openai:gpt-5",
        lambda: Reply(chunks=oe.ResponsesScript().message("msg_1", "Stevenson [1].").completed()),
    ),
    "anthropic": (
        "anthropic:claude-sonnet-4-6",
        lambda: Reply(chunks=ae.reply(ae.text(0, "Stevenson [1]."))),
    ),
    "gemini": (
        "gemini:gemini-2.5-flash",
        lambda: Reply(
            chunks=[ge.chunk(ge.text("Stevenson [1]."), finish="STOP", usage=ge.usage(40, 8))]
        ),
    ),
}


def _last_user_text(kind: str, body: dict[str, Any]) -> str:
    if kind == "openai":
        return user_text(body)
    if kind == "openai-responses":
        item = [i for i in body["input"] if i.get("role") == "user"][-1]
        content = item["content"]
        return content if isinstance(content, str) else "".join(p["text"] for p in content)
    if kind == "anthropic":
        message = [m for m in body["messages"] if m["role"] == "user"][-1]
        content = message["content"]
        return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)
    message = [c for c in body["contents"] if c["role"] == "user"][-1]
    return "".join(p.get("text", "") for p in message["parts"])


@pytest.mark.parametrize("kind", list(PROTOCOLS))
def test_the_passages_and_the_citation_instruction_go_on_every_protocol(
    kind: str, library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = documents(tmp_path)
    from app.store.projects import Projects

    project = Projects(library).create("Lights", instructions="You advise on lighthouses.")
    indexed(library.data, folder, project=project.id)
    conversation = library.create()
    Projects(library).move([conversation.id], project.id)
    spec, reply = PROTOCOLS[kind]
    services = services_for(library, settings_for(server, kind))
    server.enqueue(reply())
    answer = ask(services, conversation, spec, "Who designed the Bell Rock Lighthouse?")
    assert answer.text == "Stevenson [1]." and answer.error is None
    (request,) = server.requests
    text = _last_user_text(kind, request.json)
    record = retrieval_for(conversation.history, answer)
    assert record is not None and record.sent
    assert text == f"{record.block()}\n\nWho designed the Bell Rock Lighthouse?"
    assert "[1] " in text and "lighthouse.md" in text and "Cite the passages" in text
    assert "You advise on lighthouses." in json.dumps(request.json)  # the preamble, apart
    assert "Prune roses" not in text  # a passage that does not match is not sent


def test_the_passages_take_no_more_than_their_share_of_the_budget(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(8):  # eight passages about lamps, each a few hundred tokens
        body = " ".join(f"The lamp number {n} burned whale oil in year {1800 + i}." for i in
                        range(20))  # fmt: skip
        (folder / f"lamp{n}.md").write_text(f"# Lamp {n}\n\n{body}\n", encoding="utf-8")
    conversation = library.create()
    knowledge = Knowledge(library.data)
    knowledge.update(knowledge.add(folder, conversation=conversation.id).id)
    knowledge.close()
    settings = settings_for(server, knowledge_passages=6, knowledge_share=0.1)
    settings = msgspec.structs.replace(settings, context_windows={"openai:gpt-4.1": 12_000})
    services = services_for(library, settings)
    limit = services.contexts.tool_limit(conversation.id, _Named("openai"), "gpt-4.1", None, 0.1)
    assert limit is not None and limit < 1200
    server.enqueue(Reply(chunks=oe.chat_reply("Whale oil [1].")))
    answer = ask(services, conversation, CHAT, "What did the lamps burn?")
    record = retrieval_for(conversation.history, answer)
    assert record is not None and record.budget == limit
    assert len(record.passages) > len(record.sent) >= 1
    assert sum(p.tokens for p in record.sent) <= limit
    assert all(p.text == "" and p.n == 0 for p in record.passages if not p.sent)
    assert user_text(server.requests[0].json).count("The lamp number") == 20 * len(record.sent)
    counted = answer.meta["context"]
    assert isinstance(counted, dict) and counted["tokens"] >= sum(p.tokens for p in record.sent)


def test_no_sources_no_search_unless_asked(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = documents(tmp_path)
    indexed(library.data, folder, conversation="someone-else")
    services = services_for(library, settings_for(server))
    conversation = library.create()
    server.enqueue(Reply(chunks=oe.chat_reply("No idea.")))
    ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?")
    assert retrievals(conversation.history) == {}
    assert BLOCK_HEAD not in user_text(server.requests[0].json)
    heard: list[Retrieval] = []
    server.enqueue(Reply(chunks=oe.chat_reply("Stevenson [1].")))
    ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?",
        knowledge=True, on_knowledge=heard.append)  # fmt: skip
    (record,) = heard
    assert record.sent and user_text(server.requests[1].json).startswith(BLOCK_HEAD)
    server.enqueue(Reply(chunks=oe.chat_reply("Fine.")))
    own = library.create()
    indexed(library.data, folder, conversation=own.id)
    ask(services, own, CHAT, "Who designed the Bell Rock Lighthouse?", knowledge=False)
    assert retrievals(own.history) == {}


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name


def test_the_next_request_shows_the_passages_and_the_sources_to_be_searched(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    from app.inspect.next_request import KNOWLEDGE_PART, next_request

    folder = documents(tmp_path)
    conversation = library.create()
    indexed(library.data, folder, conversation=conversation.id)
    services = services_for(library, settings_for(server))
    before = next_request(services, conversation, CHAT, draft="Who designed Bell Rock?")
    *_, planned, draft = before.carried
    assert (planned.kind, planned.tokens, planned.pending) == (KNOWLEDGE_PART, 0, True)
    assert planned.text == str(folder.resolve()) and draft.kind == "draft"
    assert before.knowledge_sources == (str(folder.resolve()),)

    # an input searched for and not answered yet (the reply is what a retry sends)
    question = library.append(conversation, ModelInput(text="Who designed Bell Rock?"))
    assert isinstance(question, ModelInput)
    step = services.runner.knowledge
    assert step is not None
    provider, model = services.models.resolve(CHAT)
    record = on_loop(step.retrieve(library, services.models, conversation, question,
                                   services.contexts, provider, model, None))  # fmt: skip
    assert record is not None and record.sent
    shown = next_request(services, conversation, CHAT)
    passages, asked = shown.carried
    assert (passages.kind, passages.seq, passages.pending) == (KNOWLEDGE_PART, None, False)
    assert passages.text == record.block() and passages.tokens > 0
    assert (asked.seq, asked.text) == (question.seq, "Who designed Bell Rock?")
    assert shown.tokens == sum(row.tokens for row in shown.carried)
    assert shown.body is not None
    assert shown.body["messages"][-1]["content"].startswith(BLOCK_HEAD)
    assert shown.knowledge_sources == ()  # the question was searched already
    # once it is answered, the next request carries the passages no more
    server.enqueue(Reply(chunks=oe.chat_reply("Stevenson [1].")))
    on_loop(services.runner.regenerate(conversation, CHAT))
    after = next_request(services, conversation, CHAT, draft="Thanks")
    assert [row.kind for row in after.carried if not row.pending].count(KNOWLEDGE_PART) == 0
    assert BLOCK_HEAD not in json.dumps(after.body)


def test_with_an_embedder_a_passage_is_found_by_its_meaning(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    from tests.knowledge import embedding_wire

    embedding_wire.serve(server)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "garage.md").write_text("# Garage\n\nThe red car won every race.\n", "utf-8")
    (folder / "roses.md").write_text(ROSES, encoding="utf-8")
    settings = msgspec.structs.replace(
        embedding_wire.settings(server), providers={
            **embedding_wire.settings(server).providers,
            "openai": ProviderConfig(kind="openai", base_url=f"{server.url}/v1",
                                     models=["gpt-4.1"]),
        },
    )  # fmt: skip
    services = services_for(library, settings)
    embedder = services.searcher.embedder
    assert embedder is not None and embedder.model == "lab:fake-embed"
    conversation = library.create()
    knowledge = Knowledge(library.data, embedder)
    knowledge.update(knowledge.add(folder, conversation=conversation.id).id)
    knowledge.close()
    server.enqueue(Reply(chunks=oe.chat_reply("A red one [1].")), "/chat/completions")
    answer = ask(services, conversation, CHAT, "Tell me about the automobile")
    record = retrieval_for(conversation.history, answer)
    assert record is not None and record.query == "Tell me about the automobile"
    first = record.sent[0]
    assert first.path.endswith("garage.md") and first.vector is not None and first.vector > 0
    assert first.lexical is None  # no word of the question is in it
    assert record.vector_problem == ""
    chat = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert "The red car won every race." in user_text(chat[-1].json)


def test_an_unreadable_knowledge_base_is_said_and_the_turn_answered(
    library: Library, server: WireServer
) -> None:
    (library.data.root / "knowledge.db").write_bytes(b"not a database at all" * 100)
    services = services_for(library, settings_for(server))
    conversation = library.create()
    server.enqueue(Reply(chunks=oe.chat_reply("Hello.")))
    answer = ask(services, conversation, CHAT, "Hello there")
    assert answer.text == "Hello." and retrievals(conversation.history) == {}
    assert any(w.startswith("the documents could not be searched") for w in library.warnings)
    server.enqueue(Reply(chunks=oe.chat_reply("Still here.")))
    answer = ask(services, conversation, CHAT, "Who designed Bell Rock?", knowledge=True)
    record = retrieval_for(conversation.history, answer)
    assert answer.text == "Still here." and record is not None and record.passages == []
    assert record.why_not.startswith("the documents could not be searched")


def test_every_call_of_the_turn_carries_the_passages_through_its_tool_rounds(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    folder = documents(tmp_path)
    conversation = library.create()
    indexed(library.data, folder, conversation=conversation.id)
    services = services_for(library, settings_for(server))
    calling = [oe.chunk({"role": "assistant", "content": ""}),
               oe.tool_call(0, "call_1", "current_time", "{}"), oe.chunk(finish="tool_calls"),
               oe.usage_chunk(), oe.DONE]  # fmt: skip
    server.enqueue(Reply(chunks=calling))
    server.enqueue(Reply(chunks=oe.chat_reply("Stevenson, and it is now [1].")))
    answer = ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?",
                 tools=["current_time"])  # fmt: skip
    assert answer.text == "Stevenson, and it is now [1]."
    first, second = (request.json for request in server.requests)
    asked = [m for m in second["messages"] if m["role"] == "user"]
    assert len(asked) == 1 and asked[0]["content"] == user_text(first)
    assert user_text(first).startswith(BLOCK_HEAD)
    assert second["messages"][-1]["role"] == "tool"
    assert len(retrievals(conversation.history)) == 1  # searched once for the turn


def test_a_follow_up_no_model_rewrote_is_found_by_the_earlier_questions_words(
    library: Library, tmp_path: Path, server: WireServer
) -> None:
    """No rewrite model: "When did he finish it?" alone names nothing of the lighthouse; with
    the words of the question before it, the lighthouse's file is found first."""
    folder = documents(tmp_path)
    conversation = library.create()
    indexed(library.data, folder, conversation=conversation.id)
    settings = msgspec.structs.replace(settings_for(server), recall_model=None, title_model="")
    services = services_for(library, settings)
    server.enqueue(Reply(chunks=oe.chat_reply("Robert Stevenson.")))
    ask(services, conversation, CHAT, "Who designed the Bell Rock Lighthouse?")
    server.enqueue(Reply(chunks=oe.chat_reply("In 1810 [1].")))
    answer = ask(services, conversation, CHAT, "When did he finish it?")
    record = retrieval_for(conversation.history, answer)
    assert record is not None and not record.rewritten and record.rewrite_model is None
    assert record.why_not == "no rewrite model is set"
    assert record.query == "When did he finish it? Who designed the Bell Rock Lighthouse?"
    assert record.sent and record.sent[0].path.endswith("lighthouse.md")
    assert not any(  # no model was asked to rewrite
        r.json["messages"][0] == {"role": "system", "content": KNOWLEDGE_INSTRUCTION}
        for r in server.requests
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("東京の天気はどうですか", "tokyo.md"),  # Japanese: particles and endings left out
        ("たこ焼きはどこの食べ物ですか", "osaka.md"),
        ("北京的天气怎么样", "beijing.md"),  # Chinese
        ("大阪", "osaka.md"),
        ("What is the weather like in Tokyo?", "tokyo.md"),
    ],
)
def test_a_question_in_a_script_without_spaces_is_searched_by_its_letters(
    library: Library, tmp_path: Path, question: str, expected: str
) -> None:
    """The question is one run of letters with no space: searched as it is, it would have to
    stand in a document whole; its pairs of letters find the document that holds them."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "tokyo.md").write_text("# 東京\n\n東京の天気は晴れ。Tokyo weather: sunny.\n", "utf-8")
    (folder / "osaka.md").write_text("# 大阪\n\n大阪の食べ物はたこ焼きです。\n", "utf-8")
    (folder / "beijing.md").write_text("# 北京\n\n北京今天的天气很好。\n", "utf-8")
    knowledge = Knowledge(library.data)
    try:
        knowledge.update(knowledge.add(folder).id)
        found = knowledge.search(search_terms(question))
    finally:
        knowledge.close()
    assert found and Path(found[0].path).name == expected, search_terms(question)
