"""The window says each error of app/ by its type, in the user's language
(ui/common/errors_text.py), and reports an exception nobody expected instead of putting it in
the banner (ui/shell/unexpected.py). The command line's English: tests/test_errors.py."""

# ruff: noqa: RUF001 (the Japanese and Chinese sentences have full-width punctuation)
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

from app.errors import AuthFailed, CrosstalkError, RateLimited, Unavailable, stored
from app.sync.errors import Unreachable
from tests.helpers.error_samples import error_classes, fields, own_causes, samples
from tests.helpers.languages import language
from ui.common import errors_text
from ui.shell.error_banner import ErrorBanner
from ui.shell.unexpected import ProblemDialog, Unexpected

SAMPLES = samples()
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize(("where", "errors"), SAMPLES, ids=[where for where, _ in SAMPLES])
def test_the_window_says_each_type_of_error_in_japanese(
    where: str, errors: list[CrosstalkError], qapp: QApplication
) -> None:
    """Every class found in app/, made from a message alone and for each of its causes: a new
    one without its words and their translation fails here."""
    english = [errors_text.said(exc) for exc in errors]
    with language(qapp, "ja"):
        japanese = [errors_text.said(exc) for exc in errors]
    for exc, in_english, in_japanese in zip(errors, english, japanese, strict=True):
        name = type(exc).__name__
        assert name in errors_text.HEADLINES, f"{where}: give it a headline in errors_text"
        assert in_japanese != in_english and JAPANESE.search(in_japanese), (where, in_japanese)
        if not exc.cause:  # what the error is, in Japanese, then its English message
            assert in_japanese.endswith(str(exc))
            continue
        template = errors_text.TEMPLATES.get((name, exc.cause))
        assert template is not None, f"{where}: give the cause {exc.cause} a sentence"
        assert str(exc) not in in_japanese and "{" not in in_japanese
        for field in fields(template):  # the whole sentence is the window's, with the data
            if field not in ("kept", "doing", "what"):  # these are words, said in Japanese
                assert str(exc.data[field]) in in_japanese, (where, field, in_japanese)


def test_every_sentence_of_the_window_belongs_to_a_cause_of_app() -> None:
    causes = {(cls.__name__, cause) for cls in error_classes() for cause in own_causes(cls)}
    assert set(errors_text.TEMPLATES) == causes
    assert set(errors_text.HEADLINES) == {cls.__name__ for cls in error_classes()} | {
        "CrosstalkError"
    }


def test_in_english_an_error_without_a_sentence_is_its_message(qapp: QApplication) -> None:
    from app.errors import NotFound

    exc = NotFound("no conversation X; `crosstalk list` shows the ids")
    assert errors_text.said(exc) == str(exc)
    own = CrosstalkError("A reply is still streaming here: stop it first (Esc).")
    with language(qapp, "ja"):  # the window's own words, translated where they were made
        assert errors_text.said(own) == str(own)


FOUR = [
    AuthFailed(cause="missing_key", provider="openai", variables="OPENAI_API_KEY"),
    RateLimited("", 20.0, cause="rate_wait", provider="anthropic", seconds=20, kept=0),
    Unavailable(cause="unreachable", provider="ollama", url="http://localhost:11434/v1"),
    Unreachable(cause="unreachable", remote="s3://notes/sync", doing="writing", name="probes/a",
                detail="Connection refused"),
]  # fmt: skip
SAID = {
    "ja": [
        "openai の API キーがありません。設定 > プロバイダー でキーを追加するか、環境変数 "
        "OPENAI_API_KEY を設定してください",
        "anthropic のレート制限に達しました。20 秒後に再試行してください",
        "http://localhost:11434/v1 の ollama に接続できませんでした。サーバーが動作しているか、"
        "ネットワーク、設定のベース URL を確認してください",
        "s3://notes/sync: probes/a の書き込み: リモートに接続できません（Connection refused）。"
        "ネットワーク接続と URL を確認してください",
    ],
    "zh_CN": [
        "openai 没有 API 密钥：请在 设置 > 提供商 中添加，或设置环境变量 OPENAI_API_KEY",
        "anthropic 限制了请求频率：请在 20 秒后重试",
        "无法连接 http://localhost:11434/v1 上的 ollama：请检查服务器是否在运行、网络，以及设置中的"
        "基础 URL",
        "s3://notes/sync：写入 probes/a：无法连接远程（Connection refused）；请检查网络连接和 URL",
    ],
}


@pytest.mark.parametrize("code", ["ja", "zh_CN"])
def test_a_missing_key_a_rate_limit_a_network_and_a_sync_failure_in_the_language(
    code: str, qapp: QApplication
) -> None:
    with language(qapp, code):
        assert [errors_text.said(exc) for exc in FOUR] == SAID[code]
        # kept as a record (a failed sync's last.json), said again the same way later
        again = [errors_text.said_stored(stored(exc), str(exc)) for exc in FOUR]
        assert again == SAID[code]


def test_a_record_this_version_cannot_word_is_shown_as_its_english(qapp: QApplication) -> None:
    english = "something a newer Crosstalk said"
    with language(qapp, "ja"):
        assert errors_text.said_stored(None, english) == english
        newer = {"error": "NewerKind", "cause": "x", "data": {}}
        assert errors_text.said_stored(newer, english) == english
        missing_field = {"error": "RateLimited", "cause": "rate_wait", "data": {}}
        assert errors_text.said_stored(missing_field, english) == english


