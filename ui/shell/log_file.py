"""crosstalk.log: private, rotated, and scrubbed of keys from its first line."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

from app.keys import Keys
from app.paths import DataDir, private_file
from app.scrub import scrub


def log_to(data: DataDir) -> logging.Handler:
    data.ensure()
    for old in data.root.glob(f"{data.log_file.name}*"):  # private, as the whole data dir
        private_file(old)
    private_file(data.log_file)  # made 0600 before the handler opens it
    handler = logging.handlers.RotatingFileHandler(
        data.log_file, maxBytes=1_000_000, backupCount=2, encoding="utf-8"
    )

    def rotate(source: str, dest: str) -> None:
        os.replace(source, dest)
        private_file(Path(source))  # else the next file would be made by the umask

    handler.rotator = rotate
    handler.addFilter(ScrubbedLog(Keys(os.environ)))  # the environment's keys from line one
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    return handler


class ScrubbedLog(logging.Filter):
    """Every log line through ``app.scrub``: no key, known to this process or key-shaped,
    reaches crosstalk.log."""

    def __init__(self, keys: Keys) -> None:
        super().__init__()
        self._keys = keys

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub(record.getMessage(), self._keys.secrets())
        record.args = None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.msg = f"{record.msg}\n{scrub(text, self._keys.secrets())}"
            record.exc_info = None
        return True
