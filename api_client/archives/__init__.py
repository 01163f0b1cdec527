"""The local archive: every log entry ever seen for one model, in one SQLite file per model
and profile (``archive``), its schema, ingest, filtered lists and full-text index
(``fulltext``), where the files live (``files``) and the sync that keeps one in step with
blah.dev (``sync``).
"""
