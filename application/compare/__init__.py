"""Compare, without Textual: models side by side (``rows``) and did a new checkpoint get better
(``checkpoint``, ``checkpoint_format``). errorbar bake-offs are in ``application.bakeoffs``.
"""
