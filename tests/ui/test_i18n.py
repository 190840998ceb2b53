"""The window in the user's language: every text on screen goes through a translator, the
translations are current, the language setting picks them, and numbers and times follow the
locale (ui/common/i18n.py, ui/common/locale_format.py, docs/i18n.md)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, Qt, QTranslator
from PySide6.QtGui import QAction, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMenuBar,
    QPlainTextEdit,
    QSpinBox,
    QStatusBar,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from app.composition import Services
from app.history import ModelInput, ModelOutput, Reasoning, ToolCall, ToolResult, ToolResults
from app.history.entries import Usage
from app.pricing import DEFAULT_PRICES
from app.providers import Models
from app.settings import DEFAULT_PROVIDERS
from app.tools import BUILTIN
from tests.helpers.prerequisites import require
from tests.helpers.ui_driver import GatedProvider, Harness, OpenWindow, seed, services_for
from ui.common import i18n, locale_format
from ui.composer.chat_settings import ChatSettingsDialog
from ui.composer.system_dialog import SystemDialog
from ui.inspector.compress_dialog import CompressDialog
from ui.settings.dialog import SettingsDialog
from ui.settings.knowledge_tab import SUGGESTED
from ui.shell import help
from ui.shell.help import menu_words
from ui.shell.window_state import WindowState
from ui.transfer.dialog import ExportDialog, ImportDialog

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"
BIN = Path(shutil.which("pyside6-lupdate") or ROOT / ".venv" / "bin" / "pyside6-lupdate").parent
TITLE, QUESTION, ANSWER = "Kettle notes", "How hot should green tea water be?", "About 80 °C."
THOUGHT, TOOL_OUTPUT = "The user asks about tea.", "It is 14:02."
NNBSP = "\u202f"  # CLDR puts a narrow no-break space before AM/PM


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: Any, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


@pytest.fixture(autouse=True)
def _default_locale_back() -> Iterator[None]:
    """A test that sets the default locale leaves the next one what it found."""
    before = QLocale()
    yield
    QLocale.setDefault(before)


# --- the pseudo-translation ----------------------------------------------------------------


def ts_messages(path: Path) -> set[tuple[str, str]]:
    """(context, source) of every message of a .ts file."""
    root = ET.parse(path).getroot()
    return {
        (context.findtext("name") or "", message.findtext("source") or "")
        for context in root.iter("context")
        for message in context.iter("message")
    }


def is_qt_context(context: str) -> bool:
    return re.fullmatch(r"Q[A-Z]\w*", context) is not None


class Pseudo(QTranslator):
    """Answers ``⟦source⟧`` for every text the translations hold: Crosstalk's as the .ts
    files list them (what pyside6-lupdate could read), Qt's own where Qt translates it. Other
    texts asked for are noted (``missed``) and left as they are, as a real translator would:
    PySide then asks the base classes' contexts, and Qt substitutes %n in what comes back."""

    def __init__(self, ours: set[tuple[str, str]]) -> None:
        super().__init__()
        self.ours = ours
        self.qt = QTranslator()
        assert self.qt.load(QLocale("ja"), "qtbase", "_", i18n.qt_translations_dir())
        self.missed: dict[str, set[str]] = {}

    def translate(  # Qt override
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        if not source:
            return ""
        if (context, source) in self.ours:
            return f"⟦{source}⟧"
        if is_qt_context(context) and self.qt.translate(context, source, disambiguation, n):
            return f"⟦{source}⟧"
        self.missed.setdefault(source, set()).add(context)
        return ""

    def isEmpty(self) -> bool:  # Qt override
        return False


@pytest.fixture
def pseudo(qapp: QApplication) -> Iterator[Pseudo]:
    translator = Pseudo(ts_messages(I18N / "crosstalk_ja.ts"))
    qapp.installTranslator(translator)
    try:
        yield translator
    finally:
        qapp.removeTranslator(translator)


Found = list[tuple[str, str]]  # (where, text)


def _plain(text: str) -> str:
    if re.search(r"</?[a-z]+[^>]*>", text):  # a rich-text label: what it shows
        return QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def _where(widget: QWidget, what: str) -> str:
    name = widget.objectName()
    window = widget.window().windowTitle()
    return f"{type(widget).__name__}{'#' + name if name else ''} {what} in «{window}»"


def _actions(owner: QWidget, actions: list[QAction], found: Found) -> None:
    for action in actions:
        if action.isSeparator() or not action.isVisible():
            continue
        found.append((_where(owner, "action"), action.text()))
        if action.toolTip() != action.text().replace("&", ""):
            found.append((_where(owner, "action tooltip"), action.toolTip()))
        if isinstance(submenu := action.menu(), QMenu):
            found.append((_where(owner, "menu title"), submenu.title()))
            _actions(submenu, submenu.actions(), found)


def _item_view(view: QAbstractItemView, found: Found) -> None:
    model = view.model()
    if model is None:
        return
    for orientation, header in (
        (Qt.Orientation.Horizontal, getattr(view, "horizontalHeader", None)),
        (Qt.Orientation.Vertical, getattr(view, "verticalHeader", None)),
    ):
        if header is None or header().isHidden():
            continue
        count = model.columnCount() if orientation == Qt.Orientation.Horizontal else 0
        for section in range(count):
            text = model.headerData(section, orientation, Qt.ItemDataRole.DisplayRole)
            found.append((_where(view, f"header {section}"), str(text or "")))
    if isinstance(view, QTableWidget):
        for row in range(view.rowCount()):
            for column in range(view.columnCount()):
                if (item := view.item(row, column)) is not None:
                    found.append((_where(view, f"cell {row},{column}"), item.text()))


def texts_of(widget: QWidget, found: Found) -> None:
    """Every text ``widget`` shows a person, with where it is."""
    add = found.append
    if widget.isWindow():
        add((_where(widget, "window title"), widget.windowTitle()))
    add((_where(widget, "tooltip"), widget.toolTip()))
    if isinstance(widget, QLabel):
        add((_where(widget, "text"), _plain(widget.text())))
    if isinstance(widget, QAbstractButton):
        add((_where(widget, "text"), widget.text()))
    if isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
        add((_where(widget, "placeholder"), widget.placeholderText()))
    if isinstance(widget, QTextEdit) and widget.isReadOnly():
        document = widget.document()
        block = document.begin()
        while block.isValid():
            add((_where(widget, "document"), block.text()))
            block = block.next()
    if isinstance(widget, QTabWidget):
        for i in range(widget.count()):
            add((_where(widget, f"tab {i}"), widget.tabText(i)))
            add((_where(widget, f"tab {i} tooltip"), widget.tabToolTip(i)))
    if isinstance(widget, QComboBox):
        for i in range(widget.count()):
            add((_where(widget, f"item {i}"), widget.itemText(i)))
    if isinstance(widget, QGroupBox):
        add((_where(widget, "title"), widget.title()))
    if isinstance(widget, QAbstractSpinBox):
        add((_where(widget, "special value"), widget.specialValueText()))
    if isinstance(widget, QSpinBox | QDoubleSpinBox):
        add((_where(widget, "suffix"), widget.suffix()))
    if isinstance(widget, QAbstractItemView):
        _item_view(widget, found)
    if isinstance(widget, QMenu):
        add((_where(widget, "title"), widget.title()))
    if isinstance(widget, QStatusBar):
        add((_where(widget, "message"), widget.currentMessage()))
    if isinstance(widget, QMenu | QMenuBar) or widget.actions():
        _actions(widget, widget.actions(), found)


def on_screen(found: Found) -> None:
    """The texts of every window shown now, and of every menu any of them has."""
    for top in QApplication.topLevelWidgets():
        if not top.isVisible():
            continue
        for widget in [top, *top.findChildren(QWidget)]:
            if widget.isVisible() or isinstance(widget, QMenu):
                texts_of(widget, found)


_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
_LETTER = re.compile(r"[^\W\d_]")


def untranslated(text: str, data: list[str]) -> str:
    """What is left of ``text`` once translated parts and the user's data are taken out: ""
    when nothing with letters is."""
    rest = text.replace("&", "")
    while _WRAPPED.search(rest):  # a translated text inside another one, e.g. a reason
        rest = _WRAPPED.sub(" ", rest)
    for piece in data:
        rest = re.sub(rf"(?<!\w){re.escape(piece)}(?!\w)", " ", rest)
    rest = re.sub(r"(?<!\w)[A-Z](?!\w)", " ", rest)  # a key's letter: Ctrl+N
    return " ".join(rest.split()) if _LETTER.search(rest) else ""


def user_data(services: Services) -> list[str]:
    """What the window shows as it is: the user's and the models' words, names of things."""
    data = [TITLE, QUESTION, ANSWER, THOUGHT, TOOL_OUTPUT, str(services.data.root)]
    data += [str(services.data.log_file), *services.models.available()]
    for name, config in DEFAULT_PROVIDERS.items():
        data += [name, config.kind, config.base_url or "", *config.models]
    data += [spec.partition(":")[0] for spec in services.models.available()]
    data += [spec.partition(":")[2] for spec in services.models.available()]
    data += list(DEFAULT_PRICES)
    data += [model for names in SUGGESTED.values() for model in names]  # embedding models
    for name, tool in BUILTIN.items():  # told to the model in English, with their names
        data += [name, tool.spec.description]
    data += [i18n.native_name(code) for code in i18n.available()]  # each in its own words
    data += [f"{name}({{}})" for name in BUILTIN] + ["Crosstalk"]  # the product's name
    return sorted({piece for piece in data if piece}, key=len, reverse=True)


def visit_every_screen(harness: Harness, conversation_id: str) -> Found:
    """Open what a person can open, and note the texts of each: the window with a
    conversation and its menus, the inspector's tabs, the welcome, Settings' tabs, About,
    Shortcuts, This chat, the system instruction, compress, import and export, the model
    picker, the chat's Find bar, the list's search results, a message in the banner and in the
    status bar."""
    window, found = harness.window, []
    window.show_conversation(conversation_id)
    window.inspector.show()
    for tab in range(window.inspector.tabs.count()):
        window.inspector.tabs.setCurrentIndex(tab)
        QCoreApplication.processEvents()
        on_screen(found)

    def dialog(open_: Callable[[], object], kind: type[QDialog], tabs: str = "") -> None:
        open_()
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind)]
        harness.until(lambda: any(w.isVisible() for w in shown), kind.__name__)
        for each in shown:
            pages = getattr(each, tabs, None) if tabs else None
            for page in range(pages.count() if isinstance(pages, QTabWidget) else 1):
                if isinstance(pages, QTabWidget):
                    pages.setCurrentIndex(page)
                on_screen(found)
            each.close()

    dialog(window.open_settings, SettingsDialog, tabs="tabs")
    dialog(lambda: help.AboutDialog(window.services.data, window).open(), help.AboutDialog)
    rows = help.shortcut_rows(window.menuBar(), window.conversations.view.actions(),
                              enter_sends=window.services.settings.enter_sends)  # fmt: skip
    dialog(lambda: help.ShortcutsDialog(rows, window).open(), help.ShortcutsDialog)
    dialog(window.composer.chat_button.click, ChatSettingsDialog)
    dialog(window.edit_system, SystemDialog)
    dialog(window.compress_history, CompressDialog)
    dialog(window.export_conversations, ExportDialog)
    dialog(window.import_conversations, ImportDialog)
    picker = window.composer.model_picker
    picker.showPopup()
    harness.until(picker.popup.isVisible, "the model picker's popup")
    on_screen(found)
    picker.hidePopup()
    window.chat.find_bar.open()  # the chat's Find bar, with a word it finds
    window.chat.find_bar.prefill("tea")
    on_screen(found)
    window.chat.find_bar.close_bar()
    window.conversations.search.setText("green tea")  # the list's search results
    harness.until(lambda: not window.conversations.model.loading, "the search results")
    on_screen(found)
    window.conversations.search.clear()
    harness.until(lambda: not window.conversations.model.loading, "the list again")
    window.show_welcome()
    window.compress_history()  # with no conversation open: the banner says why not
    services = window.services  # the status bar says where the report is
    help.report_problem(services.data.log_file, services.keys.secrets(), window.statusBar())
    on_screen(found)
    return found


