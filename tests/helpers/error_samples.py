"""Every CrosstalkError class of app/, and an error of each to say: one made from a message
alone, and one for each of its causes (``TEMPLATES``) with data in every field the sentence
names. A new class or cause is found here without being listed, so the tests that say each
one (tests/test_errors.py, tests/ui/test_errors_text.py) fail until it has its words."""

from __future__ import annotations

import importlib
import pkgutil
import string
from collections.abc import Iterator

import app
from app.errors import CrosstalkError, Datum

# a value for each field a sentence names; any other field is given its own name
DATA: dict[str, Datum] = {
    "provider": "acme",
    "model": "acme-large",
    "url": "https://api.example.com/v1",
    "seconds": 3,
    "bound": 2,
    "kept": 1,
    "doing": "writing",
    "name": "probes/one",
    "what": "key",
    "remote": "s3://bucket/folder",
}


def error_classes() -> list[type[CrosstalkError]]:
    """Each subclass of CrosstalkError in app/ (every module imported to find them)."""
    for module in pkgutil.walk_packages(app.__path__, "app."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)

    def below(cls: type[CrosstalkError]) -> Iterator[type[CrosstalkError]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    found = {cls for cls in below(CrosstalkError) if cls.__module__.startswith("app.")}
    return sorted(found, key=lambda cls: (cls.__name__, cls.__module__))


def own_causes(cls: type[CrosstalkError]) -> list[str]:
    """The causes ``cls`` itself words (not those of the class it extends)."""
    return list(vars(cls).get("TEMPLATES", {}))


def fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def with_cause(cls: type[CrosstalkError], cause: str) -> CrosstalkError:
    """``cls``'s error for ``cause``, with data in every field its sentence names."""
    data = DATA | {name: DATA.get(name, name) for name in fields(cls.TEMPLATES[cause])}
    return cls(cause=cause, **data)


def from_message(cls: type[CrosstalkError]) -> CrosstalkError:
    """``cls``'s error made from a message alone, as most raise sites make one."""
    return cls("the disk said no; nothing was changed")


def samples() -> list[tuple[str, list[CrosstalkError]]]:
    """For each class (named by its module and name): its error made from a message alone,
    and one for each of its own causes."""
    found = []
    for cls in error_classes():
        made = [from_message(cls), *(with_cause(cls, cause) for cause in own_causes(cls))]
        found.append((f"{cls.__module__}.{cls.__name__}", made))
    return found
