"""Another platform's calls in the Inspector: the order ``n``/``p`` step through."""

from __future__ import annotations


def test_ordered_ids_step_through_in_order_and_stop_at_the_ends() -> None:
    """n/p in the Inspector over another platform's calls (a rollout's steps, a bake-off's answers)."""
    from application.inspector.foreign import OrderedIds

    order = OrderedIds(["a", "b", "c"])
    assert [order.neighbours(i) for i in "abc"] == [(None, "b"), ("a", "c"), ("b", None)]
    assert order.neighbours("zz") == (None, None) and "zz" not in order and "b" in order
    assert order.position("c") == 2
