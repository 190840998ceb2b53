"""Projects and tags through export and import (docs/projects.md): Crosstalk's JSON and ZIP
carry a conversation's project, importing makes it (or joins the one with its id) and puts the
conversations in it with their tags; Markdown and HTML name them; ChatGPT projects and Open
WebUI folders become projects a later import joins."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from app.history import DebugLog, ModelInput, Title
from app.paths import DataDir
from app.store import Library
from app.store.projects import Projects
from app.store.transcript import PROJECT, PROJECT_VERSION
from app.transfer import all_ids, export, import_paths, native, render
from tests.transfer.conftest import FIXTURES, snapshot

CHATGPT = FIXTURES / "chatgpt_projects" / "conversations.json"
OPENWEBUI = FIXTURES / "openwebui_folders" / "chat-export.json"


def _thesis(library: Library) -> tuple[str, str, str]:
    """A project "Thesis" with settings, a conversation in it (tagged) and one outside:
    (project id, the one in it, the one outside)."""
    projects = Projects(library)
    project = projects.create("Thesis", instructions="Be a careful reviewer.",
                              model="openai:gpt-4o", tools=["calculator"])  # fmt: skip
    inside, outside = library.create(), library.create()
    for chat, text in ((inside, "chapter one"), (outside, "groceries")):
        library.append(chat, ModelInput(text=text))
        library.rename(chat.id, text.title())
    projects.move([inside.id], project.id)
    projects.tag(inside.id, add=["draft", "Urgent"])
    return project.id, inside.id, outside.id


def _rows(library: Library) -> list[tuple[str, str, int]]:
    return [(r["id"], r["name"], r["count"]) for r in Projects(library).rows()]


# --- Crosstalk's own --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "zip"])
def test_a_conversation_brings_its_project_into_another_library(
    library: Library, other_library: Library, tmp_path: Path, fmt: str
) -> None:
    project_id, inside, _ = _thesis(library)
    target = tmp_path / f"out.{fmt}"
    report = export(library, [inside], fmt, target)
    assert (report.conversations, report.projects) == (1, 1 if fmt == "zip" else 0)
    imported = import_paths(other_library, [target])
    assert not imported.failed
    assert [row[0] for row in imported.imported] == [inside]
    assert imported.projects == [(project_id, "Thesis", imported.projects[0][2])]
    assert "and 1 project" in imported.summary()
    there = Projects(other_library)
    assert there.get(project_id) == Projects(library).get(project_id)
    assert other_library.open(project_id).header.version == PROJECT_VERSION
    assert there.members(project_id) == [inside]
    assert [t for t, _ in there.tags()] == ["draft", "Urgent"]
    assert other_library.newest(tag="urgent")[0]["id"] == inside
    # the project is no conversation there either
    assert [r["id"] for r in other_library.newest()] == [inside]
    # importing again changes nothing
    before = snapshot(other_library.data)
    again = import_paths(other_library, [target])
    assert again.imported == [] and again.projects == [] and not again.failed
    assert snapshot(other_library.data) == before


def test_the_json_document_holds_the_project_and_imports_it_first(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    project_id, inside, outside = _thesis(library)
    document = json.loads(render("json", library.open(inside).header,
                                 library.open(inside).history, library=library))  # fmt: skip
    assert document["project"]["header"]["id"] == project_id
    assert document["project"]["header"]["kind"] == PROJECT
    assert document["version"] == 1  # what an older Crosstalk reads: it ignores the project
    alone = json.loads(render("json", library.open(outside).header, library.open(outside).history,
                              library=library))  # fmt: skip
    assert "project" not in alone
    # without the library (as before), the document is what it always was
    plain = render("json", library.open(inside).header, library.open(inside).history)
    assert "project" not in json.loads(plain)
    decoded = native.decode(plain)
    assert decoded.project is None


def test_exporting_all_includes_projects_even_empty_ones(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    project_id, inside, outside = _thesis(library)
    empty = Projects(library).create("Someday", instructions="Dream.").id
    wanted = all_ids(library)
    assert set(wanted) == {project_id, inside, outside, empty}
    archive = tmp_path / "all.zip"
    report = export(library, wanted, "zip", archive)
    assert (report.conversations, report.projects) == (2, 2)
    with zipfile.ZipFile(archive) as zf:
        names = sorted(zf.namelist())
        index = json.loads(zf.read("index.json"))
    assert f"projects/{project_id}.json" in names and f"projects/{empty}.json" in names
    assert f"conversations/{project_id}.json" not in names
    assert sorted(r["id"] for r in index["conversations"]) == sorted([inside, outside])
    assert {r["name"] for r in index["projects"]} == {"Thesis", "Someday"}
    import_paths(other_library, [archive])
    assert sorted(_rows(other_library)) == sorted(_rows(library))
    assert Projects(other_library).get(empty).instructions == "Dream."
    # JSON into a folder: one document per conversation and per project
    folder = tmp_path / "all"
    report = export(library, wanted, "json", folder)
    assert (report.conversations, report.projects) == (2, 2)
    third = Library(DataDir(tmp_path / "third"))
    try:
        result = import_paths(third, sorted(folder.iterdir()))
        assert not result.failed and len(result.projects) == 2
        assert sorted(_rows(third)) == sorted(_rows(library))
    finally:
        third.close()


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_readable_exports_name_the_project_and_tags_and_skip_projects(
    library: Library, tmp_path: Path, fmt: str
) -> None:
    project_id, inside, outside = _thesis(library)
    folder = tmp_path / fmt
    report = export(library, [project_id, inside, outside], fmt, folder)
    assert (report.conversations, report.projects) == (2, 0)
    written = {p.stem: p.read_text() for p in folder.iterdir() if p.is_file()}
    assert sorted(written) == sorted([inside, outside])  # no file for the project

    def top(text: str) -> str:  # the part above the messages
        return text.split("\n---\n")[0] if fmt == "markdown" else text.split("</header>")[0]

    if fmt == "markdown":
        assert "- Project: Thesis\n- Tags: draft, Urgent\n" in top(written[inside])
    else:
        assert ' · project <span class="project">Thesis</span>' in top(written[inside])
        tags = '<span class="tag">draft</span>, <span class="tag">Urgent</span>'
        assert f" · tags {tags}</p>" in top(written[inside])
    assert "roject" not in top(written[outside]) and "ags" not in top(written[outside])
    from app.errors import InvalidValue

    with pytest.raises(InvalidValue):  # a project alone is nothing to read
        export(library, [project_id], fmt, tmp_path / f"only.{fmt}")


def test_joining_a_project_with_the_same_id_merges_it(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    project_id, inside, outside = _thesis(library)
    first = tmp_path / "first.zip"
    export(library, [inside], "zip", first)
    import_paths(other_library, [first])
    # later, here: the project is renamed and edited, the other conversation joins it
    Projects(library).rename(project_id, "Thesis 2026")
    Projects(library).edit(project_id, temperature=0.2)
    Projects(library).move([outside], project_id)
    second = tmp_path / "second.zip"
    export(library, [inside, outside], "zip", second)
    report = import_paths(other_library, [second])
    assert report.projects == []  # joined, not made
    there = Projects(other_library)
    assert [(r["name"], r["count"]) for r in there.rows()] == [("Thesis 2026", 2)]
    assert there.get(project_id).temperature == 0.2
    assert sorted(there.members(project_id)) == sorted([inside, outside])


def test_a_project_whose_name_is_taken_here_gets_a_free_one(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    _, inside, _ = _thesis(library)
    mine = Projects(other_library).create("thesis").id  # another project, the same name
    target = tmp_path / "out.json"
    export(library, [inside], "json", target)
    import_paths(other_library, [target])
    names = sorted(r["name"] for r in Projects(other_library).rows())
    assert names == ["Thesis (2)", "thesis"]
    assert Projects(other_library).members(mine) == []


def test_a_damaged_embedded_project_is_refused_whole(tmp_path: Path, library: Library) -> None:
    _, inside, _ = _thesis(library)
    document = json.loads(render("json", library.open(inside).header,
                                 library.open(inside).history, library=library))  # fmt: skip
    document["project"]["header"]["version"] = 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    other = Library(DataDir(tmp_path / "other"))
    try:
        report = import_paths(other, [bad])
        [problem] = report.failed
        assert problem.place == "at .project.header.version"
        assert "project's transcript version 3" in problem.expected
        assert other.newest() == []
    finally:
        other.close()


# --- ChatGPT -----------------------------------------------------------------------------------


def test_chatgpt_projects_become_numbered_projects_a_later_import_joins(
    library: Library, tmp_path: Path
) -> None:
    report = import_paths(library, [CHATGPT])
    assert not report.failed and len(report.imported) == 5
    assert [name for _, name, _ in report.projects] == ["ChatGPT project 1", "ChatGPT project 2"]
    projects = Projects(library)
    by_title = {title: cid for cid, title, _ in report.imported}
    first, second = (projects.find(f"ChatGPT project {n}") for n in (1, 2))
    # one project per g-p- id, in order of first appearance; by gizmo_id or template id
    assert sorted(projects.members(first.id)) == sorted(
        [by_title["Thesis outline"], by_title["Thesis sources"]]
    )
    assert projects.members(second.id) == [by_title["Lisbon trip"]]
    for title in ("Code reviewer GPT", "Plain chat"):  # a custom GPT is no project
        assert projects.of(library.open(by_title[title]).history) is None
    # the import's title stays the last entry
    history = library.open(by_title["Thesis outline"]).history
    assert isinstance(history.at(history.version), Title)
    source = [e for e in library.open(first.id).history if isinstance(e, DebugLog)]
    assert source[-1].meta == {"source": "chatgpt:g-p-685bb57d8cec8191985f702d1b8f32dd"}
    # importing again changes nothing
    before = snapshot(library.data)
    again = import_paths(library, [CHATGPT])
    assert again.imported == [] and again.projects == []
    assert snapshot(library.data) == before
    # a later export with a new chat of the same project joins it
    data = json.loads(CHATGPT.read_text())
    newer = data[0] | {"title": "Thesis abstract", "conversation_id": "new", "id": "new"}
    newer["create_time"] = 1760000000.0
    later = tmp_path / "conversations.json"
    later.write_text(json.dumps([newer]))
    third = import_paths(library, [later])
    assert third.projects == [] and len(third.imported) == 1
    assert third.imported[0][0] in projects.members(first.id)
    assert len(projects.rows()) == 2


def test_chatgpt_project_numbers_skip_names_in_use(library: Library) -> None:
    Projects(library).create("ChatGPT project 1")
    report = import_paths(library, [CHATGPT], dry_run=True)
    assert [(pid, name) for pid, name, _ in report.projects] == [
        ("", "ChatGPT project 2"),
        ("", "ChatGPT project 3"),
    ]
    assert len(Projects(library).rows()) == 1  # a dry run makes nothing
    report = import_paths(library, [CHATGPT])
    assert [name for _, name, _ in report.projects] == ["ChatGPT project 2", "ChatGPT project 3"]


# --- Open WebUI --------------------------------------------------------------------------------


def test_openwebui_folders_tags_and_pins(library: Library) -> None:
    report = import_paths(library, [OPENWEBUI])
    assert not report.failed and len(report.imported) == 4
    made = [name for _, name, _ in report.projects]
    assert made == ["Open WebUI folder 1", "Open WebUI folder 2"]
    projects = Projects(library)
    by_title = {title: cid for cid, title, _ in report.imported}
    ethics = projects.find("Open WebUI folder 1")
    assert sorted(projects.members(ethics.id)) == sorted(
        [by_title["Goldwater Rule Ethics"], by_title["Ethics follow-up"]]
    )
    assert projects.members(projects.find("Open WebUI folder 2").id) == [by_title["Garden plan"]]

    def tags(title: str) -> list[str]:
        row = next(r for r in library.newest(10) if r["title"] == title)
        found: list[str] = json.loads(row["tags"])
        return found

    assert tags("Goldwater Rule Ethics") == ["work", "python_help"]
    assert tags("Ethics follow-up") == ["Ethics", "reading"]  # the older export's chat.tags
    assert tags("No folder") == ["misc"]  # one with a comma, one too long: left out
    assert by_title["Goldwater Rule Ethics"] in library.pins.ids
    assert library.newest(10)[0]["id"] == by_title["Goldwater Rule Ethics"]  # pinned on top
    # importing again changes nothing
    before = snapshot(library.data)
    again = import_paths(library, [OPENWEBUI])
    assert again.imported == [] and again.projects == []
    assert snapshot(library.data) == before


def test_openwebui_projects_and_tags_travel_on_in_a_crosstalk_export(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    import_paths(library, [OPENWEBUI])
    archive = tmp_path / "all.zip"
    export(library, all_ids(library), "zip", archive)
    import_paths(other_library, [archive])
    assert sorted(_rows(other_library)) == sorted(_rows(library))
    assert Projects(other_library).tags() == Projects(library).tags()
    # and a later Open WebUI import there joins the same projects
    again = import_paths(other_library, [OPENWEBUI])
    assert again.projects == [] and again.imported == []
