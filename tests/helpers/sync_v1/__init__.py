"""Sync as Crosstalk did it before heads and changes (remote layout 1: a manifest per commit
that names everything), frozen as it was: the older device of the upgrade tests
(tests/sync/test_upgrade.py). Only what the remote format needs is here; the rest
(errors, encryption, the remotes, the marker) is the app's, which did not change."""
