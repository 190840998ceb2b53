"""What can go wrong with a sync remote, in words that say what to do, and the one map from
the storage libraries' exceptions (botocore via s3fs, webdav4 and httpx, the OS) to them.

The map looks at exceptions by their class names and attributes rather than importing
botocore or webdav4: a folder remote never loads them. Every message is scrubbed
(``app.scrub``) with the remote's secrets: servers echo request details back.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Iterator, Mapping
from typing import ClassVar

from app.errors import CrosstalkError, Datum
from app.scrub import scrub


class RemoteError(CrosstalkError):
    """A sync remote could not be used; nothing local was changed.

    Made by ``remote_error`` it says ``remote`` (a description without secrets), what was
    being done there (``doing``, a key of ``DOING``, with ``name``) and, per class, what went
    wrong; ``detail`` is the storage library's own words."""

    DOING: ClassVar[Mapping[str, str]] = {
        "writing": "writing {name}",
        "reading": "reading {name}",
        "listing": "listing {name}",
        "listing_all": "listing the remote",
        "deleting": "deleting {name}",
        "looking_for": "looking for {name}",
        "opening": "opening the remote",
    }
    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "probe_read": (
            "{remote}: reading {name} gave other bytes than were written; the remote cannot be "
            "used for sync"
        ),
        "probe_list": (
            "{remote}: {name} was written but listing does not show it whole; the remote cannot "
            "be used for sync"
        ),
        "probe_delete": (
            "{remote}: {name} is still there after deleting it; the remote cannot be used for sync"
        ),
        "encrypted": (
            "{remote} is encrypted: run `crosstalk sync setup` again with --encrypt and its "
            "passphrase"
        ),
        "unencrypted": (
            "{remote} already holds unencrypted sync data: choose an empty folder or bucket for "
            "an encrypted remote, or set up without --encrypt"
        ),
        "no_device": "sync has no device id here: run `crosstalk sync setup URL` again",
        "no_marker": (
            "{remote} holds no Crosstalk sync marker (emptied, or another folder): run "
            "`crosstalk sync setup {url}` again"
        ),
        "no_longer_encrypted": "{remote} is not encrypted any more; run setup again",
        "not_crosstalks": "{remote}: {name} is not Crosstalk's; choose another folder or bucket",
    }

    @classmethod
    def spelled(cls, data: Mapping[str, Datum]) -> Mapping[str, object]:
        doing = RemoteError.DOING.get(str(data.get("doing", "")), "")
        return {**data, "doing": doing.format_map(data)}


class WrongCredentials(RemoteError):
    """The remote refused the user name, password or access key."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "refused": (
            "{remote}: {doing}: the remote refused the credentials; check the user (or access "
            "key id) and run `crosstalk sync setup` again to give the password (or secret key)"
        ),
    }


class NoCredentials(RemoteError):
    """Nothing to sign in with was found."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "none_found": (
            "{remote}: {doing}: no credentials found; run `crosstalk sync setup URL --user "
            "ACCESS_KEY_ID` to keep the secret key in the OS keyring, or set AWS_ACCESS_KEY_ID "
            "and AWS_SECRET_ACCESS_KEY (or an AWS profile)"
        ),
        "no_passphrase": (
            "{remote} is encrypted and this device has no passphrase for it: run `crosstalk sync "
            "setup` again, or set CROSSTALK_SYNC_PASSPHRASE"
        ),
        "no_password": (
            "{remote}: no password for {user}; run `crosstalk sync setup` again, or set "
            "CROSSTALK_SYNC_SECRET"
        ),
        "no_secret_key": (
            "{remote}: no secret key for access key {user}; run `crosstalk sync setup` again, or "
            "set CROSSTALK_SYNC_SECRET"
        ),
    }


class NoSuchPlace(RemoteError):
    """The bucket, server folder or local folder is not there."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "no_bucket": (
            "{remote}: {doing}: there is no such bucket; create it first, or check its name and "
            "the endpoint URL"
        ),
        "not_found": "{remote}: {doing}: not found; check the URL (is the folder there?)",
        "no_folder": "{remote}: there is no such folder; create it first, or check the URL",
        "not_mounted": (
            "{remote}: the folder is not there; create it, or plug in and mount the drive it is on"
        ),
    }


class PermissionDenied(RemoteError):
    """Signed in, but not allowed to do this there."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "denied": (
            "{remote}: {doing}: permission denied; these credentials may not write there (check "
            "the bucket policy or the folder's permissions)"
        ),
    }


class Unreachable(RemoteError):
    """The network or the server is down, or the name does not resolve."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "unreachable": (
            "{remote}: {doing}: cannot reach the remote ({detail}); check the network "
            "connection and the URL"
        ),
    }


class Throttled(RemoteError):
    """The service asks to slow down; trying again later works."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "slow_down": (
            "{remote}: {doing}: the remote asks to slow down; try again in a few minutes"
        ),
    }


class RemoteFull(RemoteError):
    """No space or quota left on the remote."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "full": "{remote}: {doing}: the remote is full (no space or quota left); make room there",
    }


class ObjectMissing(RemoteError):
    """An object read by name is not (or no longer) there."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {"missing": "{remote}: {doing}: it is not there"}


class DamagedObject(RemoteError):
    """An object is there but cannot be read as written: cut short, changed or moved.
    ``detail`` is the decoder's own words."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "too_short": "{name} is damaged (too short or not encrypted by Crosstalk)",
        "changed": "{name} is damaged: it was changed, cut short or moved from another name",
        "damaged": "{name} is damaged ({detail})",
        "damaged_at": "{remote}: {name} is damaged ({detail})",
        "not_a": "{name} is not a {kind} object",
        "other_device": "{remote}: {name} names another device",
        "other_batch": "{remote}: {name} says it is another batch",
        "other_conversation": "{remote}: segments/{key} hold another conversation",
        "hash_mismatch": "{remote}: {name} does not match its hash",
    }


class Unexplained(RemoteError):
    """An error the map knows nothing more of: said with the remote's own words."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {"unexplained": "{remote}: {doing}: {detail}"}


