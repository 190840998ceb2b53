"""The user's own documents (docs/knowledge.md): what a file says, located, and the chunks an
index keeps of it.

``extract`` reads a file the user pointed at into located units (lines, pages, the headings
they sit under) and says why when it cannot; ``chunks`` packs those units into passages of
about 1,200 characters that keep headings, code blocks and PDF pages whole where they fit. The
formats each have a small module beside it (``extract_*``). Nothing here uploads, writes or
indexes anything: ``index`` and ``service`` keep and search what these give.

It may import ``app.errors``, ``app.paths``, ``app.store.search_text`` (the search engine's
terms) and its libraries (pypdf, python-docx, imported only when a PDF or DOCX is read),
never ``ui/`` or Qt.
"""
