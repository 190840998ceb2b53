"""The window's sentences for errors about knowledge sources (app/knowledge)."""

from ui.common.error_words.marks import QT_TRANSLATE_NOOP

# (class name, cause) -> the window's sentence, {data} filled in
TEMPLATES: dict[tuple[str, str], str] = {
    ("KnowledgeError", "no_path"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} does not exist: choose a folder or a file that does"
    ),
    ("KnowledgeError", "not_a_file"): QT_TRANSLATE_NOOP(
        "ErrorsText", "{path} is neither a folder nor a file: choose a folder or a file"
    ),
    ("KnowledgeError", "no_source"): QT_TRANSLATE_NOOP(
        "ErrorsText", "There is no knowledge source {source}"
    ),
    ("KnowledgeError", "filters"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{filter}: is for searching conversations; a search of documents takes words, "
        '"exact phrases", OR and -word',
    ),
    ("KnowledgeError", "newer"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{path} was made by a newer Crosstalk (schema {version}): update Crosstalk, or move the "
        "file aside to index the documents again",
    ),
    ("KnowledgeError", "embedding_provider"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The embedding model {model} names no provider “{provider}”: choose one of a provider "
        "that can embed ({choices}) in Settings, or none to search by words only",
    ),
    ("KnowledgeError", "no_embeddings"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "{provider} has no embedding models ({model}): choose one of another provider "
        "({choices}) in Settings, or none to search by words only",
    ),
    ("KnowledgeError", "storage"): QT_TRANSLATE_NOOP(
        "ErrorsText",
        "The knowledge index {path} cannot be used ({why}): free some disk space, or move the "
        "file aside and index the documents again",
    ),
}
