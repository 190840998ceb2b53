"""Projects and tags in the store (docs/projects.md): stored as entries, folded the same live
and rebuilt, newest by time, filtered in SQL, searched, deleted and restored whole."""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.errors import InvalidValue, NewerFormat, NotFound
from app.history import DebugLog, ModelInput
from app.paths import DataDir
from app.store import Library, transcript
from app.store.index import NO_PROJECT
from app.store.project_state import MOVED, TAGGED
from app.store.projects import Projects


def chat(library: Library, text: str) -> str:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    return conversation.id


def listed(library: Library, **filters: str) -> list[str]:
    return [row["id"] for row in library.newest(100, **filters)]


def test_a_project_holds_its_settings_and_conversations_and_the_list_filters_by_it(
    library: Library,
) -> None:
    projects = Projects(library)
    thesis = projects.create("Thesis", instructions="Be my advisor.", model="openai:gpt-4o",
                             tools=["current_time"], temperature=0.2)  # fmt: skip
    assert (thesis.name, thesis.instructions, thesis.model) == ("Thesis", "Be my advisor.",
                                                                "openai:gpt-4o")  # fmt: skip
    assert thesis.defaults == {"model": "openai:gpt-4o", "tools": ["current_time"],
                               "temperature": 0.2}  # fmt: skip
    inside, outside = chat(library, "chapter two"), chat(library, "a recipe")
    assert projects.move([inside], thesis.id) == [inside]
    assert projects.move([inside], thesis.id) == []  # already there: nothing written
    assert sorted(listed(library)) == sorted([inside, outside])  # the project is not one
    assert listed(library, project=thesis.id) == [inside]
    assert listed(library, project=NO_PROJECT) == [outside]
    assert library.index.count() == 2 and library.index.count(project=thesis.id) == 1
    assert [(r["name"], r["count"]) for r in projects.rows()] == [("Thesis", 1)]
    assert library.newest(1, project=thesis.id)[0]["project"] == thesis.id
    assert projects.of(library.open(inside).history) == thesis
    assert projects.members(thesis.id) == [inside]
    projects.move([inside], None)
    assert sorted(listed(library, project=NO_PROJECT)) == sorted([inside, outside])


def test_names_are_unique_case_aside_and_found_by_prefix_or_id(library: Library) -> None:
    projects = Projects(library)
    thesis = projects.create("Thesis")
    projects.create("Travel")
    with pytest.raises(InvalidValue, match="exists"):
        projects.create("THESIS")
    with pytest.raises(InvalidValue, match="several projects"):
        projects.find("t")
    assert projects.find("thes") == thesis == projects.find(thesis.id) == projects.find("thesis")
    with pytest.raises(NotFound, match="project list"):
        projects.find("nothing")
    with pytest.raises(InvalidValue):
        projects.create("   ")
    assert projects.rename(thesis.id, "Dissertation").name == "Dissertation"
    assert projects.find("diss").id == thesis.id
    with pytest.raises(NotFound, match="not a project"):
        projects.get(chat(library, "hi"))


def test_settings_change_field_by_field_and_null_unsets(library: Library) -> None:
    projects = Projects(library)
    p = projects.create("P", model="openai:gpt-4o", temperature=0.5)
    p = projects.edit(p.id, temperature=None, max_tokens=800, instructions="Short answers.")
    assert (p.model, p.temperature, p.max_tokens, p.instructions) == (
        "openai:gpt-4o", None, 800, "Short answers.")  # fmt: skip
    with pytest.raises(InvalidValue, match="no setting"):
        projects.edit(p.id, colour="red")
    with pytest.raises(InvalidValue, match="not usable"):
        projects.edit(p.id, max_tokens="many")
    assert projects.archive(p.id).archived
    assert projects.rows()[0]["archived"] == 1
    assert not projects.archive(p.id, False).archived


def test_tags_are_kept_as_typed_compared_folded_and_filtered(library: Library) -> None:
    projects = Projects(library)
    one, two = chat(library, "alpha"), chat(library, "beta")
    assert projects.tag(one, add=["Urgent", "#work", "urgent"]) == ["Urgent", "work"]
    assert projects.tag(two, add=["URGENT"]) == ["URGENT"]
    assert projects.tag(one, remove=["WORK"]) == ["Urgent"]
    assert sorted(listed(library, tag="urgent")) == sorted([one, two])
    rows = {row["id"]: row for row in library.newest(10, tag="urgent")}
    assert json.loads(rows[one]["tags"]) == ["Urgent"]
    assert projects.tags() == [("URGENT", 2)] or projects.tags() == [("Urgent", 2)]
    with pytest.raises(InvalidValue, match="usable tag"):
        projects.tag(one, add=["a,b"])


