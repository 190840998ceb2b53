"""Settings > Documents: how a turn searches the user's documents (docs/knowledge-answers.md):
the embedding model (none: by words only), the model that rewrites a follow-up question, and
how many passages go with a question, within which share of the token budget.

The tab only edits: ``SettingsDialog.settings`` puts ``values()`` into the Settings it builds,
so they are checked and saved as every other field is. ``check`` refuses what was typed and
cannot be used (a number half typed, an embedding model no provider can make), in the words
the dialog shows other errors in.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QSpinBox, QWidget

from app.errors import CrosstalkError, InvalidValue
from app.keys import Keys
from app.knowledge.index import KnowledgeError
from app.settings import Settings
from ui.settings.form import FormError

# the embedding models offered for a provider of each kind that can embed (any other can be
# typed: an OpenAI-compatible server's are those of its models whose name says "embed")
SUGGESTED = {
    "openai": ("text-embedding-3-small", "text-embedding-3-large"),
    "openai-responses": ("text-embedding-3-small", "text-embedding-3-large"),
    "gemini": ("gemini-embedding-001",),
}
MAX_PASSAGES = 50
FIELDS = ("embedding_model", "recall_model", "knowledge_passages", "knowledge_share")


class DocumentsError(FormError):
    """A field of this tab cannot be used as typed (the dialog shows the tab)."""


def embedding_suggestions(settings: Settings) -> list[str]:
    """The "provider:model" of each configured provider that can embed, in the settings' order
    (as saved: a provider added in this dialog can be typed)."""
    found: list[str] = []
    for name, config in settings.all_providers().items():
        if config.kind == "openai-compatible":
            found += [f"{name}:{m}" for m in config.models if "embed" in m.lower()]
        else:
            found += [f"{name}:{model}" for model in SUGGESTED.get(config.kind, ())]
    return found


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted, from the palette
    return label


class KnowledgeTab(QWidget):
    def __init__(self, settings: Settings, models: list[str], parent: QWidget | None = None):
        super().__init__(parent)
        self._saved = settings
        self.embedding_model = QComboBox()
        self.embedding_model.setEditable(True)  # any provider:model, an OpenAI-compatible one's
        self.embedding_model.addItem(self.tr("None: search by words only"))
        suggested = embedding_suggestions(settings)
        if settings.embedding_model and settings.embedding_model not in suggested:
            suggested.append(settings.embedding_model)
        self.embedding_model.addItems(suggested)
        if settings.embedding_model:
            self.embedding_model.setCurrentText(settings.embedding_model)
        else:
            self.embedding_model.setCurrentIndex(0)
        self.recall_model = QComboBox()
        self.recall_model.setEditable(True)
        self.recall_model.addItem(self.tr("The title model"))
        self.recall_model.addItems(models)
        if settings.recall_model:
            self.recall_model.setCurrentText(settings.recall_model)
        else:
            self.recall_model.setCurrentIndex(0)
        self.passages = QSpinBox()
        self.passages.setRange(1, max(MAX_PASSAGES, settings.knowledge_passages))
        self.passages.setValue(settings.knowledge_passages)
        self.share = QSpinBox()
        self.share.setRange(1, 100)
        self.share.setSuffix(self.tr(" %"))
        self._share_shown = max(1, min(100, round(settings.knowledge_share * 100)))
        self.share.setValue(self._share_shown)
        self.embed_again = _note("")
        self.embed_again.setForegroundRole(QPalette.ColorRole.Text)
        self.embed_again.hide()
        self.embedding_model.currentTextChanged.connect(self._show_embed_again)

        form = QFormLayout(self)
        form.addRow(self.tr("Embedding model:"), self.embedding_model)
        form.addRow(
            _note(
                self.tr(
                    "Finds passages by meaning as well as by words: your documents' text is "
                    "sent to this model when they are indexed, and each question when searched."
                )
            )
        )
        form.addRow(self.embed_again)
        form.addRow(self.tr("Model that rewrites follow-up questions:"), self.recall_model)
        form.addRow(
            _note(
                self.tr(
                    "Turns a follow-up such as “and the other one?” into a question that stands "
                    "alone before your documents are searched; a small, cheap model is enough."
                )
            )
        )
        form.addRow(self.tr("Passages sent with a question:"), self.passages)
        form.addRow(_note(self.tr("The most passages found in your documents sent to the model.")))
        form.addRow(self.tr("Their share of the token budget:"), self.share)
        form.addRow(
            _note(
                self.tr(
                    "The most of the conversation's token budget the passages may take; those "
                    "that do not fit are left out."
                )
            )
        )

    def chosen_embedding_model(self) -> str | None:
        text = self.embedding_model.currentText().strip()
        return None if not text or text == self.embedding_model.itemText(0) else text

    def chosen_recall_model(self) -> str | None:
        text = self.recall_model.currentText().strip()
        return None if not text or text == self.recall_model.itemText(0) else text

    def _show_embed_again(self) -> None:
        chosen = self.chosen_embedding_model()
        if chosen == self._saved.embedding_model:
            self.embed_again.hide()
            return
        if chosen is None:
            text = self.tr("Your documents will be searched by words only.")
        else:
            text = self.tr(
                "Your documents will be embedded again with {model} when they are next indexed."
            ).format(model=chosen)
        self.embed_again.setText(text)
        self.embed_again.show()

    def values(self) -> dict[str, Any]:
        """The tab's fields for ``Settings``; FormError if a number is left half typed."""
        if not self.passages.hasAcceptableInput():
            raise DocumentsError(self.tr("the passages sent with a question should be 1 or more"))
        if not self.share.hasAcceptableInput():
            raise DocumentsError(
                self.tr("the passages' share of the token budget should be 1 to 100 percent")
            )
        share = self.share.value()
        return {
            "embedding_model": self.chosen_embedding_model(),
            "recall_model": self.chosen_recall_model(),
            "knowledge_passages": self.passages.value(),
            # a share written by hand (0.255) is kept unless the box was changed
            "knowledge_share": (
                self._saved.knowledge_share if share == self._share_shown else share / 100
            ),
        }

    @staticmethod
    def concerns(exc: FormError | CrosstalkError) -> bool:
        """Whether ``exc`` is about a field of this tab."""
        if isinstance(exc, DocumentsError | KnowledgeError):
            return True
        return isinstance(exc, InvalidValue) and exc.data.get("field") in FIELDS

    def check(self, settings: Settings, keys: Keys) -> None:
        """The embedding model can be made from ``settings`` (a configured provider that can
        embed); KnowledgeError says why not. Nothing is sent or imported from an SDK."""
        if not settings.embedding_model or settings.embedding_model == self._saved.embedding_model:
            return  # unchanged: the indexing says it if it cannot be used, as it did
        from app.providers.embeddings import embedder_for

        made = embedder_for(settings, keys, os.environ)  # KnowledgeError: the dialog shows it
        if made is not None:
            made.close()
