"""The walk of one turn: which files under app/ one turn passes through, in order, and how
often it comes back to a file it had left.

A benchmark, not a test: it prints figures and exits 0 (a turn that fails raises).

    .venv/bin/python bench/turn_walk.py [--walk] [--json] [--auto-compress] [--tool-call]

A throw-away data dir gets a provider of kind ``openai`` whose base URL is the scripted wire
server of the tests on 127.0.0.1 (``tests/helpers/wire_server.py``): the real SDK streams
real Chat Completions events, nothing leaves the machine. Its model also writes the title,
so a first turn makes two requests (the reply, the title).

Two turns are made first without measuring (the modules are imported, the SDK, provider,
tokenizer, contexts and toolbox built, as in a window that has sent once), then, measured:

- "first turn": a new conversation's first turn (input, reply, title);
- "follow-up": a second turn in that conversation (no title).

Each runs under ``sys.setprofile`` (and ``threading.setprofile``: ``Library.append_async`` and
attachment fitting run on worker threads), which keeps, per thread, the stack of the frames
entered. Where the code is, is the file of the innermost frame under app/; every change of it
is a step of the walk. So a call from app/turn/runner.py into app/tools.py and back is
runner -> tools -> runner: two visits to runner.py, the second a return to a file already
left. A coroutine waiting at an ``await`` (its chain unwound to the event loop and wound up
again) has not moved; a job on a worker thread runs where it was submitted from; a generator
handing a value to its consumer (a stream event to the turn) has moved. Figures:

- files: the distinct app/ files visited;
- visits: the steps of the walk (consecutive repeats collapsed; the first file counts);
- returns: visits to a file already visited before (visits - files);
- "to depth N": the same, seen from the entry's own files: a frame more than N changes of
  file below the entry counts as the file at depth N that led to it (depth 1: the files the
  entry calls, app/composition.py and app/turn/runner.py now; 2: and the files they call);
- counted calls: how many times a context was rendered (``render_context``, and the policy's
  ``Contexts.render``), the tools were chosen for a request (``ToolBox.choose``), an outline
  was asked for, and the requests the wire server got.

The walk does not depend on timing: repeated runs give the same figures.
Only the call in ``one_turn`` (below) knows the turn's API: after a refactor, that is the
one function to update.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures.thread
import dis
import json
import os
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
sys.path.insert(0, str(ROOT))
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # never the user's

from app import composition  # noqa: E402
from app.paths import DataDir  # noqa: E402
from tests.helpers import openai_events as oe  # noqa: E402
from tests.helpers.wire_server import Reply, WireServer  # noqa: E402

PROVIDER = "bench"
MODEL = "gpt-4.1"  # a large window: the title is asked of it (a small model's is not)
SPEC = f"{PROVIDER}:{MODEL}"
TOOLS = ["current_time"]  # enabled, so the turn declares a tool

# functions whose calls are counted, by qualified name (any file under app/)
COUNTED = {
    "render_context": "context rendered (render_context)",
    "Contexts.render": "policy renders (Contexts.render)",
    "ToolBox.choose": "tools chosen (ToolBox.choose)",
    "outline_of": "outlines asked (outline_of)",
}


# --- the entry: the one place that knows how a turn is made -----------------------------------


async def one_turn(
    services: composition.Services, conversation: Any, spec: str, text: str, tools: list[str]
) -> Any:
    """One turn as the window and ``crosstalk ask`` make it, with everything they do per turn:
    the services' turn runner (built once in app/composition.py, checked against the settings,
    models and mcp.json on each use), and its ``run``."""
    return await services.runner.run(conversation, spec, text, tools=tools)


# --- the tracer -------------------------------------------------------------------------------


def app_file(frame: FrameType, cache: dict[str, str | None] = {}) -> str | None:  # noqa: B006
    """The frame's file relative to the repository if it is under app/, else None."""
    name = frame.f_code.co_filename
    found = cache.get(name, "")
    if found == "":
        path = Path(name)
        found = str(path.relative_to(ROOT)) if path.is_relative_to(APP) else None
        cache[name] = found
    return found


