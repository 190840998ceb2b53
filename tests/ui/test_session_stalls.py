"""A short scripted day in the real window (bench/session.py --quick, issue 23): no action
after the first paint may stall the window's event loop for more than 100 ms.

The day runs once for the module (bench/session_day.py ``run_day``: 5,000 conversations with
real transcripts, a 10,000-entry chat, a 20,000-character reply at 1,000 tokens/s, the first
send to a local fake OpenAI server, 200 conversations imported, a compression, resizing) with
the app's stall monitor on; each action is then checked on its own, so one slow action does not
hide the others. 100 ms is a generous bound that survives a noisy machine; the bench holds the
real target (16 ms).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from bench.session_day import (
    ACTIONS,
    COMPRESS,
    FIRST_SEND,
    IMPORT,
    OPEN,
    QUICK,
    REOPEN,
    RESIZE,
    SEARCH,
    STREAM,
    Day,
    innermost,
    library_copy,
    prepare,
    run_day,
    run_in_qt,
)

BOUND_MS = 100
ISSUE = "issue 23"

# What stalled over 100 ms in one run or more when this test was written (2026-11-26, 2 CPUs,
# bench/session.py --quick, the stall monitor's stack and a 5 ms stack sampler). The scroll, the
# switch during a stream and the stream's end stayed under it: they are held to it.
KNOWN = {
    SEARCH: "up to ~110 ms: each keystroke's result rows painted on the window's thread "
    "(search_delegate.paint_hit sets a QTextDocument's HTML per row) and Qt's layout",
    OPEN: "450-1100 ms: Library.open parses the whole 10,000-entry transcript "
    "(transcript.load) on the window's thread, the tail's markdown (ui/markdown.py), and the "
    "inspector's next_request counts tokens (bpe_openai) and scrubs every entry (app/scrub.py)",
    STREAM: "~350 ms at the send: Library.create's fsync and modules imported on the window's "
    "thread (app/store/index.py's sqlite_utils loads its plugins' entry points), each import "
    "slowed by PySide's import hook (shibokensupport feature._mod_uses_pyside -> "
    "inspect.getsource)",
    FIRST_SEND: "180-350 ms: the OpenAI SDK imported on the window's thread (through PySide's "
    "import hook) and the keyring's backends loaded there (app/keys.py:_from_keyring; its macOS "
    "backend runs ctypes.util.find_library, a subprocess)",
    IMPORT: "up to ~150 ms: the list reloaded after the import on the window's thread "
    "(ConversationListModel._add_spend formats every row's cost, conversation_list paint)",
    REOPEN: "up to ~130 ms: ChatView.show_conversation renders the tail again "
    "(chat_html.reply_header -> locale_format per entry, search_marks.draw)",
    COMPRESS: "up to ~225 ms: app.context.compress -> render_context over the whole history "
    "on the window's thread, then the chat rendered again (ChatView.show_conversation)",
    RESIZE: "up to ~90 ms (180-210 ms on a busy machine): the long chat's QTextDocument laid "
    "out again in Qt (ChatView._on_range_changed)",
}


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory, qapp: QApplication) -> Day:
    root = tmp_path_factory.mktemp("session")
    cached = prepare(QUICK, root / "cache")
    data, long_id = library_copy(cached, root / "data")
    scratch: Path = root / "scratch"
    scratch.mkdir()
    return run_in_qt(lambda: run_day(data, long_id, QUICK, scratch))


def _marked(action: str) -> object:
    if action in KNOWN:
        return pytest.param(
            action,
            marks=pytest.mark.xfail(strict=False, reason=f"{KNOWN[action]} ({ISSUE})"),
        )
    return action


@pytest.mark.slow
def test_the_day_went_through_every_action(day: Day) -> None:
    assert [a.name for a in day.actions] == list(ACTIONS)
    assert all(a.result_ms is not None for a in day.actions), [
        (a.name, a.note) for a in day.actions if a.result_ms is None
    ]


@pytest.mark.slow
@pytest.mark.parametrize("action", [_marked(a) for a in ACTIONS])
def test_no_stall_over_100_ms(day: Day, action: str) -> None:
    [done] = [a for a in day.actions if a.name == action]
    over = sorted((s for s in done.stalls if s.ms > BOUND_MS), key=lambda s: -s.ms)
    stacks = "\n\n".join(f"{s.ms:.0f} ms in:\n{innermost(s.stack)}" for s in over[:3])
    hot = "\n\n".join(
        f"~{ms:.0f} ms in {place}:\n{frames}" for ms, place, frames in done.hot_stacks()
    )
    assert not over, (
        f"{action}: {len(over)} stall(s) over {BOUND_MS} ms, the longest first:\n{stacks}"
        f"\n\nwhere the stalls' time went (sampled):\n{hot}"
    )
