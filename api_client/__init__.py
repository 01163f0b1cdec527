"""The clients of the three platforms the app talks to, and what they share.

- ``transport/``: the shared HTTP machinery (``HttpCore``, retries, the origin a key may go to,
  TLS, paging by offset, the polling rules) under every platform's client;
- ``errors``: the one error hierarchy every client raises (``BlahError`` and its kinds);
- ``blahdev/``: blah.dev's client (``BlahClient``), its wire shapes (``shapes``), the live tail
  and the history of a model's calls;
- ``blobfish/``: Blobfish's client (SDK evaluations, benchmark runs, the community board);
- ``errorbar/``: the errorbar eval-run queue's client (bake-offs, the gate);
- ``archives/``: the local SQLite archive of a model's calls, its full-text index and the sync
  that keeps it in step with blah.dev.

Each platform package holds its client, its wire shapes in ``shapes`` (the contract's ASSUMED
shapes marked there), its errors and its key check. No Textual import anywhere in this package.
"""
