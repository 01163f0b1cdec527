"""The order the xdist workers take test files in (``tests.support.long_first``): the files holding
a slow test first so none is left running alone at the end, each file's tests kept together."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.long_first import long_files_first


@dataclass
class FakeItem:
    path: Path
    name: str
    markers: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def item(file: str, name: str, *markers: str) -> FakeItem:
    return FakeItem(Path(file), name, set(markers))


def test_a_file_holding_a_slow_test_goes_first_then_the_biggest_files_and_files_stay_whole() -> None:
    items = [
        item("a.py", "a1"),
        item("a.py", "a2"),
        item("b.py", "b1"),
        item("b.py", "b2"),
        item("b.py", "b3"),
        item("c.py", "c1"),
        item("z.py", "z1"),
        item("z.py", "z2", "slow"),
    ]
    ordered = long_files_first(items)  # type: ignore[arg-type]
    assert [i.name for i in ordered] == ["z1", "z2", "b1", "b2", "b3", "a1", "a2", "c1"]


def test_the_suite_is_collected_with_its_slow_files_first(request: pytest.FixtureRequest) -> None:
    """The real collection: the plugin is registered (tests/conftest.py) and took effect."""
    items = request.session.items
    slow_files = {i.path for i in items if i.get_closest_marker("slow") is not None}
    if len(slow_files) == len({i.path for i in items}):
        pytest.skip("only slow files were collected")
    first_other = next(n for n, i in enumerate(items) if i.path not in slow_files)
    assert all(i.path not in slow_files for i in items[first_other:])
