"""The Textual app: ``app`` (the shell, the area keys), ``base_screen`` (``BlahScreen``),
``app_protocol`` (what the screens use of the app), ``registry`` (the areas), the command
palette, help, and ``screens/``, one package per area.

What several screens share is written once here: ``bindings`` (Back, Refresh, the tab and j/k
keys, built with each area's binding ids), ``captioned_table`` (a caption over one table),
``text_page`` (one scrolled block of text), ``send_once`` (confirm, then send once),
``reload`` (the reload scheduler), ``platform_work`` (a loader given the session's client,
saying "offline" where there is none), ``cell_format`` (the table cells of the runs, results,
leaderboard, compare and health screens) and ``run_watch`` (the base of the three watch screens,
and a followed run's end announced once: the notification and the bell).
"""
