"""The window's sentence for each cause of each error of ``app/``, one module per area
(providers, sync, MCP, settings, search, the keyring, compression, values a person gave, the
store, attachments, turns, knowledge), marked for the translator under the context "ErrorsText";
``ui/common/errors_text.py`` fills them in. Each key is said once: a test checks no two modules
give the same one.
"""

from ui.common.error_words import (
    attachments,
    compression,
    keyring,
    knowledge,
    mcp,
    providers,
    search,
    settings,
    store,
    sync,
    turns,
    values,
)

TEMPLATES: dict[tuple[str, str], str] = {
    **providers.TEMPLATES,
    **sync.TEMPLATES,
    **mcp.TEMPLATES,
    **settings.TEMPLATES,
    **search.TEMPLATES,
    **keyring.TEMPLATES,
    **compression.TEMPLATES,
    **values.TEMPLATES,
    **store.TEMPLATES,
    **attachments.TEMPLATES,
    **turns.TEMPLATES,
    **knowledge.TEMPLATES,
}
