"""The session: the person's settings and profiles (``config``, ``settings``, ``profiles``,
``profile_table``, ``profile_config``), the stored key (``credentials``, ``keyring_store``,
``key_redaction``), where files live (``paths``), the platforms a profile can name
(``platforms``, ``base_url``), the time zone, and what every screen knows of it (``context``).
No Textual.
"""