def make_conversation(services: Services) -> str:
    conversation_id = seed(services.library, TITLE, QUESTION, ANSWER)
    library = services.library
    conversation = library.open(conversation_id)
    library.append(conversation, ModelInput(text=QUESTION))
    call = ToolCall(id="c1", name="current_time", arguments="{}")
    library.append(
        conversation,
        ModelOutput(
            provider="scripted", model="echo", tool_calls=[call],
            reasoning=[Reasoning(provider="scripted", model="echo", text=THOUGHT)],
            usage=Usage(input=1234, output=56), meta={"latency_ms": 1200},
        ),
    )  # fmt: skip
    result = ToolResult(call_id="c1", name="current_time", content=TOOL_OUTPUT)
    library.append(conversation, ToolResults(results=[result]))
    library.append(
        conversation,
        ModelOutput(provider="scripted", model="echo", text=ANSWER, error="the server hung up",
                    partial=True),
    )  # fmt: skip
    return conversation_id


def test_every_text_on_screen_goes_through_translation(
    qtbot: Any, open_window: OpenWindow, services: Services, pseudo: Pseudo
) -> None:
    conversation_id = make_conversation(services)
    harness = open_window()  # built with the translator in place, as ui/shell/app.py does
    found = visit_every_screen(harness, conversation_id)
    data = user_data(services)
    assert len(found) > 300
    assert any("⟦" in text for _, text in found)

    missed_patterns = {
        source: re.compile(
            re.sub(r"\\\{\w*\\\}|%\d|%n", ".*", re.escape(source)), re.DOTALL
        )  # {name}, %1 and %n stand for anything
        for source in pseudo.missed
    }
    not_wrapped: dict[str, set[str]] = {}
    not_in_ts: dict[str, set[str]] = {}
    for where, text in found:
        if not (rest := untranslated(text, data)):
            continue
        asked = [s for s, pattern in missed_patterns.items() if pattern.fullmatch(text.strip())]
        if asked:
            contexts = ", ".join(sorted(pseudo.missed[asked[0]]))
            not_in_ts.setdefault(f"{asked[0]!r} (asked in {contexts})", set()).add(where)
        else:
            not_wrapped.setdefault(f"{text!r}" + (f" [left: {rest!r}]" if rest != text else ""),
                                   set()).add(where)  # fmt: skip

    def listing(found: dict[str, set[str]]) -> str:
        return "\n".join(f"  {text}  — {'; '.join(sorted(w))[:200]}" for text, w in found.items())

    problems = []
    if not_wrapped:
        problems.append(
            f"{len(not_wrapped)} texts on screen never go through a translator (wrap them in "
            f"self.tr(...) or a Context's tr, docs/i18n.md):\n{listing(not_wrapped)}"
        )
    if not_in_ts:
        problems.append(
            f"{len(not_in_ts)} texts go through tr() but are not in resources/i18n/*.ts, so "
            "no translation can reach them: lupdate cannot read the call (a helper such as "
            "_tr('...'), a context in a variable, tr = self.tr), or scripts/i18n was not run "
            f"since:\n{listing(not_in_ts)}"
        )
    assert not problems, "\n\n".join(problems)


