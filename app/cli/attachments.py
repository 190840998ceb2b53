"""Attachments on the command line: ``ask -a FILE`` (and ``edit -a``), their lines under each
message in ``show``, ``crosstalk attachment ID SEQ [N]`` to write one back out, and ``purge`` /
``trash --empty`` to remove conversations (and the attachment files only they used) for good.

Files are checked and stored before anything else happens (``app.attachments.files``), so a
file that cannot be sent is refused with nothing written (docs/attachments.md).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app import ids
from app.errors import AttachmentError, NotFound, StorageError
from app.history import AnyEntry, Attachment, ModelInput
from app.store.transcript import SUFFIX

if TYPE_CHECKING:
    from app.composition import Services
    from app.store import Conversation
    from app.store.blobs import Blobs


def attach(services: Services, paths: Sequence[str]) -> list[Attachment]:
    """Each file checked by its bytes and stored once; AttachmentError names the first that
    cannot be attached (nothing of the turn is written then; a stored blob nobody names is
    collected later, ``Blobs.collect``)."""
    from app.attachments.files import attach_path

    return [attach_path(services.library.blobs, path) for path in paths]


def message_text(args_text: Sequence[str], attached: bool) -> str:
    """The message: the arguments, else stdin; with attachments and stdin a terminal, nothing
    (``ask -a shot.png`` sends the file alone instead of waiting for typing)."""
    if args_text:
        return " ".join(args_text)
    if attached and sys.stdin.isatty():
        return ""
    return sys.stdin.read()


def check_sendable(
    services: Services, spec: str, text: str, attachments: Sequence[Attachment]
) -> None:
    """The provider's limits, checked before a conversation is created or anything appended
    (the turn checks again, at the moment it appends)."""
    if not attachments:
        return
    provider, model = services.models.resolve(spec)
    services.sending.check(ModelInput(text=text, attachments=list(attachments)), provider, model)


# --- show ----------------------------------------------------------------------------------


def describe(attachment: Attachment, blobs: Blobs) -> str:
    """``shot.png  image/png  12 KB  640x480 px``; nothing is decoded (the entry knows)."""
    from app.attachments.files import size_text

    parts = [one_line(attachment.name), attachment.mime_type, size_text(stored_size(attachment))]
    if attachment.width and attachment.height:
        parts.append(f"{attachment.width}x{attachment.height} px")
    if attachment.pages:
        parts.append(f"{attachment.pages} page{'s' * (attachment.pages != 1)}")
    if not attachment.inline and not blobs.has(attachment.sha256):
        parts.append("(missing from the data folder)")
    return "  ".join(parts)


def listed(entry: AnyEntry, blobs: Blobs, indent: int) -> list[str]:
    """The lines under a message in ``crosstalk show``: its attachments, numbered from 1."""
    if not isinstance(entry, ModelInput):
        return []
    pad = " " * indent
    return [f"{pad}#{n} {describe(a, blobs)}" for n, a in enumerate(entry.attachments, start=1)]


def stored_size(attachment: Attachment) -> int:
    if attachment.size or not attachment.data:
        return attachment.size
    return len(attachment.data) * 3 // 4 - attachment.data[-2:].count("=")


def one_line(text: str) -> str:
    return " ".join(text.translate({n: " " for n in (*range(32), 127)}).split()) or "-"


# --- attachment ----------------------------------------------------------------------------


def cmd_attachment(services: Services, args: argparse.Namespace) -> int:
    from app.cli.turn import fail

    conversation = services.library.open(args.id)
    try:
        attachment = chosen(conversation, args.seq, args.n)
        data = content(attachment, services.library.blobs)
    except AttachmentError as exc:
        return fail(str(exc))
    if args.output == "-":
        from app.attachments.files import is_text

        if sys.stdout.isatty() and not is_text(attachment):
            return fail(f"{one_line(attachment.name)} is not text: -o PATH writes it to a file")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    from app.transfer.files import safe_name

    target = Path(args.output) if args.output else Path(safe_name(attachment.name))
    if target.is_dir():
        target = target / safe_name(attachment.name)
    if target.exists() and not args.force:
        return fail(f"{target} already exists; --force replaces it, or -o names another file")
    if not target.parent.is_dir():
        return fail(f"{target.parent} is not a folder; create it first")
    from app.atomic import replace_file
    from app.attachments.files import size_text

    try:
        replace_file(target, data)
    except OSError as exc:
        return fail(f"cannot write {target}: {exc.strerror or exc}; nothing was written")
    print(f"wrote {one_line(attachment.name)} ({size_text(len(data))}) to {target}",
          file=sys.stderr)  # fmt: skip
    return 0


def chosen(conversation: Conversation, seq: int, n: int) -> Attachment:
    """Attachment ``n`` (from 1) of entry ``seq``, or AttachmentError saying what there is."""
    history = conversation.history
    if not 1 <= seq <= history.version:
        raise AttachmentError(
            f"{conversation.id} has no entry {seq} (it has 1 to {history.version}; "
            f"`crosstalk show {conversation.id}` lists them)"
        )
    entry = history.at(seq)
    found = entry.attachments if isinstance(entry, ModelInput) else []
    if not found:
        raise AttachmentError(f"entry {seq} of {conversation.id} has no attachments")
    if not 1 <= n <= len(found):
        count = (
            "1 attachment" if len(found) == 1 else f"{len(found)} attachments (1 to {len(found)})"
        )
        raise AttachmentError(f"entry {seq} of {conversation.id} has {count}, not #{n}")
    return found[n - 1]


def content(attachment: Attachment, blobs: Blobs) -> bytes:
    """The attachment's bytes: its blob, or the base64 an older transcript holds inline."""
    if attachment.inline:
        try:
            return base64.b64decode(attachment.data, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise AttachmentError(f"{one_line(attachment.name)} is damaged in the transcript "
                                  "(its inline data is not base64)") from exc  # fmt: skip
    try:
        return blobs.read(attachment.sha256)
    except StorageError as exc:
        raise AttachmentError(
            f"{one_line(attachment.name)} cannot be written out: {exc} (the file itself is "
            "gone; attach it again from where it came from)"
        ) from exc


# --- purge ---------------------------------------------------------------------------------


def cmd_purge(services: Services, args: argparse.Namespace) -> int:
    """Remove conversations from the trash for good; every id is checked first, so a typo
    purges nothing."""
    library = services.library
    wanted = [ids.validate(i) for i in args.ids]
    trashed = set(library.trashed())
    for conversation_id in wanted:
        if conversation_id not in trashed:
            where = (
                f"it is not deleted (`crosstalk delete {conversation_id}` moves it there first)"
                if (library.data.conversations / f"{conversation_id}{SUFFIX}").exists()
                else "`crosstalk trash` lists what is there"
            )
            raise NotFound(f"{conversation_id} is not in the trash: {where}; nothing was purged")
    purged = purge(services, list(dict.fromkeys(wanted)))
    for conversation_id in purged:
        print(f"purged {conversation_id}")
    return 0


def purge(services: Services, wanted: Sequence[str]) -> list[str]:
    library = services.library
    done = []
    for conversation_id in wanted:
        library.purge(conversation_id)
        done.append(conversation_id)
    return done


def empty_trash(services: Services) -> int:
    """``crosstalk trash --empty``: purge everything in the trash; say how many."""
    purged = purge(services, services.library.trashed())
    count = len(purged)
    print(f"purged {count} conversation{'s' * (count != 1)} from the trash")
    return 0
