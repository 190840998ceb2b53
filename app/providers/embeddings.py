"""Embeddings from the user's provider, for the knowledge base's vector search
(docs/knowledge.md, "Vectors"): ``embedder_for(settings, keys, environ)`` makes the embedder
``Settings.embedding_model`` names, or None (words only).

OpenAI and every OpenAI-compatible server (``client.embeddings.create``: POST ``/embeddings``,
a local embedding model too) and Gemini (``client.models.embed_content`` of google-genai:
``:batchEmbedContents``). Anthropic has no embedding models: asking for one says to pick
another. The SDKs are imported on the first ``embed``, never before, and their clients are the
synchronous ones: ``embed`` runs on the worker thread that updates the index or searches it.
Texts go in batches (``batch`` per request); the tokens a provider reports are counted
(``tokens``); failures go through the one failure map (``failures.provider_error``). The key is
looked up at the first request, as a chat adapter's is at its first use, and the base URL comes
from the provider's settings or the environment (``composition.adapter`` reads them alike).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from app.keys import BASE_URL_ENVIRONMENT, KIND_FAMILY
from app.knowledge.index import KnowledgeError
from app.providers.failures import Where, provider_error

if TYPE_CHECKING:
    from app.keys import Keys

OPENAI_URL = "https://api.openai.com/v1"
GEMINI_URL = "https://generativelanguage.googleapis.com"
# texts per request: OpenAI takes up to 2,048 inputs (and 300k tokens) a request, Gemini's
# batchEmbedContents 100; a chunk is about 1,200 characters (app/knowledge/chunks.py)
OPENAI_BATCH = 128
GEMINI_BATCH = 100
# characters of a text sent, at most: OpenAI refuses an input over 8,192 tokens (a character
# is at most about a token, in any script); Gemini cuts what is over its limit itself
MAX_CHARS = 8_000
EMBEDDING_KINDS = ("openai", "openai-compatible", "openai-responses", "gemini")
# the length asked of the models that can shorten their vectors (OpenAI's text-embedding-3
# models, 1,536 and 3,072 long; Google's gemini-embedding, 3,072): every chunk's vector is
# in memory for a search, and at 768 the matrix of 100,000 chunks is 307 MB, not 614 or 1,229
# (docs/knowledge.md, "Vectors"). A server of another kind is asked for its own length.
DIMENSIONS = 768


class ProviderConfig(Protocol):
    """What of ``app.settings.ProviderConfig`` an embedder needs (``app.settings`` is not
    imported here: it imports the context package, which imports the providers)."""

    @property
    def kind(self) -> str: ...
    @property
    def base_url(self) -> str | None: ...
    @property
    def key_required(self) -> bool: ...


class Settings(Protocol):
    """What of ``app.settings.Settings`` ``embedder_for`` reads."""

    @property
    def embedding_model(self) -> str | None: ...
    def all_providers(self) -> Mapping[str, ProviderConfig]: ...


class ProviderEmbedder:
    """What both kinds share: the model's name, the key looked up once, the batches, the
    count of tokens. Thread-safe: the client is made once, under a lock."""

    default_url = ""

    def __init__(
        self,
        provider: str,
        model: str,
        kind: str,
        base_url: str | None,
        keys: Keys,
        *,
        key_required: bool = True,
        batch: int = 64,
        timeout: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        self.provider = provider
        self.name = model  # as the provider calls it
        self.kind = kind
        self.base_url = (base_url or self.default_url).rstrip("/")
        self.batch = batch
        self.timeout = timeout
        self.max_retries = max_retries
        self.tokens = 0  # reported by the provider, over every request
        self.requests = 0
        self._keys = keys
        self._key_required = key_required
        self._key: str | None = None
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return f"{self.provider}:{self.name}"

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}({self.model!r}, {self.base_url!r})"

    def embed(self, texts: list[str], *, query: bool = False) -> list[list[float]]:
        """One vector per text, in order: ``batch`` texts per request. A ``ProviderError``
        (through the failure map) if a request fails; what came before it is lost.
        ``query``: the texts are search queries, not passages (a model that is told which,
        Gemini's, embeds each for its part)."""
        if not texts:
            return []
        vectors: list[list[float]] = []
        client = self._ready()
        for start in range(0, len(texts), self.batch):
            part = [(text or " ")[:MAX_CHARS] for text in texts[start : start + self.batch]]
            try:
                got, tokens = self._request(client, part, query)
            except Exception as exc:
                where = Where(self.provider, self.name, self.base_url, self._key or "",
                              self.timeout)  # fmt: skip
                raise provider_error(exc, where, started=False) from exc
            if len(got) != len(part):
                where = Where(self.provider, self.name, self.base_url, self._key or "")
                said = f"{len(got)} embeddings for {len(part)} texts"
                raise provider_error(ValueError(said), where, started=False)
            with self._lock:
                self.tokens += tokens
                self.requests += 1
            vectors.extend(got)
        return vectors

    def _ready(self) -> Any:
        with self._lock:
            if self._client is None:
                found = self._keys.lookup(self.provider, self.kind)
                if found is None and self._key_required:
                    raise self._keys.missing(self.provider, self.kind)
                self._key = found.value if found is not None else "not-needed"
                self._client = self._make(self._key)
            return self._client

    def close(self) -> None:
        """Close the SDK's client and its connections (a later ``embed`` makes another)."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            self._close(client)

    def _make(self, key: str) -> Any:
        raise NotImplementedError

    def _close(self, client: Any) -> None:
        raise NotImplementedError

    def embed_query(self, text: str) -> list[float]:
        """A search query's vector (``Knowledge.search`` asks this way when it can)."""
        return self.embed([text], query=True)[0]

    def _request(self, client: Any, texts: list[str], query: bool) -> tuple[list[list[float]], int]:
        """(the vectors, the tokens the provider reported for them, 0 if none)"""
        raise NotImplementedError


class OpenAIEmbedder(ProviderEmbedder):
    """OpenAI's ``/embeddings``, and any server that speaks it. The SDK asks for base64 and
    reads floats too (a local server may answer either)."""

    default_url = OPENAI_URL

    def _make(self, key: str) -> Any:
        from app.private_apis import skip_openai_aiohttp

        skip_openai_aiohttp()
        from openai import OpenAI

        return OpenAI(api_key=key, base_url=self.base_url, max_retries=self.max_retries,
                      timeout=self.timeout)  # fmt: skip

    def _close(self, client: Any) -> None:
        client.close()

    def _request(self, client: Any, texts: list[str], query: bool) -> tuple[list[list[float]], int]:
        shorter = self.kind != "openai-compatible" and self.name.startswith("text-embedding-3")
        extra = {"dimensions": DIMENSIONS} if shorter else {}
        response = client.embeddings.create(model=self.name, input=texts, **extra)
        data = sorted(response.data, key=lambda item: item.index)
        usage = getattr(response, "usage", None)
        tokens = getattr(usage, "total_tokens", None) or getattr(usage, "prompt_tokens", 0)
        return [list(item.embedding) for item in data], int(tokens or 0)


class GeminiEmbedder(ProviderEmbedder):
    """Gemini's ``batchEmbedContents`` through google-genai (its synchronous client, on
    httpx2 as the chat adapter's: the one failure map knows its errors)."""

    default_url = GEMINI_URL

    def _make(self, key: str) -> Any:
        import httpx2
        from google import genai
        from google.genai import types

        from app.providers.gemini import RETRIED_STATUSES

        retry = types.HttpRetryOptions(
            attempts=self.max_retries + 1, initial_delay=0.5, max_delay=8.0, jitter=0.5,
            http_status_codes=RETRIED_STATUSES,
        )  # fmt: skip
        # always httpx2, whose errors the one failure map knows (the chat adapter does the same)
        http = httpx2.Client()
        options = types.HttpOptions(
            base_url=self.base_url, timeout=round(self.timeout * 1000), retry_options=retry,
            httpx_client=http,
        )  # fmt: skip
        client = genai.Client(vertexai=False, api_key=key, http_options=options)
        return client, http

    def _close(self, client: Any) -> None:
        sdk, http = client
        sdk.close()
        http.close()  # given to the SDK, which leaves it open

    def _request(self, client: Any, texts: list[str], query: bool) -> tuple[list[list[float]], int]:
        from google.genai import types

        task = "RETRIEVAL_QUERY" if query else "RETRIEVAL_DOCUMENT"
        shorter = self.name.startswith("gemini-embedding")
        config = types.EmbedContentConfig(
            task_type=task, output_dimensionality=DIMENSIONS if shorter else None
        )
        response = client[0].models.embed_content(model=self.name, contents=texts, config=config)
        vectors = [list(e.values or ()) for e in response.embeddings or ()]
        usage = getattr(response, "usage_metadata", None)
        return vectors, int(getattr(usage, "prompt_token_count", None) or 0)


def embedder_for(
    settings: Settings,
    keys: Keys,
    environ: Mapping[str, str],
    *,
    timeout: float = 60.0,
    max_retries: int = 2,
) -> ProviderEmbedder | None:
    """The embedder of ``settings.embedding_model`` ("provider:model"), None if it is unset
    (the knowledge base searches by words only). Nothing is imported or asked (SDK, key)
    until its first ``embed``. ``KnowledgeError`` for a model that cannot embed: not
    "provider:model" of a provider configured (the built-in model is none), or of one
    without embeddings (Anthropic)."""
    spec = settings.embedding_model
    if not spec:
        return None
    name, _, model = spec.partition(":")
    providers = settings.all_providers()
    able = [n for n, c in providers.items() if c.kind in EMBEDDING_KINDS]
    choices = ", ".join(able) or "none"
    config = providers.get(name)
    if config is None or not model:  # "lab:" names no model: nor is it a provider
        named = name if config is None else spec
        raise KnowledgeError(
            cause="embedding_provider", model=spec, provider=named, choices=choices
        )
    if config.kind not in EMBEDDING_KINDS:
        raise KnowledgeError(cause="no_embeddings", model=spec, provider=name, choices=choices)
    return _made(name, model, config, keys, environ, timeout, max_retries)


def _made(
    name: str,
    model: str,
    config: ProviderConfig,
    keys: Keys,
    environ: Mapping[str, str],
    timeout: float,
    max_retries: int,
) -> ProviderEmbedder:
    family = KIND_FAMILY.get(config.kind, name)
    base_url = config.base_url or environ.get(BASE_URL_ENVIRONMENT.get(family, "")) or None
    made = GeminiEmbedder if config.kind == "gemini" else OpenAIEmbedder
    batch = GEMINI_BATCH if config.kind == "gemini" else OPENAI_BATCH
    return made(name, model, config.kind, base_url, keys, key_required=config.key_required,
                batch=batch, timeout=timeout, max_retries=max_retries)  # fmt: skip


def embedding_providers(settings: Settings) -> Sequence[str]:
    """The configured providers whose models can embed, for a choice to offer."""
    return [n for n, c in settings.all_providers().items() if c.kind in EMBEDDING_KINDS]