# --- what lupdate can read ------------------------------------------------------------------


def _unreadable_calls(path: Path) -> Iterator[str]:
    """Calls with a literal text that pyside6-lupdate would miss or file under another context
    than the one looked up at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    where = path.relative_to(ROOT)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and _is_tr(inner.func):
                    yield (f"{where}:{inner.lineno}: a text translated inside an f-string "
                           "(lupdate does not look there: translate it before)")  # fmt: skip
        value = node.value if isinstance(node, ast.Assign) else None
        if isinstance(value, ast.Attribute) and value.attr == "tr":
            yield f"{where}:{node.lineno}: tr = ….tr (lupdate files its texts under no context)"
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func, first = node.func, node.args[0]
        literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
        if isinstance(first, ast.JoinedStr) and _is_tr(func):
            yield f"{where}:{node.lineno}: an f-string translated (use {{name}} and .format)"
        elif isinstance(func, ast.Name) and func.id in ("_tr", "tr", "_") and literal:
            yield (f"{where}:{node.lineno}: {func.id}({first.value!r}) is invisible to lupdate: "
                   "write Ctx.tr(...) with class Ctx(ui.common.i18n.Context), or "
                   "QCoreApplication.translate('Ctx', ...)")  # fmt: skip
        elif isinstance(func, ast.Attribute) and func.attr == "translate" and len(node.args) > 1:
            text = node.args[1]
            if isinstance(text, ast.Constant) and not isinstance(first, ast.Constant):
                yield (f"{where}:{node.lineno}: translate(<variable>, {text.value!r}): lupdate "
                       "needs the context written out")  # fmt: skip


def _is_tr(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr in ("tr", "translate")) or (
        isinstance(func, ast.Name) and func.id in ("_tr", "tr")
    )


def test_lupdate_can_read_every_translated_text() -> None:
    problems = [p for path in sorted((ROOT / "ui").rglob("*.py")) for p in _unreadable_calls(path)]
    assert not problems, "\n".join(problems)


def test_no_count_is_said_by_a_class_another_extends() -> None:
    """``self.tr(text, "", n)`` in a class another extends: PySide looks a count's text up
    under the instance's own class alone (there, not found, it comes back in English with the
    number in it, and the search stops), so the import dialog's progress line was English in
    every language. Such a class names its own context (``QCoreApplication.translate``)."""
    classes: dict[str, list[tuple[str, int]]] = {}  # a class: where it says a count
    extended: set[str] = set()
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ClassDef):
                continue
            extended |= {base.id for base in node.bases if isinstance(base, ast.Name)}
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "tr"
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == "self"
                    and len(call.args) >= 3
                ):
                    where = (str(path.relative_to(ROOT)), call.lineno)
                    classes.setdefault(node.name, []).append(where)
    said = [f"{file}:{line} ({name})" for name in extended & set(classes)
            for file, line in classes[name]]  # fmt: skip
    assert not said, said


# --- the translation files ------------------------------------------------------------------


def _tool(name: str) -> str:
    tool = BIN / name
    require(tool.exists(), f"{name} is not installed (it comes with PySide6-Essentials)")
    return str(tool)


def translation_sources() -> list[str]:
    """What scripts/i18n gives lupdate: every file of ui/, and the app/ files that mark texts
    (the notes' templates, app/notes/)."""
    marked = [p for p in (ROOT / "app").rglob("*.py") if "QT_TRANSLATE_NOOP(" in p.read_text()]
    files = [*(ROOT / "ui").rglob("*.py"), *marked]
    return sorted(str(p.relative_to(ROOT)) for p in files)


def test_the_ts_files_hold_every_text_of_the_code(tmp_path: Path) -> None:
    sources = translation_sources()
    assert any(s.startswith("app/notes/") for s in sources)
    wanted = {}
    for only in ([], ["-pluralonly"]):  # English holds only the plural forms
        fresh = tmp_path / f"crosstalk_xx{len(only)}.ts"
        subprocess.run(
            [_tool("pyside6-lupdate"), "-silent", "-no-obsolete", *only, *sources,
             "-ts", str(fresh)],
            cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
        wanted[bool(only)] = ts_messages(fresh)
    assert (I18N / "crosstalk_en.ts").is_file(), "English plurals are missing: run scripts/i18n"
    for ts in sorted(I18N.glob("crosstalk_*.ts")):
        wanted_here = wanted[ts.name == "crosstalk_en.ts"]
        held = ts_messages(ts)
        missing, obsolete = sorted(wanted_here - held), sorted(held - wanted_here)
        assert not missing and not obsolete, (
            f"{ts.name} is not current: run scripts/i18n\n"
            f"  missing: {missing[:20]}\n  no longer in the code: {obsolete[:20]}"
        )


def test_each_qm_is_compiled_from_its_ts(tmp_path: Path) -> None:
    pairs = sorted(I18N.glob("crosstalk_*.ts"))
    assert {p.stem for p in pairs} >= {"crosstalk_ja", "crosstalk_zh_CN"}
    for ts in pairs:
        qm = ts.with_suffix(".qm")
        assert qm.is_file(), f"{qm.name} is missing: run scripts/i18n"
        fresh = tmp_path / qm.name
        subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(fresh)],
                       check=True, capture_output=True)  # fmt: skip
        assert fresh.read_bytes() == qm.read_bytes(), f"{qm.name} is stale: run scripts/i18n"


