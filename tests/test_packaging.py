"""Fast checks of packaging/ and resources/ (no build: packaging/check.sh builds and installs).

They catch what would only show up in a frozen build much later: a desktop entry that launches
the wrong command, a lazily imported adapter outside the package the spec collects, a broken
script, build output that git would pick up.
"""

from __future__ import annotations

import ast
import configparser
import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
RESOURCES = ROOT / "resources"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(RESOURCES / "crosstalk.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_the_desktop_entry_starts_the_installed_command_with_its_icon() -> None:
    entry = desktop_entry()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert entry["Type"] == "Application"
    assert entry["Exec"] in scripts  # the same `crosstalk` the .deb puts on the PATH
    assert entry["Icon"] == "crosstalk"
    assert (RESOURCES / f"{entry['Icon']}.svg").is_file()
    assert entry["Terminal"] == "false"
    assert entry["StartupWMClass"] == "Crosstalk"  # ui/shell/app.py sets it
    assert "Network" in entry["Categories"].split(";")  # the Chat category requires it


def test_the_icon_is_a_square_svg() -> None:
    root = ET.parse(RESOURCES / "crosstalk.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = root.attrib["viewBox"].split()
    assert width == height


def test_every_lazily_imported_adapter_is_inside_app() -> None:
    # crosstalk.spec bundles every module of app/ (modules_under), so an adapter that
    # composition.py imports with importlib is frozen too, as long as it lives in app/.
    from app.composition import ADAPTERS

    spec = (PACKAGING / "crosstalk.spec").read_text()
    assert 'modules_under("app")' in spec
    for module, _class in ADAPTERS.values():
        assert module.startswith("app.")


def qt_modules_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "PySide6":
                found |= {f"PySide6.{alias.name}" for alias in node.names}
    return {name.split(".")[1] for name in found if name.startswith("PySide6.")}


def test_the_code_imports_no_qt_module_the_bundle_leaves_out() -> None:
    spec = (PACKAGING / "crosstalk.spec").read_text()
    excludes = spec[spec.index("excludes = [") : spec.index("]", spec.index("excludes = ["))]
    left_out = {name.split(".")[1] for name in re.findall(r'"(PySide6\.Qt\w+)"', excludes)}
    assert "QtWebEngineCore" in left_out
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "app").rglob("*.py")]:
        clash = qt_modules_imported(path) & left_out
        assert not clash, f"{path} imports {clash}, which packaging/crosstalk.spec excludes"


@pytest.mark.parametrize("script", ["build.sh", "check.sh", "make_deb.sh"])
def test_the_packaging_scripts_parse_and_are_executable(script: str) -> None:
    path = PACKAGING / script
    assert path.stat().st_mode & 0o111
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    done = subprocess.run([bash, "-n", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_build_output_stays_out_of_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    paths = ["packaging/build/venv/x", "packaging/dist/crosstalk/crosstalk",
             "packaging/dist/crosstalk_0.1.0_amd64.deb"]  # fmt: skip
    done = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout.split() == paths
