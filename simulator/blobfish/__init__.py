"""A local, seeded Blobfish (blobfish.ai) simulator: its own FastAPI app, run by ``BlobfishServer``.

So far the SDK-evaluation part of the contract (/work/shared/platform/blobfish-CONTRACT.md,
section 2); benchmark runs and the community board come next (``routes_benchmarks.py``).

- ``shapes``: every ASSUMED shape (error bodies, list/summary/receipt, limits, redaction);
- ``envelope``: the documented publish rules; ``redact``: masking before storage;
- ``store``: evaluations per key scope, idempotent publication, offset paging;
- ``seed``: the seeded history of agent rollouts and their failures; ``live``: new ones;
- ``auth``, ``errors``, ``request_log``, ``routes_*``, ``app``, ``server``: the HTTP side.

It imports no product package (api_client, diagnosis, tui, widgets), only generic pieces of
``simulator`` (the server runner, the chaos middleware, the request log, JSON responses).
"""
