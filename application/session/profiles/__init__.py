"""Profiles: which one a command or the app talks to, with its platform, origin, key and the
key's source (``resolve``), and ``blah-tui profiles add | use | remove`` (``edit``).
"""
