"""Webhooks, without Textual: the local receiver (``receiver``: what it accepts, what it refuses)
and what a delivery says (``delivery``).
"""
