"""The app itself: ``launch`` (``blah-tui`` with no command, ``--demo``, a profile), ``open_file``
(`blah-tui open FILE`) and ``serve`` (the app in a browser)."""
