"""``crosstalk knowledge ...`` in-process and as a person runs it: add (indexing at once), list,
search with locations and scores, reindex, remove, a project's sources, errors in one line,
and a start that imports nothing heavy."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from app.store import Library
from app.store.projects import Projects
from tests.test_cli_lazy import HEAVY, LAZY, watched


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "api").mkdir(parents=True)
    (folder / "README.md").write_text(
        "# Widgets\n\nA widget is a small thing.\n\n## Sorting\n\n"
        "Call sort_widgets(reverse=True) to sort them from the largest.\n",
        encoding="utf-8",
    )
    (folder / "api" / "widgets.py").write_text(
        "def sort_widgets(items, reverse=False):\n    return sorted(items, reverse=reverse)\n",
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text("Überprüfung der Größe: 東京の倉庫.\n", encoding="utf-8")
    (folder / "broken.txt").write_bytes(b"\x00\xff\x00binary\x00" * 10)
    return folder


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["knowledge", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_add_list_search_reindex_remove(capsys: pytest.CaptureFixture[str], docs: Path) -> None:
    code, out, err = run(capsys, "add", str(docs))
    assert code == 0, err
    assert out.splitlines()[0] == f"added folder {docs.resolve()} as source 1"
    assert out.splitlines()[1].startswith("read 4 files: ")
    assert "1 file could not be read" in err and "broken.txt: " in err

    code, out, _ = run(capsys, "list")
    assert code == 0 and out.split()[:5] == ["1", "4", "files", out.split()[3], "chunks"]
    assert str(docs.resolve()) in out and "1 not read" in out
    code, out, _ = run(capsys, "list", "--json")
    [listed] = json.loads(out)
    assert (listed["id"], listed["files"], listed["problems"]) == (1, 4, 1)

    code, out, _ = run(capsys, "search", "sort", "reverse")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4  # two passages, each a location and a snippet
    readme = next(line for line in lines if "README.md:" in line)
    assert "(Widgets > Sorting)" in readme and "score " in readme
    assert any("widgets.py:1-2" in line for line in lines)

    code, out, _ = run(capsys, "search", "--json", "-n", "1", "grosse")
    [passage] = json.loads(out)
    assert Path(passage["path"]).name == "notes.txt" and passage["score"] > 0
    assert passage["first_line"] == 1 and "Größe" in passage["snippet"] and passage["marks"]
    code, out, _ = run(capsys, "search", "--json", "倉庫")
    assert [Path(p["path"]).name for p in json.loads(out)] == ["notes.txt"]

    code, out, _ = run(capsys, "reindex")
    assert code == 0 and out.startswith("read 1 file, 3 unchanged")  # the unreadable: again
    (docs / "api" / "widgets.py").unlink()
    code, out, _ = run(capsys, "reindex", "1", "--full")
    assert code == 0 and out.startswith("read 3 files, 1 removed")

    code, out, err = run(capsys, "search", "nothing-like-this")
    assert (code, out) == (0, "") and "no passages found" in err
    code, out, _ = run(capsys, "remove", "1")
    assert code == 0 and "its files are untouched" in out
    assert (docs / "README.md").is_file()
    code, out, err = run(capsys, "list")
    assert out == "" and "knowledge add" in err


def test_a_project_scope_and_errors_in_one_line(
    capsys: pytest.CaptureFixture[str], docs: Path, library: Library, tmp_path: Path
) -> None:
    project = Projects(library).create("Widget work")
    other = tmp_path / "other.md"
    other.write_text("# Elsewhere\n\nsort_widgets is also mentioned here.\n", encoding="utf-8")
    assert run(capsys, "add", str(docs / "README.md"), "--project", "widget")[0] == 0
    assert run(capsys, "add", str(other))[0] == 0
    code, out, _ = run(capsys, "search", "--json", "sort_widgets")
    assert sorted(Path(p["path"]).name for p in json.loads(out)) == ["README.md", "other.md"]
    code, out, _ = run(capsys, "search", "--json", "--project", project.id, "sort_widgets")
    assert [Path(p["path"]).name for p in json.loads(out)] == ["README.md"]
    code, out, _ = run(capsys, "list")
    assert f"(project {project.id})" in out

    for args, said in (
        (("add", str(tmp_path / "missing")), "does not exist: give a folder or a file"),
        (("add", str(docs), "--project", "nope"), "no project 'nope'"),
        (("add", str(docs), "-c", "01J0000000000000000000000"), "no conversation"),
        (("remove", "99"), "no knowledge source 99"),
        (("search", "kind:user", "widget"), "for searching conversations"),
    ):
        code, out, err = run(capsys, *args)
        assert code == 1 and out == "", args
        assert len(err.strip().splitlines()) == 1 and said in err, (args, err)


def test_knowledge_commands_start_without_anything_heavy(docs: Path) -> None:
    """The commands open the library alone (a READING command: no providers, tools or MCP) and
    import the knowledge modules they use; never Qt, an SDK, sqlite-utils' schema tools."""
    subprocess.run(
        [sys.executable, "-m", "app.cli", "knowledge", "add", str(docs)],
        check=True, capture_output=True, env=os.environ.copy(),
    )  # fmt: skip
    for args in (["knowledge", "--help"], ["knowledge", "list"], ["knowledge", "search", "widget"]):
        loaded, result = watched(*args)
        assert result.returncode == 0, result.stderr
        assert [name for name in loaded if name in HEAVY + LAZY] == [], (args, loaded)