def test_the_bundle_and_the_docs_know_the_translations() -> None:
    spec = (ROOT / "packaging" / "crosstalk.spec").read_text()
    assert '"i18n"' in spec or "resources/i18n" in spec
    check = (ROOT / "scripts" / "check").read_text()
    assert "fonts-noto-cjk" in check  # CJK text renders in tests and screenshots
    assert (ROOT / "docs" / "i18n.md").is_file()


# --- choosing the language ------------------------------------------------------------------


def test_the_languages_offered_are_the_translations_present(tmp_path: Path) -> None:
    offered = i18n.available()
    assert offered[0] == "en" and {"ja", "zh_CN"} <= set(offered)
    (tmp_path / "crosstalk_ko.ts").write_text("<TS/>")
    (tmp_path / "crosstalk_fr.qm").write_bytes(b"")  # a bundle holds only the .qm files
    assert i18n.available(tmp_path) == ["en", "fr", "ko"]  # a new .ts is a new language
    names = [i18n.native_name(code) for code in ("en", "ja", "zh_CN", "ko")]
    assert names == ["English", "日本語", "简体中文", "한국어"]


@pytest.mark.parametrize(
    ("desktop", "shown"),
    [("ja_JP", "ja"), ("zh_CN", "zh_CN"), ("zh_SG", "zh_CN"), ("zh_TW", "en"), ("de_DE", "en"),
     ("en_GB", "en"), ("C", "en")],
)  # fmt: skip
def test_system_follows_the_desktop_where_there_is_a_translation(desktop: str, shown: str) -> None:
    assert i18n.resolve(i18n.SYSTEM, QLocale(desktop), ["en", "ja", "zh_CN"]) == shown


