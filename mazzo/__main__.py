"""``python -m mazzo``: the same as the ``mazzo`` command."""

import sys

from mazzo.cli import main

sys.exit(main())
