"""The Compare area: models side by side (``screen``) and Checkpoints (``c``, ``checkpoints``);
``o`` opens the Bake-offs view (``tui.screens.bakeoffs``).
"""
