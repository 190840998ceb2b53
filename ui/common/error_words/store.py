"""The window's sentences for errors about conversations and the data folder (app/store)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    ("NotFound", "no_conversation"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no conversation {conversation}"
    ),
    ("NotFound", "in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Conversation {conversation} is in the trash; the command `crosstalk restore "
        "{conversation}` brings it back",
    ),
    ("NotFound", "not_in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is not in the trash"
    ),
    ("NotFound", "gone"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is gone from disk"
    ),
    ("NotFound", "no_message"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This conversation has no message {seq}"
    ),
    ("NotFound", "no_message_to_fork"): QT_TRANSLATE_NOOP(
        "ErrorsText", "This conversation has no message {seq} to fork at"
    ),
    ("NotFound", "no_project"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no project “{project}”; the list on the left shows them"
    ),
    ("NotFound", "not_a_project"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{project} is a conversation, not a project"
    ),
    ("StorageError", "full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): the disk is full; free some space and try again",
    ),
    ("StorageError", "maybe_full"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): the disk may be full; free some space and try again",
    ),
    ("StorageError", "not_writable"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): Crosstalk's data folder is not writable; fix its "
        "permissions or set CROSSTALK_HOME",
    ),
    ("StorageError", "locked"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): another Crosstalk is writing to it; try again in "
        "a moment",
    ),
    ("StorageError", "failed"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not {action} {path} ({reason}): check the disk and Crosstalk's data folder",
    ),
    ("StorageError", "no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "Could not create the folder {path} ({reason}): check its permissions or set "
        "CROSSTALK_HOME to a writable folder",
    ),
    ("StorageError", "not_saved"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not save {path} ({reason}): check the folder's permissions"
    ),
    ("StorageError", "pins_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason}): fix or delete it to pin again"
    ),
    ("StorageError", "in_trash"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Conversation {conversation} is in the trash; nothing was written"
    ),
    ("StorageError", "exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; nothing was overwritten"
    ),
    ("StorageError", "exists_not_moved"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; nothing was moved"
    ),
    ("StorageError", "blob_missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} is not in {path}"
    ),
    ("StorageError", "blob_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} cannot be read ({reason})"
    ),
    ("StorageError", "blob_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Attachment {blob} in {path} is damaged"
    ),
    ("StorageError", "blob_not_stored"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not store an attachment in {path} ({reason}); nothing was stored"
    ),
    ("StorageError", "blob_not_writable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "Could not write attachments to {path} ({reason}); nothing was stored"
    ),
    ("StorageError", "export_is_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is a folder; choose a file to write the export to"
    ),
    ("StorageError", "export_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; choose an empty folder to export to"
    ),
    ("StorageError", "export_no_folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a folder; create it first"
    ),
    ("StorageError", "export_attachments"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{path} already exists (a Markdown export's attachments go there); choose an empty "
        "folder to export to",
    ),
    ("StorageError", "export_folder_exists"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} already exists; choose an empty folder to export to"
    ),
    ("StorageError", "indexer_ended"): QT_TRANSLATE_NOOP(
        "ErrorsText", "the import's indexing process ended unexpectedly ({status})"
    ),
    ("StorageError", "indexer_not_started"): QT_TRANSLATE_NOOP(
        "ErrorsText", "could not start the import's indexing process ({reason})"
    ),
}
