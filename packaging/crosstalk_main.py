"""PyInstaller's entry script: the same `crosstalk` command as the pip-installed one.

Bare it opens the window; with arguments it is the command line (ui/shell/main.py decides).
"""

import sys

from ui.shell.main import main

if __name__ == "__main__":
    sys.exit(main())
