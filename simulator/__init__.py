"""Faithful local copies of the platforms, one package each: ``blahdev`` (blah.dev), ``blobfish``
and ``errorbar``, and what they share: ``server`` (a simulator in a background uvicorn
thread), ``http`` (errors as ``{"error"}``, fast JSON), ``chaos`` (a misbehaving network),
``request_log`` and ``cli`` (``blah-tui sim``). Imports no product package.
"""