def test_the_setting_picks_japanese_with_qts_own_translations(
    qapp: QApplication, data_dir: Any
) -> None:
    state = WindowState(data_dir)
    assert state.language() == "system"
    state.save_language("ja")
    installed = i18n.install(qapp, WindowState(data_dir).language(), system=QLocale("de_DE"))
    try:
        assert installed.code == "ja" and installed.choice == "ja"
        assert QLocale().language() == QLocale.Language.Japanese
        assert installed.qt_translated  # standard buttons and dialogs from qtbase_ja.qm
        qt = QCoreApplication.translate("QPlatformTheme", "Cancel")
        assert qt != "Cancel"  # Qt's own words, in Japanese
    finally:
        for translator in installed.translators:
            qapp.removeTranslator(translator)


def test_english_on_a_posix_locale_still_groups_digits(qapp: QApplication) -> None:
    installed = i18n.install(qapp, i18n.SYSTEM, system=QLocale.c())
    try:
        assert installed.code == "en" and not installed.qt_translated
        assert installed.locale.name() == "en_US"
        assert locale_format.count(1234567) == "1,234,567"
        # English loads its plural forms only: "1 token", "2 tokens", never "1 token(s)"
        plural = [
            QCoreApplication.translate("ConversationRows", "%n token(s)", "", n) for n in (1, 2)
        ]
        assert plural == ["1 token", "2 tokens"]
    finally:
        for translator in installed.translators:
            qapp.removeTranslator(translator)


