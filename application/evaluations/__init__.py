"""Blobfish SDK evaluations in the app (Textual-free): the evidence read into rollouts
(``evidence``), where evaluations come from (``source``), the list's rows and filters
(``listing``), a step shown in the Inspector (``inspect``), and JSONL export (``export``)."""
