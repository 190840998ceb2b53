"""A file's text in located units (docs/knowledge.md): text, Markdown and source code by line
ranges, HTML with its headings, PDF by page, DOCX by paragraph with its headings and tables.

``extract`` never raises for a file it cannot read: it says why in ``Extracted.problem``. Each
format is read by a module beside this one (``extract_text``, ``extract_html``, ``extract_pdf``,
``extract_docx``); pypdf and python-docx are imported only when a PDF or a DOCX is read.
"""

from __future__ import annotations

from pathlib import Path

from app.knowledge import extract_text
from app.knowledge.extract_units import Extracted, Unit

__all__ = ["SUFFIXES", "Extracted", "Unit", "extract", "readable"]

MARKDOWN = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"})
PLAIN = frozenset({".txt", ".text", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".log",
                   ".csv", ".tsv", ".srt", ".vtt"})  # fmt: skip
CODE = frozenset({
    ".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".kts", ".scala", ".swift", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m",
    ".mm", ".cs", ".fs", ".vb", ".rb", ".php", ".pl", ".pm", ".lua", ".r", ".jl", ".dart",
    ".ex", ".exs", ".erl", ".hs", ".ml", ".mli", ".clj", ".el", ".lisp", ".scm", ".zig",
    ".nim", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd", ".sql", ".toml",
    ".yaml", ".yml", ".json", ".jsonc", ".json5", ".ini", ".cfg", ".conf", ".properties",
    ".xml", ".css", ".scss", ".sass", ".less", ".vue", ".svelte", ".graphql", ".proto",
    ".tf", ".hcl", ".cmake", ".mk", ".gradle", ".dockerfile", ".nix", ".vim", ".diff",
    ".patch",
})  # fmt: skip
HTML = frozenset({".html", ".htm", ".xhtml"})
PDF = frozenset({".pdf"})
DOCX = frozenset({".docx"})
SUFFIXES: frozenset[str] = MARKDOWN | PLAIN | CODE | HTML | PDF | DOCX


def readable(path: Path) -> bool:
    """Whether ``path`` is in a format ``extract`` reads: by its suffix, or, for a file without
    one (README, Makefile, LICENSE), by its first bytes being text."""
    suffix = path.suffix.lower()
    if suffix in SUFFIXES:
        return True
    if suffix:  # a suffix we do not read (".png", ".xlsx", ".zip")
        return False
    try:
        with path.open("rb") as f:
            head = f.read(extract_text.SNIFF)
    except OSError:
        return False
    return bool(head) and not extract_text.looks_binary(head)


def extract(path: Path, *, max_bytes: int = 20_000_000) -> Extracted:
    """The text of ``path`` in located units, in the file's order; ``problem`` says, in one
    line, why nothing or not all of it could be read. Never raises for a file it cannot read."""
    try:
        if path.is_dir():
            return Extracted(path, [], "a folder, not a file")
        size = path.stat().st_size
    except OSError as exc:
        return Extracted(path, [], _os_problem(exc))
    if size > max_bytes:
        return Extracted(
            path, [], f"too large to read ({_mb(size)}; the limit is {_mb(max_bytes)})"
        )
    if size == 0:
        return Extracted(path, [], "the file is empty")
    suffix = path.suffix.lower()
    try:
        if suffix in PDF:
            from app.knowledge import extract_pdf

            return extract_pdf.extract_pdf(path)
        if suffix in DOCX:
            from app.knowledge import extract_docx

            return extract_docx.extract_docx(path)
        data = path.read_bytes()
    except OSError as exc:
        return Extracted(path, [], _os_problem(exc))
    declared = extract_text.declared_charset(data) if suffix in HTML else None
    text = extract_text.decode(data, declared)
    if text is None:
        return Extracted(path, [], "a binary file, not text")
    if suffix in HTML:
        from app.knowledge import extract_html

        units = extract_html.html_units(text)
    elif suffix in MARKDOWN:
        units = extract_text.markdown_units(text)
    elif suffix in CODE or (suffix not in PLAIN and _code_name(path)):
        units = extract_text.code_units(text)
    else:
        units = extract_text.plain_units(text)
    return Extracted(path, units, None if units else "no text in the file (only white space)")


def _code_name(path: Path) -> bool:
    """Files without a suffix that are code by their name (and dotfiles: ".bashrc")."""
    return path.name in _CODE_NAMES or path.name.startswith(".")


_CODE_NAMES = frozenset({"Makefile", "Dockerfile", "Containerfile", "Justfile", "Rakefile",
                         "Gemfile", "Vagrantfile", "CMakeLists.txt"})  # fmt: skip


def _os_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "the file does not exist (moved or deleted?)"
    if isinstance(exc, PermissionError):
        return "permission denied: this account may not read the file"
    if isinstance(exc, IsADirectoryError):
        return "a folder, not a file"
    return f"the file could not be read ({exc.strerror or exc})"


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"
