"""`python -m referee`: the command line (referee/cli/main.py)."""

import sys

from referee.cli.main import main

sys.exit(main())
