"""The conversation list on the left of the window: the search box, the paged rows of the index,
search results with their message rows, and the reader thread that queries the index.

May import ``ui.common`` only.
"""