def test_search_takes_project_and_tag_filters(library: Library) -> None:
    projects = Projects(library)
    side = projects.create("Side work")
    a, b = chat(library, "lighthouse lens"), chat(library, "lighthouse keeper")
    projects.move([a], side.id)
    projects.tag(b, add=["Sea"])

    def found(query: str) -> list[str]:
        return [hit.conversation["id"] for hit in library.search(query)]

    assert sorted(found("lighthouse")) == sorted([b, a])
    assert found('lighthouse project:"side work"') == [a]
    assert found(f"lighthouse project:{side.id}") == [a]
    assert found('lighthouse -project:"Side work"') == [b]
    assert found("lighthouse tag:sea") == [b] == found("tag:SEA")
    assert found("lighthouse -tag:sea") == [a]
    assert found("project:nowhere") == []
    assert found("side") == []  # a project's name is not a conversation's text


def test_the_newest_change_wins_whatever_order_the_entries_came_in(library: Library) -> None:
    """As sync delivers them: an older move or tag set appended after a newer one loses."""
    projects = Projects(library)
    first, second = projects.create("First"), projects.create("Second")
    conversation = library.open(chat(library, "q"))
    library.append(conversation, DebugLog(category=MOVED, message="m", ts="2026-05-02T00:00:00Z",
                                          meta={"project": second.id}))  # fmt: skip
    library.append(conversation, DebugLog(category=MOVED, message="m", ts="2026-05-01T00:00:00Z",
                                          meta={"project": first.id}))  # fmt: skip
    library.append(conversation, DebugLog(category=TAGGED, message="t", ts="2026-05-02T00:00:00Z",
                                          meta={"tags": ["new"]}))  # fmt: skip
    library.append(conversation, DebugLog(category=TAGGED, message="t", ts="2026-05-01T00:00:00Z",
                                          meta={"tags": ["old"]}))  # fmt: skip
    assert projects.of(conversation.history) == projects.get(second.id)
    assert listed(library, project=second.id) == [conversation.id]
    assert listed(library, tag="new") == [conversation.id] and listed(library, tag="old") == []


def test_deleting_a_project_trashes_its_conversations_and_restore_brings_all_back(
    library: Library,
) -> None:
    projects = Projects(library)
    p = projects.create("Gone")
    members = [chat(library, "a"), chat(library, "b")]
    projects.move(members, p.id)
    left = chat(library, "stays")
    assert sorted(projects.delete(p.id)) == sorted(members)
    assert listed(library) == [left] and projects.rows() == []
    assert set(library.trashed()) == {*members, p.id}
    assert sorted(projects.restore(p.id)) == sorted(members)
    assert library.trashed() == [] and sorted(listed(library, project=p.id)) == sorted(members)


def test_a_rebuilt_index_equals_the_live_one(data_dir: DataDir) -> None:
    library = Library(data_dir)
    projects = Projects(library)
    p = projects.create("P", instructions="x")
    ids = [chat(library, f"q{n}") for n in range(3)]
    projects.move(ids[:2], p.id)
    projects.tag(ids[0], add=["a", "B"])
    projects.archive(p.id)

    def state(lib: Library) -> tuple[object, ...]:
        conn = lib.index.conn
        rows = conn.execute("SELECT id, kind, title, project, tags, archived FROM conversations "
                            "ORDER BY id").fetchall()  # fmt: skip
        tags = conn.execute("SELECT * FROM conversation_tags ORDER BY 1, 2").fetchall()
        return rows, tags

    live = state(library)
    library.close()
    rebuilt, _ = Library.rebuilt(data_dir)
    assert state(rebuilt) == live
    rebuilt.close()


