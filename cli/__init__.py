"""The command line: ``main`` (``blah-tui ...``, argparse), ``launch`` (starts the app, ``--demo``)
and ``commands/``, one module per verb, on the same application functions as the screens.
"""
