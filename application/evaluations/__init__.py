"""Blobfish SDK evaluations, without Textual: the list (``listing``), a rollout's evidence
and diagnosis (``evidence``, ``source``), the replay as Inspector calls (``inspect``), the
export, and the rollout steps in the archive for full-text search (``rollout_steps``).
"""
