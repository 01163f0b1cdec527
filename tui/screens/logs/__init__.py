"""The Logs area: a model's calls, live and archived, with filters and search."""
