"""tests/helpers/prerequisites.py: a missing prerequisite skips a test here and fails it under
CI=true, naming what is missing, before the test's fixtures are set up."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers import prerequisites

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "helpers" / "prerequisite_probe.py"


def outcomes(tmp_path: Path, ci: str | None) -> dict[str, tuple[str, str]]:
    """Each probe test's name -> (passed, skipped, failure or error; its message), run in a
    pytest of its own with ``CI`` set to ``ci`` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    report = tmp_path / f"report-{ci}.xml"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(PROBE), "-p", "no:cacheprovider", "-q",
         f"--junitxml={report}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert report.exists(), done.stdout + done.stderr
    found = {}
    for case in ET.parse(report).iter("testcase"):
        name = case.get("name", "")
        results = [(child.tag, child.get("message", "")) for child in case]
        kept = [r for r in results if r[0] in ("skipped", "failure", "error")]
        found[name] = kept[0] if kept else ("passed", "")
    return found


MARKED = "needs a program that is never installed: crosstalk-no-such-program not found"
CLASS = "needs it for the whole class: crosstalk-no-such-program not found"
REQUIRED = "npm install failed (offline?)"


def test_locally_a_missing_prerequisite_skips_saying_what(tmp_path: Path) -> None:
    assert outcomes(tmp_path, None) == {
        "test_marked_missing": ("skipped", MARKED),  # before its fixture (which would fail)
        "test_marked_present": ("passed", ""),
        "test_in_it": ("skipped", CLASS),
        "test_required_missing": ("skipped", REQUIRED),
        "test_required_present": ("passed", ""),
    }


@pytest.mark.parametrize("ci", ["true", "TRUE", "1"])
def test_under_ci_a_missing_prerequisite_fails_with_its_name(tmp_path: Path, ci: str) -> None:
    said = "Failed: missing prerequisite (CI=true, so not skipped): "
    assert outcomes(tmp_path, ci) == {
        "test_marked_missing": ("error", f'failed on setup with "{said}{MARKED}"'),
        "test_marked_present": ("passed", ""),
        "test_in_it": ("error", f'failed on setup with "{said}{CLASS}"'),
        "test_required_missing": ("failure", said + REQUIRED),
        "test_required_present": ("passed", ""),
    }


@pytest.mark.parametrize(
    ("value", "ci"), [("true", True), ("True", True), ("1", True), ("", False), ("false", False),
                      ("0", False), (None, False)],
)  # fmt: skip
def test_ci_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str | None, ci: bool
) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert prerequisites.in_ci() is ci
