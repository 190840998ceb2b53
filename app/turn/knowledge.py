"""A turn's knowledge step (docs/knowledge-answers.md): after the input is appended and before
the model is called, the question is rewritten into a standalone query by the cheap model
(unless it stands alone), the user's documents searched, and the passages that fit the budget
recorded (``app.knowledge.retrieval``). The request carries them from that record
(``app.context.service``): a regenerated answer sends the same passages, and nothing here
changes what was already sent.

A conversation uses knowledge when it or its project has sources, or when the caller asks
(``crosstalk ask --knowledge``: every source, for a conversation with none of its own).
Whatever fails in the rewrite, a follow-up is searched with the words of the question before
it added (a question that stands alone, as it is), and the record says why: measured on
follow-ups, the earlier question's words find the answering file far more often than the
follow-up alone (docs/knowledge-quality.md).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from msgspec.structs import replace

from app.context.recall import KNOWLEDGE_INSTRUCTION, RECENT_TURNS, rewritten
from app.errors import CrosstalkError
from app.history import History, ModelInput, ModelOutput, Usage
from app.history.entries import entry_id
from app.knowledge.retrieval import (
    BLOCK_HEAD,
    BLOCK_TAIL,
    Retrieval,
    Retrieved,
    passage_text,
)
from app.providers import Models
from app.store import Conversation, Library
from app.store.search_text import _classes as no_space_classes  # as app/knowledge/index_terms
from app.store.search_text import fold

if TYPE_CHECKING:
    from app.context.service import ContextSource, Named
    from app.knowledge.embedder import Embedder
    from app.knowledge.service import Knowledge, Passage
    from app.paths import DataDir
    from app.pricing import PriceTable

OnKnowledge = Callable[[Retrieval], None]
T = TypeVar("T")
# what reading the knowledge base may raise: the turn is answered without it, saying why
UNREADABLE = (CrosstalkError, sqlite3.Error, OSError)
SEARCH_TERMS = 16  # words of a query searched, at most
FOUND_MORE = 4  # passages found beyond those that may be sent: the record shows what was not

# words that point back at the conversation: a question holding one is rewritten
_REFERRING = """it its itself that this those these they them their theirs there he him his she
her hers one ones former latter above previous earlier same such again else another other others
also more mentioned said then"""
REFERRING = frozenset(_REFERRING.split())
_CONTINUING = "and but so or also"  # as a question's first word: a follow-up
CONTINUING = frozenset(_CONTINUING.split())
SHORT = 3  # words: a question this short leans on what came before
# words a search for a question would only be slowed and muddied by
_STOPWORDS = """a an and are as at be been being but by can could did do does doing for from had
has have how i if in into is it its me my no not of on or our please should so some tell than
that the their them then there these they this those to was we were what when where which who
whom why will with would you your about any all also more most much just like get give show
explain describe"""
STOPWORDS = frozenset(_STOPWORDS.split())
HIRAGANA = re.compile("[\u3040-\u309f]+")  # particles and endings ("の", "です")
LETTERS = re.compile(r"[^\W\d_]+")


def ignore_knowledge(record: Retrieval) -> None:
    return None


def stands_alone(history: History, input_seq: int, question: str) -> str | None:
    """Why the question needs no rewrite ("first question", "no reference to earlier
    turns"), or None when it is to be rewritten: it follows an answer and holds a word that
    points back (it, that, those, the other one ...), begins as a follow-up does (and, but,
    so ...), is three words or fewer, or is in a script this rule cannot read."""
    earlier = history.path_to(history.parent_of(input_seq))
    if not any(isinstance(history.at(seq), ModelOutput) for seq in earlier):
        return "first question"
    words = [w for w in LETTERS.findall(question.casefold())]
    if len(words) <= SHORT or not all(w.isascii() for w in words):
        return None
    if words[0] in CONTINUING or any(w in REFERRING for w in words):
        return None
    return "no reference to earlier turns"


def with_earlier_question(history: History, input_seq: int, question: str) -> str:
    """A follow-up with the words of the question asked before it (on its path) after its own:
    what is searched when no model rewrote it ("and in reverse?" after "how do I sort a
    list?"). The question alone when there is no earlier one."""
    for seq in reversed(history.path_to(history.parent_of(input_seq))):
        entry = history.at(seq)
        if isinstance(entry, ModelInput) and entry.text.strip():
            return f"{question} {entry.text}"
    return question


def search_terms(query: str) -> str:
    """A question or query as the knowledge search reads it: its words less the common
    ones, and in a script written without spaces (Chinese, Japanese, Thai ...) each pair of
    neighbouring letters but those of hiragana alone (particles, endings: "です", "どう"), any of
    them (OR), BM25 ranking those holding more and rarer ones first. The search language
    would otherwise ask for every word, "how" and "the" included, and for a Japanese
    question's whole sentence as one run of letters."""
    folded = fold(query)
    kinds = no_space_classes(folded)
    words = kinds.word.findall(folded)
    kept = [w for w in words if w not in STOPWORDS] or words
    pairs = kinds.pair.findall(folded)
    telling = (
        [p for p in pairs if not HIRAGANA.fullmatch(p)] or pairs or kinds.letter.findall(folded)
    )
    return " OR ".join(list(dict.fromkeys(kept + telling))[:SEARCH_TERMS])


@dataclass(frozen=True)
class Scope:
    """Where a turn searches: a project and/or a conversation (both None: every source),
    and the sources that are."""

    project: str | None
    conversation: str | None
    sources: list[int]
    paths: list[str] = field(default_factory=list)  # the sources' folders and files


class Searcher:
    """One ``Knowledge`` for the searches of a process's turns, opened on and used from one
    thread of its own: SQLite's connection belongs to the thread that opened it, and the
    vectors' matrix (with an embedder) is loaded once, not at every turn."""

    def __init__(self, data: DataDir, embedder: Embedder | None = None) -> None:
        self.data = data
        self.embedder = embedder
        self._pool: ThreadPoolExecutor | None = None
        self._knowledge: Knowledge | None = None

    async def run(self, job: Callable[[Knowledge], T]) -> T:
        """``job`` of the knowledge base, on its thread, the event loop free meanwhile."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="knowledge-search")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._call, job)

    def _call(self, job: Callable[[Knowledge], T]) -> T:
        if self._knowledge is None:
            from app.knowledge.service import Knowledge

            self._knowledge = Knowledge(self.data, self.embedder)
        return job(self._knowledge)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.submit(self._close).result()
        pool.shutdown()

    def _close(self) -> None:
        if self._knowledge is not None:
            self._knowledge.close()
            self._knowledge = None


@dataclass(frozen=True)
class KnowledgeStep:
    """What a turn needs to answer from the user's documents: where the index is, the model
    that rewrites (``rewrite_spec``, "provider:model"; None: never rewritten), how many
    passages and what share of the budget, and the prices the rewrite's cost is read from."""

    data: DataDir
    rewrite_spec: str | None
    passages: int = 6
    share: float = 0.25
    prices: PriceTable | None = None
    searcher: Searcher | None = None  # None: one of its own, without an embedder

    @property
    def database(self) -> Path:
        from app.knowledge.index import KNOWLEDGE_DB

        return self.data.root / KNOWLEDGE_DB

    def sources(self, conversation: Conversation, everything: bool = False) -> Scope:
        """The sources a turn of ``conversation`` searches: its own and its project's; with
        ``everything`` and none of those, every source. No sources when there is no index
        yet (nothing is created)."""
        from app.store.project_state import project_of

        project = project_of(conversation.history)
        if not self.database.exists():
            return Scope(project, conversation.id, [])
        from app.knowledge.service import Knowledge

        knowledge = Knowledge(self.data)
        try:
            scoped = knowledge.index.scoped_sources(project, conversation.id) or []
            every = knowledge.sources()
        finally:
            knowledge.close()
        if not scoped and everything:
            return Scope(None, None, [s.id for s in every], [s.path for s in every])
        paths = [s.path for s in every if s.id in scoped]
        return Scope(project, conversation.id, scoped, paths)

    async def retrieve(
        self,
        library: Library,
        models: Models,
        conversation: Conversation,
        question: ModelInput,
        contexts: ContextSource,
        provider: Named,
        model: str,
        max_tokens: int | None,
        *,
        use: bool | None = None,
        on_knowledge: OnKnowledge = ignore_knowledge,
    ) -> Retrieval | None:
        """The knowledge step for the input ``question`` (appended already): rewrite, search,
        choose what fits ``share`` of the budget of ``provider:model``, and append the record.
        ``use`` None: when the conversation or its project has sources; True: also every
        source when it has none; False: never. None when the step does not apply."""
        if use is False:
            return None
        history = conversation.history
        text = question.text
        input_seq = history.seq_of(entry_id(question))
        assert input_seq is not None
        record = Retrieval(input=entry_id(question), question=text, query=text)
        try:
            scope = await asyncio.to_thread(self.sources, conversation, bool(use))
        except UNREADABLE as exc:  # the turn goes on without
            why = f"the documents could not be searched: {exc}"
            if not use:  # not asked for: every turn would say it, so it is a warning
                if why not in library.warnings:
                    library.warnings.append(why)
                return None
            scope = Scope(None, None, [])
            record = replace(record, why_not=why)
        else:
            if not scope.sources and not use:
                return None
            if not scope.sources:
                record = replace(record, why_not="no documents to search: add some with "
                                 "`crosstalk knowledge add PATH`")  # fmt: skip
        if scope.sources:
            record = replace(record, sources=scope.sources)
            record = await self._rewrite(models, history, input_seq, record)
            limit = contexts.tool_limit(conversation.id, provider, model, max_tokens, self.share)
            searcher = self.searcher or Searcher(self.data)
            try:
                record = await searcher.run(partial(self._search, record, scope, limit))
            except UNREADABLE as exc:
                record = replace(record, why_not=f"the documents could not be searched: {exc}")
            finally:
                if searcher is not self.searcher:
                    searcher.close()
        stamped = await library.append_async(conversation, record.entry())
        assert stamped.seq > input_seq
        on_knowledge(record)
        return record

    async def _rewrite(
        self, models: Models, history: History, input_seq: int, record: Retrieval
    ) -> Retrieval:
        """The record with the query to search: the rewrite's, or (a follow-up whose rewrite
        could not be had) the question with the earlier question's words, and why."""
        why = stands_alone(history, input_seq, record.question)
        if why is not None:
            return replace(record, why_not=why)
        fallback = replace(record, query=with_earlier_question(history, input_seq, record.question))
        if not self.rewrite_spec:
            return replace(fallback, why_not="no rewrite model is set")
        spec = self.rewrite_spec
        try:
            provider, model = models.resolve(spec)
        except CrosstalkError as exc:
            return replace(fallback, rewrite_model=spec, why_not=f"cannot use {spec}: {exc}")
        spec = f"{provider.name}:{model}"
        started = time.monotonic()
        usage: Usage | None = None
        try:  # the question is the newest input of the active path: the turns are before it
            query, usage = await rewritten(provider, model, history, record.question, RECENT_TURNS,
                                           instruction=KNOWLEDGE_INSTRUCTION)  # fmt: skip
        except CrosstalkError as exc:
            ms = round((time.monotonic() - started) * 1000, 1)
            return replace(fallback, rewrite_model=spec, rewrite_ms=ms,
                             why_not=f"the rewrite failed: {exc}")  # fmt: skip
        except Exception as exc:  # an SDK's own error: the question is searched anyway
            ms = round((time.monotonic() - started) * 1000, 1)
            why = f"the rewrite failed: {type(exc).__name__}: {exc}"
            return replace(fallback, rewrite_model=spec, rewrite_ms=ms, why_not=why)
        ms = round((time.monotonic() - started) * 1000, 1)
        cost = None
        if usage is not None and self.prices is not None:
            cost = self.prices.cost(provider.name, model, usage)
        done = replace(fallback, rewrite_model=spec, rewrite_ms=ms, rewrite_usage=usage,
                         rewrite_cost=cost)  # fmt: skip
        if not search_terms(query):
            return replace(done, why_not=f"the rewrite was unusable: {query!r}")
        return replace(done, query=query, rewritten=query != record.question)

    def _search(
        self, record: Retrieval, scope: Scope, limit: int | None, knowledge: Knowledge
    ) -> Retrieval:
        """The record with the passages found and those sent: ``passages`` at most, within
        ``limit`` tokens (None: no limit). Run on the searcher's thread."""
        from app.context.tokens import count_text

        started = time.monotonic()
        terms = search_terms(record.query) or search_terms(record.question)
        found = knowledge.search(terms, project=scope.project, conversation=scope.conversation,
                                 limit=self.passages + FOUND_MORE) if terms else []  # fmt: skip
        problem = getattr(knowledge, "vector_problem", None) or ""
        ms = round((time.monotonic() - started) * 1000, 1)
        used = count_text(f"{BLOCK_HEAD}\n\n\n\n{BLOCK_TAIL}")
        chosen: list[Retrieved] = []
        n = 0
        for passage in found:
            candidate = _retrieved(passage, n + 1)
            tokens = count_text(passage_text(candidate)) + 1
            fits = n < self.passages and (limit is None or used + tokens <= limit)
            if fits:
                n, used = n + 1, used + tokens
                chosen.append(replace(candidate, sent=True, tokens=tokens))
            else:
                chosen.append(replace(candidate, n=0, text="", tokens=tokens))
        return replace(record, search_ms=ms, passages=chosen, budget=limit or 0,
                       vector_problem=problem)  # fmt: skip


def _retrieved(passage: Passage, n: int) -> Retrieved:
    return Retrieved(
        n=n, source=passage.source, path=passage.path, page=passage.page,
        first_line=passage.first_line, last_line=passage.last_line, heading=passage.heading,
        lexical=passage.lexical, vector=passage.vector,
        score=passage.score, text=passage.text,
    )  # fmt: skip
