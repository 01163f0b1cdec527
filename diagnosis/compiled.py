"""The compiled scans of diagnosis, or none: the one place that chooses which path runs.

Two hand-written C modules stay, each because a measured need remains (issue 39; per-function
figures in each file's header and tests/bench/bench_scans.py):

- ``diagnosis._loop_gate`` (diagnosis/_loop_gate.c): the loop detector's gate over every reply
  (``prefilter``) and, for the few replies that pass it, the word helpers of ``loop_words``;
- ``diagnosis._word_scan`` (diagnosis/_word_scan.c): the grouping features' word look-ups and
  each rule table's first match, on every distinct user text.

The need is the 1M-call ``report`` (goal: under 20 s on 2 cores). Measured 2026-12-07 on a
200,000-call bench archive (tests/bench/bench_diagnosis.py, 2 workers, CPU of every process per
call, min of 2 runs alternating with main's code, load 14-21): main (three C modules) 30-31 us,
this path 40 us, the pure path 66 us. Scaled to main's 1M figure (22 us per call, 10.7-11.4 s):
this path ~28 us, ~15 s on two free cores; the pure path ~47 us, ~24-25 s, over the goal. In
instructions (callgrind, the report's per-call loop over 2,000 bench calls): main 156k per call,
this path 200k, the pure path 361k.

No library does these two jobs (a word-trigram repetition gate; a rule table with word, prefix
and operator gates): pyahocorasick with word-boundary checks finds the words in 4.7 us per text
against 0.7 compiled and 2.5 in Python; one ``re`` alternation 29. The detectors' text scans
(diagnosis/_text_scan.c, 385 lines, 6 functions) are Python since issue 39: each costs 1-3 us
per call more than it did in C (hyperscan, pyahocorasick, google-re2 and one ``re`` alternation
measured for the refusal prefilters: 1.6, 2.3, 3.7 and 4.8 us against 2.2 in Python), together
the 28% above, which the report can afford.

The choice is made once, at import, for both modules together (one path, one description):

- ``BLAH_TUI_PURE_PYTHON=1`` (any value but "" and "0") forces the pure path;
- a module that is not built (no C compiler at install) gives the pure path;
- a module built from other sources than its .c file beside it (an editable install after a .c
  edit: setup.py compiles the file's SHA-256 into the module as ``SOURCE_HASH``) is refused, and
  the pure path runs until it is rebuilt (``pip install -e .``). Where the .c file is not there
  (an install without the sources) the module is taken as built.

Both paths give the same answers: Hypothesis properties hold each compiled function equal to its
Python twin (tests/diagnosis/test_compiled_scans.py), the whole report is compared byte for byte
across the two paths (tests/application/diagnosis/test_compiled_scans_report.py), and CI runs the
diagnosis tests a second time with ``BLAH_TUI_PURE_PYTHON=1``. ``describe_scan_path()`` says which
path runs and why (``blah-tui --version``).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

__all__ = [
    "COMPILED_MODULES",
    "PURE_PYTHON_VARIABLE",
    "CompiledUnusable",
    "describe_scan_path",
    "load_compiled",
    "loop_gate",
    "word_scan",
]

PURE_PYTHON_VARIABLE = "BLAH_TUI_PURE_PYTHON"
#: The compiled modules, each built from ``diagnosis/<name>.c`` by setup.py.
COMPILED_MODULES = ("_loop_gate", "_word_scan")


class CompiledUnusable(Exception):
    """Why the compiled modules cannot run (the message says it to a person)."""


def source_hash(name: str) -> str | None:
    """The SHA-256 of ``diagnosis/<name>.c`` (what setup.py compiles in), None when it is not there."""
    try:
        return hashlib.sha256(Path(__file__).with_name(f"{name}.c").read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def load_compiled() -> tuple[tuple[ModuleType, ...], bool]:
    """The compiled modules (in ``COMPILED_MODULES`` order) and whether their sources were there
    to compare; raises ``CompiledUnusable`` when one is not built or was built from other sources.
    Ignores ``BLAH_TUI_PURE_PYTHON`` (the equality tests compare both paths in one process)."""
    modules: list[ModuleType] = []
    compared = True
    for name in COMPILED_MODULES:
        try:
            module = importlib.import_module(f"diagnosis.{name}")
        except ImportError as error:
            raise CompiledUnusable(f"no compiled module: {error}") from error
        expected = source_hash(name)
        if expected is None:
            compared = False
        elif getattr(module, "SOURCE_HASH", None) != expected:
            raise CompiledUnusable(
                f"diagnosis.{name} was built from older sources than diagnosis/{name}.c; rebuild: pip install -e ."
            )
        modules.append(module)
    return tuple(modules), compared


def _choose() -> tuple[tuple[ModuleType, ...] | None, str]:
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None, f"pure Python ({PURE_PYTHON_VARIABLE}={os.environ[PURE_PYTHON_VARIABLE]})"
    try:
        modules, compared = load_compiled()
    except CompiledUnusable as why:
        return None, f"pure Python ({why})"
    names = " and ".join(f"diagnosis.{name}" for name in COMPILED_MODULES)
    built = "built from matching sources" if compared else "installed without their sources to compare"
    return modules, f"compiled ({names}, {built})"


_modules, _description = _choose()
#: The compiled modules on the compiled path; None on the pure path.
loop_gate: ModuleType | None = _modules[0] if _modules is not None else None
word_scan: ModuleType | None = _modules[1] if _modules is not None else None


def describe_scan_path() -> str:
    """Which path diagnosis's scans take and why, e.g. "scans: compiled (...)", "scans: pure
    Python (BLAH_TUI_PURE_PYTHON=1)", "scans: pure Python (no compiled module: ...)"."""
    return f"scans: {_description}"
