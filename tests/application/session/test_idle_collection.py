"""The oldest garbage generation collected while the person is idle, not between a key and
its frame: a full collection walked every object the app held, 45-72 ms, and 3 of 60 keys
waited for one."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from application.session import idle_collection
from application.session.idle_collection import IdleCollector


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def collector() -> Iterator[tuple[IdleCollector, Clock]]:
    clock = Clock()
    collecting = IdleCollector(clock)
    saved = gc.get_threshold()
    collecting.install()
    gc.collect()  # the count of middle-generation passes starts at 0
    try:
        yield collecting, clock
    finally:
        collecting.uninstall()
        assert gc.get_threshold() == saved


def middle_passes(n: int) -> None:
    for _ in range(n):
        gc.collect(1)


def test_the_oldest_generation_is_never_collected_by_itself_while_installed(
        collector: tuple[IdleCollector, Clock]) -> None:
    young, middle, oldest = gc.get_threshold()
    assert oldest >= 2**30 and (young, middle) != (0, 0)
    middle_passes(30)
    assert gc.get_count()[2] >= 30  # the interpreter would have collected it after 10


def test_a_due_collection_waits_until_the_person_has_been_idle(collector: tuple[IdleCollector, Clock]) -> None:
    collecting, clock = collector
    middle_passes(idle_collection.DUE)
    collecting.input_seen()  # a key just now
    clock.now += idle_collection.IDLE_SECONDS / 2
    assert not collecting.tick() and gc.get_count()[2] >= idle_collection.DUE
    clock.now += idle_collection.IDLE_SECONDS
    assert collecting.tick() and collecting.collections == 1
    assert gc.get_count()[2] == 0


def test_nothing_is_collected_while_idle_when_nothing_is_due(collector: tuple[IdleCollector, Clock]) -> None:
    collecting, clock = collector
    clock.now += 60
    assert not collecting.tick() and collecting.collections == 0


def test_someone_who_never_pauses_still_gets_an_overdue_collection(collector: tuple[IdleCollector, Clock]) -> None:
    collecting, _clock = collector
    middle_passes(idle_collection.OVERDUE - 1)
    collecting.input_seen()
    assert not collecting.tick()
    middle_passes(1)
    collecting.input_seen()
    assert collecting.tick()
