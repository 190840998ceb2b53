"""``python -m app.cli``: the command line without the window."""

import sys

from app.cli.main import main

sys.exit(main())
