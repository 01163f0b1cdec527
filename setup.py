"""The one compiled module: the loop detector's word-trigram gate (diagnosis/_loop_gate.c).

Optional: without a C compiler the install goes on and ``diagnosis.loop`` uses its Python twin
(same answers, ~6 us more per call; see the C file's header). Everything else is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("diagnosis._loop_gate", ["diagnosis/_loop_gate.c"], optional=True)])