@dataclass
class Walk:
    # the app/ files from the entry to where the code is, after each move
    steps: list[tuple[str, ...]] = field(default_factory=list)
    counted: Counter[str] = field(default_factory=Counter)
    threads: set[str] = field(default_factory=set)  # threads that ran app/ code

    def collapsed(self, depth: int | None = None) -> list[str]:
        """The files walked through, repeats in a row collapsed; ``depth``: only as deep as
        that many changes of file from the entry (1: the entry's own files; 2: and the files
        they call directly), deeper work counted where it was called from."""
        walk: list[str] = []
        for path in self.steps:
            step = path[:depth][-1]
            if not walk or walk[-1] != step:
                walk.append(step)
        return walk

    def figures(self, depth: int | None = None) -> dict[str, Any]:
        walk = self.collapsed(depth)
        files = list(dict.fromkeys(walk))
        return {
            "files": len(files),
            "visits": len(walk),
            "returns": len(walk) - len(files),  # each visit to a file seen before
            "distinct_files": files,
            "visits_per_file": {path: walk.count(path) for path in files},
            "walk": walk,
        }


RESUME, YIELD_VALUE = dis.opmap["RESUME"], dis.opmap["YIELD_VALUE"]


def _resumes(raw: bytes, at: int) -> int | None:
    """What the RESUME at ``at`` follows (0: the start, 1: a yield, 2: a yield from, 3: an
    await), None if there is none there."""
    if 0 <= at < len(raw) - 1 and raw[at] == RESUME:
        return raw[at + 1] & 3
    return None


def resumed_from_await(frame: FrameType) -> bool:
    """A coroutine frame going on after an ``await`` (or ``yield from``)."""
    return _resumes(frame.f_code.co_code, frame.f_lasti) in (2, 3)


def fresh_call(frame: FrameType) -> bool:
    """A call, not a generator or coroutine going on."""
    return _resumes(frame.f_code.co_code, frame.f_lasti) in (0, None)


def suspended_at_await(frame: FrameType) -> bool:
    """A coroutine frame leaving for the event loop at an ``await`` (YIELD_VALUE, then RESUME
    after an await), not returning nor handing a value to its consumer. Python 3.11 and 3.12
    stop at the YIELD_VALUE, 3.13 at the RESUME after it."""
    raw, at = frame.f_code.co_code, frame.f_lasti
    if 0 <= at < len(raw) and raw[at] == YIELD_VALUE:
        return _resumes(raw, at + 2) in (2, 3)
    return at >= 2 and raw[at - 2] == YIELD_VALUE and _resumes(raw, at) in (2, 3)


Path_ = tuple[str, ...]  # the app/ files from the entry to a frame, one per change of file


@dataclass
class _Thread:
    # each frame entered: the app/ files from the entry to it, or None if it is not app/ code
    stack: list[Path_ | None] = field(default_factory=list)
    seeds: list[int] = field(default_factory=list)  # stack heights of executor jobs' bases
    pending: Path_ | None = None  # where an await left off or came back to: settled on a move


