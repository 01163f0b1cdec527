"""The local archive: every log entry ever seen for one model, in one SQLite file per model
and profile (``archive``), its schema, ingest, filtered lists and full-text index
(``fulltext``), the calls' texts stored compressed (``texts``), the rewrite of an archive of
an older layout on first open (``migrate``), where the files live (``files``) and the sync
that keeps one in step with blah.dev (``sync``).
"""
