"""The session, without Textual: ``settings/`` (the config file, its profile tables, the typed
settings, the time zone), ``credentials/`` (the stored key, the keyring, keys kept out of
messages) and ``profiles/`` (which profile a command talks to; adding, choosing and removing
one). What the three share is loose here: where files live (``paths``), the platforms a
profile can name (``platforms``, ``base_url``), what may name a profile (``profile_names``);
and what every screen knows of the session (``context``), full garbage collections while the
person is idle (``idle_collection``).
"""