class WrongPassphrase(RemoteError):
    """The passphrase does not open this remote's encryption."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "wrong": (
            "the passphrase is wrong: it does not open this remote's encryption; nothing was "
            "changed"
        ),
    }


class NewerRemote(RemoteError):
    """The remote was set up by a newer Crosstalk: refused whole, nothing written.
    ``version`` is the remote's sync format, ``known`` this version's."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "sealed_newer": (
            "{name} was encrypted by a newer Crosstalk (format {version}); update Crosstalk"
        ),
        "written_newer": (
            "{name} was written by a newer Crosstalk (sync format {version}, this one knows "
            "{known}); update Crosstalk on this device"
        ),
        "set_up_newer": (
            "{remote} was set up by a newer Crosstalk (sync format {version}, this one knows "
            "{known}); update Crosstalk on this device"
        ),
    }


_AUTH_CODES = {
    "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidClientTokenId", "ExpiredToken",
    "InvalidToken", "TokenRefreshRequired", "AuthFailure", "UnrecognizedClientException",
}  # fmt: skip
_DENIED_CODES = {"AccessDenied", "AllAccessDisabled", "AccountProblem", "Forbidden"}
_THROTTLE_CODES = {"SlowDown", "Throttling", "ThrottlingException", "TooManyRequests",
                   "RequestLimitExceeded", "ServiceUnavailable"}  # fmt: skip
_FULL_CODES = {"QuotaExceeded", "StorageQuotaExceeded", "InsufficientStorage"}
_NETWORK_CLASSES = {
    "EndpointConnectionError", "ConnectTimeoutError", "ReadTimeoutError", "ConnectionClosedError",
    "ClientConnectorError", "ServerDisconnectedError", "ConnectError", "ConnectTimeout",
    "ReadTimeout", "RemoteProtocolError", "TimeoutException", "NetworkError", "FSTimeoutError",
    "ConnectionError", "TimeoutError", "gaierror",
}  # fmt: skip
_EDQUOT = getattr(errno, "EDQUOT", 122)  # quota exceeded; Windows has no name for it
_NETWORK_ERRNOS = {errno.ECONNREFUSED, errno.ECONNRESET, errno.ENETUNREACH, errno.EHOSTUNREACH,
                   errno.ETIMEDOUT, errno.ENETDOWN}  # fmt: skip


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _code_and_status(exc: BaseException) -> tuple[str | None, int | None]:
    """The S3 error code and HTTP status a botocore ClientError or webdav4 HTTPError carries."""
    response = getattr(exc, "response", None)
    if isinstance(response, dict):  # botocore
        error = response.get("Error", {})
        status = response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        return error.get("Code"), status if isinstance(status, int) else None
    status = getattr(exc, "status_code", None)
    return None, status if isinstance(status, int) else None


def remote_error(
    exc: BaseException,
    *,
    remote: str,
    doing: str,
    name: str = "",
    secrets: Iterable[str] = (),
    missing_means: type[RemoteError] = NoSuchPlace,
) -> RemoteError:
    """The RemoteError for ``exc``, raised while ``doing`` (a key of ``RemoteError.DOING``,
    e.g. "writing" ``name``) on ``remote`` (a description without secrets). ``missing_means``:
    what a "not found" is here (an object read by name: ObjectMissing; the remote's own
    folder: NoSuchPlace)."""
    chain = list(_chain(exc))
    names = set().union(*(_names(e) for e in chain))
    codes_statuses = [_code_and_status(e) for e in chain]
    codes = {c for c, _ in codes_statuses if c}
    statuses = {s for _, s in codes_statuses if s}
    errnos = {e.errno for e in chain if isinstance(e, OSError) and e.errno}
    detail = scrub(_first_line(exc), secrets)
    where: dict[str, Datum] = {"remote": remote, "doing": doing, "name": name}

    if "NoCredentialsError" in names or "PartialCredentialsError" in names:
        return NoCredentials(cause="none_found", **where)
    if codes & _AUTH_CODES or 401 in statuses:
        return WrongCredentials(cause="refused", **where)
    if "NoSuchBucket" in codes:
        return NoSuchPlace(cause="no_bucket", **where)
    if (
        codes & _FULL_CODES
        or 507 in statuses
        or "InsufficientStorage" in names
        or errnos & {errno.ENOSPC, _EDQUOT}
    ):
        return RemoteFull(cause="full", **where)
    if codes & _THROTTLE_CODES or statuses & {429, 503}:
        return Throttled(cause="slow_down", **where)
    if (
        codes & _DENIED_CODES
        or 403 in statuses
        or names & {"PermissionError", "ForbiddenOperation"}
        or errnos & {errno.EACCES, errno.EPERM, errno.EROFS}
    ):
        return PermissionDenied(cause="denied", **where)
    if names & _NETWORK_CLASSES or errnos & _NETWORK_ERRNOS:
        return Unreachable(cause="unreachable", detail=detail, **where)
    if (
        "NoSuchKey" in codes
        or 404 in statuses
        or names & {"FileNotFoundError", "ResourceNotFound"}
        or errno.ENOENT in errnos
    ):
        if missing_means is ObjectMissing:
            return ObjectMissing(cause="missing", **where)
        return missing_means(cause="not_found", **where)
    return Unexplained(cause="unexplained", detail=detail, **where)


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]
