"""``crosstalk sync …``: sync this library through storage the user has (docs/sync.md).

    crosstalk sync [--dry-run] [--json]
    crosstalk sync setup URL [--endpoint-url U] [--region R] [--user U] [--encrypt]
    crosstalk sync status
    crosstalk sync off          (or: forget)

``sync`` receives what other devices sent, then sends what this one has not, on a worker
thread: Ctrl-C asks it to stop at the next safe point (what was done is kept). A progress line
goes to stderr on a terminal only; the summary goes to stdout.

``setup`` is ``app.sync.setup.set_up`` with the secrets asked for here: anything that fails is
said in words, and nothing is kept.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from app.errors import CrosstalkError, EmptyValue, UsageError
from app.notes import english

if TYPE_CHECKING:
    from app.composition import Services
    from app.sync.secrets import Secret

T = TypeVar("T")


NOT_SET_UP = (
    "sync is not set up on this device: `crosstalk sync setup URL` sets it up (URL: "
    "s3://BUCKET/FOLDER, https://... for WebDAV, or a folder; docs/sync.md)"
)
CANCELLED = "cancelled; what was done is kept, the next sync finishes the job"


def cmd_sync(services: Services, args: argparse.Namespace) -> int:
    """Receive, then send (or with --dry-run, say what would be)."""
    from app.cli.output import emit_json
    from app.cli.parser import EXIT_INTERRUPTED, fail
    from app.sync import engine

    config = services.settings.sync
    if config is None:
        return fail(NOT_SET_UP)
    try:
        vault = engine.open_vault(config, services.environ)
    except CrosstalkError as exc:
        if not args.dry_run:
            from app.sync.state import record_failure

            record_failure(services.data, exc)
        raise
    line = ProgressLine()
    cancel = threading.Event()
    try:
        report = _in_worker(
            lambda: engine.sync(
                services.library, vault, dry_run=args.dry_run, progress=line, cancel=cancel
            ),
            cancel,
        )
    except engine.Cancelled:
        line.done()
        print(f"crosstalk: {CANCELLED}", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        line.done()
    for warning in report.warnings:
        print(f"crosstalk: warning: {english(warning)}", file=sys.stderr)
    if args.json:
        emit_json(report.as_json() | {"summary": report.summary()})
        return 0
    print(report.summary())
    for conversation_id, seq in report.branches:
        print(
            f"  a new branch from another device in {conversation_id} at message {seq}: "
            f"`crosstalk branches {conversation_id}`"
        )
    return 0


def _in_worker(work: Callable[[], T], cancel: threading.Event) -> T:
    """``work()`` on a worker thread; Ctrl-C here sets ``cancel`` and waits for it to stop
    where that is safe (a KeyboardInterrupt inside it could land mid-write)."""
    done: list[T] = []
    failed: list[BaseException] = []
    # waited on rather than Thread.join: a join that Ctrl-C interrupts can leave the thread
    # marked as stopped while it runs on
    finished = threading.Event()

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # handed to the main thread, raised there
            failed.append(exc)
        finally:
            finished.set()

    threading.Thread(target=run, name="crosstalk-sync").start()
    while not finished.is_set():
        try:
            finished.wait(0.2)
        except KeyboardInterrupt:
            if not cancel.is_set():
                cancel.set()
                print("\ncrosstalk: cancelling at the next safe point ...", file=sys.stderr)
    if failed:
        raise failed[0]
    return done[0]


class ProgressLine:
    """``receiving 120/900 ...`` on stderr, redrawn at most ten times a second (and at each
    new stage), only when stderr is a terminal. Called from the sync's worker thread."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()
        self.shown = 0.0
        self.stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.active or (stage == self.stage and now - self.shown < 0.1):
            return
        self.shown, self.stage = now, stage
        text = "listing the remote ..." if stage == "listing" else f"{stage} {done}/{total} ..."
        sys.stderr.write(f"\r{text}\x1b[K")
        sys.stderr.flush()

    def done(self) -> None:
        if self.active and self.stage:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.stage = ""


def cmd_off(services: Services, args: argparse.Namespace) -> int:
    from app.sync.setup import forget

    config = services.settings.sync
    forget(services.data, services.settings)
    if config is None:
        print("sync was not set up on this device; nothing to turn off")
        return 0
    print(f"sync is off on this device: it forgot {config.url} and its secrets")
    print(
        "the remote and this library were not touched; `crosstalk sync setup URL` turns sync "
        "on again"
    )
    return 0


