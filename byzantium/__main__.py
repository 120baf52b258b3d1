"""``python -m byzantium``: the command line (see :mod:`byzantium.cli`)."""

import os
import sys

from byzantium.cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (``byzantium play pig | head``): stop quietly.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 0
sys.exit(status)
