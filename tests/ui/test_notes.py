"""The window says every note in the user's language (ui/common/notes.py): each kind's
templates have a Japanese and a Chinese translation that keeps its fields, and a note reads in
English, with numbers as the locale writes them, when no translation is loaded."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from app.errors import DamagedReference, ProviderError, stored
from app.notes import (
    CONTEXT,
    AttachmentLeftOut,
    DropReason,
    Failed,
    Failure,
    Note,
    OutsideWindow,
    ReasoningDropped,
    Text,
    english,
    kinds,
    tag_of,
)
from tests.helpers.note_samples import SAMPLES
from ui.common import errors_text
from ui.common.notes import said

I18N = Path(__file__).resolve().parents[2] / "resources" / "i18n"
# kana, kanji and hanzi, or full-width punctuation (a translation of "{name} (seq {seq}): ...")
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
LANGUAGES = ("ja", "zh_CN")


@pytest.fixture
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The window's translation of ``request.param`` loaded, and its locale the default."""
    code = request.param
    translator = QTranslator()
    assert translator.load(str(I18N / f"crosstalk_{code}.qm"))
    before = QLocale()
    qapp.installTranslator(translator)
    QLocale.setDefault(QLocale(code))
    try:
        yield code
    finally:
        qapp.removeTranslator(translator)
        QLocale.setDefault(before)


def _carries_an_error(note: Note) -> bool:
    return any(isinstance(value, Failure) for _, value in note.values())


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def _templates(kind: type[Note]) -> list[str]:
    return list(kind.TEMPLATES.values()) if kind.TEMPLATES else [kind.TEMPLATE]


# Text: words that are not ours; Failure: an error, worded by ui/common/errors_text.py
TRANSLATED = [kind for kind in kinds() if kind not in (Text, Failure)]


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
@pytest.mark.parametrize("kind", TRANSLATED, ids=tag_of)
def test_every_kind_is_said_in_the_windows_language(kind: type[Note], language: str) -> None:
    for template in _templates(kind):
        translated = QCoreApplication.translate(CONTEXT, template)
        assert translated != template, f"no {language} translation of {template!r}"
        assert CJK.search(translated), translated
        assert _fields(translated) == _fields(template), translated
    for note, _ in SAMPLES:
        if type(note) is kind:
            shown = said(note)
            assert CJK.search(shown) and shown != english(note)
            assert not re.search(r"\{\w+(![rs])?\}", shown), shown  # every field filled in


def test_without_a_translation_the_window_says_what_the_command_line_says(
    qapp: QApplication,
) -> None:
    QLocale.setDefault(QLocale("en_US"))
    try:
        for note, sentence in SAMPLES:
            # sizes: the locale's "5.00 MiB"; an error: the window's own sentence for it
            if "MB" not in sentence and not _carries_an_error(note):
                assert said(note) == sentence
    finally:
        QLocale.setDefault(QLocale.c())


@pytest.mark.parametrize("language", ["ja"], indirect=True)
def test_a_note_in_japanese_with_its_numbers_and_lists(language: str) -> None:
    assert said(OutsideWindow(turns=20)) == "ウィンドウ: 直近 20 ターンより古い"
    made = DropReason(cause="made_by", makers=("openai:o3", "gemini:g"))
    unsigned = DropReason(cause="unsigned", count=1200)
    shown = said(ReasoningDropped(seq=4, reasons=(made, unsigned)))
    assert shown == (
        "推論を除外（#4）: openai:o3、gemini:g が生成；"  # noqa: RUF001
        "署名のない思考ブロック 1,200 個（署名される前に応答が途切れました）"  # noqa: RUF001
    )


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_an_error_a_note_carries_is_said_as_the_window_says_errors(language: str) -> None:
    damaged = Failure.of(DamagedReference(cause="not_base64"))
    error = said(damaged)
    assert error == errors_text.said(DamagedReference(cause="not_base64")) and CJK.search(error)
    assert error in said(AttachmentLeftOut(name="a.png", seq=3, why=damaged))
    # a failed reply's status in the ledger, from what its transcript keeps
    exc = ProviderError(cause="failed", provider="acme", label="500", words="boom", kept=1)
    kept = Failure.kept(str(exc), stored(exc))
    assert said(Failed(error=kept)).endswith(errors_text.said(exc))
    assert said(Failed(error=Failure.kept("an older reply's words", None))).endswith(
        "an older reply's words"
    )


@pytest.mark.parametrize("language", ["zh_CN"], indirect=True)
def test_a_note_in_chinese(language: str) -> None:
    assert said(OutsideWindow(turns=20)) == "窗口：早于最近 20 轮"  # noqa: RUF001
    assert said(Text(text="Server said: nope")) == "Server said: nope"  # as it came
