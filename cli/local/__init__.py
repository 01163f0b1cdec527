"""The commands about this machine's own state: ``profiles``, ``account`` (login, logout, status,
config) and ``archives`` (the local archives of calls)."""
