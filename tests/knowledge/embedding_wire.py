"""An embeddings server for the real SDKs: ``tests.helpers.wire_server.WireServer`` answering
OpenAI's ``/embeddings`` and Gemini's ``:batchEmbedContents`` with a deterministic embedding
made on the server's side (the client's path, SDK and all, is the real one).

``embedding(text)``: a bag of hashed words in ``DIMS`` dimensions, with a few words standing
for one meaning (``MEANINGS``), so that a text can be near a query it shares no word with:
"automobile" is near a passage about a "car". Unlike the lexical index it knows no prefixes
or plurals: "cars" is as far from "car" as any other word.
"""

from __future__ import annotations

import base64
import re
import zlib
from typing import Any

import numpy as np

from app.keys import Keys
from app.settings import ProviderConfig, Settings
from tests.helpers.wire_server import Recorded, Reply, WireServer

DIMS = 256
MEANINGS = {
    "automobile": "car", "vehicle": "car",
    "feline": "cat", "kitten": "cat",
    "physician": "doctor", "medic": "doctor",
}  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+")


def embedding(text: str) -> list[float]:
    v = np.zeros(DIMS, dtype=np.float32)
    for word in _WORD.findall(text.casefold()):
        v[zlib.crc32(MEANINGS.get(word, word).encode()) % DIMS] += 1.0
    return [float(x) for x in v]


def openai_reply(request: Recorded) -> Reply:
    """As OpenAI answers: base64 float32 when asked for it (the SDK asks), floats otherwise."""
    body: dict[str, Any] = request.json
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    data = []
    for i, text in enumerate(texts):
        v = embedding(text)
        coded: Any = v
        if body.get("encoding_format") == "base64":
            coded = base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode()
        data.append({"object": "embedding", "index": i, "embedding": coded})
    tokens = sum(len(t.split()) for t in texts)
    return Reply(body={"object": "list", "model": body["model"], "data": data,
                       "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})  # fmt: skip


def gemini_reply(request: Recorded) -> Reply:
    asked = request.json["requests"]
    texts = [" ".join(p["text"] for p in r["content"]["parts"]) for r in asked]
    return Reply(body={"embeddings": [{"values": embedding(t)} for t in texts]})


def serve(server: WireServer) -> WireServer:
    server.respond("/embeddings", openai_reply)
    server.respond(":batchEmbedContents", gemini_reply)
    return server


def settings(server: WireServer, model: str = "lab:fake-embed", **fields: Any) -> Settings:
    """Providers at the server: ``lab`` (an OpenAI-compatible server, no key), ``oa`` (kind
    openai), ``gm`` (gemini), ``claude`` (anthropic)."""
    providers = {
        "lab": ProviderConfig(kind="openai-compatible", base_url=f"{server.url}/v1"),
        "oa": ProviderConfig(kind="openai", base_url=f"{server.url}/v1"),
        "gm": ProviderConfig(kind="gemini", base_url=server.url),
        "claude": ProviderConfig(kind="anthropic", base_url=server.url),
    }
    return Settings(embedding_model=model, providers=providers, **fields)


def keys() -> Keys:
    """Keys from an environment of test keys only (the keyring is never asked)."""
    return Keys({"OA_API_KEY": "sk-test-oa", "GM_API_KEY": "test-gm"}, environment_first=True)
