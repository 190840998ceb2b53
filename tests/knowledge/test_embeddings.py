"""Embeddings through the real SDKs (openai, google-genai) against a server on 127.0.0.1: the
bodies they send (model, input, batches), the vectors and tokens read back, the key and the
base URL as the chat adapters get them, failures through the one failure map, and the models
that cannot embed refused with what to do."""

from __future__ import annotations

import pytest

from app.errors import AuthFailed, RateLimited, UnknownModel
from app.keys import Keys
from app.knowledge.index import KnowledgeError
from app.providers.embeddings import (
    DIMENSIONS,
    GEMINI_BATCH,
    OPENAI_BATCH,
    GeminiEmbedder,
    OpenAIEmbedder,
    embedder_for,
)
from app.settings import Settings
from tests.helpers.wire_server import Reply, WireServer
from tests.knowledge.embedding_wire import embedding, keys, serve, settings


def test_no_embedding_model_means_words_only() -> None:
    assert embedder_for(Settings(), keys(), {}) is None


def test_an_openai_compatible_server_embeds_in_batches_with_no_key() -> None:
    with serve(WireServer()) as server:
        embedder = embedder_for(settings(server), keys(), {})
        assert isinstance(embedder, OpenAIEmbedder)
        assert embedder.model == "lab:fake-embed"
        assert server.requests == []  # nothing asked before the first embed
        texts = [f"text number {i}" for i in range(OPENAI_BATCH + 5)]
        vectors = embedder.embed(texts)
        embedder.close()
    assert len(vectors) == len(texts)
    assert vectors[3] == pytest.approx(embedding("text number 3"))
    first, second = server.requests
    assert (first.method, first.path) == ("POST", "/v1/embeddings")
    # the SDK's own body: the model as the provider names it, the texts as a list, base64
    assert first.json == {"model": "fake-embed", "input": texts[:OPENAI_BATCH],
                          "encoding_format": "base64"}  # fmt: skip
    assert second.json["input"] == texts[OPENAI_BATCH:]
    assert first.headers["authorization"] == "Bearer not-needed"
    assert embedder.tokens == 3 * len(texts) and embedder.requests == 2


def test_openai_uses_its_key_and_the_environment_base_url() -> None:
    with serve(WireServer()) as server:
        given = settings(server, "openai:text-embedding-3-small")
        environ = {"OPENAI_BASE_URL": f"{server.url}/v1"}
        embedder = embedder_for(given, keys(), environ)
        assert embedder is not None
        with pytest.raises(AuthFailed) as missing:
            embedder.embed(["a"])  # no OPENAI_API_KEY in the test's keys
        assert "crosstalk key set openai" in str(missing.value)
        embedder = embedder_for(given, Keys({"OPENAI_API_KEY": "sk-env"}), environ)
        assert embedder is not None
        assert embedder.embed(["a car"]) == [pytest.approx(embedding("a car"))]
        embedder.close()
    [sent] = server.requests
    assert sent.headers["authorization"] == "Bearer sk-env"
    assert sent.json["model"] == "text-embedding-3-small"
    assert sent.json["dimensions"] == DIMENSIONS  # asked shorter (an OpenAI-compatible: not)


def test_floats_from_a_server_that_ignores_base64_are_read_too() -> None:
    with WireServer() as server:
        data = [{"object": "embedding", "index": 1, "embedding": [0.0, 1.0]},
                {"object": "embedding", "index": 0, "embedding": [1.0, 0.0]}]  # fmt: skip
        server.enqueue(Reply(body={"object": "list", "model": "m", "data": data}))
        embedder = embedder_for(settings(server), keys(), {})
        assert embedder is not None
        assert embedder.embed(["x", "y"]) == [[1.0, 0.0], [0.0, 1.0]]  # by index
        assert embedder.tokens == 0  # no usage reported
        embedder.close()


def test_gemini_embeds_through_batch_embed_contents() -> None:
    with serve(WireServer()) as server:
        embedder = embedder_for(settings(server, "gm:gemini-embedding-001"), keys(), {})
        assert isinstance(embedder, GeminiEmbedder)
        texts = [f"passage {i} about cats" for i in range(GEMINI_BATCH + 1)]
        vectors = embedder.embed(texts)
        assert embedder.embed_query("kitten") == pytest.approx(embedding("kitten"))
        embedder.close()
    assert vectors[-1] == pytest.approx(embedding(texts[-1]))
    first, second, _ = server.requests
    assert first.path == "/v1/models/gemini-embedding-001:batchEmbedContents"
    assert first.headers["x-goog-api-key"] == "test-gm"
    assert len(first.json["requests"]) == GEMINI_BATCH and len(second.json["requests"]) == 1
    third = server.requests[2]  # a search's query, told as one
    assert [r["taskType"] for r in third.json["requests"]] == ["RETRIEVAL_QUERY"]
    assert first.json["requests"][0] == {
        "model": "models/gemini-embedding-001",
        "content": {"parts": [{"text": "passage 0 about cats"}], "role": "user"},
        "taskType": "RETRIEVAL_DOCUMENT",
        "outputDimensionality": DIMENSIONS,
    }


def test_failures_go_through_the_failure_map() -> None:
    with WireServer() as server:
        said = {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}
        error = {"error": said}
        server.enqueue(Reply(429, headers={"retry-after": "7"}, body=error))
        server.enqueue(Reply(404, body={"error": {"message": "no such model", "code": None}}))
        embedder = embedder_for(settings(server), keys(), {}, max_retries=0)
        assert embedder is not None
        with pytest.raises(RateLimited) as limited:
            embedder.embed(["a"])
        assert limited.value.retry_after == 7
        with pytest.raises(UnknownModel) as unknown:
            embedder.embed(["a"])
        assert "fake-embed" in str(unknown.value)
        gemini = embedder_for(settings(server, "gm:nope"), keys(), {}, max_retries=0)
        assert gemini is not None
        denied = {"error": {"code": 400, "message": "API key not valid. Please pass a valid "
                            "API key.", "status": "INVALID_ARGUMENT",
                            "details": [{"reason": "API_KEY_INVALID"}]}}  # fmt: skip
        server.enqueue(Reply(400, body=denied))
        with pytest.raises(AuthFailed) as rejected:
            gemini.embed(["a"])
        assert "test-gm" not in str(rejected.value)
        embedder.close()
        gemini.close()


@pytest.mark.parametrize(
    ("model", "cause", "words"),
    [
        ("claude:claude-sonnet-5-5", "no_embeddings", "claude has no embedding models"),
        ("anthropic:whatever", "no_embeddings", "pick an embedding model of another provider"),
        ("local:smollm2", "embedding_provider", "there is no provider 'local'"),
        ("nomodel", "embedding_provider", 'set it to "provider:model"'),
        ("lab:", "embedding_provider", "there is no provider 'lab:'"),
    ],
)
def test_models_that_cannot_embed_say_what_to_pick(model: str, cause: str, words: str) -> None:
    with WireServer() as server, pytest.raises(KnowledgeError) as refused:
        embedder_for(settings(server, model), keys(), {})
    assert refused.value.cause == cause
    said = str(refused.value)
    assert words in said and "lab" in said and "remove it to search by words only" in said
