"""Thousands of damaged files through every importer: no crash, a clear error, the library safe.

Each seed file (one per format) is mutated by a seeded mutator, at the byte level (flips,
cuts, repeats, stray JSON tokens) and at the level of its structure (a value of the wrong
type, a missing key, a cycle, a row of another type). Every result must be a report: each
failure names the file and says what was expected; conversations already in the library keep
their bytes; what was imported is exactly what the report lists, and each of those loads.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sqlite3
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.store import Library, transcript
from app.transfer import export, import_paths
from tests.helpers.llm_logs import make_logs_db
from tests.transfer.conftest import FIXTURES, snapshot

ROUNDS = 400  # per seed file; six seeds
TOKENS = [
    b"null",
    b"[]",
    b"{}",
    b'"x"',
    b"1e999",
    b"-1",
    b"true",
    b'"\\ud800"',
    b",",
    b"]",
    b"}",
    b'"',
]
ODD_VALUES: list[Any] = [None, 0, -1, 1.5, 10**30, "", "x" * 50, [], {}, [[]], {"a": None}, True]


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buffer:
            break
        at = rng.randrange(len(buffer))
        choice = rng.randrange(5)
        if choice == 0:
            buffer[at] = rng.randrange(256)
        elif choice == 1:
            del buffer[at : at + rng.randint(1, 64)]
        elif choice == 2:
            buffer[at:at] = buffer[at : at + rng.randint(1, 64)]
        elif choice == 3:
            buffer[at:at] = rng.choice(TOKENS)
        else:
            del buffer[at:]
    return bytes(buffer)


def _nodes(value: Any) -> Iterator[tuple[Any, Any]]:
    """(container, key) for every value inside ``value``."""
    if isinstance(value, dict):
        for key in list(value):
            yield value, key
            yield from _nodes(value[key])
    elif isinstance(value, list):
        for index in range(len(value)):
            yield value, index
            yield from _nodes(value[index])


def mutate_structure(value: Any, rng: random.Random) -> Any:
    places = list(_nodes(value))
    for _ in range(rng.randint(1, 3)):
        if not places:
            break
        container, key = rng.choice(places)
        choice = rng.randrange(4)
        try:
            if choice == 0:
                container[key] = rng.choice(ODD_VALUES)
            elif choice == 1 and isinstance(container, dict):
                del container[key]
            elif choice == 2 and isinstance(container[key], str):
                other_key = rng.choice(places)[1]  # a link to somewhere else: maybe a cycle
                if isinstance(other_key, str):
                    container[key] = other_key
            else:
                container[key] = rng.choice(ODD_VALUES)
        except (KeyError, IndexError):
            pass
        places = list(_nodes(value))
    return value


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return mutate_bytes(data, rng)
    return json.dumps(mutate_structure(json.loads(data), rng)).encode()


def mutate_zip(data: bytes, rng: random.Random, folder: Path) -> bytes:
    if rng.random() < 0.3:
        return mutate_bytes(data, rng)
    source = folder / "source.zip"
    source.write_bytes(data)
    target = folder / "target.zip"
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        victim = rng.choice(zin.namelist())
        for name in zin.namelist():
            member = zin.read(name)
            if name == victim:
                member = mutate_json(member, rng)
            zout.writestr(name, member)
    return target.read_bytes()


def mutate_sqlite(data: bytes, rng: random.Random, folder: Path) -> bytes:
    if rng.random() < 0.3:
        return mutate_bytes(data, rng)
    path = folder / "mutated.db"
    path.write_bytes(data)
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("select name from sqlite_master where type = 'table'")]
    tables = [t for t in tables if not t.endswith(("_fts", "_data", "_idx", "_docsize", "_config"))]
    for _ in range(rng.randint(1, 3)):
        table = rng.choice(tables)
        columns = [r[1] for r in db.execute(f"pragma table_info([{table}])")]
        value = rng.choice([None, 7, -1, 2.5, "", "zz", b"\x00\xff", "01jthread0000000000000000c"])
        with_rows = db.execute(f"select rowid from [{table}]").fetchall()
        if not with_rows or not columns:
            continue
        rowid = rng.choice(with_rows)[0]
        column = rng.choice(columns)
        with contextlib.suppress(sqlite3.Error):  # e.g. an integer primary key refuses text
            if rng.random() < 0.2:
                db.execute(f"delete from [{table}] where rowid = ?", [rowid])
            else:
                db.execute(f"update [{table}] set [{column}] = ? where rowid = ?", [value, rowid])
    db.commit()
    db.close()
    return path.read_bytes()


def seeds(folder: Path) -> dict[str, tuple[bytes, str, Callable[..., bytes]]]:
    """name -> (seed bytes, file name to import it as, mutator)."""
    home = Library(DataDir(folder / "seed-home"))
    conversation = home.create()
    home.append(conversation, ModelInput(text="Name three rivers"))
    home.append(conversation, ModelOutput(provider="local", model="m", text="Seine, Po, Nile"))
    fork = home.fork(conversation.id, 2)
    export(home, [conversation.id], "json", folder / "one.json")
    export(home, [conversation.id, fork.id], "zip", folder / "all.zip")
    home.close()
    return {
        "chatgpt": (
            (FIXTURES / "chatgpt" / "conversations.json").read_bytes(),
            "conversations.json",
            mutate_json,
        ),
        "claude": (
            (FIXTURES / "claude" / "conversations.json").read_bytes(),
            "conversations.json",
            mutate_json,
        ),
        "openwebui": (
            (FIXTURES / "openwebui" / "chat-export.json").read_bytes(),
            "chats.json",
            mutate_json,
        ),
        "native": ((folder / "one.json").read_bytes(), "one.json", mutate_json),
        "archive": ((folder / "all.zip").read_bytes(), "all.zip", mutate_zip),
        "llm": (make_logs_db(folder / "logs.db").read_bytes(), "logs.db", mutate_sqlite),
    }


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is tested elsewhere; here it would only make thousands of imports slow."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.mark.usefixtures("no_fsync")
@pytest.mark.parametrize("kind", ["chatgpt", "claude", "openwebui", "native", "archive", "llm"])
def test_damaged_files_never_crash_and_never_touch_the_library(kind: str, tmp_path: Path) -> None:
    seed, name, mutate = seeds(tmp_path)[kind]
    rng = random.Random(f"crosstalk-fuzz-{kind}")
    library = Library(DataDir(tmp_path / "home"))
    existing = library.create()
    library.append(existing, ModelInput(text="Mine, never to be changed"))
    work = tmp_path / "work"
    work.mkdir()
    failures = 0
    try:
        for round_number in range(ROUNDS):
            if round_number % 100 == 0 and round_number:  # keep the library small and the test fast
                library.close()
                shutil.rmtree(tmp_path / "home" / "conversations")
                library = Library(DataDir(tmp_path / "home"))
                existing = library.create()
                library.append(existing, ModelInput(text="Mine, never to be changed"))
            before = snapshot(library.data)
            damaged = work / name
            damaged.write_bytes(
                mutate(seed, rng, work) if mutate is not mutate_json else mutate(seed, rng)
            )
            forced = rng.choice(
                [
                    None,
                    None,
                    None,
                    kind if kind in ("chatgpt", "claude", "openwebui", "llm") else "crosstalk",
                ]
            )
            report = import_paths(library, [damaged], source_format=forced)
            failures += len(report.failed)
            for problem in report.failed:
                text = str(problem)
                assert text.startswith(name) and "expected" in text, text
                assert "Traceback" not in text
            after = snapshot(library.data)
            assert {k: after[k] for k in before} == before  # nothing existing changed
            made = {k.split("/")[-1][:26] for k in after.keys() - before.keys()}
            assert made == {cid for cid, _, _ in report.imported}
            for conversation_id in made:
                loaded = transcript.load(library.data.conversations / f"{conversation_id}.jsonl")
                assert loaded.header.id == conversation_id and loaded.problems == []
            assert library.index.count() == len(after)
    finally:
        library.close()
    assert failures > ROUNDS // 4  # the mutations do break things
