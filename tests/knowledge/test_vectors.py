"""The knowledge base's vector search on real folders, with embeddings from the real SDKs over
HTTP (``embedding_wire``): chunks embedded by ``update``, the two rankings fused, a passage
found by meaning alone, vectors that survive a reopen, a failed embedding that leaves the
lexical index whole and is done by the next update, a model switch that embeds again, and an
index of schema 1 migrated."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.knowledge import vectors
from app.knowledge.fusion import K, fused
from app.knowledge.index import KNOWLEDGE_DB, SCHEMA_VERSION
from app.knowledge.service import Knowledge, Passage
from app.paths import DataDir
from app.providers.embeddings import ProviderEmbedder, embedder_for
from tests.helpers.wire_server import Recorded, Reply, WireServer
from tests.knowledge.embedding_wire import embedding, keys, openai_reply, serve, settings

DOCS = {
    "both.md": "Car tire pressure.",
    "lexical_only.md": "Old cars with worn tires.",
    "vector_only.md": "An automobile tire, mounted.",
    "cat.txt": "The cat sat on the mat all afternoon.",
    "recipe.txt": "Whisk two eggs with sugar and flour.",
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def server() -> Iterator[WireServer]:
    with serve(WireServer()) as running:
        yield running


def make_embedder(server: WireServer, model: str = "lab:fake-embed") -> ProviderEmbedder:
    made = embedder_for(settings(server, model), keys(), {}, max_retries=0)
    assert made is not None
    return made


@pytest.fixture
def embedder(server: WireServer) -> Iterator[ProviderEmbedder]:
    made = make_embedder(server)
    yield made
    made.close()


@pytest.fixture
def knowledge(data_dir: DataDir, embedder: ProviderEmbedder) -> Iterator[Knowledge]:
    k = Knowledge(data_dir, embedder)
    yield k
    k.close()


def named(passages: list[Passage]) -> list[str]:
    return [Path(p.path).name for p in passages]


def embedded(server: WireServer) -> list[str]:
    """Every text the server was asked to embed, in order."""
    return [t for r in server.requests if r.path.endswith("/embeddings") for t in r.json["input"]]


def test_update_embeds_every_chunk_and_search_fuses_the_rankings(
    knowledge: Knowledge, docs: Path, server: WireServer
) -> None:
    source = knowledge.add(docs)
    seen: list[tuple[int, int, str]] = []
    report = knowledge.update(source.id, embedding=lambda *p: seen.append(p))
    assert report.chunks == 5 and (report.vectors, report.vectors_missing) == (5, 0)
    assert report.vector_problem is None and report.embedding_tokens > 0
    assert seen[0] == (0, 5, "lab:fake-embed") and seen[-1] == (5, 5, "lab:fake-embed")
    assert sorted(embedded(server)) == sorted(DOCS.values())
    assert knowledge.source(source.id).vectors == {"lab:fake-embed": 5}

    passages = knowledge.search("car tire")
    assert named(passages) == ["both.md", "lexical_only.md", "vector_only.md"]
    both, lexical_only, vector_only = passages
    # found by both rankings, first in each: above those that one ranking found
    assert both.lexical is not None and both.vector is not None
    assert both.score == pytest.approx(2 / (K + 1))
    assert lexical_only.vector is None and lexical_only.lexical is not None
    assert vector_only.lexical is None and vector_only.vector is not None
    assert both.score > lexical_only.score and both.score > vector_only.score
    assert vector_only.vector == pytest.approx(2 / 8**0.5)  # 2 words of its 4, of the query's 2
    assert vector_only.snippet.startswith("An automobile tire") and vector_only.marks


def test_a_query_without_lexical_hits_finds_by_meaning(
    knowledge: Knowledge, docs: Path, data_dir: DataDir
) -> None:
    knowledge.update(knowledge.add(docs).id)
    [cat] = knowledge.search("feline")
    assert Path(cat.path).name == "cat.txt"
    assert cat.lexical is None and cat.vector is not None and cat.vector > 0
    assert cat.score == pytest.approx(1 / (K + 1)) and cat.where.endswith("cat.txt:1")
    words_only = Knowledge(data_dir)  # no embedder: the lexical search as it was
    try:
        assert words_only.search("feline") == []
        [tire] = words_only.search("automobile")
        assert tire.score == tire.lexical and tire.vector is None
    finally:
        words_only.close()
    # a -word keeps a passage out, whichever ranking found it
    assert knowledge.search("feline -mat") == []


def test_vectors_survive_a_reopen_and_are_not_made_again(
    data_dir: DataDir, docs: Path, server: WireServer, embedder: ProviderEmbedder
) -> None:
    first = Knowledge(data_dir, embedder)
    first.update(first.add(docs).id)
    first.close()
    asked = len(embedded(server))
    again = Knowledge(data_dir, make_embedder(server))
    try:
        report = again.update()
        assert (report.files_unchanged, report.vectors, report.vectors_missing) == (5, 0, 0)
        [cat] = again.search("kitten")
        assert Path(cat.path).name == "cat.txt"
        assert embedded(server)[asked:] == ["kitten"]  # the query only
    finally:
        again.close()


def test_a_failed_embedding_leaves_the_words_and_the_next_update_embeds(
    data_dir: DataDir, docs: Path
) -> None:
    failing = {"on": True}

    def flaky(request: Recorded) -> Reply:
        if failing["on"]:
            return Reply(503, body={"error": {"message": "warming up", "type": "server_error"}})
        return openai_reply(request)

    with WireServer() as server:
        server.respond("/embeddings", flaky)
        knowledge = Knowledge(data_dir, make_embedder(server))
        try:
            report = knowledge.update(knowledge.add(docs).id)
            assert report.chunks == 5 and report.vectors == 0
            assert report.vectors_missing == 5
            assert report.vector_problem is not None and "503" in report.vector_problem
            # the lexical index is whole; no vectors yet: words alone, the query not sent
            asked = len(server.requests)
            [both] = knowledge.search("pressure")
            assert both.lexical is not None and both.vector is None
            assert both.score == both.lexical and knowledge.vector_problem is None
            assert len(server.requests) == asked
            assert knowledge.source(1).vectors == {}

            failing["on"] = False
            report = knowledge.update()
            assert (report.files_read, report.vectors, report.vectors_missing) == (0, 5, 0)
            assert report.vector_problem is None
            [cat] = knowledge.search("feline")
            assert cat.vector is not None and knowledge.vector_problem is None
            # the provider fails again: the query cannot be embedded, so words alone
            failing["on"] = True
            [both] = knowledge.search("pressure")
            assert both.score == both.lexical and both.vector is None
            assert knowledge.vector_problem is not None and "503" in knowledge.vector_problem
        finally:
            knowledge.close()


def test_a_stopped_update_leaves_chunks_to_embed_next_time(
    knowledge: Knowledge, docs: Path
) -> None:
    calls = {"n": 0}

    def stop_at_embedding(done: int, total: int, model: str) -> None:
        calls["n"] += 1

    source = knowledge.add(docs)
    report = knowledge.update(
        source.id, embedding=stop_at_embedding, should_stop=lambda: calls["n"] > 0
    )
    assert report.stopped and report.chunks == 5 and report.vectors == 0
    report = knowledge.update(source.id)
    assert (report.vectors, report.vectors_missing) == (5, 0)


def test_switching_the_model_embeds_again_and_forgets_the_old_vectors(
    data_dir: DataDir, docs: Path, server: WireServer, knowledge: Knowledge
) -> None:
    knowledge.update(knowledge.add(docs).id)
    knowledge.close()
    gemini = make_embedder(server, "gm:gemini-embedding-001")
    switched = Knowledge(data_dir, gemini)
    try:
        report = switched.update()
        assert (report.files_read, report.vectors, report.vectors_missing) == (0, 5, 0)
        assert switched.vector_counts() == {"gm:gemini-embedding-001": 5}
        [cat] = switched.search("feline")
        assert Path(cat.path).name == "cat.txt" and cat.vector is not None
        assert any(":batchEmbedContents" in r.path for r in server.requests)
    finally:
        switched.close()
        gemini.close()


def test_changed_and_removed_files_take_their_vectors_along(
    knowledge: Knowledge, docs: Path, data_dir: DataDir
) -> None:
    knowledge.update(knowledge.add(docs).id)
    (docs / "cat.txt").write_text("A kitten naps.", encoding="utf-8")
    (docs / "recipe.txt").unlink()
    report = knowledge.update()
    assert (report.files_read, report.files_removed, report.vectors) == (1, 1, 1)
    conn = sqlite3.connect(data_dir.root / KNOWLEDGE_DB)
    try:
        kept = conn.execute(f"SELECT count(*) FROM {vectors.VECTORS}").fetchone()[0]
        orphans = conn.execute(
            f"SELECT count(*) FROM {vectors.VECTORS} WHERE chunk NOT IN (SELECT id FROM chunks)"
        ).fetchone()[0]
    finally:
        conn.close()
    assert (kept, orphans) == (4, 0)
    [cat] = knowledge.search("feline")
    assert cat.text == "A kitten naps."


def test_a_project_search_finds_by_vector_only_in_its_sources(
    knowledge: Knowledge, docs: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "pets.txt").write_text("A kitten and a cat.", encoding="utf-8")
    knowledge.update(knowledge.add(docs).id)
    knowledge.update(knowledge.add(other, project="P1").id)
    assert named(knowledge.search("feline", project="P1")) == ["pets.txt"]
    assert named(knowledge.search("feline", limit=5)) == ["pets.txt", "cat.txt"]


def test_an_index_of_schema_1_gets_the_vectors_table(data_dir: DataDir, docs: Path) -> None:
    words_only = Knowledge(data_dir)
    words_only.update(words_only.add(docs).id)
    words_only.close()
    conn = sqlite3.connect(data_dir.root / KNOWLEDGE_DB)  # back to what version 1 made
    conn.execute(f"DROP TABLE {vectors.VECTORS}")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    with serve(WireServer()) as server:
        knowledge = Knowledge(data_dir, make_embedder(server))
        try:
            assert knowledge.search("pressure")  # migrated on open; the words still there
            version = knowledge.index.conn.execute("PRAGMA user_version").fetchone()[0]
            assert version == SCHEMA_VERSION == 2
            assert knowledge.update().vectors == 5
        finally:
            knowledge.close()


def test_the_matrix_is_loaded_once_and_again_after_a_change(
    knowledge: Knowledge, docs: Path
) -> None:
    knowledge.update(knowledge.add(docs).id)
    knowledge.search("feline")
    first = knowledge.matrix("lab:fake-embed")
    assert knowledge.matrix("lab:fake-embed") is first and len(first) == 5
    (docs / "dog.txt").write_text("A dog barks.", encoding="utf-8")
    knowledge.update()
    assert len(knowledge.matrix("lab:fake-embed")) == 6


def test_a_few_changes_refresh_the_matrix_in_place(knowledge: Knowledge, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(20):
        (folder / f"note{n:02}.txt").write_text(f"note {n} about recipe{n}", encoding="utf-8")
    source = knowledge.add(folder)
    knowledge.update(source.id)
    first = knowledge.matrix("lab:fake-embed")
    assert len(first) == 20 and first.extra is None
    (folder / "note03.txt").write_text("a kitten instead", encoding="utf-8")
    (folder / "note04.txt").unlink()
    (folder / "new.txt").write_text("a vehicle", encoding="utf-8")
    knowledge.update(source.id)
    again = knowledge.matrix("lab:fake-embed")
    assert again is first and first.extra is not None  # refreshed, not loaded again
    assert len(again) == 20 and int((~first.alive).sum()) == 2 and len(first.extra.ids) == 2
    assert named(knowledge.search("feline")) == ["note03.txt"]
    assert named(knowledge.search("automobile")) == ["new.txt"]
    assert knowledge.search("recipe3") == [] and knowledge.search("recipe4") == []
    near = [chunk for chunk, _ in again.nearest(embedding("note about recipe4"), 30)]
    rows = knowledge.index.chunks(near)
    assert {Path(rows[c].path).name for c in near} == {f"note{n:02}.txt" for n in range(20)} - {
        "note03.txt", "note04.txt"
    }  # fmt: skip
    # many changes: loaded again, whole
    for n in range(5, 15):
        (folder / f"note{n:02}.txt").unlink()
    knowledge.update(source.id)
    reloaded = knowledge.matrix("lab:fake-embed")
    assert reloaded is not first and len(reloaded) == 10 and reloaded.extra is None


def test_reciprocal_rank_fusion() -> None:
    assert fused([["a", "b"], ["b", "c"]]) == [
        ("b", pytest.approx(1 / 62 + 1 / 61)), ("a", 1 / 61), ("c", 1 / 62)
    ]  # fmt: skip
    assert fused([["x"], ["y"]]) == [("x", 1 / 61), ("y", 1 / 61)]  # ties: the first ranking's
    assert fused([[], []]) == []


def test_nearest_is_by_cosine_in_the_sources_asked() -> None:
    rows = [embedding("car tire"), embedding("cat"), embedding("car")]
    blobs = [vectors.unit(v) for v in rows]
    assert all(blobs)
    import numpy as np

    matrix = vectors.Matrix(
        "m", np.array([10, 11, 12]), np.array([1, 1, 2]),
        np.vstack([np.frombuffer(b or b"", dtype="<f4") for b in blobs]),
    )  # fmt: skip
    assert [c for c, _ in matrix.nearest(embedding("car"), 5)] == [12, 10]  # not the cat
    assert [c for c, _ in matrix.nearest(embedding("car"), 5, [1])] == [10]
    assert matrix.nearest([1.0, 2.0], 5) == []  # another length
    assert vectors.unit([0.0, 0.0]) is None
