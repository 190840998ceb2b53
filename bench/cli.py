"""Command-line benchmark: how long each command takes, start to exit, next to the ``llm`` CLI.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/cli.py                          # 100,000 conversations
    .venv/bin/python bench/cli.py --conversations 1000     # a quick look
    .venv/bin/python bench/cli.py --runs 7 --only crosstalk

Each command runs ``--runs`` times, each in a fresh process exactly as a person runs it
(``.venv/bin/crosstalk ...``, ``.venv/bin/llm ...``); the figure is the median wall time.

The libraries are made once and kept under ``~/.cache/crosstalk-bench/cli-<N>/``: Crosstalk's
is N real transcripts (``bench/store.py``'s synthetic conversations: a question, a reply with
usage, a title) indexed by ``Library.rebuilt``, the path ``crosstalk reindex`` takes; ``llm``'s
is its own logs.db with N threads written through llm's ``LogStore`` (a user message, an
assistant message, a turn and its search row each), as ``llm prompt`` logs them. ``ask --new``
and ``ask -c`` go to a local fake OpenAI server (``tests/helpers/wire_server.py``) for both
tools; each ask adds to the cached libraries, a few turns on 100k.

The machine's load (``uptime``) is printed with the table: these are wall times, and the ratio
of Crosstalk's to llm's, both measured in the same run, is the figure that holds on any machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import COMMON, EPOCH, RARE, SPAN_S, Texts, generate, progress, synthetic_entries

from app.paths import DataDir
from app.store.library import Library
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

VENV = Path(sys.executable).parent
CROSSTALK = VENV / "crosstalk"
LLM = VENV / "llm"
TARGET_MS = 150  # --help, list, show, search (issue 23)
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "crosstalk-bench"


# --- the libraries ---------------------------------------------------------------------------


def crosstalk_library(folder: Path, count: int) -> dict[str, str]:
    """N transcripts and their index; the facts a command needs (an id to show)."""
    meta = folder / "meta.json"
    if meta.exists():
        return json.loads(meta.read_text())
    if folder.exists():
        shutil.rmtree(folder)
    data = DataDir(folder / "home")
    progress(f"writing {count:,} transcripts in {data.root}")
    generate(data, count, workers=4)
    progress("indexing them (Library.rebuilt)")
    library, report = Library.rebuilt(data)
    assert report.added == count, report
    newest = library.newest(1)[0]["id"]
    library.close()
    facts = {"show": newest}
    meta.write_text(json.dumps(facts))
    return facts


def llm_library(folder: Path, count: int) -> None:
    """llm's logs.db with N threads of one turn each, written with llm's own LogStore."""
    done = folder / "done"
    if done.exists():
        return
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    import sqlite_utils
    from llm.logs import TURN_SEARCH_INSERT_SQL, LogStore
    from llm.migrations import migrate
    from llm.parts import Message, TextPart
    from ulid import ULID

    db = sqlite_utils.Database(folder / "logs.db")
    migrate(db)
    store = LogStore(db)
    texts = Texts(4242)
    rare_at = set(random.Random(7).sample(range(count), min(12, count)))
    progress(f"writing {count:,} llm threads in {folder}")
    for start in range(0, count, 1000):
        with db.conn:
            for n in range(start, min(start + 1000, count)):
                moment = EPOCH + timedelta(seconds=texts.rng.randrange(SPAN_S))
                question, answer, title = synthetic_entries(texts, moment, n in rare_at)
                asked = store.ensure_chain(
                    [Message(role="user", parts=[TextPart(text=question.text)])]
                )
                answered = store.ensure_chain(
                    [Message(role="assistant", parts=[TextPart(text=answer.text)])], parent=asked
                )
                thread = str(ULID.from_datetime(moment)).lower()
                store.create_thread(name=title.text, tip=answered, id=thread)
                turn = str(ULID.from_datetime(moment)).lower()
                db["turns"].insert(
                    {
                        "id": turn, "thread_id": thread, "parent_message_hash": asked,
                        "tip_message_hash": answered, "model": "gpt-4o-mini",
                        "resolved_model": None, "options_json": None,
                        "input_tokens": answer.usage.input, "output_tokens": answer.usage.output,
                        "duration_ms": 900, "datetime_utc": question.ts.rstrip("Z"),
                    }
                )  # fmt: skip
                db.execute(TURN_SEARCH_INSERT_SQL, {"turn_id": turn})
        print(f"  {min(start + 1000, count):,}/{count:,}", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    db.execute("VACUUM")
    db.close()
    done.write_text("")


# --- measuring -------------------------------------------------------------------------------


def median_ms(command: list[str], env: dict[str, str], runs: int, ok: tuple[int, ...]) -> float:
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run(command, env=env, capture_output=True, stdin=subprocess.DEVNULL)
        took.append((time.perf_counter() - started) * 1000)
        if result.returncode not in ok:
            tail = result.stderr.decode(errors="replace").strip().splitlines()[-3:]
            raise SystemExit(f"{' '.join(command)} exited {result.returncode}: {tail}")
    return statistics.median(took)


def crosstalk_settings(home: Path, url: str) -> None:
    (home / "settings.toml").write_text(
        'default_model = "box:tiny"\ntitle_model = "box:tiny"\n\n'
        '[providers.box]\nkind = "openai-compatible"\n'
        f'base_url = "{url}/v1"\nmodels = ["tiny"]\n'
    )


def llm_settings(home: Path, url: str) -> None:
    (home / "extra-openai-models.yaml").write_text(
        f'- model_id: box-tiny\n  model_name: tiny\n  api_base: "{url}/v1"\n'
    )
    (home / "default_model.txt").write_text("box-tiny")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", choices=["crosstalk", "llm"])
    args = parser.parse_args()

    folder = CACHE / f"cli-{args.conversations}"
    facts = crosstalk_library(folder / "crosstalk", args.conversations)
    home = folder / "crosstalk" / "home"
    has_llm = LLM.exists()
    if not has_llm:
        print(f"llm is not installed in this venv ({LLM}): its column is skipped")
    elif args.only != "crosstalk":
        llm_library(folder / "llm", args.conversations)

    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "LLM_"))}
    base_env |= {"OPENAI_API_KEY": "bench", "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": ""}
    # each tool's key in the environment, where each looks for it first: llm's OPENAI_API_KEY
    # for its extra model, Crosstalk's BOX_API_KEY for its provider "box" (app/keys.py)
    crosstalk_env = base_env | {"CROSSTALK_HOME": str(home), "BOX_API_KEY": "bench"}
    llm_env = base_env | {"LLM_USER_PATH": str(folder / "llm")}
    cid = facts["show"]
    rows: list[tuple[str, float | None, float | None, bool]] = []  # what, ours, llm's, target
    with WireServer() as server:
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Hello there.")))
        crosstalk_settings(home, server.url)
        if has_llm:
            llm_settings(folder / "llm", server.url)
            # the id of an llm thread for `logs --cid`: the newest
            import sqlite3

            with sqlite3.connect(folder / "llm" / "logs.db") as db:
                (llm_cid,) = db.execute(
                    "select thread_id from turns order by datetime_utc desc limit 1"
                ).fetchone()
        cases = [  # what, crosstalk's args, llm's args, exit codes, held to the target
            ("--help", ["--help"], ["--help"], (0,), True),
            ("list -n 20", ["list", "-n", "20"], ["logs", "-n", "20"], (0,), True),
            ("show ID", ["show", cid], ["logs", "--cid", "{llm_cid}"], (0,), True),
            (f"search {RARE} (rare)", ["search", RARE], ["logs", "-q", RARE], (0,), True),
            (
                f"search {COMMON} (common)",
                ["search", COMMON],
                ["logs", "-q", COMMON, "-n", "20"],
                (0,),
                True,
            ),
            ("ask --new", ["ask", "--new", "Say hello"], ["Say hello"], (0,), False),
            # the conversation the last ask made (its model is the fake server's), as llm's -c
            ("ask -c", ["ask", "-c", "{newest}", "Again"], ["-c", "Again"], (0,), False),
        ]
        for what, ours, theirs, ok, held in cases:
            progress(what)
            mine = None
            if args.only != "llm":
                if "{newest}" in ours:
                    newest = subprocess.run(
                        [str(CROSSTALK), "list", "-n", "1"],
                        env=crosstalk_env,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    ours = [newest.stdout.split()[0] if a == "{newest}" else a for a in ours]
                mine = median_ms([str(CROSSTALK), *ours], crosstalk_env, args.runs, ok)
            other = None
            if has_llm and args.only != "crosstalk":
                theirs = [a.replace("{llm_cid}", llm_cid) for a in theirs]
                other = median_ms([str(LLM), *theirs], llm_env, args.runs, ok)
            rows.append((what, mine, other, held))

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\n{args.conversations:,} conversations, median of {args.runs} fresh processes each")
    print(f"load: {load}   cores: {os.cpu_count()}\n")
    print(
        "| command | crosstalk ms | llm ms | crosstalk / llm | target |\n|---|---:|---:|---:|---|"
    )
    for what, mine, other, held in rows:
        target = f"≤ {TARGET_MS} ms" if held else "< llm"
        if mine is not None and (held or other is not None):
            met = mine <= TARGET_MS if held else other is not None and mine < other
            target += " ✓" if met else " ✗"
        print(f"| {what} | {_ms(mine)} | {_ms(other)} | {_ratio(mine, other)} | {target} |")
    return 0


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _ratio(mine: float | None, other: float | None) -> str:
    """Crosstalk's time over llm's, measured in the same run: it holds on any machine."""
    return "-" if mine is None or not other else f"{mine / other:.2f}"


if __name__ == "__main__":
    sys.exit(main())
