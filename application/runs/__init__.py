"""Runs, without Textual, one package per platform's kind of run: ``blah/`` (blah.dev eval runs:
the writes, the watch, the statuses, the judge's verdict) and ``bench/`` (Blobfish benchmark
runs: their rows, the suite watch, a graded task's steps). Shared by both and by the bake-offs:
``eta`` (an ETA from the completed count seen at each poll). errorbar bake-offs are an area of
their own: ``application.bakeoffs``.
"""
