"""The local blah.dev: the FastAPI app (``app``, ``routes_*``), its seeded world (``world``,
``catalog``, ``seeded_past``, ``snapshot``, ``store``), the simulated models (``small_model``,
``chat_templates``, ``tokenizer``), the platform's own judge (``scorer``) and analyses, and the
background jobs. Request and answer shapes are in ``shapes``.
"""
