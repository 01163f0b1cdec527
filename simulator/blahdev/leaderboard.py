"""The leaderboard as the live service computes it: one row per model, over its latest results.

Each model stands on its own latest COMPLETED run (stalled, failed, cancelled and running runs
do not count): ``avg_score`` is the mean over its scored results there (failed calls have no
score), ``eval_count`` the number of distinct evals scored, ``last_run_at`` that run's
``completed_at``. A run that had only one model in it therefore moves that model's row and
leaves every other model where its own latest run put it. Best first; models with no score
last (``avg_score`` null).
"""

from __future__ import annotations

from simulator.blahdev.world import Json, World

__all__ = ["leaderboard"]


def leaderboard(world: World) -> list[Json]:
    with world.lock:
        completed = sorted(
            (r for r in world.runs.values() if r["status"] == "completed" and r["completed_at"] is not None),
            key=lambda r: (r["completed_at"], r["id"]),
            reverse=True,
        )
        latest: dict[str, Json] = {}  # model id -> its latest completed run
        for run in completed:
            for model_id in run["model_ids"]:
                latest.setdefault(model_id, run)
        scores: dict[tuple[str, str], list[Json]] = {}
        for result in world.results.values():
            its_run = latest.get(result["model_id"])
            if its_run is not None and result["eval_run_id"] == its_run["id"] and result["score"] is not None:
                scores.setdefault((result["model_id"], its_run["id"]), []).append(result)
        rows: list[Json] = []
        for model_id, run in latest.items():
            scored = scores.get((model_id, run["id"]), [])
            rows.append(
                {
                    "model_id": model_id,
                    "model_name": world.models.get(model_id, {}).get("name"),
                    "avg_score": round(sum(r["score"] for r in scored) / len(scored), 4) if scored else None,
                    "eval_count": len({r["eval_id"] for r in scored}),
                    "last_run_at": run["completed_at"],
                }
            )
    return sorted(rows, key=lambda r: (r["avg_score"] is None, -(r["avg_score"] or 0.0), r["model_id"]))
