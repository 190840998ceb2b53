"""Compression through the real OpenAI SDK against a scripted server, then what the next recorded
request carries; and ``crosstalk context`` / ``crosstalk compress`` as a person runs them."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.composition import build_models
from app.context import Contexts, compress, parse_strategy
from app.keys import Keys
from app.paths import DataDir
from app.settings import ProviderConfig, Settings
from app.store import Conversation, Library
from tests.context.helpers import conversation_with_preamble, grow
from tests.helpers import openai_events as oe
from tests.helpers.cross_provider import check_openai
from tests.helpers.turns import runner
from tests.helpers.wire_server import Reply, WireServer

REPO = Path(__file__).resolve().parents[2]
KEY = {"OPENAI_API_KEY": "sk-test-0123456789"}
SPEC = "openai:gpt-4.1"


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


def settings_for(server: WireServer) -> Settings:
    config = ProviderConfig(kind="openai", base_url=f"{server.url}/v1", models=["gpt-4.1"])
    return Settings(title_model=SPEC, providers={"openai": config})


def long_conversation(library: Library) -> Conversation:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 8, words=30, tools_every=3)
    return conversation


def test_a_compression_by_openai_is_what_the_next_openai_request_carries(
    server: WireServer, library: Library
) -> None:
    conversation = long_conversation(library)
    version = conversation.history.version
    server.enqueue(Reply(chunks=oe.chat_reply("Lighthouse: ", "eight questions, noon twice.")))
    server.enqueue(Reply(chunks=oe.chat_reply("Sure.")))
    server.enqueue(Reply(chunks=oe.chat_reply("Lighthouse")))  # the title
    models = build_models(settings_for(server), Keys(KEY), KEY)

    async def go() -> None:
        try:
            provider, model = models.resolve(SPEC)
            await compress(library, conversation, provider, model, parse_strategy("whole"))
            await runner(library, models, contexts=Contexts()).run(conversation, SPEC, "And now?")
        finally:
            await models.aclose()

    asyncio.run(go())
    summarise, answer, _ = (request.json for request in server.requests)
    assert (
        summarise["messages"][0]["role"] == "system"
        and "TL;DR" in summarise["messages"][0]["content"]
    )
    assert "Result of current_time: noon" in summarise["messages"][1]["content"]
    check_openai(answer)
    messages = answer["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "user", "user"]
    assert messages[0]["content"] == "Be brief.\n\nThe user likes tea."
    assert messages[1]["content"] == "My project is called Lighthouse."
    assert messages[2]["content"] == (
        f"[Summary of earlier in this conversation (entries 4-{version})]\n"
        "Lighthouse: eight questions, noon twice."
    )
    assert messages[3]["content"] == "And now?"
    assert "tool_calls" not in json.dumps(answer)  # the whole tool round went into the summary


# --- the command line ---------------------------------------------------------------------------


def crosstalk(
    env: dict[str, str], *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True,
                            text=True, env=env, cwd=REPO, timeout=60)  # fmt: skip
    if check and result.returncode != 0:
        raise AssertionError(f"crosstalk {args} exited {result.returncode}: {result.stderr}")
    return result


def test_context_and_compress_on_the_command_line(server: WireServer, data_dir: DataDir) -> None:
    library = Library(data_dir)
    conversation_id = long_conversation(library).id
    library.close()
    data_dir.settings_file.write_text(
        f'[providers.openai]\nkind = "openai"\nbase_url = "{server.url}/v1"\nmodels = ["gpt-4.1"]\n'
    )
    env = {**os.environ, **KEY}

    shown = json.loads(crosstalk(env, "context", conversation_id, "-m", SPEC, "--json").stdout)
    assert shown["counting"]["encoding"] == "o200k_base"
    assert shown["counting"]["estimate"] is False  # OpenAI's own tokenizer, offline
    assert shown["window"] == 1_047_576 and shown["omitted"] == []
    assert [row["kind"] for row in shown["carried"][:3]] == [
        "system_instruction", "memory_notebook", "model_input"]  # fmt: skip
    assert all(row["tokens"] > 0 for row in shown["carried"])
    before = shown["tokens"]

    server.enqueue(Reply(status=401, body=oe.api_error("Incorrect API key provided")))
    failed = crosstalk(env, "compress", conversation_id, "--strategy", "whole", "-m", SPEC,
                       check=False)  # fmt: skip
    assert failed.returncode == 1  # the provider failed: nothing appended, and it says why
    assert (
        failed.stderr.strip()
        .splitlines()[-1]
        .startswith(f"crosstalk: the summary from {SPEC} failed:")
    )
    server.enqueue(Reply(chunks=oe.chat_reply("Cut off here. About to be", finish="length")))
    cut = crosstalk(env, "compress", conversation_id, "--strategy", "whole", "-m", SPEC,
                    "--preview")  # fmt: skip
    assert "Cut off here.\n" in cut.stdout and "About to be" not in cut.stdout  # whole sentences
    server.enqueue(Reply(chunks=oe.chat_reply("A preview only.")))
    preview = crosstalk(env, "compress", conversation_id, "--strategy", "whole", "-m", SPEC,
                        "--preview")  # fmt: skip
    assert "A preview only." in preview.stdout and "nothing was appended" in preview.stdout

    server.enqueue(Reply(chunks=oe.chat_reply("[project] Lighthouse")))
    done = crosstalk(env, "compress", conversation_id, "--strategy", "facts:project", "-m", SPEC)
    assert "appended compression seq" in done.stdout
    table = crosstalk(env, "context", conversation_id, "-m", SPEC).stdout
    assert "summary" in table and "[project] Lighthouse" in table
    assert "left out:" in table and "covered by compression seq" in table
    after = json.loads(crosstalk(env, "context", conversation_id, "-m", SPEC, "--json").stdout)
    assert after["tokens"] < before
    seq = next(row["seq"] for row in after["carried"] if row["kind"] == "summary")
    exact = crosstalk(env, "context", conversation_id, "-m", SPEC, "--exact").stdout
    assert "no exact count: openai has no token-counting endpoint" in exact  # Chat Completions

    crosstalk(env, "compress", conversation_id, "--undo", str(seq))
    undone = json.loads(crosstalk(env, "context", conversation_id, "-m", SPEC, "--json").stdout)
    assert undone["tokens"] == before

    crosstalk(env, "context", conversation_id, "--set", "auto_compress=on", "--set",
              "compress_strategy=whole")  # fmt: skip
    crosstalk(env, "reindex")
    policy = json.loads(crosstalk(env, "context", conversation_id, "--json").stdout)["policy"]
    assert policy["auto_compress"] is True and policy["compress_strategy"] == "whole"
    bad = crosstalk(env, "context", conversation_id, "--set", "compress_threshold=2", check=False)
    assert bad.returncode == 1 and "compress_threshold" in bad.stderr
    crosstalk(env, "context", conversation_id, "--reset")
    policy = json.loads(crosstalk(env, "context", conversation_id, "--json").stdout)["policy"]
    assert policy["auto_compress"] is False
