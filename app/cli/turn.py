"""Running a turn from the command line: the reply streams to stdout, progress to stderr, and
Ctrl-C, SIGTERM and SIGHUP stop it with what arrived kept; and the options every command that
makes a turn shares (tools, the model, temperature, max tokens, thinking). Shared by ``ask``
and ``edit`` (their options are declared in ``app.cli.parser``).

A new conversation's title is asked of a model by a process of its own, detached when the
reply is done: the command exits as soon as its reply is shown, never waiting for a second
request (``name_later``). On Linux that process is this one forked, with the SDK already
imported; elsewhere (or with threads running) it is ``crosstalk _title ID``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli import collector
from app.cli.output import reader_gone
from app.cli.parser import EXIT_ERROR as EXIT_ERROR
from app.cli.parser import EXIT_INTERRUPTED as EXIT_INTERRUPTED
from app.cli.parser import fail as fail  # shared by every command
from app.context.events import Compressed, Compressing, CompressionFailed, ContextEvent
from app.errors import CrosstalkError
from app.history import ModelInput, ModelOutput
from app.next_model import model_to_continue
from app.notes import FILE_NOTES, NOTE_VALUES, decode_all, english
from app.providers import Models, ReasoningDelta, StreamEvent, TextDelta, ToolCallDelta
from app.tuning import check

if TYPE_CHECKING:
    from app.composition import Services
    from app.store import Conversation
    from app.turn import TurnRunner

EXIT_BRANCHED = 3  # the reply started a branch: another process continued meanwhile
STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # handled like Ctrl-C: the partial reply is kept
TITLE_SECONDS = 120.0  # the title process gives up then, and the first words are the title


def run(
    services: Services,
    conversation: Conversation,
    turn: Callable[[], Awaitable[Any]],
    again: str,
) -> tuple[int, Any]:
    """Run ``turn`` (a coroutine function) with the stop signals handled; returns the exit
    status and what it returned (None if it did not finish). ``again`` is the command that
    tries once more, named when it fails."""
    received: list[int] = []

    async def guarded() -> Any:
        # one worker thread for what the turn runs off the loop (its appends among them), so
        # one index connection is opened off this thread, and closed on it when the turn ends:
        # SQLite's connections are in reference cycles, which only the collector would free,
        # and one still open must not cross the title's fork (``title_in_fork``)
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1, thread_name_prefix="turn"))
        stop_on_signals(asyncio.current_task(), received)
        try:
            return await turn()
        finally:
            await services.models.aclose()
            await loop.run_in_executor(None, services.library.close)

    try:
        done = asyncio.run(guarded())
    except (KeyboardInterrupt, asyncio.CancelledError):
        print(
            f"\n[stopped: what arrived was kept, marked partial, in {conversation.id}]",
            file=sys.stderr,
        )
        return (128 + received[0] if received else EXIT_INTERRUPTED), None
    except CrosstalkError as exc:
        print(file=sys.stderr)
        catch_up_index(services)
        return fail(f"{exc} (conversation {conversation.id}; `{again}` tries again)"), None
    finally:
        collector.resume()  # if no reply arrived to do it (``show``)
    catch_up_index(services)
    name_later(services, conversation)
    return 0, done


def catch_up_index(services: Services) -> None:
    """Reconcile the index with the transcripts, as opening the library does for every other
    command: a turn's command opens it without (``main.TURNS``), so no index work but the
    turn's own comes before its request; this does it once the request is answered."""
    from app.errors import StorageError

    library = services.library
    try:
        library.warnings += library.reconcile().warnings
    except StorageError as exc:
        library.warnings.append(f"the list may be out of date: {exc}")


def name_later(
    services: Services, conversation: Conversation, command: Sequence[str] | None = None
) -> None:
    """Title a conversation its turn left untitled (``TurnSettings.make_title`` off) without
    keeping the command waiting: the title model is asked by a detached copy of this process
    (``title_in_fork``), or by ``crosstalk _title ID`` where forking is not safe or
    ``command`` (how this program is started) is given. A title needing no request (a small
    title model, one that cannot be used) is written at once, as is the first words' title
    when no process can be started."""
    from app.titles import Titles, fallback, first_exchange, title_spec

    spec = title_spec(conversation, services.settings.title_model)
    if conversation.history.title is not None or spec is None:
        return
    why = Titles(services.library, services.models).maker(spec)
    if not isinstance(why, str):
        try:
            if command is None and title_in_fork(services, conversation.id, spec):
                return
            start_titling(conversation.id, command)
            return
        except OSError as exc:
            why = f"the title process could not start: {exc}"
    question, _ = first_exchange(conversation.history)
    try:
        services.library.append(conversation, fallback(question, why))
    except CrosstalkError as exc:  # the reply is saved: its exit status stays a success
        print(f"[{conversation.id} was left untitled: {exc}]", file=sys.stderr)


