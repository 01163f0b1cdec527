"""The built-in themes (``builtin``) and the app's stylesheet (``app.tcss``)."""
