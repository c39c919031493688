"""``python -m mazzo.agents.bundle check DIR``: the bundle's self-check
(``mazzo.agents.bundle.check``) from the command line, torch-free."""

import sys

from mazzo.agents.bundle.check import main

sys.exit(main())
