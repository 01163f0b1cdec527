"""The Leaderboard's logic, without Textual: the standings, and the Blobfish community board
as the screens and ``blah-tui bench`` say it (``bench_board``).
"""
