"""The queue's fixed names: paths, the stored-baseline marker, the terminal statuses (all
documented in evalqueue-CONTRACT.md), the one ASSUMED error code and the ASSUMED unit of
``*_micros``. No pydantic here: the gate's start-up path reads these."""

from __future__ import annotations

API_PATH = "/v1"
EVALS_PATH = "/v1/evals"
CRITERIA_PATH = "/v1/criteria"
STORED = "__stored__"  # documented: the incumbent's logged answers as the baseline
TERMINAL = ("DONE", "ERROR", "CANCELLED")  # documented
LIST_LIMIT = 50  # documented: the list is the 50 newest runs, no paging
CODE_INSUFFICIENT_SCOPE = "insufficient_scope"  # ASSUMED: a read key on a write (the contract does not say)
MICROS_PER_USD = 1_000_000  # ASSUMED: ``*_micros`` are millionths of a US dollar (the currency is not stated)


def origin_base_url(base_url: str) -> str:
    """``scheme://host[:port]`` (a trailing ``/v1`` accepted): the clients add ``/v1``."""
    text = base_url.strip().rstrip("/")
    return text.removesuffix(API_PATH) if text.endswith(API_PATH) else text