def test_the_language_is_chosen_in_settings_and_applies_on_restart(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    window = open_window().window
    window.open_settings()
    (dialog,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, SettingsDialog)]
    dialog.tabs.setCurrentWidget(dialog.language.parentWidget())  # the Language tab
    combo = dialog.language
    assert [combo.itemData(i) for i in range(combo.count())] == ["system", "en", "ja", "zh_CN"]
    assert combo.currentData() == "system" and not dialog.restart_button.isVisible()
    combo.setCurrentIndex(combo.findData("ja"))
    assert dialog.restart_note.isVisible() and dialog.restart_button.isVisible()
    assert dialog.restart_note.text() == "Applies when Crosstalk restarts."
    for combo in (dialog.default_model, dialog.title_model):  # valid settings, to save
        combo.setCurrentText("local:smollm2")
    qtbot.mouseClick(dialog.restart_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and not dialog.error.isVisible()
    assert WindowState(services.data).language() == "ja"  # kept in window.ini
    assert window.restart_requested and not window.isVisible()  # ui/shell/app.py starts it again


def test_restart_runs_the_same_command_again() -> None:
    command = i18n.restart_command()
    assert Path(command[0]).name.startswith("python")
    assert "pytest" in " ".join(command)  # this process was started as pytest


# --- numbers and times ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "count", "money", "size"),
    [("en_US", "1,234,567", "$0.0012", "1.50 KiB"),
     ("ja_JP", "1,234,567", "$0.0012", "1.50 KiB"),
     ("zh_CN", "1,234,567", "$0.0012", "1.50 KiB"),
     ("de_DE", "1.234.567", "0,0012\xa0$", "1,50 KiB")],
)  # fmt: skip
def test_numbers_follow_the_locale(locale: str, count: str, money: str, size: str) -> None:
    QLocale.setDefault(QLocale(locale))
    assert locale_format.count(1234567) == count
    assert locale_format.money(0.00123) == money
    assert locale_format.size(1536) == size
    assert locale_format.money(None) == "no price"
    assert locale_format.percent(0.25) == "25%"


