"""blah.dev's client: ``BlahClient`` (``client`` and its endpoint groups ``_assets``,
``_community``), the wire shapes (``shapes``, defined in ``shapes_logs``/``shapes_platform``/
``shapes_services`` and loaded on first use), the live tail (``tail``) and the history of a
model's calls (``log_history``, ``paging``).
"""
