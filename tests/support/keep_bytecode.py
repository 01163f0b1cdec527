"""The test run keeps Python's bytecode (imported first by tests/conftest.py, for its effect).

The sessions' shell sets ``PYTHONDONTWRITEBYTECODE``, and a person's may too. With it, nothing
is cached: each of the six xdist workers compiled every project module and rewrote the asserts
of every test module it imported (~9 s of the 12.5 s of CPU a worker spent collecting, measured
on this suite), and every CLI or simulator process a test starts compiled its imports again.
CI already unsets the variable (.ci/run) for this reason; the README's command now gets the same
run wherever it is typed. The caches are ``__pycache__`` folders, which git ignores, and Python
checks each against its source, so an edit is always picked up.

Measured on a fresh checkout with the variable set, the README's command, side by side on the
same busy machine (load 23-30, so CPU seconds, not wall time): the workers' CPU 529 -> 407 s
(collection 75 -> 24 s, the tests themselves 451 -> 382 s); the whole process tree 544 -> 417 s.

The switch is made as soon as this module is imported, before the workers import the project
(tests/conftest.py imports it first), and through the environment for the processes the tests
start.
"""

from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
