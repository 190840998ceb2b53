"""``prepare()`` loads on a worker what a cloud adapter's first request would load on the event
loop's thread (app/providers/adapter.py, ``Models.ready``): after it, the first streamed reply
imports nothing outside the standard library. Before, the first send to OpenAI imported its chat
resources (70-90 ms) and anyio's asyncio backend (65 ms) on the window's thread.

Each adapter runs in a fresh process, so nothing another test imported hides what it loads.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, json, sys
from app.history import Context, ModelInput
from app.providers.base import Request, TextDelta
from tests.helpers import anthropic_events as ev, gemini_events as ge, openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

kind = sys.argv[1]
with WireServer() as server:
    if kind == "openai-chat":
        from app.providers.openai_chat import OpenAIChatProvider as Adapter
        url, chunks = server.url + "/v1", oe.chat_reply("Hello there.")
    elif kind == "openai-responses":
        from app.providers.openai_responses import OpenAIResponsesProvider as Adapter
        script = oe.ResponsesScript("m").message("msg_1", "Hello there.")
        url, chunks = server.url + "/v1", script.completed()
    elif kind == "anthropic":
        from app.providers.anthropic_messages import AnthropicProvider as Adapter
        url, chunks = server.url, ev.reply(ev.text(0, "Hello there."))
    else:
        from app.providers.gemini import GeminiProvider as Adapter
        url = server.url
        chunks = [ge.chunk(ge.text("Hello there."), finish="STOP", usage=ge.usage(3, 2))]
    server.enqueue(Reply(chunks=chunks))
    adapter = Adapter(kind, ["m"], "sk-test-0123456789", url, max_retries=0)
    adapter.prepare(rehearse=sys.argv[2:] == ["rehearse"])
    before = set(sys.modules)
    built = []  # pydantic building a model's schema, or typing reading a TypedDict's hints

    def watch(frame, event, arg):
        code = frame.f_code
        if event == "call" and (
            code.co_filename.endswith("_generate_schema.py") or code.co_name == "get_type_hints"
        ):
            built.append(code.co_name)

    async def first_reply() -> str:
        request = Request("m", Context(None, None, (ModelInput(text="hi"),)))
        sys.setprofile(watch)
        events = [e async for e in adapter.stream(request)]
        sys.setprofile(None)
        await adapter.aclose()
        return "".join(e.text for e in events if isinstance(e, TextDelta))

    text = asyncio.run(first_reply())
print(json.dumps({"text": text, "imported": sorted(set(sys.modules) - before), "built": built}))
"""


@pytest.mark.parametrize("kind", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_after_prepare_the_first_request_imports_nothing_of_its_sdk(kind: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", CHILD, kind],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    seen = json.loads(child.stdout.splitlines()[-1])
    assert seen["text"] == "Hello there."
    outside = [m for m in seen["imported"] if m.split(".")[0] not in sys.stdlib_module_names]
    assert outside == []


@pytest.mark.parametrize("kind", ["openai-chat", "anthropic", "gemini"])
def test_after_a_rehearsal_the_first_request_builds_nothing_of_the_sdks_models(kind: str) -> None:
    """``prepare(rehearse=True)`` (what the window's ``Models.ready`` asks) sends one request
    through the SDK to a stand-in transport: the pydantic schemas and type hints the first
    request and reply need are built then, on the worker, not by the first real reply."""
    seen = {}
    for rehearse in ("", "rehearse"):
        child = subprocess.run(
            [sys.executable, "-c", CHILD, kind, rehearse],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert child.returncode == 0, child.stderr
        seen[rehearse] = json.loads(child.stdout.splitlines()[-1])
        assert seen[rehearse]["text"] == "Hello there."
    assert seen[""]["built"]  # without it, the first reply builds them
    assert seen["rehearse"]["built"] == [], seen["rehearse"]["built"]


def test_the_pause_while_an_sdk_is_prepared_gives_everything_back() -> None:
    """The collector and the switch interval come back as they were (nested and concurrent
    uses share one pause), and a collector that was off stays off."""
    import gc

    from app.providers.adapter import SHARED_INTERVAL, sharing_the_interpreter

    interval = sys.getswitchinterval()
    assert gc.isenabled() and interval > SHARED_INTERVAL
    with sharing_the_interpreter():
        with sharing_the_interpreter():
            assert not gc.isenabled() and sys.getswitchinterval() == SHARED_INTERVAL
        assert not gc.isenabled()
    assert gc.isenabled() and sys.getswitchinterval() == interval
    gc.disable()
    try:
        with sharing_the_interpreter():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