class Tracer:
    """A profile function for every thread, keeping per thread the stack of the frames entered
    (each with the app/ files from the entry to it). Where the code is is the innermost app/
    frame; while ``active``, each change of it is a step of the walk.

    An ``await`` that waits is not a move: the coroutines it unwinds (and winds up again when
    the loop resumes them) are still where they were, so leaving for the event loop and
    coming back record nothing by themselves; the innermost app/ frame they come back to is
    the place the next call or return moves from. A call, a return, or a generator handing a
    value to its consumer is a move. A job run on an executor thread (``asyncio.to_thread``)
    runs under the app/ frame that submitted it. Installed before anything starts (the wire
    server, the loop's executor threads), so every thread's stack is whole."""

    def __init__(self) -> None:
        self.walk = Walk()
        self.active = False
        self._threads: dict[int, _Thread] = {}
        self._submitted: dict[int, Path_] = {}  # id(future) -> the path that submitted it

    def __call__(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            state = self._threads.setdefault(threading.get_ident(), _Thread())
            where = app_file(frame)
            if where is None:
                if frame.f_code is _WORK_RUN:  # an executor job starts: under its submitter
                    item = frame.f_locals.get("self")
                    base = self._submitted.pop(id(getattr(item, "future", None)), None)
                    if base is not None:
                        state.seeds.append(len(state.stack))
                        state.stack.append(base)
                state.stack.append(None)
                return
            parent = _innermost(state.stack)
            path = parent if parent and parent[-1] == where else (*(parent or ()), where)
            state.stack.append(path)
            if resumed_from_await(frame):
                state.pending = path  # the chain winds up; its innermost app frame goes on
                return
            self._settle(state)
            if self.active:
                name = frame.f_code.co_qualname
                if name in COUNTED and fresh_call(frame):
                    self.walk.counted[name] += 1
            self._step(path)
        elif event == "return":
            found = self._threads.get(threading.get_ident())
            if found is None or not found.stack:
                return  # a frame entered before tracing began
            state = found
            left = state.stack.pop()
            if left is None:
                code = frame.f_code
                if code is _SUBMIT:
                    submitter = _innermost(state.stack)
                    if submitter is not None:
                        self._submitted[id(arg)] = submitter
                elif code is _WORK_RUN and state.seeds and state.seeds[-1] == len(state.stack) - 1:
                    state.seeds.pop()
                    state.stack.pop()  # the job's base
                return
            after = _innermost(state.stack)
            if suspended_at_await(frame):
                state.pending = after  # None once the whole chain is back at the event loop
                return
            self._settle(state)
            if after is not None:
                self._step(after)

    def _settle(self, state: _Thread) -> None:
        if state.pending is not None:
            self._step(state.pending)
            state.pending = None

    def _step(self, path: Path_) -> None:
        steps = self.walk.steps
        if self.active and (not steps or steps[-1] != path):
            steps.append(path)
            self.walk.threads.add(threading.current_thread().name)

    def start(self) -> Walk:
        self.walk = Walk()
        self.active = True
        return self.walk

    def stop(self) -> None:
        self.active = False

    def __enter__(self) -> Tracer:
        threading.setprofile(self)  # threads started from now on
        sys.setprofile(self)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)


def _innermost(stack: Sequence[Path_ | None]) -> Path_ | None:
    for path in reversed(stack):
        if path is not None:
            return path
    return None


_SUBMIT = concurrent.futures.thread.ThreadPoolExecutor.submit.__code__
_WORK_RUN = concurrent.futures.thread._WorkItem.run.__code__


# --- the set-up -------------------------------------------------------------------------------


def services_for(server: WireServer, home: Path, auto_compress: bool) -> composition.Services:
    data = DataDir(home)
    data.ensure()
    data.settings_file.write_text(
        f'default_model = "{SPEC}"\ntitle_model = "{SPEC}"\n'
        f"auto_compress = {'true' if auto_compress else 'false'}\n"
        f'[providers.{PROVIDER}]\nkind = "openai"\nbase_url = "{server.url}/v1"\n'
        f'models = ["{MODEL}"]\n'
    )
    environ = {"OPENAI_API_KEY": "sk-bench-0123456789abcdefghij", "CROSSTALK_HOME": str(home)}
    return composition.build(data, environ=environ)


def script(server: WireServer, *, title: bool, tool_call: bool) -> None:
    """The replies one turn gets: a tool round first if asked, the answer, the title."""
    if tool_call:
        server.enqueue(Reply(chunks=[
            oe.chunk({"role": "assistant", "content": None}),
            oe.tool_call(0, "call_1", "current_time", "{}"),
            oe.chunk(finish="tool_calls"), oe.usage_chunk(), oe.DONE,
        ]))  # fmt: skip
    server.enqueue(Reply(chunks=oe.chat_reply("Paris is the capital", " of France.")))
    if title:
        server.enqueue(Reply(chunks=oe.chat_reply("French capital")))


async def turn(
    services: composition.Services,
    server: WireServer,
    conversation: Any,
    text: str,
    *,
    tool_call: bool,
    tracer: Tracer | None = None,
) -> Walk | None:
    script(server, title=conversation.history.turn_count == 0, tool_call=tool_call)
    asked = len(server.requests)
    if tracer is None:
        await one_turn(services, conversation, SPEC, text, TOOLS)
        return None
    walk = tracer.start()
    try:
        await one_turn(services, conversation, SPEC, text, TOOLS)
    finally:
        tracer.stop()
    walk.counted["requests"] = len(server.requests) - asked
    return walk


