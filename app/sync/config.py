"""The sync remote's settings (``[sync]`` in settings.toml), under the sync package's name for
them: they live in ``app/settings_sync.py``, with the settings that read them, so that loading
the settings never imports the sync package."""

from app.settings_sync import Kind, SyncConfig, folder_path, kind_of, normalized

__all__ = ["Kind", "SyncConfig", "folder_path", "kind_of", "normalized"]
