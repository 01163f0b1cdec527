"""The stored API key: in the system keyring where one works, else in a file only its owner can
read (``stored_key``, ``keyring_store``), and keeping keys out of messages (``key_redaction``).
"""
