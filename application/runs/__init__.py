"""Runs, without Textual, for every platform: blah.dev eval runs (``actions``, ``watch``,
``events``, ``eta``, ``progress``, ``statuses``, ``judge_verdict``), Blobfish benchmark runs
(``bench_*``, ``bench_inspect`` for a graded task's steps); errorbar bake-offs are in
``application.bakeoffs``.
"""
