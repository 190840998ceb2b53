"""Export and import: Crosstalk's own lossless JSON and ZIP, Markdown, HTML, and other apps'.

The window and the command line use these names; each takes an optional progress callback
(``Progress``: file, done, total, conversations so far) and stops cleanly if it raises
``Cancelled``.
"""

from app.transfer.base import Cancelled, ImportReport, Problem, Progress, ProgressFn
from app.transfer.detect import SOURCES
from app.transfer.export import FORMATS, ExportReport, all_ids, export, render
from app.transfer.importer import import_paths

__all__ = [
    "FORMATS",
    "SOURCES",
    "Cancelled",
    "ExportReport",
    "ImportReport",
    "Problem",
    "Progress",
    "ProgressFn",
    "all_ids",
    "export",
    "import_paths",
    "render",
]
