"""Every use Crosstalk makes of another project's private API: what, where, why, and the
release it was checked against.

A private name may change in any release, silently. So each use is listed in ``USES``, is made
by one function (here, or for the two Qt ones in ``ui/shell/``, since ``app/`` never imports
Qt) that its site calls, and has a test (``tests/test_private_apis.py``,
``tests/ui/test_private_apis_qt.py``) that fails when a release changes what the use relies
on. Each use also has a way out that still works, only slower or noisier: the test is what
says the way out is being taken. A new use goes here, with its test.

Nothing here imports what it reaches into: ``app/cli/parser.py`` imports this module on every
command's start.
"""

from __future__ import annotations

import _thread
import importlib
import importlib.machinery
import importlib.util
import sys
import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import argparse


class PrivateUse(NamedTuple):
    private: str  # the private name relied on
    project: str  # whose it is (the distribution, or "python" for the standard library)
    checked: str  # the version it was checked against
    function: str  # "module:function" that makes the use
    site: str  # the file that calls it
    why: str


USES: tuple[PrivateUse, ...] = (
    PrivateUse(
        "bpe_openai._bindings",
        "bpe-openai",
        "0.1.4",
        "app.private_apis:bpe_openai_bindings",
        "app/context/tokens.py",
        "importing the bpe_openai package reads all its vocabularies into Python dicts that "
        "counting never uses (slow, and much memory); its compiled module alone has the "
        "tokenizers. Otherwise: the package is imported, slower.",
    ),
    PrivateUse(
        "openai._vendor.httpx_aiohttp",
        "openai",
        "3.57.0",
        "app.private_apis:skip_openai_aiohttp",
        "app/providers/openai_common.py",
        "the SDK imports its optional aiohttp transport whenever aiohttp is installed (s3fs "
        "brings it), in every process that streams; Crosstalk's client uses httpx2 alone. "
        "Otherwise: aiohttp is imported, slower.",
    ),
    PrivateUse(
        "argparse._SubParsersAction._choices_actions, ._ChoicesPseudoAction, ._name_parser_map",
        "python",
        "3.11.7",
        "app.private_apis:list_command_only",
        "app/cli/parser.py",
        "only the parser of the command being run is made (argparse looks up translations "
        "and the terminal's width for each); the others must still be listed in the help and "
        "the choices. Otherwise: none (argparse's help and errors would break).",
    ),
    PrivateUse(
        "sqlite_utils.Migrations._migrations",
        "sqlite-utils",
        "4.2.1",
        "app.private_apis:migration_names",
        "app/store/index_schema.py",
        "an index migrated by a newer Crosstalk is refused: that needs the names of the "
        "migrations this one knows, which Migrations keeps only in this list. "
        "Otherwise: none (opening the index would fail).",
    ),
    PrivateUse(
        "shibokensupport.feature._mod_uses_pyside",
        "PySide6-Essentials",
        "6.11.3",
        "ui.shell.pyside_feature:stop_source_scans",
        "ui/shell/main.py",
        "after PySide6 is imported it reads the source of every module imported next, for "
        "__feature__, which Crosstalk never uses, and keeps the lines in linecache: a slower "
        "start and more memory. Otherwise: the scans go on, slower.",
    ),
    PrivateUse(
        "asyncio.BaseEventLoop._asyncgen_firstiter_hook, ._asyncgen_finalizer_hook",
        "python",
        "3.11.7",
        "ui.shell.event_loop:asyncgen_hooks",
        "ui/shell/app.py",
        "qasync runs Qt's loop, never asyncio's run_forever, which installs these; without "
        "them an SDK stream left unfinished is closed outside any loop and httpcore fails. "
        "Otherwise: none (such streams would fail when collected).",
    ),
)


# --- bpe-openai ------------------------------------------------------------------------------

BPE_BINDINGS = "bpe_openai._bindings"
_bpe_loading = _thread.allocate_lock()  # (threading itself is not imported for the parser)


def bpe_openai_bindings() -> Any:
    """bpe-openai's compiled module (``tokenizer_for_encoding``), loaded without the package
    around it. The module is put where the package looks for it, so importing the package
    later reuses it (a PyO3 module can be initialised only once)."""
    with _bpe_loading:  # two threads counting at once must not both initialise it
        if loaded := sys.modules.get(BPE_BINDINGS):
            return loaded
        return _load_bpe_bindings()


def _load_bpe_bindings() -> Any:
    package = importlib.util.find_spec("bpe_openai")
    where = package.submodule_search_locations if package else None
    spec = importlib.machinery.PathFinder.find_spec(BPE_BINDINGS, where)
    if spec is None or spec.loader is None:  # laid out otherwise: the package's own way
        with warnings.catch_warnings():  # it loads its data with a deprecated importlib call
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(BPE_BINDINGS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[BPE_BINDINGS] = module
    return module


# --- openai ----------------------------------------------------------------------------------

OPENAI_AIOHTTP = "openai._vendor.httpx_aiohttp"


def skip_openai_aiohttp() -> None:
    """Make the OpenAI SDK skip its aiohttp transport, as when aiohttp is absent: it imports it
    inside ``try: ... except ImportError``, and a module set to None fails to import (call it
    before the SDK is imported)."""
    sys.modules.setdefault(OPENAI_AIOHTTP, None)  # type: ignore[arg-type]


# --- argparse --------------------------------------------------------------------------------


def list_command_only(
    sub: argparse._SubParsersAction[Any], name: str, help: str, stand_in: object
) -> None:
    """``name`` among ``sub``'s commands (in the help's list, and in the choices a mistyped
    command is told) with ``stand_in`` for its parser, which argparse never makes."""
    sub._choices_actions.append(sub._ChoicesPseudoAction(name, (), help))
    sub._name_parser_map[name] = stand_in


# --- sqlite-utils ----------------------------------------------------------------------------


def migration_names(migrations: Any) -> list[str]:
    """The names of the steps registered on a ``sqlite_utils.Migrations``, in order."""
    return [step.name for step in migrations._migrations]
