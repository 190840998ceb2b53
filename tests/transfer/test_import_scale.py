"""Large ChatGPT exports: read as a stream (memory follows the largest conversation, not the
file), written in batches, and an import stopped with Ctrl-C part way leaves whole
conversations only, which importing again completes without writing anything twice
(bench/import_scale.py has the figures for a 1 GB export)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.paths import DataDir
from app.store import Library
from app.store.transcript import SUFFIX
from app.transfer import importer
from bench import chatgpt_export
from tests.helpers.signals import interruptible

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]

MEASURED = """
import json, resource, sys
from pathlib import Path
from app.paths import DataDir
from app.store import Library
from app.transfer import import_paths

library = Library(DataDir(Path(sys.argv[2])))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report = import_paths(library, [Path(sys.argv[1])], dry_run=sys.argv[3] == "dry")
library.close()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
indexer = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # (ended: its peak)
print(json.dumps({"imported": len(report.imported), "failed": len(report.failed),
                  "before_mb": before / 1024, "peak_mb": after / 1024,
                  "indexer_mb": indexer / 1024}))
"""


def measured(export: Path, home: Path, how: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, str(export), str(home), how],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_150_mb_export_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """Every conversation of a 150 MB export (three of them megabytes long) read, converted
    and decided on (a dry run: all but the writing): the process never holds more than a
    fraction of the file."""
    export = tmp_path / "conversations.json"
    size = chatgpt_export.write(export, 1400, huge_every=500)
    assert size > 140e6
    figures = measured(export, tmp_path / "home", "dry")
    assert figures["imported"] >= 1400 and figures["failed"] == 0
    assert figures["peak_mb"] - figures["before_mb"] < 100  # the file is 150 MB


def test_a_large_export_is_written_in_bounded_memory(tmp_path: Path) -> None:
    """Written in batches, each indexed at once: memory stays bounded by the batch, not the
    file (a batch holds at most ``BATCH_CHARACTERS`` of text and its terms), in the importer
    and in its indexer (a process of its own: app/transfer/batch_indexer.py)."""
    export = tmp_path / "conversations.json"
    size = chatgpt_export.write(export, 400, huge_every=200)
    assert size > 35e6
    figures = measured(export, tmp_path / "home", "write")
    assert figures["imported"] >= 400 and figures["failed"] == 0
    assert figures["peak_mb"] - figures["before_mb"] < 150
    assert 0 < figures["indexer_mb"] < 200  # all of it, Python and SQLite included
    data = DataDir(tmp_path / "home")
    assert len(conversations(data)) >= 400
    library = Library(data)
    try:
        assert library.search("東京")  # indexed as written
    finally:
        library.close()


def test_a_gigabyte_export_is_imported_in_bounded_memory(tmp_path: Path) -> None:
    """The issue's own size (bench/import_scale.py times it): a 1 GB ChatGPT export of 10,000
    conversations, every one imported, the importer and its indexer each holding a few
    batches, not the file (measured: 280 MB and 150 MB resident at their peaks, the
    interpreter, numpy and SQLite's cache included)."""
    export = tmp_path / "conversations.json"
    assert chatgpt_export.write(export, 10_000) > 1e9
    figures = measured(export, tmp_path / "home", "write")
    assert figures["imported"] == 10_000 and figures["failed"] == 0
    assert figures["peak_mb"] - figures["before_mb"] < 300
    assert 0 < figures["indexer_mb"] < 250


def transcripts(data: DataDir) -> set[str]:
    return {p.stem for p in data.conversations.glob(f"*{SUFFIX}")}


def conversations(data: DataDir) -> set[str]:
    """The conversations (not projects) the index holds, each read whole; the index holds
    every transcript, no more."""
    library = Library(data)
    try:
        assert set(library.index.file_states()) == transcripts(data)
        sql = "SELECT id FROM conversations WHERE kind = 'conversation'"
        found = {row[0] for row in library.index.conn.execute(sql)}
        for conversation_id in found:
            assert list(library.open(conversation_id).history)
        return found
    finally:
        library.close()


def test_ctrl_c_part_way_then_again_imports_the_rest_once(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    chatgpt_export.write(export, 3 * importer.BATCH_CONVERSATIONS, huge_every=0)
    # what a whole import makes, for comparison
    whole = DataDir(tmp_path / "whole")
    assert measured(export, whole.root, "write")["failed"] == 0
    expected = conversations(whole)

    target = DataDir(tmp_path / "target")
    env = os.environ | {"CROSSTALK_HOME": str(target.root)}
    command = [sys.executable, "-m", "app.cli", "import", str(export)]
    process = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=interruptible,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(transcripts(target)) < 130:  # a batch is in
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    first = {line.split()[0] for line in out.splitlines()}
    made = conversations(target)  # each whole and indexed
    assert first == made and 100 <= len(made) < len(expected)

    again = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    second = {line.split()[0] for line in again.stdout.splitlines()}
    assert not second & first  # nothing imported twice
    assert first | second == conversations(target)
    assert len(first | second) == len(expected)  # the rest, and only the rest
