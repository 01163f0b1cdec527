"""The test run keeps bytecode whatever the shell says (``tests.support.keep_bytecode``): the
workers write ``__pycache__`` and the processes the tests start inherit no
``PYTHONDONTWRITEBYTECODE``."""

from __future__ import annotations

import os
import subprocess
import sys


def test_this_worker_writes_bytecode_and_a_started_process_does_too() -> None:
    assert sys.dont_write_bytecode is False
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ
    started = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.dont_write_bytecode)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert started.stdout.strip() == "False"
