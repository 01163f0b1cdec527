"""Helpers shared by the tests (imported as ``tests.support.…``; no test imports another test module
for these)."""