def embedding_settings(url: str, model: str = "lab:fake-embed") -> None:
    """settings.toml with an OpenAI-compatible embeddings server at ``url`` (no key)."""
    from app.paths import DataDir

    DataDir.default().settings_file.parent.mkdir(parents=True, exist_ok=True)
    DataDir.default().settings_file.write_text(
        f'embedding_model = "{model}"\n\n[providers.lab]\nkind = "openai-compatible"\n'
        f'base_url = "{url}/v1"\n',
        encoding="utf-8",
    )


def test_search_prints_the_lexical_vector_and_fused_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.helpers.wire_server import Recorded, Reply, WireServer
    from tests.knowledge.embedding_wire import openai_reply

    failing = {"on": False}

    def answer(request: Recorded) -> Reply:
        if failing["on"]:
            return Reply(500, body={"error": {"message": "down", "type": "server_error"}})
        return openai_reply(request)

    folder = tmp_path / "pets"
    folder.mkdir()
    (folder / "cat.txt").write_text("The cat sat on the mat.", encoding="utf-8")
    (folder / "mat.txt").write_text("A mat by the door.", encoding="utf-8")
    with WireServer() as server:
        server.respond("/embeddings", answer)
        embedding_settings(server.url)
        code, out, err = run(capsys, "add", str(folder))
        assert code == 0, err
        assert "2 chunks embedded" in out.splitlines()[1]
        code, out, _ = run(capsys, "list")
        assert "2 with vectors (lab:fake-embed)" in out
        code, out, _ = run(capsys, "list", "--json")
        assert json.loads(out)[0]["vectors"] == {"lab:fake-embed": 2}

        code, out, _ = run(capsys, "search", "kitten", "OR", "mat")
        first, _, second, _ = out.splitlines()  # both have "mat", and are near "kitten mat"
        assert {first.split(":1")[0][-7:], second.split(":1")[0][-7:]} == {"cat.txt", "mat.txt"}
        for line in (first, second):
            assert re.search(r":1  score 0\.0\d+ \(lexical -?\d+\.\d\d, vector 0\.\d{3}\)$", line)
        code, out, _ = run(capsys, "search", "--json", "feline")
        [cat] = json.loads(out)
        assert Path(cat["path"]).name == "cat.txt"
        assert cat["lexical"] is None and cat["vector"] > 0 and cat["score"] > 0

        # the server fails: the words are kept, the vectors wait for the next reindex
        (folder / "dog.txt").write_text("A dog.", encoding="utf-8")
        failing["on"] = True
        code, out, err = run(capsys, "reindex")
        assert code == 0 and out.startswith("read 1 file, 2 unchanged")
        assert "1 chunk not embedded by lab:fake-embed yet" in err and "reindex" in err
        code, out, err = run(capsys, "search", "dog")
        assert "dog.txt" in out and "score " in out and "by words only" in err
        failing["on"] = False
        code, out, err = run(capsys, "reindex")
        assert "1 chunks embedded" in out and "not embedded" not in err


def test_a_model_that_cannot_embed_is_a_warning_and_words_still_work(
    capsys: pytest.CaptureFixture[str], docs: Path
) -> None:
    embedding_settings("http://127.0.0.1:9", "anthropic:claude-sonnet-5-5")
    code, out, err = run(capsys, "add", str(docs))
    assert code == 0 and "anthropic has no embedding models" in err
    code, out, _ = run(capsys, "search", "sort_widgets")
    assert "README.md" in out
