"""`blah-tui runs ...`: blah.dev eval runs from the shell (no Textual import).

    blah-tui runs list [--model M] [--json]
    blah-tui runs show RUN [--json]
    blah-tui runs results RUN [--json]
    blah-tui runs start --model M [--model M2 ...] [--watch] [--json] [--yes]
    blah-tui runs watch RUN [--json]
    blah-tui runs resume RUN [--watch] [--json] [--yes]
    blah-tui runs cancel RUN [--json] [--yes]

The same application functions as the Runs screens: ``application.runs.blah.actions`` for the three
writes (each sent once, confirmed on a terminal or by ``--yes``, a lost answer settled by a
read or said to be unknown), ``application.runs.blah.follow`` for the watch,
``application.runs.blah.judge_verdict`` for the judge's verdict, ``application.runs.blah.listing`` for a model's
runs. ``runs results`` prints each result's score and the judge's reasoning verbatim (made
inert): the ``reasoning`` of a JSON ``score_details`` with its criteria, or the whole text of a
plain one. Exit codes: see ``cli.blah.connection``.

The package: ``parser`` (the verbs and options), ``verbs`` (what each does), ``printing``
(text and ``--json``), ``command`` (one command from arguments to exit code).
"""

from __future__ import annotations

from cli.blah.runs.command import PACE, run, runs_main
from cli.blah.runs.parser import build_parser

__all__ = ["PACE", "build_parser", "run", "runs_main"]