# --- an exception nobody expected -----------------------------------------------------------


class Emitter(QObject):
    poked = Signal()


@pytest.fixture
def reporting(qapp: QApplication) -> Iterator[tuple[Unexpected, list[str]]]:
    """The window's handler for exceptions nobody caught (as ui/shell/app.py installs it),
    with a report that counts, and the banner and dialog it shows them in."""
    parent = QWidget()
    reports: list[str] = []
    unexpected = Unexpected(ErrorBanner(parent), ProblemDialog(lambda: reports.append("report")))
    unexpected.install()
    try:
        yield unexpected, reports
    finally:
        unexpected.uninstall()
        unexpected.dialog.close()
        parent.close()


def _slot_raising(exc: Exception) -> Callable[[], None]:
    def slot() -> None:
        raise exc

    return slot


def test_an_unexpected_exception_in_a_slot_is_reported_not_put_in_the_banner(
    reporting: tuple[Unexpected, list[str]], caplog: pytest.LogCaptureFixture, qtbot: Any
) -> None:
    unexpected, reports = reporting
    emitter = Emitter()
    emitter.poked.connect(_slot_raising(RuntimeError("the list had no row 7")))
    with caplog.at_level(logging.ERROR, logger="crosstalk"):
        emitter.poked.emit()
    dialog = unexpected.dialog
    assert dialog.isVisible() and not unexpected.banner.isVisible()
    assert "RuntimeError: the list had no row 7" in dialog.message.text()
    assert "bug in Crosstalk" in dialog.message.text()
    assert "Traceback" in caplog.text and "the list had no row 7" in caplog.text
    emitter.poked.emit()  # again: the same dialog, counting
    assert dialog.count == 2 and dialog.times.text() == "It happened 2 times."
    dialog.report_button.click()  # Help > Report a problem's report, from the dialog
    assert reports == ["report"] and not dialog.isVisible()


def test_a_crosstalk_error_a_slot_let_through_goes_to_the_banner_in_the_language(
    reporting: tuple[Unexpected, list[str]], qapp: QApplication
) -> None:
    unexpected, _ = reporting
    emitter = Emitter()
    emitter.poked.connect(_slot_raising(FOUR[0]))
    with language(qapp, "ja"):
        emitter.poked.emit()
    banner = unexpected.banner
    assert not banner.isHidden() and not unexpected.dialog.isVisible()
    assert banner.message.text() == SAID["ja"][0]
    assert banner.action.isVisibleTo(banner) and banner._action_name == "settings"


def test_an_async_slot_or_task_that_fails_is_reported_too(
    reporting: tuple[Unexpected, list[str]], qasync_loop: qasync.QEventLoop
) -> None:
    unexpected, _ = reporting
    unexpected.install(qasync_loop)  # also the loop's handler, as the window has it

    class Owner(QObject):
        @qasync.asyncSlot()
        async def go(self) -> None:
            await asyncio.sleep(0)
            raise LookupError("no such pane")

    emitter, owner = Emitter(), Owner()
    emitter.poked.connect(owner.go)
    emitter.poked.emit()
    qasync_loop.run_until_complete(asyncio.sleep(0.05))
    assert "LookupError: no such pane" in unexpected.dialog.message.text()
    unexpected.dialog.close()
    failed = ZeroDivisionError("a callback divided by zero")
    qasync_loop.call_exception_handler({"message": "callback failed", "exception": failed})
    assert "ZeroDivisionError" in unexpected.dialog.message.text()
    assert not unexpected.banner.isVisible()
    unexpected.uninstall(qasync_loop)


def test_report_a_problem_from_the_dialog_copies_the_report(qapp: QApplication) -> None:
    QGuiApplication.clipboard().clear()
    dialog = ProblemDialog(lambda: QGuiApplication.clipboard().setText("Crosstalk: 1.0"))
    dialog.show_problem(RuntimeError("x"))
    dialog.report_button.click()
    assert QGuiApplication.clipboard().text() == "Crosstalk: 1.0"


def test_a_failed_sync_kept_in_last_json_is_said_in_the_language_after_a_restart(
    qapp: QApplication, data_dir: Any
) -> None:
    """The status line of a window opened later reads the last sync's failure as recorded:
    its English for `crosstalk sync status`, its values for the window."""
    from app.sync import state
    from app.sync.background import Status
    from ui.sync.status import SyncLine

    data_dir.ensure()
    state.record_failure(data_dir, FOUR[3])
    last = state.last_sync(data_dir)
    assert last.error == str(FOUR[3]) and last.failure == stored(FOUR[3])
    line = SyncLine()
    shown = Status(error=last.error, failure=last.failure)
    with language(qapp, "ja"):
        assert line.text_for(shown) == f"同期に失敗しました: {SAID['ja'][3]}"
    older = Status(error="a failure an older Crosstalk recorded")  # no values: as it was kept
    assert line.text_for(older) == "Sync failed: a failure an older Crosstalk recorded"


def test_each_cause_has_its_sentence_in_one_module_only() -> None:
    """The sentences live in one module per area; a key given twice would lose one silently."""
    from ui.common import error_words

    modules = [
        getattr(error_words, name)
        for name in dir(error_words)
        if hasattr(getattr(error_words, name), "TEMPLATES")
    ]
    keys = [key for module in modules for key in module.TEMPLATES]
    assert len(modules) >= 10
    assert len(keys) == len(set(keys)) == len(error_words.TEMPLATES)
