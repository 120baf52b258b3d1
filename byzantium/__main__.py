"""``python -m byzantium``: the command line (see :mod:`byzantium.cli`)."""

import sys

from byzantium.cli import main

sys.exit(main())
