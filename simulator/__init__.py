"""Faithful local copies of the platforms, one package each: ``blahdev`` (blah.dev), ``blobfish``
and ``errorbar``, and what they share: ``server`` (a simulator in a background uvicorn
thread; ``PlatformServer`` its seed, speed, chaos and request log), ``platform_app`` (each
platform's FastAPI app put together one way), ``http`` (errors as ``{"error"}``, how a
platform installs its refusals, fast JSON), ``chaos`` (a misbehaving network),
``request_log`` and ``cli`` (``blah-tui sim``). Imports no product package.
"""
