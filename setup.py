"""The compiled scanners of diagnosis: the loop detector's word-trigram gate
(diagnosis/_loop_gate.c) and the grouping features' word look-ups (diagnosis/_word_scan.c).

Optional: without a C compiler the install goes on and ``diagnosis.loop`` / ``features_scan``
use their Python twins (same answers, a few us more per call; see each C file's header).
Everything else is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("diagnosis._loop_gate", ["diagnosis/_loop_gate.c"], optional=True),
    Extension("diagnosis._word_scan", ["diagnosis/_word_scan.c"], optional=True),
])