def test_a_project_file_is_version_3_and_an_older_reader_refuses_it_whole(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = Projects(library).create("P")
    path = library.data.conversations / f"{p.id}.jsonl"
    header = json.loads(path.read_bytes().splitlines()[0])
    assert (header["version"], header["kind"]) == (3, "project")
    conversation_header = json.loads(
        (library.data.conversations / f"{chat(library, 'q')}.jsonl").read_bytes().splitlines()[0]
    )
    assert conversation_header["version"] == 2 and "kind" not in conversation_header
    monkeypatch.setattr(transcript, "READABLE", 2)  # as the release before projects reads
    with pytest.raises(NewerFormat, match="upgrade Crosstalk"):
        transcript.load(path)


def test_an_index_from_before_projects_is_upgraded_in_place(data_dir: DataDir) -> None:
    """An older release syncs a conversation's project and tags without indexing them: the
    upgrade indexes those transcripts again, and only those."""
    library = Library(data_dir)
    ids = [chat(library, f"q{n}") for n in range(2)]
    projects = Projects(library)
    thesis = projects.create("Thesis")
    moved = chat(library, "moved")
    projects.move([moved], thesis.id)
    projects.tag(moved, add=["Urgent"])
    library.close()
    with sqlite3.connect(data_dir.index_db) as db:  # as the release before m007 left it
        db.execute("DROP TABLE conversation_tags")
        db.execute("DROP INDEX conversations_by_project")
        db.execute("DROP INDEX conversations_projects")
        for column in ("kind", "project", "project_at", "tags", "tags_at", "archived",
                       "archived_at"):  # fmt: skip
            db.execute(f"ALTER TABLE conversations DROP COLUMN {column}")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm007_projects_and_tags'")
        db.execute("DELETE FROM conversations WHERE id = ?", [thesis.id])  # it refused it
        db.execute("PRAGMA user_version = 6")
    db.close()
    told: list[float] = []
    upgraded = Library(data_dir, reconcile=False, progress=told.append)
    states = upgraded.index.file_states()
    assert states[moved] == (-1, -1) and all(states[cid] != (-1, -1) for cid in ids)
    report = upgraded.reconcile()
    assert report.updated == 1  # the one that holds a project and tags (the project: new)
    assert sorted(listed(upgraded, project=NO_PROJECT)) == sorted(ids)
    assert listed(upgraded, project=thesis.id) == [moved] == listed(upgraded, tag="urgent")
    assert [r["name"] for r in projects_of(upgraded).rows()] == ["Thesis"]
    assert upgraded.reconcile().updated == 0
    upgraded.close()


def projects_of(library: Library) -> Projects:
    return Projects(library)


@pytest.mark.parametrize("query", ["lighthouse", '"keeper"', "light -lens", "kind:user light",
                                   "lens OR keeper", "log"])  # fmt: skip
def test_a_filter_that_leaves_few_conversations_finds_what_the_whole_search_finds(
    library: Library, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    from app.store import search

    projects = Projects(library)
    small = projects.create("Small")
    texts = ["lighthouse lens", "lighthouse keeper", "the keeper's log", "nothing here"]
    ids = [chat(library, text) for text in texts * 3]
    projects.move(ids[:6], small.id)
    for cid in ids[::2]:
        projects.tag(cid, add=["even"])

    def found() -> list[tuple[str, int, list[int]]]:
        hits = []
        for filtered in (f"{query} project:Small", f"{query} tag:even", f"{query} -tag:even"):
            hits += [(h.conversation["id"], h.count, [m.seq for m in h.hits])
                     for h in library.search(filtered)]  # fmt: skip
        return hits

    few = found()
    monkeypatch.setattr(search, "_FEW", 0)  # every filter searched through the whole library
    assert few == found() and few


def test_an_edit_writes_only_what_it_changes_so_another_devices_change_holds(
    library: Library,
) -> None:
    projects = Projects(library)
    p = projects.create("P", instructions="old", temperature=0.5)
    project = library.open(p.id)
    # another device's newer instructions arrive (by time) after this one read the project
    theirs = DebugLog(category="project_settings", message="s", ts="2999-01-01T00:00:00Z",
                      meta={"instructions": "theirs"})  # fmt: skip
    library.append(project, theirs)
    projects.edit(p.id, temperature=0.7, instructions="theirs")  # as a form holding all fields
    logs = [e.meta for e in library.open(p.id).history if isinstance(e, DebugLog)]
    assert logs[-1] == {"temperature": 0.7}
    assert projects.get(p.id).instructions == "theirs"


def test_a_setting_this_version_cannot_read_leaves_the_others_as_they_are(
    library: Library,
) -> None:
    projects = Projects(library)
    p = projects.create("P", instructions="Keep these.", model="openai:gpt-4o")
    library.append(library.open(p.id), DebugLog(category="project_settings", message="s",
                                               meta={"temperature": "warm"}))  # fmt: skip
    read = projects.get(p.id)
    assert (read.instructions, read.model, read.temperature) == ("Keep these.",
                                                                 "openai:gpt-4o", None)  # fmt: skip
