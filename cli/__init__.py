"""The command line, one tree: ``main`` (the one entry and router), ``tree`` (every command: its
help, the global options it takes, its module), ``global_options`` (declared once),
``exit_codes`` (one ``ExitCode`` enum), ``output`` (tables, ``--json``, cells, the closed pipe),
``errors`` (one error, one confirmation, one mapping of a platform's error to its code),
``parsing`` (one-line errors, flag readers), ``completion`` and ``reference`` (docs/commands.md).

One subpackage per noun: ``blah/`` (runs, leaderboard, compare, health, chatroom, export,
report), ``blobfish/``, ``bench/``, ``bakeoff/``, ``local/`` (profiles, login/status/config,
archives) and ``app/`` (the app itself, open, serve, sim). A command's modules are imported
only when it runs.
"""
