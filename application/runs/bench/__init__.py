"""Blobfish benchmark runs, without Textual: which benchmarks to list, their rows and starting
one once (``rows``, ``known``), watching a suite to its end (``watch``, ``view``), a graded
task's recorded steps as Inspector calls (``task_steps``) and the full-suite command
(``full_suite``).
"""