def _ask(label: str, confirm: bool = False) -> str:
    """A secret from the terminal (not shown), or the next line of stdin when there is none."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    value = getpass.getpass(f"{label} (not shown): ")
    if confirm and value != getpass.getpass(f"{label} again: "):
        raise UsageError("the two entries differ; nothing was changed")
    return value


def _secret_for(
    services: Services, which: Secret, label: str, confirm: bool = False
) -> tuple[str, bool]:
    """(value, whether to keep it in the keyring): the environment's, or one asked for."""
    from app.sync.secrets import ENVIRONMENT

    variable = ENVIRONMENT[which]
    if services.environ.get(variable):
        return services.environ[variable], False
    if not services.keys.keyring_usable():  # said before asking, not after
        from app.keys import KeyringUnavailable

        raise KeyringUnavailable(cause="sync_none", what=which, variable=variable)
    value = _ask(label, confirm)
    if not value:
        raise EmptyValue(cause="not_changed", what=which)
    return value, True


def cmd_setup(services: Services, args: argparse.Namespace) -> int:
    from app.settings_sync import SyncConfig
    from app.sync.setup import existing_marker, set_up

    config = SyncConfig(
        url=args.url,
        endpoint_url=args.endpoint_url,
        region=args.region,
        user=args.user,
        encrypt=args.encrypt,
        settings=args.settings,
    )
    secret, keep_secret = None, False
    if config.user:
        what = "password" if config.kind == "webdav" else "secret access key"
        secret, keep_secret = _secret_for(services, "secret", f"{what} for {config.user}")
    passphrase, keep_passphrase = None, False
    if config.encrypt:
        found = None
        if sys.stdin.isatty() and not services.environ.get("CROSSTALK_SYNC_PASSPHRASE"):
            # a new remote's passphrase is asked twice; an unencrypted one's not at all
            found = existing_marker(config, secret)
        if found is None or found.encryption is not None:
            passphrase, keep_passphrase = _secret_for(
                services, "passphrase", "encryption passphrase", confirm=found is None
            )
    result = set_up(
        services.data, services.settings, config, secret, passphrase,
        keep_secret=keep_secret, keep_passphrase=keep_passphrase,
        say=lambda line: print(line, file=sys.stderr),
    )  # fmt: skip
    joined = (
        "joined the remote another device set up" if result.joined else "set up the remote for sync"
    )
    how = "encrypted" if result.config.encrypt else "not encrypted"
    print(f"{joined} ({how}): {result.description}")
    print(
        f"this device is {result.config.device} there; `crosstalk sync status` shows the settings"
    )
    return 0


def cmd_status(services: Services, args: argparse.Namespace) -> int:
    from app.sync.secrets import ENVIRONMENT, lookup

    config = services.settings.sync
    if config is None:
        print("no sync remote is set: `crosstalk sync setup URL` sets one")
        return 0
    rows = [("remote", config.url)]
    if config.endpoint_url:
        rows.append(("endpoint", config.endpoint_url))
    if config.region:
        rows.append(("region", config.region))
    if config.user:
        found = lookup("secret", services.environ)
        what = "password" if config.kind == "webdav" else "secret key"
        rows.append(("user", config.user))
        rows.append(
            (what, _where(found, f"missing: run setup again or set {ENVIRONMENT['secret']}"))
        )
    elif config.kind == "s3":
        rows.append(("credentials", "AWS's usual sources (environment, ~/.aws, SSO, role)"))
    if config.encrypt:
        found = lookup("passphrase", services.environ)
        missing = f"missing: run setup again or set {ENVIRONMENT['passphrase']}"
        rows.append(("encrypted", f"yes, passphrase {_where(found, missing)}"))
    else:
        rows.append(("encrypted", "no"))
    rows.append(("settings", "synced too (never keys)" if config.settings else "not synced"))
    rows.append(("device", config.device))
    _print_rows(rows)
    print()  # then how this device stands: its own block
    _print_rows(_how_synced(services))
    return 0


def _print_rows(rows: list[tuple[str, str]]) -> None:
    width = max(len(label) for label, _ in rows) + 1
    for label, value in rows:
        print(f"{label + ':':<{width}} {value}")


def _how_synced(services: Services) -> list[tuple[str, str]]:
    """When this device last synced, what is not sent yet, and the last error: the answer to
    "is this synced?"."""
    from app.sync.state import last_sync, pending

    last = last_sync(services.data)
    rows = [("last synced", local_time(last.at) if last.at else "never")]
    if last.summary and last.at:
        rows.append(("last result", last.summary))
    waiting = pending(services.library)
    rows.append(
        ("pending", f"{waiting} conversation{'' if waiting == 1 else 's'} with changes not sent yet"
         if waiting else "nothing: every change here is on the remote")
    )  # fmt: skip
    if last.error:
        rows.append(("last error", last.error))
    return rows


def local_time(iso: str) -> str:
    """``2026-11-27 11:02``: a stored UTC time as this computer's clock shows it."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _where(found: tuple[str, str] | None, missing: str) -> str:
    if found is None:
        return missing
    return "in the OS keyring" if found[1] == "keyring" else f"from {found[1]}"
