"""Bake-offs on the errorbar eval-run queue, without Textual, shared by the CLI and the screens:
a new run as a person asks for it (``new_run/``: the request, its text fields, what the
workspace suggests), what it will spend (``cost``, ``planning``), the confirmation and a
refused create in words (``confirm``, ``dialog_text``, ``refusals``); a running run's progress
and rows (``progress``, ``run_rows``); its results, samples and calls (``results``,
``assertions``, ``samples``, ``calls``, ``readings``); the gate, calibration, criteria,
evidence, failure clusters and the verdict (``gate``, ``calibration``, ``criteria``,
``judge_quality``, ``evidence``, ``verify``, ``clusters``, ``verdict``); screenings
(``screening``); and how every figure is written (``figures``).
"""