async def session(
    services: composition.Services, server: WireServer, tracer: Tracer, tool_call: bool
) -> dict[str, Walk | None]:
    """Two turns to warm up (imports, SDK, tokenizer, toolbox), then the two measured, in one
    event loop (the SDK's connections belong to it). Its executor has one thread: a job that
    happened to start a new one would open that thread's own index connection in the walk."""
    asyncio.get_running_loop().set_default_executor(
        concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="executor")
    )
    try:
        warm = services.library.create()
        await turn(services, server, warm, "Capital of France?", tool_call=tool_call)
        await turn(services, server, warm, "And of Spain?", tool_call=tool_call)
        conversation = services.library.create()
        return {
            "first turn": await turn(services, server, conversation, "Capital of France?",
                                     tool_call=tool_call, tracer=tracer),
            "follow-up": await turn(services, server, conversation, "And of Italy?",
                                    tool_call=tool_call, tracer=tracer),
        }  # fmt: skip
    finally:
        await services.models.aclose()


def measure(auto_compress: bool, tool_call: bool) -> dict[str, Walk]:
    with (
        tempfile.TemporaryDirectory(prefix="crosstalk-bench-walk-") as home,
        Tracer() as tracer,
        WireServer() as server,
    ):
        os.environ["CROSSTALK_HOME"] = home  # anything that asks for the default: here too
        services = services_for(server, Path(home), auto_compress)
        try:
            walks = asyncio.run(session(services, server, tracer, tool_call))
        finally:
            services.close()
    return {name: walk for name, walk in walks.items() if walk is not None}


DEPTHS = (2, 3)  # besides the whole walk: as seen from the turn's own files


def summary(walk: Walk) -> dict[str, Any]:
    return {
        **walk.figures(),
        "by_depth": {str(depth): walk.figures(depth) for depth in DEPTHS},
        "counted": {
            **{COUNTED[name]: walk.counted[name] for name in COUNTED},
            "requests to the server": walk.counted["requests"],
        },
        "threads": sorted(walk.threads),
    }


def report(name: str, figures: dict[str, Any], show_walk: bool) -> None:
    def line(found: dict[str, Any]) -> str:
        return (f"{found['files']} files, {found['visits']} visits, "
                f"{found['returns']} returns to a file already left")  # fmt: skip

    print(f"{name}: {line(figures)}")
    for depth, found in figures["by_depth"].items():
        print(f"  to depth {depth}: {line(found)}")
    print("  " + ", ".join(f"{label}: {n}" for label, n in figures["counted"].items()))
    print("  files, in order of first visit (visits: whole walk / to depth "
          f"{', '.join(figures['by_depth'])}):")  # fmt: skip
    for path in figures["distinct_files"]:
        counts = [figures["visits_per_file"][path]] + [
            found["visits_per_file"].get(path, 0) for found in figures["by_depth"].values()
        ]
        print(f"    {' / '.join(f'{n:3}' for n in counts)}  {path}")
    if show_walk:
        for depth, found in [("whole", figures), *figures["by_depth"].items()]:
            print(f"  the walk ({'whole' if depth == 'whole' else f'to depth {depth}'}):")
            print("    " + " > ".join(step.removeprefix("app/") for step in found["walk"]))
    print()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walk", action="store_true", help="print every step of the walk")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on stdout")
    parser.add_argument(
        "--auto-compress",
        action="store_true",
        help="with the policy's auto_compress on (below its threshold)",
    )
    parser.add_argument("--tool-call", action="store_true",
                        help="the model calls current_time once before it answers")  # fmt: skip
    args = parser.parse_args(argv)
    figures = {
        name: summary(walk) for name, walk in measure(args.auto_compress, args.tool_call).items()
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"the walk of one turn through app/ ({SPEC} on the scripted wire server; "
          f"auto_compress {'on' if args.auto_compress else 'off'}; "
          f"{'a tool round' if args.tool_call else 'no tool round'})\n")  # fmt: skip
    for name, found in figures.items():
        report(name, found, args.walk)
    return 0


if __name__ == "__main__":
    sys.exit(main())
