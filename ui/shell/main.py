"""The ``crosstalk`` command: the window when run bare, the command line otherwise."""

from __future__ import annotations

import os
import sys


def has_display() -> bool:
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main() -> int:
    if sys.argv[1:2] == ["--local-model-worker"]:  # the bundle's built-in model process
        from app.providers.local_worker import main as local_worker

        return local_worker(sys.argv[2:])
    if sys.argv[1:2] == ["--import-indexer"]:  # the bundle's indexer of a large import
        from app.transfer.batch_indexer import main as import_indexer

        return import_indexer(sys.argv[2:])
    if len(sys.argv) > 1:
        from app.cli.main import main as cli

        return cli(sys.argv[1:])
    if not has_display():
        from app.cli.parser import build_parser

        print("crosstalk: no display to open the window on; the commands work here:\n")
        build_parser().print_help()
        return 0
    from ui.shell.pyside_feature import stop_source_scans

    # before the window's modules are imported: a shorter start-up (docs/performance.md)
    stop_source_scans()
    from ui.shell.app import run

    return run()


if __name__ == "__main__":
    sys.exit(main())
