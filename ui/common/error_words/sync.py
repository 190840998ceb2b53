"""The window's sentences for errors about sync (app/sync/errors.py)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    ("WrongCredentials", "refused"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: the remote refused the credentials; check the user (or access key "
        "id), and give the password (or secret key) again in Settings > Sync",
    ),
    ("NoCredentials", "none_found"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: no credentials found; give the access key in Settings > Sync, or set "
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)",
    ),
    ("NoSuchPlace", "no_bucket"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: there is no such bucket; create it first, or check its name and the "
        "endpoint URL",
    ),
    ("NoSuchPlace", "not_found"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: not found; check the URL (is the folder there?)"
    ),
    ("PermissionDenied", "denied"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: permission denied; these credentials may not write there (check the "
        "bucket policy or the folder's permissions)",
    ),
    ("Unreachable", "unreachable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: cannot reach the remote ({detail}); check the network connection and "
        "the URL",
    ),
    ("Throttled", "slow_down"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: the remote asks to slow down; try again in a few minutes"
    ),
    ("RemoteFull", "full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {doing}: the remote is full (no space or quota left); make room there",
    ),
    ("ObjectMissing", "missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {doing}: it is not there"
    ),
    ("Unexplained", "unexplained"): QT_TRANSLATE_NOOP("ErrorsText", "{remote}: {doing}: {detail}"),
    ("RemoteError", "probe_read"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: reading {name} gave other bytes than were written; the remote cannot be used "
        "for sync",
    ),
    ("RemoteError", "probe_list"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {name} was written but listing does not show it whole; the remote cannot be "
        "used for sync",
    ),
    ("RemoteError", "probe_delete"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: {name} is still there after deleting it; the remote cannot be used for sync",
    ),
    ("RemoteError", "encrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is encrypted: in Settings > Sync, tick “Encrypt everything with a passphrase” "
        "and give its passphrase",
    ),
    ("RemoteError", "unencrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} already holds unencrypted sync data: choose an empty folder or bucket for an "
        "encrypted remote, or set up without encryption",
    ),
    ("RemoteError", "no_device"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Sync has no device id here: turn sync off and set it up again in Settings > Sync",
    ),
    ("RemoteError", "no_marker"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} holds no Crosstalk sync marker (emptied, or another folder): turn sync off and "
        "set up {url} again in Settings > Sync",
    ),
    ("RemoteError", "no_longer_encrypted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is not encrypted any more: turn sync off and set it up again in Settings > Sync",
    ),
    ("RemoteError", "not_crosstalks"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} is not Crosstalk's; choose another folder or bucket"
    ),
    ("NoCredentials", "no_passphrase"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} is encrypted and this device has no passphrase for it: give it again in "
        "Settings > Sync, or set CROSSTALK_SYNC_PASSPHRASE",
    ),
    ("NoCredentials", "no_password"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: no password for {user}: give it again in Settings > Sync, or set "
        "CROSSTALK_SYNC_SECRET",
    ),
    ("NoCredentials", "no_secret_key"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: no secret key for access key {user}: give it again in Settings > Sync, or set "
        "CROSSTALK_SYNC_SECRET",
    ),
    ("NoSuchPlace", "no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: there is no such folder; create it first, or check the URL"
    ),
    ("NoSuchPlace", "not_mounted"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote}: the folder is not there; create it, or plug in and mount the drive it is on",
    ),
    ("DamagedObject", "too_short"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} on the sync remote is damaged (too short, or not encrypted by Crosstalk)",
    ),
    ("DamagedObject", "changed"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} on the sync remote is damaged: it was changed, cut short or moved from another "
        "name",
    ),
    ("DamagedObject", "damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} on the sync remote is damaged ({detail})"
    ),
    ("DamagedObject", "damaged_at"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} is damaged ({detail})"
    ),
    ("DamagedObject", "not_a"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} on the sync remote is not a {kind} object"
    ),
    ("DamagedObject", "other_device"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} names another device"
    ),
    ("DamagedObject", "other_batch"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} says it is another batch"
    ),
    ("DamagedObject", "other_conversation"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: segments/{key} hold another conversation"
    ),
    ("DamagedObject", "hash_mismatch"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{remote}: {name} does not match its hash"
    ),
    ("WrongPassphrase", "wrong"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The passphrase is wrong: it does not open this remote's encryption; nothing was changed",
    ),
    ("NewerRemote", "sealed_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} was encrypted by a newer Crosstalk (format {version}): update Crosstalk",
    ),
    ("NewerRemote", "written_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} was written by a newer Crosstalk (sync format {version}, this one knows "
        "{known}): update Crosstalk on this device",
    ),
    ("NewerRemote", "set_up_newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{remote} was set up by a newer Crosstalk (sync format {version}, this one knows "
        "{known}): update Crosstalk on this device",
    ),
}