def title_in_fork(services: Services, conversation_id: str, spec: str) -> bool:
    """Name the conversation in a fork of this process: it has the SDK imported already, so
    the title costs a request, not a second start-up (the SDK imported again, on the CPU beside
    what the user runs next: docs/performance.md). The fork leaves this process's session and
    terminal, opens a library of its own (never this process's SQLite connection) and ends with
    ``os._exit``, never returning here.
    Only on Linux, with no other thread running (macOS frameworks and threads do not survive
    a fork): False otherwise, and nothing was done."""
    if sys.platform != "linux" or threading.active_count() > 1:
        return False
    # no SQLite connection or writer lease crosses the fork (this process reopens them if it
    # writes again); the threads that appended have ended, and their connections with them
    services.library.close()
    if holds_open(services.library.index_path):  # SQLite: no connection may cross a fork
        return False
    sys.stdout.flush()
    sys.stderr.flush()
    if os.fork():
        return True
    try:  # the fork: whatever happens, it ends here
        os.setsid()
        nowhere = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(nowhere, fd)
        os.nice(5)
        asyncio.run(_title_alone(services, conversation_id, spec))
    finally:
        os._exit(0)


def holds_open(path: Path) -> bool:
    """Whether this process has ``path`` open (Linux): a connection to the index left open
    by a thread (``run`` closes its worker's) would be shared with the fork, which SQLite
    forbids: its locks are the process's, and two processes would write past each other."""
    folder, opened = Path("/proc/self/fd"), os.path.realpath(path)
    for fd in os.listdir(folder):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone by now
            if os.readlink(folder / fd).startswith(opened):  # the index, its log, its -shm
                return True
    return False


async def _title_alone(services: Services, conversation_id: str, spec: str) -> None:
    from app.store import Library
    from app.titles import Titles

    library = Library(services.data, reconcile=False)
    try:
        conversation = library.open(conversation_id)
        named = Titles(library, services.models).name_untitled(conversation, spec)
        await asyncio.wait_for(named, TITLE_SECONDS)
    finally:
        await services.models.aclose()
        library.close()


