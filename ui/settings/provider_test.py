"""Settings' Test button: one tiny request through a provider as the dialog shows it (kind,
base URL, models, and the key typed there, unsaved), never as last saved."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from app.composition import build_models
from app.errors import CrosstalkError
from app.providers.check import ping
from app.settings import Settings
from ui.common import errors_text
from ui.common.i18n import Context

if TYPE_CHECKING:
    from ui.settings.dialog import ProviderTrial


class ProviderTest(Context):
    """The translation context of the texts here."""


async def try_provider(trial: ProviderTrial) -> tuple[bool, str]:
    """Whether the provider answered, and what to say: its answer, or why not."""
    name, config = trial.name, trial.config
    model = config.models[0] if config.models else None
    if model is None:
        return False, ProviderTest.tr("{name} lists no models to test with").format(name=name)
    models = build_models(Settings(providers={name: config}), trial.keys, os.environ)
    try:
        provider, model = await models.ready(f"{name}:{model}")
        return True, await ping(provider, model)
    except CrosstalkError as exc:
        return False, errors_text.said(exc)
    finally:
        await models.aclose()
