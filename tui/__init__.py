"""The Textual app: ``app`` (the shell, the area keys), ``base_screen`` (``BlahScreen``),
``app_protocol`` (what the screens use of the app), ``registry`` (the areas), the command
palette, help, and ``screens/``, one package per area.
"""
