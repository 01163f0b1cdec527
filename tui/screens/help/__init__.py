"""The Help screen (``?``): the current screen's keys with their ids, the badge legend."""
