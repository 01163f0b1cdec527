"""The Compare area: models side by side, Checkpoints (``c``) and errorbar Bake-offs (``o``).
"""
