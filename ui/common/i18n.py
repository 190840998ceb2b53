"""The window's language: which translations to load at start, and the locale numbers follow.

``install`` runs once in ui/shell/app.py, before any window is built: Qt reads a widget's texts when
it is made, so a translator installed later changes nothing already shown (Settings > Language
therefore applies when Crosstalk restarts; see docs/i18n.md). It loads Crosstalk's own
``resources/i18n/crosstalk_<code>.qm`` and Qt's ``qtbase_<code>.qm`` (standard buttons and
dialogs) where PySide6 ships it, and sets the default QLocale to match.

The languages offered are the translations present: ``crosstalk_<code>.ts`` or ``.qm`` under
``resources/i18n/``, plus English, the source language. Adding a language is adding its .ts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

I18N_DIR = Path(__file__).resolve().parents[2] / "resources" / "i18n"
PREFIX = "crosstalk_"
SYSTEM = "system"  # the setting's value for "as the desktop is set"
SOURCE = "en"  # the language the source strings are written in
ENGLISH_FORMATS = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)


class Context:
    """The translation context of code outside a QObject: ``class Menus(Context)``, then
    ``Menus.tr("&File")``. pyside6-lupdate files that text under "Menus", the class's name,
    and ``tr`` looks it up there: the one spelling both agree on, as ``self.tr`` in a QObject.
    (A helper such as ``_tr("&File")`` is invisible to lupdate; docs/i18n.md.)"""

    @classmethod
    def tr(cls, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        return QCoreApplication.translate(cls.__name__, source, disambiguation, n)


def available(folder: Path = I18N_DIR) -> list[str]:
    """The language codes the window can show ("en", "ja", "zh_CN" ...): English first."""
    found = {path.stem.removeprefix(PREFIX) for path in folder.glob(f"{PREFIX}*.ts")}
    found |= {path.stem.removeprefix(PREFIX) for path in folder.glob(f"{PREFIX}*.qm")}
    return [SOURCE, *sorted(found - {SOURCE})]


def native_name(code: str) -> str:
    """A language in its own words: "English", "日本語", "简体中文"."""
    if code == SOURCE:
        return "English"  # QLocale says "American English", the formats' name
    return QLocale(code).nativeLanguageName()  # zh_CN: "简体中文", zh_TW: "繁體中文"


def _is_c(locale: QLocale) -> bool:
    return locale.language() in (QLocale.Language.C, QLocale.Language.AnyLanguage)


def resolve(choice: str, system: QLocale, codes: Sequence[str]) -> str:
    """The code to show: ``choice`` if it is one of ``codes``, else (for "system", or a
    language whose translation is gone) the first of the desktop's languages that has a
    translation (exact, by language, by language and script), else English."""
    if choice in codes:
        return choice
    if _is_c(system):
        return SOURCE
    scripts: dict[QLocale.Language, QLocale.Script] = {}
    for name in system.uiLanguages():
        locale = QLocale(name)
        # "zh-Hant-TW" ends with a bare "zh", which Qt reads as simplified: not the same writing
        script = scripts.setdefault(locale.language(), locale.script())
        if _is_c(locale) or locale.script() != script:
            continue
        exact = locale.name()  # "zh_CN" for zh-Hans-CN, "ja_JP" for ja
        language = exact.split("_")[0]
        for code in (exact, language):
            if code in codes:
                return code
        # the same language in the same script: zh_CN for a zh_SG desktop
        for code in codes:
            if QLocale(code).language() == locale.language() and (
                QLocale(code).script() == locale.script()
            ):
                return code
    return SOURCE


def formats_for(code: str, system: QLocale) -> QLocale:
    """The locale numbers and dates follow: the desktop's own when it speaks that language
    (its region's formats), else the language's; en_US in place of "C"/POSIX."""
    if not _is_c(system) and QLocale(code).language() == system.language():
        return system
    return ENGLISH_FORMATS if code == SOURCE else QLocale(code)


@dataclass
class Installed:
    """What ``install`` chose: the setting, the language shown, and the translators loaded."""

    choice: str
    code: str
    locale: QLocale
    translators: list[QTranslator] = field(default_factory=list)

    @property
    def qt_translated(self) -> bool:
        return any(t.objectName() == "qtbase" for t in self.translators)


def qt_translations_dir() -> str:
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def install(
    app: QCoreApplication,
    choice: str,
    system: QLocale | None = None,
    folder: Path = I18N_DIR,
) -> Installed:
    """Load the translations for ``choice`` ("system" or a code) into ``app`` and set the default
    locale. English loads only its plural forms: the source strings are English."""
    system = system if system is not None else QLocale.system()
    code = resolve(choice, system, available(folder))
    locale = formats_for(code, system)
    QLocale.setDefault(locale)
    installed = Installed(choice, code, locale)
    ours = QTranslator(app)  # for English, its plural forms only ("1 part", "2 parts")
    ours.setObjectName("crosstalk")
    if ours.load(f"{PREFIX}{code}", str(folder)):
        app.installTranslator(ours)
        installed.translators.append(ours)
    if code == SOURCE:
        return installed
    qt = QTranslator(app)
    qt.setObjectName("qtbase")
    if qt.load(QLocale(code), "qtbase", "_", qt_translations_dir()):
        app.installTranslator(qt)
        installed.translators.append(qt)
    return installed


def restart_command() -> list[str]:
    """The command that started this process, to run it again (Settings' Restart now)."""
    if getattr(sys, "frozen", False):  # the bundle: its executable is the program
        return [sys.executable, *sys.argv[1:]]
    return [sys.executable, *sys.orig_argv[1:]]


def restart() -> None:
    """Replace this process by a new one started the same way; it never returns."""
    command = restart_command()
    os.execv(command[0], command)  # noqa: S606 - our own command line, as started
