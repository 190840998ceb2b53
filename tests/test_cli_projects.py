"""``crosstalk project ...``, ``move``, ``tag``, ``list --project/--tag``, ``show``'s header and
``ask --project``, run as a person runs them: the commands in-process on a real library in a
temporary CROSSTALK_HOME, and ``ask`` in a fresh interpreter against a local fake
OpenAI-compatible server, whose requests are read on the wire."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli import project_options as cli_projects
from app.cli.main import main
from app.history import ModelInput, Title
from app.paths import DataDir
from app.store import Library
from app.store.projects import Projects
from app.tuning import EFFORTS
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

Run = tuple[int, str, str]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str) -> Run:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def conversations(*titles: str) -> list[str]:
    library = Library(DataDir.default())
    try:
        made = []
        for title in titles:
            conversation = library.create()
            library.append(conversation, ModelInput(text=f"about {title}"))
            library.append(conversation, Title(text=title, source="user"))
            made.append(conversation.id)
        return made
    finally:
        library.close()


def project_id(out: str) -> str:
    """The id in ``created project NAME (ID)``."""
    return out.splitlines()[0].rsplit("(", 1)[1].rstrip(")")


def test_the_parser_copies_the_efforts_it_offers() -> None:
    assert cli_projects.EFFORTS == EFFORTS


def test_new_list_show_rename_edit_and_archive(cli: Any) -> None:
    code, out, err = cli(
        "project", "new", "Thesis", "--instructions", "Answer in French.",
        "--temperature", "0.3", "--think", "low", "--max-tokens", "400", "--tools", "current_time",
    )  # fmt: skip
    assert code == 0, err
    thesis = project_id(out)
    assert "temperature   0.3" in out and "thinking      low" in out
    assert "tools         current_time" in out and "ask --project Thesis" in out
    instructions = Path(os.environ["CROSSTALK_HOME"]) / "side.txt"
    instructions.write_text("Be brief.\nCite sources.", encoding="utf-8")
    code, out, err = cli("project", "new", "Side", "work", "--instructions-file", str(instructions))
    assert code == 0, err
    side = project_id(out)

    code, out, _ = cli("project", "list")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [side, thesis]  # by name
    assert lines[1].endswith("0 conversations  Thesis")
    rows = json.loads(cli("project", "list", "--json")[1])
    assert [(r["name"], r["count"], r["archived"]) for r in rows] == [
        ("Side work", 0, False), ("Thesis", 0, False)]  # fmt: skip

    code, out, _ = cli("project", "show", "side")  # the start of its name
    assert out.splitlines()[0] == f"{side}  Side work"
    assert "instructions:\n  Be brief.\n  Cite sources.\n" in out
    assert "model         (the settings')" in out
    shown = json.loads(cli("project", "show", thesis, "--json")[1])
    assert shown["project"]["reasoning"] == "low" and shown["project"]["max_tokens"] == 400
    assert shown["count"] == 0 and shown["conversations"] == []

    # a name in use, an unknown project, a name several projects start with: one line each
    code, _, err = cli("project", "new", "THESIS")
    assert code == 1 and err == "crosstalk: a project named 'THESIS' exists; choose another name\n"
    code, _, err = cli("project", "show", "nothing")
    assert code == 1 and "no project 'nothing'; `crosstalk project list`" in err
    cli("project", "new", "Thesis two")
    code, out, _ = cli("project", "show", "THESIS")
    assert code == 0 and out.startswith(f"{thesis}  Thesis\n")  # the exact name wins
    code, _, err = cli("project", "show", "thes")
    assert code == 1 and "names several projects" in err and len(err.splitlines()) == 1

    code, out, _ = cli("project", "rename", "side", "Side", "project")
    assert out == f"{side}  Side project\n"

    code, out, err = cli("project", "edit", "thesis", "--model", "local:smollm2",
                         "--unset", "temperature", "--unset", "tools")  # fmt: skip
    assert code == 0, err
    assert "model         local:smollm2" in out and "temperature   (the settings')" in out
    assert "tools         (the settings')" in out
    code, _, err = cli("project", "edit", "thesis", "--model", "nowhere:x")
    assert code == 1 and "no model 'nowhere:x'" in err
    code, _, err = cli("project", "edit", "thesis", "--temperature", "7")
    assert code == 1 and "temperature" in err
    code, _, err = cli("project", "edit", "thesis", "--tools", "nonsense")
    assert code == 1 and "no tool 'nonsense'" in err
    code, _, err = cli("project", "edit", "thesis", "--think", "high", "--unset", "think")
    assert code == 1 and "do not go together" in err
    code, _, err = cli("project", "edit", "thesis")
    assert code == 1 and "nothing to change" in err
    code, _, err = cli("project", "edit", "thesis", "--instructions-file", "/no/such/file")
    assert code == 1 and "--instructions-file /no/such/file" in err
    project = Projects(Library(DataDir.default())).get(thesis)
    assert (project.model, project.temperature, project.tools) == ("local:smollm2", None, None)
    assert project.reasoning == "low" and project.instructions == "Answer in French."

    code, out, _ = cli("project", "archive", "thesis")
    assert out.startswith(f"archived Thesis ({thesis})")
    assert thesis not in cli("project", "list")[1]
    archived = cli("project", "list", "--archived")[1]
    assert f"{thesis}    0 conversations  Thesis  (archived)" in archived
    assert cli("project", "unarchive", thesis)[1] == f"unarchived Thesis ({thesis})\n"
    cli("project", "archive", thesis)
    assert cli("project", "archive", thesis, "--undo")[0] == 0
    assert thesis in cli("project", "list")[1]
    assert cli("project")[1] == cli("project", "list")[1]  # bare: the list


def test_move_tag_list_and_show(cli: Any) -> None:
    one, two, three = conversations("One", "Two", "Three")
    thesis = project_id(cli("project", "new", "Thesis")[1])

    code, out, err = cli("move", one, two.lower(), "--project", "thesis")
    assert code == 0, err
    assert out == f"moved 2 conversations to project Thesis ({thesis})\n"
    code, out, _ = cli("move", one, "--project", thesis)
    assert out == f"moved 0 conversations to project Thesis ({thesis}); 1 already there\n"
    code, _, err = cli("move", one, "--project", "elsewhere")
    assert code == 1 and "no project 'elsewhere'" in err
    code, _, err = cli("move", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "--project", thesis)
    assert code == 1 and "no conversation" in err
    with pytest.raises(SystemExit) as refused:  # argparse: --project or --no-project needed
        cli("move", one)
    assert refused.value.code == 2

    code, out, err = cli("tag", one, "+urgent", "-nothing", "side work", "+Draft,x")
    assert code == 0, err
    assert out == f"{one}  tags: urgent, side work, Draft, x\n"
    assert cli("tag", one, "-urgent", "-x", "-DRAFT")[1] == f"{one}  tags: side work\n"
    assert cli("tag", two)[1] == f"{two}  no tags\n"
    assert cli("tag", three, "side work")[0] == 0
    code, _, err = cli("tag", one, "+a,b,", "+")
    assert code == 1 and "names no tag" in err

    listed = cli("list")[1].splitlines()
    by_id = {line.split()[0]: line for line in listed}
    assert by_id[one].endswith("[Thesis] One  #side work")
    assert by_id[two].endswith("[Thesis] Two")
    assert by_id[three].endswith("tok  Three  #side work")  # outside any project: no brackets
    in_thesis = cli("list", "--project", "thesis")[1].splitlines()
    assert {line.split()[0] for line in in_thesis} == {one, two}
    assert not any("[Thesis]" in line for line in in_thesis)  # the list is of Thesis alone
    assert [line.split()[0] for line in cli("list", "--project", "none")[1].splitlines()] == [
        three]  # fmt: skip
    tagged = cli("list", "--tag", "SIDE WORK")[1].splitlines()
    assert {line.split()[0] for line in tagged} == {one, three}
    both = cli("list", "--tag", "side work", "--project", "Thesis")[1].splitlines()
    assert [line.split()[0] for line in both] == [one]
    code, out, err = cli("list", "--tag", "nothing", "--project", "none")
    assert out == "" and err == "no conversations outside any project tagged nothing\n"
    rows = {row["id"]: row for row in json.loads(cli("list", "--json")[1])}
    assert rows[one]["tags"] == ["side work"] and rows[one]["project_name"] == "Thesis"
    assert rows[one]["project"] == thesis and rows[three]["project_name"] is None

    code, out, _ = cli("show", one)
    assert out.splitlines()[1:3] == [f"in project Thesis ({thesis})", "tags: side work"]
    assert cli("show", two)[1].splitlines()[1] == f"in project Thesis ({thesis})"
    assert cli("show", three)[1].splitlines()[1] == "tags: side work"
    shown = json.loads(cli("show", one, "--json")[1])
    assert shown["project"] == {"id": thesis, "name": "Thesis"} and shown["tags"] == ["side work"]

    code, out, _ = cli("project", "show", "thesis")
    assert "conversations 2" in out
    shown_rows = [line for line in out.splitlines() if line.startswith((one, two))]
    assert len(shown_rows) == 2 and not any("[Thesis]" in line for line in shown_rows)
    assert [row["id"] for row in json.loads(cli("project", "show", "thesis", "--json")[1])[
        "conversations"]] == [r.split()[0] for r in shown_rows]  # fmt: skip

    code, out, _ = cli("move", two, "--no-project")
    assert out == "moved 1 conversation to no project\n"
    assert f"{thesis}     1 conversation  Thesis" in cli("project", "list")[1]


def test_delete_takes_the_conversations_to_the_trash_and_restore_brings_them_back(
    cli: Any,
) -> None:
    one, two, three = conversations("One", "Two", "Three")
    thesis = project_id(cli("project", "new", "Thesis")[1])
    cli("move", one, two, "--project", thesis)

    code, out, err = cli("project", "delete", "thesis")
    assert code == 0, err
    assert out == (
        f"moved project Thesis ({thesis}) and its 2 conversations to the trash; "
        f"`crosstalk project restore {thesis}` brings them back\n"
    )
    assert [line.split()[0] for line in cli("list")[1].splitlines()] == [three]
    assert cli("project", "list", "--archived")[1] == ""
    code, _, err = cli("project", "show", "thesis")
    assert code == 1 and "no project 'thesis'" in err

    code, out, err = cli("project", "restore", thesis.lower())
    assert code == 0, err
    assert out == f"restored project Thesis ({thesis}) and 2 conversations\n"
    assert {line.split()[0] for line in cli("list", "--project", "thesis")[1].splitlines()} == {
        one, two}  # fmt: skip
    code, _, err = cli("project", "restore", "thesis")
    assert code == 1 and "not a project's id" in err

    # a project's id where a conversation's is wanted: refused in one line, nothing written
    for command in (("ask", "-c", thesis, "hello"), ("show", thesis), ("rename", thesis, "X"),
                    ("tag", thesis, "+x"), ("move", thesis, "--no-project")):  # fmt: skip
        code, out, err = cli(*command)
        assert code != 0 and out == "" and len(err.splitlines()) == 1, (command, err)
        assert "is a project" in err
    # the conversations' own delete and restore, given a project's id, do the same
    code, out, err = cli("delete", thesis)
    assert code == 0 and "project Thesis and its 2 conversation(s)" in out, err
    assert [line.split()[0] for line in cli("list")[1].splitlines()] == [three]
    code, out, err = cli("restore", thesis)
    assert code == 0 and out == f"restored project Thesis ({thesis}) and 2 conversation(s)\n"
    assert len(cli("list", "--project", "thesis")[1].splitlines()) == 2


# --- ask --project, on the wire ---------------------------------------------------------------


def write_settings(data: DataDir, server: WireServer) -> None:
    """The local server as provider "box" with two models: "tiny" the default, "big" the
    project's."""
    data.ensure()
    data.settings_file.write_text(
        'default_model = "box:tiny"\ntitle_model = "box:tiny"\n\n'
        '[providers.box]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["tiny", "big"]\n'
    )


