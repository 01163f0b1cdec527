"""Seeded worlds: a world with its two days of past, built once per seed and copied.

Building two days of history takes most of a second; tests start many simulators with the
same few seeds. So each seed's history is built once per process (a pristine template)
and copied, every timestamp shifted to the new world's anchor. The copy is equal to a
fresh build with the same seed and anchor (a test checks it).
"""

from __future__ import annotations

import threading
from typing import Any

from simulator.blahdev.seeded_past import build_history
from simulator.blahdev.world import World

TEMPLATE_ANCHOR_MS = 1_700_000_000_000
_TIME_FIELDS = ("created_at", "updated_at", "started_at", "completed_at", "checked_at", "expires_at")
_templates: dict[int, World] = {}
_lock = threading.Lock()


def _shifted(d: dict[str, Any], shift: int) -> dict[str, Any]:
    out = dict(d)
    for key in _TIME_FIELDS:
        value = out.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value + shift
    return out


def seeded_world(seed: int = 7, anchor_ms: int | None = None, cached: bool = True) -> World:
    """A world with its seeded past at ``anchor_ms`` (default: now). ``cached``: copy that past
    from this process's template for ``seed`` (built once) instead of generating it again;
    same result."""
    world = World(seed, anchor_ms=anchor_ms)
    if cached:
        copy_history(template(seed), world)
    else:
        build_history(world)
    return world


def template(seed: int) -> World:
    with _lock:
        world = _templates.get(seed)
        if world is None:
            world = World(seed, anchor_ms=TEMPLATE_ANCHOR_MS)
            build_history(world)
            _templates[seed] = world
        return world


def copy_history(src: World, dst: World) -> None:
    """Make ``dst`` (fresh, same seed, no history) hold ``src``'s history at ``dst``'s anchor."""
    shift = dst.anchor_ms - src.anchor_ms
    with src.lock, dst.lock:
        dst.models = {k: _shifted(v, shift) for k, v in src.models.items()}
        dst.evals = {k: _shifted(v, shift) for k, v in src.evals.items()}
        dst.logs = src.logs.clone(shift)
        dst.truth = dict(src.truth)
        dst.judge_flaws = dict(src.judge_flaws)
        dst.runs = {k: _shifted(v, shift) for k, v in src.runs.items()}
        for run in dst.runs.values():
            run["model_ids"] = list(run["model_ids"])
        dst.run_state = {k: {"pairs": v["pairs"], "done": set(v["done"])} for k, v in src.run_state.items()}
        dst.results = {k: _shifted(v, shift) for k, v in src.results.items()}
        dst.messages = [_shifted(m, shift) for m in src.messages]
        dst.messages_by_id = {m["id"]: m for m in dst.messages}
        dst.health = {k: [_shifted(c, shift) for c in v] for k, v in src.health.items()}
        dst.outages = {k: [(a + shift, b + shift) for a, b in v] for k, v in src.outages.items()}
        dst.games = {}
        for key, game in src.games.items():
            copy = _shifted(game, shift)
            copy["model_ids"] = list(game["model_ids"])
            copy["turns"] = [_shifted(t, shift) for t in game["turns"]]
            dst.games[key] = copy
        dst.training_sets = {k: _shifted(v, shift) for k, v in src.training_sets.items()}
        dst.set_counters(src.counters_snapshot())
        dst.calls = src.calls
        dst.rng.setstate(src.rng.getstate())
