"""One package per area of the app, each holding its screen (``screen.py``) and the widgets
that draw what it shows; the logic without Textual is in ``application/<area>``.
"""
