"""What a reply's text holds beyond plain Markdown, as plain Python: where its math is and
the LaTeX of each formula (``math_syntax``), a formula's readable linear form for "Copy as
text" (``math_text``), and drawn SVG made safe to show (``svg``).

It decides nothing about how these look: the chat view (``ui/chat``) and the exports
(``app/transfer``) typeset and draw from what it finds. It may import ``app.errors`` and
its libraries (markdown-it-py, mdit-py-plugins), never ``ui/`` or Qt.
"""
