"""The compiled scanners of diagnosis: the loop detector's word-trigram gate
(diagnosis/_loop_gate.c), the grouping features' word look-ups (diagnosis/_word_scan.c) and the
detectors' per-call text scans (diagnosis/_text_scan.c: the user's turn, the refusal prefilters,
the long-token gate, the numbered series' lines).

Optional: without a C compiler the install goes on and ``diagnosis.loop``, ``features_scan``,
``text`` and the detectors use their Python twins (same answers, a few us more per call; see each C file's header).
Everything else is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("diagnosis._loop_gate", ["diagnosis/_loop_gate.c"], optional=True),
    Extension("diagnosis._word_scan", ["diagnosis/_word_scan.c"], optional=True),
    Extension("diagnosis._text_scan", ["diagnosis/_text_scan.c"], optional=True),
])
