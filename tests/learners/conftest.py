"""Tianshou's n-step-return and buffer helpers are numba-jitted; compiling them costs tens of
seconds on a small machine, far more than these tests' few hundred steps. They run here as plain
Python (numba's documented ``NUMBA_DISABLE_JIT`` switch: same results, no compile). Set before
any test module imports tianshou (and so numba); an explicit setting wins."""

import os

os.environ.setdefault("NUMBA_DISABLE_JIT", "1")
