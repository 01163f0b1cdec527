"""One module per ``blah-tui`` verb (export, open, report, archives, profiles, login/status,
serve, bench, bakeoff, blobfish), each with ``--json`` and documented exit codes.
"""
