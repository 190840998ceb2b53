"""The house's shape: modules small enough to hold one idea, packages that say what they own.

The import order of the packages and the absence of cycles are import-linter's contracts
(``pyproject.toml``, run by ``scripts/check``); these are the rules it cannot express.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LONGEST = 600
# tables written by a script, not by hand: their length is data
GENERATED = {"app/store/unicode_classes.py"}


def _modules() -> list[Path]:
    return sorted(p for folder in ("app", "ui") for p in (ROOT / folder).rglob("*.py"))


def test_no_module_is_longer_than_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _modules()
        if str(path.relative_to(ROOT)) not in GENERATED
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert long == {}, f"split these into their ideas (at most {LONGEST} lines each): {long}"


def test_the_generated_tables_exist() -> None:
    """An exception for a file that is gone would hide the next one given its name."""
    assert all((ROOT / name).is_file() for name in GENERATED)


@pytest.mark.parametrize(
    "package",
    sorted(
        str(p.parent.relative_to(ROOT))
        for folder in ("app", "ui")
        for p in (ROOT / folder).rglob("__init__.py")
    ),
)
def test_every_package_says_what_it_owns(package: str) -> None:
    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree) or ""
    assert len(docstring.split()) >= 8, f"{package}/__init__.py: say what the package owns"


def test_ui_is_one_folder_of_feature_packages() -> None:
    """A module directly in ``ui/`` would be a room with no floor: each belongs to a package."""
    loose = sorted(p.name for p in (ROOT / "ui").glob("*.py") if p.name != "__init__.py")
    assert loose == []
