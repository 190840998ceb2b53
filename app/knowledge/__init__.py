"""The user's own documents (docs/knowledge.md, docs/knowledge-answers.md): what a file says,
located, the index kept of it, and what a turn retrieved from it.

- Reading: ``extract`` reads a file the user pointed at into located units (lines, pages, the
  headings they sit under) and says why when it cannot, a small module per format
  (``extract_*``); ``chunks`` packs them into passages of about 1,200 characters that keep
  headings, code blocks and PDF pages whole where they fit.
- Keeping: ``index`` (``knowledge.db``: sources, files, chunks, their BM25-ranked terms from
  ``index_terms``, ``index_lengths``), ``vectors`` (the chunks' embeddings, searched with
  numpy), ``fusion`` (reciprocal rank fusion of the two rankings), ``service`` (``Knowledge``:
  add, update, search), ``watch`` (following the sources' folders as files change).
- A turn's record: ``retrieval`` (the rewrite, the query and every passage, as a debug log).
  ``embedder`` is the protocol the providers' embedding clients meet.

It may import ``app.errors``, ``app.paths``, ``app.history`` (the record), ``app.store``'s
search terms and query language, and its libraries (pypdf and python-docx only when such a file
is read, numpy, watchfiles), never ``ui/`` or Qt. Nothing here uploads the user's files or
writes to them.
"""