def test_money_keeps_the_digits_a_small_call_needs() -> None:
    QLocale.setDefault(QLocale("en_US"))
    assert [locale_format.money(x) for x in (0, 0.00123, 0.0456, 12.5)] == [
        "$0", "$0.0012", "$0.046", "$12.50",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "today", "yesterday", "last_week", "last_year"),
    [("en_US", f"2:02{NNBSP}PM", f"Yesterday 2:02{NNBSP}PM", f"Friday 2:02{NNBSP}PM", "3/4/25"),
     ("ja_JP", "14:02", "Yesterday 14:02", "金曜日 14:02", "2025/03/04"),
     ("zh_CN", "14:02", "Yesterday 14:02", "星期五 14:02", "2025/3/4")],
)  # fmt: skip
def test_when_says_times_as_the_locale_does(
    locale: str, today: str, yesterday: str, last_week: str, last_year: str
) -> None:
    QLocale.setDefault(QLocale(locale))
    now = datetime(2026, 6, 10, 18, 30).astimezone()  # a Wednesday
    at = now.replace(hour=14, minute=2)
    assert locale_format.when(at, now=now) == today
    assert locale_format.when(at - timedelta(days=1), now=now) == yesterday
    assert locale_format.when(at - timedelta(days=5), now=now) == last_week
    assert locale_format.when(datetime(2025, 3, 4, 9).astimezone(), now=now) == last_year
    assert locale_format.when(at.isoformat(), now=now) == today  # the history's stamps
    assert locale_format.when(None) == locale_format.when("not a time") == ""


def test_yesterday_is_translated(qapp: QApplication, pseudo: Pseudo) -> None:
    QLocale.setDefault(QLocale("en_US"))
    now = datetime(2026, 6, 10, 18, 30).astimezone()
    assert locale_format.when(now - timedelta(days=1), now=now) == f"⟦Yesterday 6:30{NNBSP}PM⟧"


@pytest.mark.parametrize(
    ("text", "words"),
    [("&New chat", "New chat"), ("新聊天(&N)", "新聊天"), ("ファイル(&F)", "ファイル"),
     ("Save && quit", "Save & quit")],
)  # fmt: skip
def test_the_shortcut_list_shows_menu_words_without_their_mnemonic(text: str, words: str) -> None:
    assert menu_words(text) == words
