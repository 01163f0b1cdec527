"""Fixtures shared by the Evaluations screens' tests (tests/tui/evaluations/).

- ``world``: one seeded Blobfish store per module, read only; its 40 newest evaluations hold the
  seeded tool loops, truncation and empty answers.
"""

from __future__ import annotations

import pytest

from tests.support.blobfish_world import StoreSource


@pytest.fixture(scope="module")
def world() -> StoreSource:
    return StoreSource(newest=40)
