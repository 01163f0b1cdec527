"""The platforms' key shapes, and the one look-alike check each client runs before a request.

A key pasted into the wrong platform's slot is refused naming the kind of key it looks like (a
person who pasted their blah.dev or OpenAI key needs to know which), never the key or any part
of it beyond the public prefix.
"""

from __future__ import annotations

# Most specific prefix first: ``sk-ant-`` before ``sk-``.
KEY_LOOKALIKES: tuple[tuple[str, str], ...] = (
    ("blah_", "a blah.dev key (blah_…)"),
    ("bf_", "a Blobfish key (bf_…)"),
    ("sk-ant-", "an Anthropic key (sk-ant-…)"),
    ("sk-", "an OpenAI-style provider key (sk-…)"),
    ("sk_", "an errorbar key (sk_…)"),
    ("xai-", "an xAI key (xai-…)"),
    ("bfs_", "a Blobfish session id (bfs_…), not an API key"),
    ("Bearer ", "a whole Authorization header value (Bearer …): give the key alone"),
)


def key_shape_problem(key: str, prefix: str, own_kind: str, not_a_key: str) -> str | None:
    """None when ``key`` (stripped) starts with ``prefix`` and has more after it; else the one
    line to show: what the key looks like and that ``own_kind`` starts with ``prefix``, or
    ``not_a_key`` followed by the prefix when it looks like nothing known."""
    text = key.strip()
    if text.startswith(prefix) and len(text) > len(prefix):
        return None
    for lookalike, kind in KEY_LOOKALIKES:
        if lookalike != prefix and text.startswith(lookalike):
            return f"this looks like {kind}; {own_kind} starts with {prefix}"
    return f"{not_a_key}: those start with {prefix}"


def checked_key(key: str, prefix: str, own_kind: str, not_a_key: str, refuse: type[Exception]) -> str:
    """``key`` without surrounding blanks when it is shaped like ``own_kind``; else ``refuse``
    raised with the one line of :func:`key_shape_problem`."""
    problem = key_shape_problem(key, prefix, own_kind, not_a_key)
    if problem is not None:
        raise refuse(problem)
    return key.strip()
