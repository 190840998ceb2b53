"""Exporting conversations: one file per conversation, or many into one ZIP archive.

Files are written beside their target and renamed into place, so an interrupted export never
leaves half a file under the name asked for; an existing file is replaced only when asked.
Conversations are read one at a time, so an export of the whole library stays small in memory.

Attachments: JSON and ZIP carry their files losslessly (``app.transfer.carried``); HTML shows
images inline as ``data:`` URLs and names other files; Markdown writes them into a folder
``<name>_files/`` beside the ``.md`` file and links them.

Projects (docs/projects.md) are transcripts in the same folder: JSON and ZIP carry the project
of each conversation they write (a JSON document holds it, a ZIP has it once under
``projects/``), and a project named among the ids (``all_ids`` names them) is written too,
as a document of its own. Markdown and HTML are for reading conversations: they name each
one's project and tags at the top, and never write a project as if it were a conversation.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from app import ids
from app.atomic import fsync_dir, replace_file
from app.errors import CrosstalkError, InvalidValue, StorageError
from app.history import AnyEntry, Attachment, History, ModelOutput
from app.paths import DIR_MODE, FILE_MODE
from app.scrub import scrub
from app.store import Library, project_state
from app.store.blobs import Blobs
from app.store.transcript import PROJECT, SUFFIX, Header, storage_error
from app.transfer import carried, files, html_page, markdown, native, projects
from app.transfer.archive import ArchiveWriter
from app.transfer.base import Progress, ProgressFn

FORMATS = ("json", "markdown", "html", "zip")
EXTENSIONS = {"json": ".json", "markdown": ".md", "html": ".html", "zip": ".zip"}


@dataclass
class ExportReport:
    written: list[Path] = field(default_factory=list)
    conversations: int = 0
    projects: int = 0  # written as projects (JSON and ZIP)
    notes: list[str] = field(default_factory=list)  # e.g. an attachment's file is missing


def all_ids(library: Library) -> list[str]:
    """Every conversation and project on disk (not in the trash), oldest first."""
    folder = library.data.conversations
    stems = (p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))
    return sorted(stem for stem in stems if ids.is_valid(stem))


def scrubbed(entries: Sequence[AnyEntry]) -> list[AnyEntry]:
    """The entries with every reply's error text through ``app.scrub``: errors are saved
    scrubbed now, but a transcript written before may still hold a provider's echo of a key.
    What the user and the model wrote is theirs and exported as it is."""
    return [
        msgspec.structs.replace(entry, error=scrub(entry.error))
        if isinstance(entry, ModelOutput) and entry.error
        else entry
        for entry in entries
    ]


def render(
    fmt: str,
    header: Header,
    history: History,
    *,
    all_branches: bool = False,
    blobs: Blobs | None = None,
    notes: list[str] | None = None,
    links: Mapping[Attachment, str] | None = None,
    library: Library | None = None,
) -> bytes:
    """A conversation in ``fmt``. JSON keeps every entry of every branch; Markdown and HTML,
    meant for reading, show the active branch, and with ``all_branches`` each other branch
    after it, labelled, from where it leaves the active one.

    ``blobs`` is where attachments' files are read from (JSON carries them, HTML shows the
    images); an attachment whose file is missing is named, and said in ``notes``. Markdown
    links each attachment to its file in ``links`` (relative paths ``files.write`` chose).
    With ``library``, JSON carries the conversation's project, and Markdown and HTML name it.
    A project (``header.kind``) is written as JSON only."""
    notes = [] if notes is None else notes
    if fmt == "json":
        entries = scrubbed(list(history))
        bytes_of = carried.gather(header.id, entries, blobs, notes) if blobs else {}
        project = None
        if library is not None and header.kind != PROJECT:
            project = projects.project_of(library, history)
        return native.encode(header, entries, bytes_of, project)
    if fmt not in ("markdown", "html"):
        raise InvalidValue(cause="export_format", given=fmt, choices=", ".join(FORMATS))
    if header.kind == PROJECT:
        raise InvalidValue(cause="nothing_to_export")
    entries, others = readable(history, all_branches)
    project_name, tags = projects.labels(library, history)
    if fmt == "markdown":
        return markdown.render(header, entries, others, links or {},
                               project=project_name, tags=tags).encode()  # fmt: skip
    return html_page.render(header, entries, others, blobs, notes,
                            project=project_name, tags=tags).encode()  # fmt: skip


def readable(
    history: History, all_branches: bool
) -> tuple[list[AnyEntry], list[tuple[str, list[AnyEntry]]]]:
    """What Markdown and HTML show: the active branch and, if asked, the others."""
    entries = scrubbed(history.active_entries())
    others = [(label, scrubbed(part)) for label, part in other_branches(history)]
    return entries, others if all_branches else []


def other_branches(history: History) -> list[tuple[str, list[AnyEntry]]]:
    """Each branch but the active one, labelled, with its messages from where it leaves the
    active branch (oldest branch first)."""
    active = set(history.active_path())
    found = []
    leaves = [leaf for leaf in sorted(history.leaves()) if leaf not in active]
    for number, leaf in enumerate(leaves, start=2):
        path = history.path_to(leaf)
        own = [seq for seq in path if seq not in active]
        fork = history.parent_of(own[0])
        where = f"after entry {fork}" if fork else "from the start"
        label = f"Branch {number} of {len(leaves) + 1} (ends at entry {leaf}; leaves {where})"
        found.append((label, [history.at(seq) for seq in own]))
    return found


def export(
    library: Library,
    conversation_ids: Sequence[str],
    fmt: str,
    output: Path,
    *,
    force: bool = False,
    progress: ProgressFn | None = None,
    all_branches: bool = False,
) -> ExportReport:
    """Write the conversations to ``output``.

    ``zip``: one archive at ``output``. Otherwise one conversation goes to the file ``output``
    (or into it, if it is a folder) and several go into the folder ``output`` as ``<id>.<ext>``.
    Every id is checked before anything is written. Raising ``Cancelled`` from ``progress``
    stops the export; a ZIP is then not written at all.
    """
    if fmt not in FORMATS:
        raise InvalidValue(cause="export_format", given=fmt, choices=", ".join(FORMATS))
    wanted = [ids.validate(i) for i in conversation_ids]
    if not wanted:
        raise InvalidValue(cause="nothing_to_export")
    for conversation_id in wanted:  # a missing one fails before anything is written
        if not (library.data.conversations / f"{conversation_id}{SUFFIX}").exists():
            library.open(conversation_id)  # raises NotFound, saying if it is in the trash
    listed = {i for i in wanted if projects.is_project(library, i)}
    if fmt in ("markdown", "html"):  # for reading: conversations only
        wanted = [i for i in wanted if i not in listed]
        if not wanted:
            raise InvalidValue(cause="nothing_to_export")
    report = ExportReport()

    def step(done: int, target: Path) -> None:
        if progress is not None:
            progress(Progress(target.name, done, len(wanted), done))

    if fmt == "zip":
        _check_free(output, force)
        report.notes += _zip(library, wanted, listed, output, step, report)
        report.written.append(output)
        return report
    targets = _targets(wanted, fmt, output, force)
    for done, (conversation_id, target) in enumerate(zip(wanted, targets, strict=True), 1):
        conversation = library.open(conversation_id)
        if conversation.header.kind == PROJECT:
            report.projects += 1
        else:
            report.conversations += 1
        history = conversation.history
        links: dict[Attachment, str] = {}
        if fmt == "markdown":
            entries, others = readable(history, all_branches)
            shown = [*entries, *(e for _, part in others for e in part)]
            links = files.write(target, shown, library.blobs, force, report.notes)
        content = render(fmt, conversation.header, history, all_branches=all_branches,
                         blobs=library.blobs, notes=report.notes, links=links,
                         library=library)  # fmt: skip
        try:
            replace_file(target, content)
        except OSError as exc:
            raise storage_error("write", target, exc) from exc
        report.written.append(target)
        step(done, target)
    return report


def _targets(wanted: list[str], fmt: str, output: Path, force: bool) -> list[Path]:
    extension = EXTENSIONS[fmt]
    if len(wanted) == 1 and not output.is_dir():
        targets = [output]
    else:
        try:
            output.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error("create the folder", output, exc) from exc
        targets = [output / f"{conversation_id}{extension}" for conversation_id in wanted]
    for target in targets:
        _check_free(target, force)
        if fmt == "markdown" and files.folder_for(target).exists() and not force:
            raise StorageError(cause="export_attachments", path=str(files.folder_for(target)))
    return targets


def _check_free(target: Path, force: bool) -> None:
    if target.is_dir():
        raise StorageError(cause="export_is_folder", path=str(target))
    if target.exists() and not force:
        raise StorageError(cause="export_exists", path=str(target))
    if not target.parent.is_dir():
        raise StorageError(cause="export_no_folder", path=str(target.parent))


def _zip(
    library: Library,
    wanted: list[str],
    listed: set[str],
    output: Path,
    step: Callable[[int, Path], None],
    report: ExportReport,
) -> list[str]:
    """Write the archive: the conversations, then the projects named among ``wanted``
    (``listed``) and those the conversations are in; the notes on attachments whose files
    were missing."""
    fd, staging = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.", suffix=".new")
    try:
        with os.fdopen(fd, "wb") as f:
            writer = ArchiveWriter(f, library.blobs)
            try:
                added: set[str] = set()
                for done, conversation_id in enumerate(wanted, 1):
                    if conversation_id in listed:
                        added |= _zip_project(library, writer, conversation_id, added, report)
                        step(done, output)
                        continue
                    conversation = library.open(conversation_id)
                    writer.add(conversation.header, scrubbed(list(conversation.history)))
                    report.conversations += 1
                    project_id = project_state.project_of(conversation.history)
                    if project_id is not None:
                        added |= _zip_project(library, writer, project_id, added, report)
                    step(done, output)
            except BaseException:  # e.g. Cancelled: end the ZIP while its file is still open
                writer.zip.close()  # (the staging file is removed below)
                raise
            writer.close()
            f.flush()
            os.fsync(f.fileno())
        os.chmod(staging, FILE_MODE)
        os.replace(staging, output)
        staging = ""
        fsync_dir(output.parent)
    except OSError as exc:
        raise storage_error("write", output, exc) from exc
    finally:
        if staging:
            with contextlib.suppress(OSError):
                os.unlink(staging)
    return writer.notes


def _zip_project(
    library: Library, writer: ArchiveWriter, project_id: str, added: set[str], report: ExportReport
) -> set[str]:
    """Add the project ``project_id`` to the archive once (a project not here, deleted or
    not synced yet, is left out: its conversations keep naming it)."""
    if project_id in added:
        return set()
    try:
        project = library.open(project_id)
    except CrosstalkError:
        return set()
    if project.header.kind != PROJECT:
        return set()
    writer.add_project(project.header, list(project.history))
    report.projects += 1
    return {project_id}
