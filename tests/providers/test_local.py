"""The built-in model, for real: streaming, history replay, token counts, Stop, and a model
process that may crash without costing anything but the reply it was writing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from app.errors import Unavailable
from app.history import Context, History, ModelInput, ModelOutput, render_context
from app.own_processes import describe_exit
from app.providers import Finished, Request, TextDelta, UsageReport
from app.providers.local import LocalProvider, bundled_model_path, chat_messages
from app.providers.local_process import LocalWorker, fix_command

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local() -> Iterator[LocalProvider]:
    provider = LocalProvider(threads=2)
    yield provider
    asyncio.run(provider.aclose())


def ask(provider: LocalProvider, context: Context, max_tokens: int = 12) -> list[object]:
    async def collect() -> list[object]:
        request = Request("smollm2", context, max_tokens=max_tokens, temperature=0.0)
        return [event async for event in provider.stream(request)]

    return asyncio.run(collect())


def single(text: str) -> Context:
    return Context(system=None, notebook=None, entries=(ModelInput(text=text, seq=1, ts="t"),))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent) counts as gone
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def wait_gone(pid: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def test_the_model_ships_inside_the_wheel() -> None:
    path = bundled_model_path()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000


def test_a_real_turn_streams_text_with_token_counts(local: LocalProvider) -> None:
    events = ask(local, single("What is the capital of France?"))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    [usage] = [e.usage for e in events if isinstance(e, UsageReport)]
    assert text.strip()
    assert usage.input > 10 and 0 < usage.output <= 12
    assert isinstance(events[-1], Finished) and events[-1].finish_reason in ("stop", "length")
    # llama.cpp ran in a process of its own, not in this one
    assert local.worker.pid is not None and local.worker.pid != os.getpid()


def test_the_second_request_carries_the_first_turn(local: LocalProvider) -> None:
    history = History()
    history.append(history.stamp(ModelInput(text="My name is Zebulon. Remember it.")))
    first = ask(local, render_context(history))
    answer = "".join(e.text for e in first if isinstance(e, TextDelta))
    [first_usage] = [e.usage for e in first if isinstance(e, UsageReport)]
    history.append(history.stamp(ModelOutput(provider="local", model="smollm2", text=answer)))
    history.append(history.stamp(ModelInput(text="What is my name?")))
    context = render_context(history)
    assert [m["content"] for m in chat_messages(context)] == [
        "My name is Zebulon. Remember it.",
        answer,
        "What is my name?",
    ]
    [second_usage] = [e.usage for e in ask(local, context) if isinstance(e, UsageReport)]
    # the second prompt holds the first question and answer as well as the new question
    assert second_usage.input > first_usage.input + 5


def test_the_system_instruction_and_notebook_lead_the_prompt() -> None:
    context = Context(system="Be brief.", notebook="User likes tea.", entries=())
    assert chat_messages(context) == [{"role": "system", "content": "Be brief.\n\nUser likes tea."}]


def test_stop_ends_generation_in_the_model_process_within_200_ms(local: LocalProvider) -> None:
    async def stop_after_first_text() -> tuple[int, float, dict[str, object]]:
        seen = 0
        ended: dict[str, object] = {}

        async def consume() -> None:
            nonlocal seen
            request = Request("smollm2", single("Count from 1 to 1000 in words."), max_tokens=2000)
            async for event in local.stream(request):
                if isinstance(event, TextDelta):
                    seen += 1

        task = asyncio.create_task(consume())
        while seen == 0:
            await asyncio.sleep(0.005)
        process = local.worker.process
        assert process is not None
        [job] = process._jobs.values()
        original = job.sink

        def spy(item: object) -> None:
            if isinstance(item, dict):
                ended.update(item)
            original(item)  # type: ignore[arg-type]

        job.sink = spy
        stopped = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.to_thread(job.done.wait, 5)
        return seen, time.monotonic() - stopped, ended

    seen, took, ended = asyncio.run(stop_after_first_text())
    assert seen < 200
    assert ended.get("finish") == "cancelled", ended  # the worker itself stopped generating
    assert isinstance(ended["output"], int) and ended["output"] < 400
    assert took < 0.2, f"Stop took {took * 1000:.0f} ms to reach the model"
    # the worker is free again: a new request completes
    assert any(isinstance(e, Finished) for e in ask(local, single("Hi")))


@pytest.mark.parametrize("signum", [signal.SIGSEGV, signal.SIGKILL])
def test_a_crash_mid_reply_ends_only_that_reply_and_the_next_starts_a_fresh_process(
    signum: int,
) -> None:
    provider = LocalProvider(threads=2)

    async def crash_mid_stream() -> tuple[str, BaseException | None]:
        text: list[str] = []
        request = Request("smollm2", single("Count from 1 to 1000 in words."), max_tokens=2000)
        try:
            async for event in provider.stream(request):
                if isinstance(event, TextDelta):
                    text.append(event.text)
                    if len(text) == 3:
                        assert provider.worker.pid is not None
                        os.kill(provider.worker.pid, signum)
        except Unavailable as exc:
            return "".join(text), exc
        return "".join(text), None

    try:
        first_pid_holder: list[int] = []
        ask(provider, single("Hi"), max_tokens=2)
        assert provider.worker.pid is not None
        first_pid_holder.append(provider.worker.pid)
        arrived, error = asyncio.run(crash_mid_stream())
        assert arrived  # what arrived before the crash reached the caller
        name = signal.Signals(signum).name
        assert error is not None and f"crashed (signal {signum}, {name})" in str(error)
        assert "Send again" in str(error)
        events = ask(provider, single("What is the capital of France?"))
        assert isinstance(events[-1], Finished)
        assert provider.worker.pid not in (None, first_pid_holder[0])
    finally:
        asyncio.run(provider.aclose())


def test_a_build_that_crashes_in_its_self_test_says_how_to_fix_it() -> None:
    """A worker that dies before it is ready (as an AMX build does in decode) is reported with
    the one command that installs a build for this CPU."""
    crashing = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]
    worker = LocalWorker(lambda: crashing)
    with pytest.raises(Unavailable) as raised:
        worker.start()
    message = str(raised.value)
    assert "failed a self-test on this CPU (signal 11, SIGSEGV)" in message
    assert fix_command() in message and "scripts/install --rebuild" in message
    worker.close()


def test_a_model_file_that_does_not_load_is_reported(tmp_path: object) -> None:
    from pathlib import Path

    bad = Path(str(tmp_path)) / "broken.gguf"
    bad.write_bytes(b"not a model")
    provider = LocalProvider(model_path=bad)
    with pytest.raises(Unavailable, match="could not be loaded"):
        ask(provider, single("Hi"))
    asyncio.run(provider.aclose())


def test_an_idle_model_process_gives_its_memory_back_and_restarts_on_demand() -> None:
    provider = LocalProvider(threads=2, idle_seconds=0.3)
    try:
        ask(provider, single("Hi"), max_tokens=2)
        process = provider.worker.process
        assert process is not None
        pid = process.proc.pid
        assert wait_gone(pid), "the idle worker was not stopped"
        assert isinstance(ask(provider, single("Hi"), max_tokens=2)[-1], Finished)
        assert provider.worker.pid not in (None, pid)
    finally:
        asyncio.run(provider.aclose())


CHILD = """
import asyncio, sys
from app.history import Context, ModelInput
from app.providers import Request
from app.providers.local import LocalProvider

provider = LocalProvider(threads=1)
async def one():
    context = Context(None, None, (ModelInput(text="Hi", seq=1, ts="t"),))
    async for _ in provider.stream(Request("smollm2", context, max_tokens=2)):
        pass
asyncio.run(one())
print(provider.worker.pid, flush=True)
if sys.argv[1] == "hang":
    sys.stdin.read()
"""


@pytest.mark.parametrize("how", ["exit", "killed"])
def test_the_model_process_ends_with_crosstalk(how: str) -> None:
    """At a normal exit (atexit) and when Crosstalk itself is killed (its pipe closes)."""
    with subprocess.Popen(
        [sys.executable, "-c", CHILD, "hang" if how == "killed" else "exit"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None
        pid = int(child.stdout.readline())
        if how == "killed":
            assert alive(pid)
            child.kill()
        child.wait(30)
    assert wait_gone(pid), f"the model process outlived Crosstalk ({how})"


def test_exit_descriptions() -> None:
    assert describe_exit(-11) == "signal 11, SIGSEGV"
    assert describe_exit(-9) == "signal 9, SIGKILL"
    assert describe_exit(3) == "exit status 3"
