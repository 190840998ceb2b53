"""``crosstalk sync …``: the remote that sync uses (issue 24; docs/sync.md).

    crosstalk sync setup URL [--endpoint-url U] [--region R] [--user U] [--encrypt]
    crosstalk sync status

``setup`` tests the remote (write, read, list and delete a probe object under a unique name),
checks or writes its marker (format version, encryption), and only then keeps it: the URL and
options in settings.toml, the password or secret key and the passphrase in the OS keyring.
Anything that fails is said in words, and nothing is kept.
"""

from __future__ import annotations

import argparse
import secrets as random
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.composition import Services
    from app.sync.config import SyncConfig
    from app.sync.marker import Marker
    from app.sync.remote import Remote
    from app.sync.secrets import Secret


def cmd_sync(services: Services, args: argparse.Namespace) -> int:
    print("crosstalk sync setup|status: `crosstalk sync ACTION --help` says more", file=sys.stderr)
    return 1


def _ask(label: str, confirm: bool = False) -> str:
    """A secret from the terminal (not shown), or the next line of stdin when there is none."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    value = getpass.getpass(f"{label} (not shown): ")
    if confirm and value != getpass.getpass(f"{label} again: "):
        raise ValueError("the two entries differ; nothing was changed")
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
        raise ValueError(
            f"there is no usable OS keyring here to keep the sync {which} in: set {variable} "
            "in the environment instead"
        )
    value = _ask(label, confirm)
    if not value:
        raise ValueError(f"the {which} is empty; nothing was changed")
    return value, True


def cmd_setup(services: Services, args: argparse.Namespace) -> int:
    from app.settings_store import save_settings
    from app.sync import marker as markers
    from app.sync import secrets
    from app.sync.config import SyncConfig, normalized
    from app.sync.remote import open_remote

    before = services.settings.sync
    config = SyncConfig(
        url=normalized(args.url),
        endpoint_url=args.endpoint_url,
        region=args.region,
        user=args.user,
        encrypt=args.encrypt,
        device=before.device if before and before.device else random.token_hex(8),
    )
    keep: dict[Secret, str] = {}
    secret = None
    if config.user:
        what = "password" if config.kind == "webdav" else "secret access key"
        secret, kept = _secret_for(services, "secret", f"{what} for {config.user}")
        if kept:
            keep["secret"] = secret
    remote = open_remote(config, secret)
    print(f"testing {remote.description} ...", file=sys.stderr)
    probe(remote)
    found = markers.read_marker(remote)
    if found is not None:
        _check_joinable(remote, found, config)
    passphrase = None
    if config.encrypt:
        passphrase, kept = _secret_for(
            services, "passphrase", "encryption passphrase", confirm=found is None
        )
        if kept:
            keep["passphrase"] = passphrase
    if found is None:
        new, _ = markers.new_marker(passphrase)
        markers.write_marker(remote, new)
        found = markers.read_marker(remote)  # another device may have set it up meanwhile
        assert found is not None
        _check_joinable(remote, found, config)
        joined = "set up the remote for sync"
    else:
        joined = "joined the remote another device set up"
    if found.encryption is not None and passphrase is not None:
        markers.unlock(found, passphrase)  # WrongPassphrase: nothing was kept
    for which, value in keep.items():
        secrets.store(which, value)
    from msgspec.structs import replace

    save_settings(services.data, replace(services.settings, sync=config))
    how = "encrypted" if config.encrypt else "not encrypted"
    print(f"{joined} ({how}): {remote.description}")
    print(f"this device is {config.device} there; `crosstalk sync status` shows the settings")
    return 0


def probe(remote: Remote) -> None:
    """Write, read, list and delete an object under a unique name; RemoteError says which
    step failed and why."""
    from app.sync.errors import RemoteError

    remote.check_root()
    name = f"probes/{random.token_hex(8)}"
    data = f"crosstalk sync probe {name}\n".encode()
    remote.put(name, data)
    try:
        if remote.get(name) != data:
            raise RemoteError(
                f"{remote.description}: reading {name} gave other bytes than were written; "
                "the remote cannot be used for sync"
            )
        listed = {o.name: o.size for o in remote.list("probes/")}
        if listed.get(name) != len(data):
            raise RemoteError(
                f"{remote.description}: {name} was written but listing does not show it whole; "
                "the remote cannot be used for sync"
            )
    finally:
        remote.delete(name)
    if remote.exists(name):
        raise RemoteError(
            f"{remote.description}: {name} is still there after deleting it; the remote "
            "cannot be used for sync"
        )


def _check_joinable(remote: Remote, marker: Marker, config: SyncConfig) -> None:
    from app.sync.errors import RemoteError

    if marker.encryption is not None and not config.encrypt:
        raise RemoteError(
            f"{remote.description} is encrypted: run `crosstalk sync setup` again with --encrypt "
            "and its passphrase"
        )
    if marker.encryption is None and config.encrypt:
        raise RemoteError(
            f"{remote.description} already holds unencrypted sync data: choose an empty folder "
            "or bucket for an encrypted remote, or set up without --encrypt"
        )


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
    rows.append(("device", config.device))
    width = max(len(label) for label, _ in rows) + 1
    for label, value in rows:
        print(f"{label + ':':<{width}} {value}")
    return 0


def _where(found: tuple[str, str] | None, missing: str) -> str:
    if found is None:
        return missing
    return "in the OS keyring" if found[1] == "keyring" else f"from {found[1]}"
