"""Each private API Crosstalk uses (app/private_apis.py) still is what the use relies on.

These fail, never skip, when a release of the project changes it: the use's way out may keep
Crosstalk working, only slower, and nothing else would say so. The two Qt uses are tested in
tests/ui/test_private_apis_qt.py.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlite_utils import Database, Migrations

from app import private_apis
from app.private_apis import USES

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# --- the list ---------------------------------------------------------------------------------


@pytest.mark.parametrize("use", USES, ids=lambda use: use.private)
def test_each_use_is_made_by_its_function_and_its_site_calls_it(
    use: private_apis.PrivateUse,
) -> None:
    module_name, name = use.function.split(":")
    function = getattr(importlib.import_module(module_name), name)
    assert callable(function)
    assert name in (ROOT / use.site).read_text(encoding="utf-8"), f"{use.site} calls {name}"
    assert use.checked and use.why and use.project


def test_the_list_names_each_use_once() -> None:
    assert len({use.function for use in USES}) == len(USES) == 6


# --- bpe-openai: its compiled module, without the package ----------------------------------


def test_bpe_openai_keeps_its_tokenizers_in_a_compiled_module_of_its_own() -> None:
    package = importlib.util.find_spec("bpe_openai")
    assert package is not None and package.submodule_search_locations
    found = importlib.machinery.PathFinder.find_spec(
        private_apis.BPE_BINDINGS, package.submodule_search_locations
    )
    assert found is not None and found.loader is not None, "no bpe_openai/_bindings module"
    counted = run_python(
        """
        import sys
        from app.private_apis import bpe_openai_bindings
        tokenizer = bpe_openai_bindings().tokenizer_for_encoding("o200k_base")
        print(tokenizer.count("hello world"), len(tokenizer.encode("hello world")),
              "bpe_openai.compat" in sys.modules)
        """
    )
    assert counted == "2 2 False"  # counted, and the package's vocabulary tables not built


def test_the_bpe_openai_package_imported_later_reuses_the_module_loaded_alone() -> None:
    said = run_python(
        """
        import sys
        from app.private_apis import bpe_openai_bindings
        alone = bpe_openai_bindings()
        import bpe_openai
        print(sys.modules["bpe_openai._bindings"] is alone,
              bpe_openai.get_encoding("o200k_base").encode("hello world"))
        """
    )
    assert said == "True [24912, 2375]"


# --- openai: its aiohttp transport, skipped -------------------------------------------------


def test_openai_imports_its_aiohttp_transport_by_that_name_unless_skipped() -> None:
    by_default = run_python(
        """
        import sys
        import openai
        print("openai._vendor.httpx_aiohttp" in sys.modules, "aiohttp" in sys.modules)
        """
    )
    assert by_default == "True True", "the SDK no longer imports openai._vendor.httpx_aiohttp"
    skipped = run_python(
        """
        import sys
        from app.private_apis import skip_openai_aiohttp
        skip_openai_aiohttp()
        import openai
        openai.AsyncOpenAI(api_key="k", base_url="http://127.0.0.1:9/v1")
        print("aiohttp" in sys.modules, sys.modules["openai._vendor.httpx_aiohttp"])
        """
    )
    assert skipped == "False None"


# --- argparse: a command listed without its parser -----------------------------------------


def test_argparse_lists_a_command_whose_parser_was_never_made(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = argparse.ArgumentParser(prog="crosstalk")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the conversations")
    stand_in = object()
    private_apis.list_command_only(sub, "show", "show one conversation", stand_in)
    assert sub._name_parser_map["show"] is stand_in
    assert [action.dest for action in sub._get_subactions()] == ["list", "show"]
    help_text = parser.format_help()
    assert "show one conversation" in help_text and "{list,show}" in help_text
    with pytest.raises(SystemExit):
        parser.parse_args(["shwo"])
    assert "(choose from 'list', 'show')" in capsys.readouterr().err
    assert parser.parse_args(["list"]).command == "list"


# --- sqlite-utils: the migrations this Crosstalk knows --------------------------------------


def test_sqlite_utils_migrations_keep_their_steps_in_order() -> None:
    steps = Migrations("test.private")

    @steps()
    def m001_first(db: Database) -> None:
        db.execute("CREATE TABLE a (x)")

    @steps()
    def m002_second(db: Database) -> None:
        db.execute("CREATE TABLE b (x)")

    assert private_apis.migration_names(steps) == ["m001_first", "m002_second"]
    db = Database(memory=True)
    steps.apply(db)
    assert [m.name for m in steps.applied(db)] == private_apis.migration_names(steps)
