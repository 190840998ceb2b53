"""settings.toml for a command-line test: a local wire server as the OpenAI-compatible provider
"box" with one model, "tiny", the default model and the title model."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.wire_server import WireServer


def write_box_settings(data_root: Path, server: WireServer, extra: str = "") -> None:
    """``extra``: more lines of ``[providers.box]`` (``needs_key = true``)."""
    data_root.mkdir(parents=True, exist_ok=True)
    (data_root / "settings.toml").write_text(
        'default_model = "box:tiny"\ntitle_model = "box:tiny"\n\n'
        '[providers.box]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n{extra}'
    )
