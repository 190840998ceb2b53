"""A synthetic ChatGPT data export (``conversations.json``) as large as asked, written as it is
made (never held whole): conversations shaped as ChatGPT writes them (a message tree in
``mapping`` with its metadata, hidden system messages, regenerated answers as branches, tool
calls and their results, reasoning, code, a project's conversations), with text in English,
accented Latin, CJK and code, long pasted texts now and then, and a few very large
conversations. Deterministic for a seed. Used by bench/import_scale.py and
tests/transfer/test_import_scale.py.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

START = 1_700_000_000.0
MODELS = ("gpt-4o", "gpt-4o-mini", "o3", "gpt-4-1", "gpt-5")
WORDS = (  # noqa: SIM905 (word lists read as text)
    "the of and to in is that for it as was with be by on not this are or from at which but "
    "have an they you were her she there one all we their has would when if so will more can "
    "model data function value error file system server request response query index table "
    "column memory thread process network cache config option version release build test "
    "package module class method object string number list array map key type return result "
    "weather city country river mountain travel train station airport hotel museum coffee"
).split()
LATIN = "café crème déjà naïve façade élève très français niño mañana straße größe über".split()  # noqa: SIM905
CJK = "東京 天気 会議 資料 データベース 移行 計画 数据库 迁移 服务器 问题 한국어 텍스트".split()  # noqa: SIM905
CODE = (
    "```python\ndef {f}(args):\n    result = {g}(args.{v})\n    return result\n```\n",
    "```js\nconst {f} = async ({v}) => await {g}({v});\n```\n",
    "```sql\nSELECT {v} FROM {f} WHERE {g} > 0;\n```\n",
)
PROJECTS = 20  # a user's ChatGPT projects, which a twentieth of the conversations are in
NAMES = "parse load build render fetch update index query merge split".split()  # noqa: SIM905


class Texts:
    """Paragraphs made once and drawn at random: making each message's words anew would make
    generating a gigabyte take longer than importing it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.paragraphs = [self._paragraph() for _ in range(3000)]

    def _paragraph(self) -> str:
        rng = self.rng
        kind = rng.random()
        if kind < 0.12:
            return "".join(rng.choices(CJK, k=rng.randint(10, 60))) + "。"
        if kind < 0.22:
            code = rng.choice(CODE)
            return code.format(f=rng.choice(NAMES), g=rng.choice(NAMES), v=rng.choice(NAMES))
        words = rng.choices(WORDS, k=rng.randint(20, 120))
        if kind < 0.32:
            words += rng.choices(LATIN, k=10)
            rng.shuffle(words)
        return " ".join(words).capitalize() + "."

    def text(self, paragraphs: int) -> str:
        unique = f"[{self.rng.getrandbits(48):x}]"  # no two messages alike
        return "\n\n".join([unique, *self.rng.choices(self.paragraphs, k=paragraphs)])


def _message(
    rng: random.Random, role: str, text: str | None, when: float, model: str, **more: Any
) -> dict[str, Any]:
    content: dict[str, Any] = {"content_type": "text", "parts": [text or ""]}
    if "content" in more:
        content = more.pop("content")
    return {
        "id": str(uuid.UUID(int=rng.getrandbits(128))),
        "author": {"role": role, "name": more.pop("name", None), "metadata": {}},
        "create_time": when,
        "update_time": None,
        "content": content,
        "status": "finished_successfully",
        "end_turn": role == "assistant" or None,
        "weight": 1.0,
        "metadata": {
            "citations": [],
            "content_references": [],
            "gizmo_id": None,
            "message_type": "next",
            "model_slug": model if role == "assistant" else None,
            "default_model_slug": model,
            "request_id": f"{rng.getrandbits(64):016x}",
            "timestamp_": "absolute",
            "is_visually_hidden_from_conversation": role == "system",
            **more.pop("metadata", {}),
        },
        "recipient": more.pop("recipient", "all"),
        "channel": None,
    }


