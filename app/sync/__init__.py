"""Sync through storage the user already has (issue 24; docs/sync.md).

Light on purpose: ``app.settings`` imports ``app.sync.config``, so nothing here may import
fsspec, s3fs, webdav4 or cryptography; ``remote`` and ``crypto`` do, when a command needs them.
"""
