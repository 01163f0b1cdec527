"""The Runs area: every platform's runs in one list (``screen``); blah.dev runs, their watch,
results and the judge's reasoning (``watch``, ``results``, ``results_detail``, ``confirm``,
``run_start``, ``pick``); Blobfish benchmark runs in ``bench/``. errorbar bake-offs listed here
are drawn by ``tui.screens.bakeoffs``.
"""
