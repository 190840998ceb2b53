"""The inspector dock: each entry with its tokens and cost, the next request, usage."""
