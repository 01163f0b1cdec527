"""The compiled scans of diagnosis for the tests that hold them equal to their Python twins.

Loaded through ``diagnosis.compiled.load_compiled`` whatever path the process runs
(``BLAH_TUI_PURE_PYTHON=1`` included): the equality tests compare both paths in one process.
Where they cannot be loaded (no compiler, or built from older sources) the tests skip, except
in CI (``CI`` set), where the install builds them: a missing module fails there instead of
letting the equality go unchecked.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from diagnosis import features_scan
from diagnosis.compiled import CompiledUnusable, load_compiled


def compiled_modules() -> tuple[ModuleType, ModuleType]:
    """(diagnosis._loop_gate, diagnosis._word_scan), the word scan configured as features_scan does."""
    try:
        (loop_gate, word_scan), _ = load_compiled()
    except CompiledUnusable as why:
        if os.environ.get("CI"):
            pytest.fail(f"the compiled scans must be built in CI: {why}")
        pytest.skip(f"the compiled scans are not usable here: {why}")
    word_scan.configure(features_scan.LOOKED_UP_WORDS, features_scan.WORD_START_PREFIXES)
    return loop_gate, word_scan
