"""errorbar bake-offs: the Bake-offs view (``screen``, opened with ``o`` in Compare) and its
panels and views (detail, labels, readings, calibration, criteria, clusters, evidence, a
re-checked bundle); in Runs, their rows (``run_rows``), queuing one (``create``,
``new_dialog``), screening (``screening``, ``screening_view``) and the watch (``watch``).
"""
