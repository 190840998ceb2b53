"""A turn that fails, through the whole window: a provider's error is said in the banner in the
user's language with what to do; a bug in a turn (any other exception) is reported
(ui/shell/unexpected.py: logged with its traceback, a dialog that offers a report), never
said in the banner as if it were the user's to fix."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from app.composition import Services
from app.errors import AuthFailed, stored
from app.history import ModelOutput
from app.paths import DataDir
from app.providers import Models
from tests.helpers.ui_driver import GatedProvider, Harness, OpenWindow, services_for
from ui.common import i18n
from ui.shell.unexpected import ProblemDialog, Unexpected

SAID = (
    "acme の API キーがありません。設定 > プロバイダー でキーを追加するか、環境変数 "
    "ACME_KEY を設定してください"
)


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


@pytest.fixture
def reported(open_window: OpenWindow) -> Iterator[tuple[Harness, Unexpected, list[str]]]:
    """A window with its handler of exceptions nobody caught, as ui/shell/app.py installs it."""
    harness = open_window()
    reports: list[str] = []
    dialog = ProblemDialog(lambda: reports.append("report"), harness.window)
    unexpected = Unexpected(harness.window.banner, dialog)
    unexpected.install(harness.loop)
    try:
        yield harness, unexpected, reports
    finally:
        unexpected.uninstall(harness.loop)


def test_a_bug_in_a_turn_is_reported_not_put_in_the_banner(
    qtbot: Any,
    reported: tuple[Harness, Unexpected, list[str]],
    provider: GatedProvider,
    caplog: pytest.LogCaptureFixture,
) -> None:
    harness, unexpected, reports = reported
    provider.scripts = [[KeyError("delta")]]  # an adapter's bug, mid-stream
    with caplog.at_level(logging.ERROR, logger="crosstalk"):
        conversation_id = harness.send(qtbot, "Hello")
        harness.finish(conversation_id)
    assert unexpected.dialog.isVisible(), "the bug was not reported"
    assert "KeyError: 'delta'" in unexpected.dialog.message.text()
    assert harness.window.banner.isHidden()
    assert "Traceback" in caplog.text and "KeyError: 'delta'" in caplog.text
    unexpected.dialog.report_button.click()
    assert reports == ["report"]


def test_a_missing_key_is_said_in_the_banner_in_japanese_with_open_settings(
    qtbot: Any,
    reported: tuple[Harness, Unexpected, list[str]],
    provider: GatedProvider,
    qapp: QApplication,
) -> None:
    harness, unexpected, _ = reported
    missing = AuthFailed(cause="missing_key", provider="acme", variables="ACME_KEY")
    provider.scripts = [[missing]]
    before = QLocale()
    installed = i18n.install(qapp, "ja", system=QLocale("ja_JP"))
    try:
        conversation_id = harness.send(qtbot, "Hello")
        harness.finish(conversation_id)
        # the failed reply keeps the English and the values; the chat says it in Japanese
        [failed] = harness.saved(conversation_id, ModelOutput)
        assert failed.error == str(missing) and failed.meta["failure"] == stored(missing)
        assert f"失敗: {SAID}" in harness.chat_text()
    finally:
        for translator in installed.translators:
            qapp.removeTranslator(translator)
        QLocale.setDefault(before)
    banner = harness.window.banner
    assert not banner.isHidden() and not unexpected.dialog.isVisible()
    assert banner.message.text() == SAID
    assert banner._action_name == "settings"
