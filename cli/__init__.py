"""The command line: ``main`` (``blah-tui ...``: routes a command line), ``parser`` (the top-level
argparse parser), ``parsing`` (what every parser shares: one-line errors, flag-value readers,
a platform command's parser), ``global_options``, ``launch`` (starts the app, ``--demo``) and
``commands/``, one module per verb, on the same application functions as the screens.
"""
