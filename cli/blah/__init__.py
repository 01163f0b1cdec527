"""blah.dev from the shell: ``runs``, ``standings`` (leaderboard, compare, health), ``chatroom``,
``export`` and ``report/``; ``connection`` is what they share (the address and key from the
global options, an error's exit code and line)."""
