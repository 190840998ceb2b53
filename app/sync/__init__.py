"""Sync through storage the user already has (docs/sync.md).

Light on purpose: nothing here may import fsspec, s3fs, webdav4 or cryptography; ``remote``
and ``crypto`` do, when a command needs them. The ``[sync]`` settings are not here but in
``app/settings_sync.py``: the settings load without this package.
"""
