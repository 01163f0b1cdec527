"""The Runs area: blah.dev runs, the run watch, results and the judge's reasoning; Blobfish
benchmark runs (``bench_*``) and errorbar bake-offs (``bakeoff_*``) beside them.
"""