def crosstalk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )  # fmt: skip


def turn_requests(server: WireServer, question: str) -> list[Any]:
    """The bodies of the requests of the turns that asked ``question`` (not the title's)."""
    return [
        r.json for r in server.requests
        if r.json and r.json["messages"][-1].get("content") == question
    ]  # fmt: skip


def test_ask_in_a_project_sends_its_instructions_first_with_its_model_and_tuning() -> None:
    data = DataDir.default()
    with WireServer() as server:
        write_settings(data, server)
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Oui.")))
        made = crosstalk(
            "project", "new", "Thesis", "--instructions", "Answer in French.", "--model",
            "box:big", "--temperature", "0.3", "--max-tokens", "77", "--tools", "current_time",
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        thesis = project_id(made.stdout)

        asked = crosstalk("ask", "--project", "thes", "-s", "Be brief.", "Capital of Spain?")
        assert asked.returncode == 0, asked.stderr
        assert asked.stdout.strip() == "Oui."
        [body] = turn_requests(server, "Capital of Spain?")
        assert body["model"] == "big"  # the project's
        system = body["messages"][0]
        assert system["role"] == "system"
        assert system["content"].startswith("Answer in French.")  # the project's, first
        assert "Be brief." in system["content"]  # then the conversation's own
        assert body["temperature"] == 0.3 and body["max_tokens"] == 77
        assert [t["function"]["name"] for t in body["tools"]] == ["current_time"]

        listed = json.loads(crosstalk("list", "--project", thesis, "--json").stdout)
        assert len(listed) == 1 and listed[0]["project_name"] == "Thesis"
        first = listed[0]["id"]

        # the command line's own choices win over the project's
        asked = crosstalk("ask", "--project", thesis, "-m", "box:tiny", "--temperature", "1.5",
                          "--tools", "none", "Capital of Italy?")  # fmt: skip
        assert asked.returncode == 0, asked.stderr
        [body] = turn_requests(server, "Capital of Italy?")
        assert body["model"] == "tiny" and body["temperature"] == 1.5 and "tools" not in body
        assert body["messages"][0] == {"role": "system", "content": "Answer in French."}
        assert body["max_tokens"] == 77  # not given: the project's

        # compared: each model's request starts with the instructions
        asked = crosstalk("ask", "--project", thesis, "--compare", "box:tiny,box:big", "Why?")
        assert asked.returncode == 0, asked.stderr
        bodies = turn_requests(server, "Why?")
        assert sorted(body["model"] for body in bodies) == ["big", "tiny"]
        for body in bodies:
            assert body["messages"][0] == {"role": "system", "content": "Answer in French."}
        compared = json.loads(crosstalk("list", "--project", thesis, "--json").stdout)
        assert len(compared) == 3

        # a conversation outside any project carries none of it
        asked = crosstalk("ask", "Capital of Peru?")
        assert asked.returncode == 0, asked.stderr
        [body] = turn_requests(server, "Capital of Peru?")
        assert body["model"] == "tiny" and body["messages"][0]["role"] == "user"

        # --project starts a conversation: never with one to continue
        refused = crosstalk("ask", "--project", thesis, "-c", first, "More?")
        assert refused.returncode == 1
        assert refused.stderr.startswith("crosstalk: --project starts a new conversation")
        assert len(refused.stderr.splitlines()) == 1
        unknown = crosstalk("ask", "--project", "nowhere", "More?")
        assert unknown.returncode == 1 and "no project 'nowhere'" in unknown.stderr
        assert not turn_requests(server, "More?")
        assert len(json.loads(crosstalk("list", "--json").stdout)) == 4  # nothing new written


def test_reading_project_commands_start_light() -> None:
    """``project list`` and ``project show`` open the library alone, as ``list`` does."""
    from tests.test_cli_lazy import imported

    assert imported("project", "new", "Thesis")[1].returncode == 0
    for args in (["project", "list"], ["project", "show", "thesis"],
                 ["list", "--project", "thesis", "--tag", "x"]):  # fmt: skip
        heavy, result = imported(*args)
        assert result.returncode == 0, result.stderr
        assert heavy == [], (args, heavy)