def start_titling(
    conversation_id: str, command: Sequence[str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``crosstalk _title ID`` on its own: a session of its own (a closed terminal does
    not stop it), no console window on Windows, nothing of this process's terminal or pipes
    (a reader of this command's output is not kept waiting for it), and below the priority
    of what the user runs next. Keys come to it as to every command (keyring, environment),
    never on its command line."""
    if command is None:
        frozen = getattr(sys, "frozen", False)  # the bundle's executable is the command line
        command = [sys.executable] if frozen else [sys.executable, "-m", "app.cli"]
    options: dict[str, Any] = {}
    if sys.platform == "win32":
        options["creationflags"] = (
            subprocess.CREATE_NO_WINDOW
            | subprocess.CREATE_NEW_PROCESS_GROUP
            | subprocess.BELOW_NORMAL_PRIORITY_CLASS
        )
    else:
        options["start_new_session"] = True
    return subprocess.Popen(
        [*command, "_title", conversation_id],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        close_fds=True, **options,
    )  # fmt: skip


def cmd_title(services: Services, args: argparse.Namespace) -> int:
    """``crosstalk _title ID`` (not listed): name a conversation its ``ask`` left untitled,
    asking the title model; the first words of the question if that fails or takes longer
    than ``TITLE_SECONDS``. A conversation titled meanwhile keeps its title."""
    from app.titles import Titles, title_spec

    if hasattr(os, "nice"):
        os.nice(5)  # background work: what the user runs next comes first
    conversation = services.library.open(args.id)
    spec = title_spec(conversation, services.settings.title_model)
    if conversation.history.title is not None or spec is None:
        return 0

    async def title() -> None:
        try:
            titles = Titles(services.library, services.models)
            named = titles.name_untitled(conversation, spec)
            await asyncio.wait_for(named, TITLE_SECONDS)
        finally:
            await services.models.aclose()

    asyncio.run(title())
    return 0


def reply(
    services: Services, conversation: Conversation, turn: Callable[[], Awaitable[ModelOutput]]
) -> int:
    """Run a turn that makes one reply, then say what it was; the exit status."""
    again = f"crosstalk ask -c {conversation.id} --regenerate"
    status, output = run(services, conversation, turn, again)
    if output is None:
        return status
    print()
    return summary(conversation, output)


def summary(conversation: Conversation, output: ModelOutput) -> int:
    """The line after a reply (on stderr), and the exit status: 3 if it started a branch."""
    for note in attachment_notes(conversation, output):
        print(f"[{note}]", file=sys.stderr)
    usage = output.usage
    if conversation.branched_at == output.seq:
        print(
            f"[{conversation.id} was continued by another process while this reply was "
            f"written; the reply follows what it answers, on a branch of its own (active now): "
            f"`crosstalk branches {conversation.id}` shows both]",
            file=sys.stderr,
        )
    print(
        f"[{conversation.id} · {output.provider}:{output.model} · "
        f"{usage.input} in / {usage.output} out · "
        f"{output.meta.get('latency_ms', 0) / 1000:.1f} s · seq {output.seq}]",
        file=sys.stderr,
    )
    return EXIT_BRANCHED if conversation.branched_at == output.seq else 0


def attachment_notes(conversation: Conversation, output: ModelOutput) -> list[str]:
    """What the request changed of the files sent with the input this reply answers (an image
    left out, scaled down, a PDF's text sent instead: ``app.attachments.sending``)."""
    history = conversation.history
    seq = output.seq
    while seq and history.is_message(seq) and not isinstance(history.at(seq), ModelInput):
        seq = history.parent_of(seq)
    if not seq or not isinstance(history.at(seq), ModelInput):
        return []
    notes = decode_all(output.meta.get(NOTE_VALUES))
    return [english(note) for note in notes if isinstance(note, FILE_NOTES) and note.seq == seq]


def stop_on_signals(task: asyncio.Task[Any] | None, received: list[int]) -> None:
    """SIGTERM and SIGHUP (a closed terminal) stop the turn as Ctrl-C does: the reply is
    cancelled, and what arrived is saved, marked partial."""
    if task is None:
        return
    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is not None:

            def stop(signum: int = signum) -> None:
                received.append(signum)
                task.cancel()

            loop.add_signal_handler(signum, stop)


def show(event: StreamEvent) -> None:
    """Stream the reply to stdout; thinking and tool calls go to stderr, out of the answer.
    The reply has started: the command's start-up is over (``collector``)."""
    collector.resume()
    if isinstance(event, TextDelta):
        try:
            sys.stdout.write(event.text)
            sys.stdout.flush()
        except BrokenPipeError:  # `ask ... | head`: the rest of the reply is still saved
            reader_gone()
    elif isinstance(event, ReasoningDelta):
        sys.stderr.write(event.text)
        sys.stderr.flush()
    elif isinstance(event, ToolCallDelta) and event.name:
        print(f"[calling {event.name}]", file=sys.stderr)


def show_context(event: ContextEvent) -> None:
    """Automatic compression is long work: say what is happening, on stderr."""
    if isinstance(event, Compressing):
        first, last = event.covers
        print(
            f"[compressing entries {first}-{last} ({event.strategy}) with {event.model}…]",
            file=sys.stderr,
        )
    elif isinstance(event, Compressed):
        saved = ""
        if event.tokens_before is not None and event.tokens_after is not None:
            saved = f": {event.tokens_before:,} -> {event.tokens_after:,} tokens"
        print(f"[compressed{saved}]", file=sys.stderr)
    elif isinstance(event, CompressionFailed):
        print(f"[compression not used: {event.message}]", file=sys.stderr)


def turn_runner(
    services: Services, args: argparse.Namespace, enabled: Sequence[str] | None = None
) -> TurnRunner:
    """The services' runner with this command's --temperature, --max-tokens and --think (a
    turn that appends an input also remembers them for the conversation: ``tuning_of``), and
    the approver of MCP tool calls: --allow-tools, else a question on a terminal, else no.
    ``enabled``: the tools the turn will enable, when known; built-ins alone need nothing of
    MCP (``Services.runner_for``)."""
    import dataclasses

    from app.cli.approval import AllowList, terminal_approver
    from app.tuning import applied

    allow = AllowList.parse(getattr(args, "allow_tools", None))
    runner = services.runner if enabled is None else services.runner_for(enabled)
    # counts only when bounds leave a doubt: the provider's usage is the count; a new
    # conversation is titled once the command is done (``cli_turn.name_later``)
    settings = dataclasses.replace(
        applied(runner.settings, tuning_of(args)), exact_counts=False, make_title=False
    )
    return runner.using(settings=settings, approve=terminal_approver(allow))


def tuning_of(args: argparse.Namespace) -> dict[str, Any]:
    """What the command line chose of the conversation's own sampling settings."""
    chosen = {
        "temperature": getattr(args, "temperature", None),
        "max_tokens": getattr(args, "max_tokens", None),
        "reasoning": getattr(args, "think", None),
    }
    found = {key: value for key, value in chosen.items() if value is not None}
    for key, value in found.items():
        check(key, value)
    return found


def last_model(conversation: Conversation | None, models: Models) -> str | None:
    """Continuing a conversation keeps the model of its last reply unless -m says otherwise,
    or that reply came from elsewhere (an imported chat): None, the default model, then."""
    return model_to_continue(conversation.history.last_output if conversation else None, models)


def parse_tools(services: Services, value: str | None) -> list[str] | None:
    """--tools as the turn remembers it: "all" becomes every tool there is now (built-ins and
    ``mcp:SERVER`` for each enabled server), "none" none; an unknown name is a ValueError.
    Built-in names alone are checked without reading mcp.json."""
    if value is None:
        return None
    from app.tool_names import BUILTIN_NAMES

    names = value.split(",")
    if {name.strip() for name in names} <= {*BUILTIN_NAMES, "none", ""}:
        from app.tools import ToolBox

        return ToolBox.builtin().check(names)
    return services.toolbox.check(names)
