"""Compare, without Textual: models side by side, did a new checkpoint get better
(``checkpoint``, ``checkpoint_format``), and errorbar bake-offs (``bakeoff/``).
"""
