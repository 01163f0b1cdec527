"""Bake-offs on the errorbar eval-run queue, without Textual: creating one (``create``), a
running run's progress and its rows in Runs (``progress``, ``run_rows``), its results as rows
and sentences (``results``), its samples losses first with the doubtful-verdict rule
(``samples``), the samples as Inspector calls (``calls``) and the gate's checks (``gate``).
"""
