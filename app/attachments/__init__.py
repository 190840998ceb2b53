"""Files sent with a message: attaching, storing, and fitting them to each provider."""
