"""The compiled scans of diagnosis: the loop detector's gate and word helpers
(diagnosis/_loop_gate.c) and the grouping features' word look-ups and rule tables
(diagnosis/_word_scan.c). Why each is compiled, with its measured saving: each file's header and
``diagnosis/compiled.py``, which chooses the path once.

Optional: without a C compiler the install goes on and diagnosis runs its pure-Python path (the
same answers, slower; ``blah-tui --version`` says which path runs and why). Each module carries
the SHA-256 of the source it was built from (``SOURCE_HASH``), so a module left over from older
sources (an editable install after a .c edit) is refused instead of half used.
Everything else is in pyproject.toml.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup


def _compiled(name: str) -> Extension:
    source = f"diagnosis/{name}.c"
    digest = hashlib.sha256((Path(__file__).parent / source).read_bytes()).hexdigest()
    return Extension(f"diagnosis.{name}", [source], define_macros=[("SOURCE_HASH", f'"{digest}"')], optional=True)


setup(ext_modules=[_compiled("_loop_gate"), _compiled("_word_scan")])
