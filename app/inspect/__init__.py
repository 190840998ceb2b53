"""What the inspector shows, without Qt: each entry's tokens and cost, and the next request."""
