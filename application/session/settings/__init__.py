"""The person's settings and the app's tunables: the config file (``config``), its
``[profiles.NAME]`` tables (``profile_table``), the typed settings every screen reads
(``typed``), the pydantic models that decide what a setting accepts (``validation``), the plain
checks of the start path (``fields``) and the time zone times are shown in (``timezone``).
"""