def conversation(rng: random.Random, texts: Texts, n: int, size: int) -> dict[str, Any]:
    """One conversation of about ``size`` paragraphs over its messages."""
    model = rng.choice(MODELS)
    when = START + n * 600.0
    mapping: dict[str, Any] = {}
    root = str(uuid.UUID(int=rng.getrandbits(128)))
    mapping[root] = {"id": root, "message": None, "parent": None, "children": []}

    def add(parent: str, message: dict[str, Any]) -> str:
        key = message["id"]
        mapping[key] = {"id": key, "message": message, "parent": parent, "children": []}
        mapping[parent]["children"].append(key)
        return key

    last = add(root, _message(rng, "system", "", when, model))
    left = size
    turn = 0
    while left > 0:
        turn += 1
        when += rng.uniform(20, 600)
        asked = rng.randint(1, 3) if rng.random() > 0.05 else rng.randint(20, 60)  # a paste
        question = add(last, _message(rng, "user", texts.text(asked), when, model))
        last = question
        if rng.random() < 0.1:  # a search and its result
            call = _message(rng, "assistant", '{"query": "weather"}', when + 1, model,
                            recipient="browser.search")  # fmt: skip
            last = add(last, call)
            result = _message(rng, "tool", texts.text(2), when + 2, model, name="browser")
            last = add(last, result)
        if model == "o3" and rng.random() < 0.5:
            thoughts = {
                "content_type": "thoughts",
                "thoughts": [{"summary": "Thinking", "content": texts.text(1)}],
                "source_analysis_msg_id": "",
            }
            last = add(last, _message(rng, "assistant", None, when + 3, model, content=thoughts))
        answered = rng.randint(2, 8)
        answer = _message(rng, "assistant", texts.text(answered), when + 5, model,
                          metadata={"finish_details": {"type": "stop"}})  # fmt: skip
        if rng.random() < 0.08:  # regenerated: the first answer becomes a branch
            add(last, _message(rng, "assistant", texts.text(2), when + 4, model))
        last = add(last, answer)
        left -= asked + answered
    project = f"g-p-{rng.randrange(PROJECTS):032x}" if rng.random() < 0.05 else None
    conversation_id = str(uuid.UUID(int=rng.getrandbits(128)))
    return {
        "title": " ".join(rng.choices(WORDS, k=4)).capitalize(),
        "create_time": START + n * 600.0,
        "update_time": when,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": last,
        "plugin_ids": None,
        "conversation_id": conversation_id,
        "conversation_template_id": project,
        "gizmo_id": project,
        "gizmo_type": "snorlax" if project else None,
        "is_archived": False,
        "is_starred": None,
        "safe_urls": [],
        "blocked_urls": [],
        "default_model_slug": model,
        "conversation_origin": None,
        "voice": None,
        "async_status": None,
        "disabled_tool_ids": [],
        "is_do_not_remember": False,
        "memory_scope": "global_enabled",
        "id": conversation_id,
    }


def conversations(count: int, seed: int = 7, huge_every: int = 2500) -> Iterator[dict[str, Any]]:
    """``count`` conversations of about 100 KB each on average, one in ``huge_every`` some
    megabytes (a long project chat)."""
    rng = random.Random(seed)
    texts = Texts(rng)
    for n in range(count):
        huge = huge_every and n % huge_every == huge_every // 2
        size = rng.randint(400, 600) if huge else int(rng.lognormvariate(4.75, 0.8)) + 4
        yield conversation(rng, texts, n, size * (10 if huge else 1))


def write(path: Path, count: int, seed: int = 7, huge_every: int = 2500) -> int:
    """Write an export of ``count`` conversations to ``path``; its size in bytes."""
    with path.open("w", encoding="utf-8") as f:
        f.write("[")
        for n, made in enumerate(conversations(count, seed, huge_every)):
            f.write(",\n" if n else "\n")
            f.write(json.dumps(made, ensure_ascii=False))
        f.write("\n]\n")
    return path.stat().st_size
