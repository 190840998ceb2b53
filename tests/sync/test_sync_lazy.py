"""The command line stays light: neither ``crosstalk --help`` nor any command but ``sync setup``
imports the storage libraries or cryptography (s3fs and botocore alone take about a second)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

STORAGE = ("fsspec", "s3fs", "botocore", "aiobotocore", "webdav4", "cryptography", "moto")
WRAPPER = f"""
import json, sys
from app.cli.main import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:  # argparse's --help
    code = exit.code
print(json.dumps(sorted(m for m in {STORAGE!r} if m in sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def loaded(*args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )  # fmt: skip
    return json.loads(result.stderr.strip().splitlines()[-1]), result


def test_help_and_status_import_no_storage_library(tmp_path: Path) -> None:
    for args in (["--help"], ["sync", "--help"], ["sync", "setup", "--help"], ["sync", "status"],
                 ["list"]):  # fmt: skip
        modules, result = loaded(*args)
        assert result.returncode == 0, (args, result.stderr)
        assert modules == [], (args, modules)
    (tmp_path / "drive").mkdir()
    modules, result = loaded("sync", "setup", str(tmp_path / "drive"))
    assert result.returncode == 0, result.stderr
    assert "fsspec" in modules and not {"s3fs", "botocore", "webdav4", "cryptography"} & set(
        modules
    )  # a folder needs neither S3, WebDAV nor (unencrypted) cryptography
    modules, result = loaded("sync", "status")
    assert result.returncode == 0 and "encrypted: no" in result.stdout and modules == []
