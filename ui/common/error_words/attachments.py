"""The window's sentences for errors about attachments (app/attachments)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    ("AttachmentError", "missing"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} does not exist (was it moved or deleted?)"
    ),
    ("AttachmentError", "unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} cannot be read ({reason})"
    ),
    ("AttachmentError", "folder"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is a folder: attach the files in it instead"
    ),
    ("AttachmentError", "not_a_file"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is not a regular file"
    ),
    ("AttachmentError", "empty"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is empty: there is nothing to send"
    ),
    ("AttachmentError", "too_big"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is {size}; an attachment can be at most {limit}"
    ),
    ("AttachmentError", "misnamed_pdf"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is named like a PDF but its contents are not one; Crosstalk sends PNG, JPEG, "
        "WebP and GIF images, PDFs, and text files (UTF-8)",
    ),
    ("AttachmentError", "misnamed_image"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is named like an image but its contents are not one; Crosstalk sends PNG, JPEG, "
        "WebP and GIF images, PDFs, and text files (UTF-8)",
    ),
    ("AttachmentError", "unsupported"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} cannot be sent: Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text "
        "files (UTF-8)",
    ),
    ("AttachmentError", "image_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} starts like a {label} image but cannot be read (damaged or cut short?)",
    ),
    ("AttachmentError", "too_many_pixels"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} has too many pixels to open safely ({detail})"
    ),
    ("AttachmentError", "pdf_password"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{name} is protected by a password; save a copy without the password and attach that",
    ),
    ("AttachmentError", "pdf_damaged"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} cannot be read as a PDF (damaged or cut short?)"
    ),
    ("AttachmentError", "pdf_unreadable"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} cannot be read as a PDF ({exc_type})"
    ),
    ("AttachmentError", "pdf_no_pages"): QT_TRANSLATE_NOOP("ErrorsText", "{name} has no pages"),
    ("AttachmentError", "not_stored"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is no longer stored in {path}; attach it again"
    ),
    ("AttachmentError", "too_big_for"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} is {size}; {kind} takes files up to {limit}"
    ),
    ("AttachmentError", "too_many_pages"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{name} has {pages} pages; {kind} reads at most {most} pages of a PDF"
    ),
    ("AttachmentError", "too_big_together"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "These attachments are {size} together; {kind} takes about {limit} in one message",
    ),
    ("AttachmentError", "too_many_images"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{count} images in one message; {kind} takes at most {most}"
    ),
}
