"""The bottom layer: what every other package shares and nothing else defines.

``common.records`` (what a model did, in no platform's words: a ``Call``, a ``Rollout``, a
bake-off answer), ``common.format`` (how times, latencies, sizes and missing values read), ``common.constants``
(the platform's default address and its chat templates), ``common.chat_markers`` (the chat
templates' special tokens, written once) and ``common.lru`` (the one bounded
least-recently-used mapping). Pure standard library: no Textual, no IO, no product package,
so the app's start-up path, widgets, diagnosis and the client can all import it.
"""
