"""Compare: ordering (pure) and the screen against the shared simulator."""

from __future__ import annotations

import re

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import CompareAnswer, CompareRow, Comparison
from simulator.server import SimulatorServer
from tests.support.runs import SIZE, make_app, wait_for
from tui.screens.compare.screen import CompareEvalScreen, CompareScreen, mean_scores, order_for_person, tally
from tui.screens.runs.pick import ModelPickerScreen
from widgets.text_viewer import TextViewer


def row(eval_id: str, **scores: float | None) -> CompareRow:
    return CompareRow(
        eval_id=eval_id,
        prompt=f"prompt {eval_id}",
        answers={m: CompareAnswer(response=f"{m} says", score=s) for m, s in scores.items()},
    )


def test_losses_first_biggest_gap_first_then_unscored_ties_wins() -> None:
    comparison = Comparison(
        models=["me", "p1", "p2"],
        rows=[
            row("win", me=0.9, p1=0.5, p2=0.4),
            row("small-loss", me=0.6, p1=0.7, p2=0.1),
            row("tie", me=0.5, p1=0.5, p2=0.2),
            row("big-loss", me=0.0, p1=0.2, p2=0.9),
            row("unscored", me=0.4, p1=None, p2=0.3),
            CompareRow(eval_id="missing", answers={"p1": CompareAnswer(score=1.0)}),
        ],
    )
    lines = order_for_person(comparison, "me")
    assert [ln.row.eval_id for ln in lines] == ["big-loss", "small-loss", "unscored", "missing", "tie", "win"]
    assert lines[0].margin == -0.9 and lines[-1].margin is not None and lines[-1].margin > 0
    assert tally(lines) == {"loss": 2, "unscored": 2, "tie": 1, "win": 1}
    means = mean_scores(comparison)
    assert means["me"] == (0.9 + 0.6 + 0.5 + 0.0 + 0.4) / 5
    assert means["p1"] == (0.5 + 0.7 + 0.5 + 0.2 + 1.0) / 5


async def test_compare_with_the_best_peer_then_two_chosen_peers(sim: SimulatorServer, client: BlahClient) -> None:
    own = sim.person_model_id
    board = await client.leaderboard()
    best = next(e.model_id for e in board if e.model_id != own)
    app = make_app(sim, client, start_mode="compare")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded, what="compare")
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        assert screen.peers == [best]
        expected = await client.compare([own, best])
        assert len(screen.lines) == len(expected.rows)
        outcomes = [ln.outcome for ln in screen.lines]
        assert outcomes == sorted(outcomes, key=["loss", "unscored", "tie", "win"].index)
        assert outcomes[0] == "loss"  # the person's losses come first
        table = screen.query_one("#compare-table")
        first = table.get_row_at(0)
        assert first[-1].plain.startswith("-") and first[-1].spans  # the gap, highlighted
        caption = str(screen.query_one("#compare-caption").render())
        assert f"you lost {outcomes.count('loss')}" in caption
        # Each mean with its interval, the paired difference with its Holm-corrected test, the MDE.
        from application.compare.error_bars import comparison_reading

        pair = comparison_reading(expected).pair(own, best)
        assert pair is not None and pair.comparison is not None
        assert re.search(r"mean \[95% CI\]: .+ \d\.\d\d \[\d\.\d\d–\d\.\d\d\]", caption), caption
        assert f"over {pair.comparison.n} paired evals, p {pair.p_holm:.3g} ({pair.comparison.test}, Holm)" in caption
        assert "cannot be seen reliably" in caption

        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareEvalScreen), what="the eval")
        opened = app.screen
        assert isinstance(opened, CompareEvalScreen)
        line = screen.lines[0]
        assert opened.query_one("#eval-prompt", TextViewer).text == line.row.prompt
        assert opened.query_one("#answer-0", TextViewer).text == line.row.answers[own].response
        await pilot.press("escape")

        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the peer picker")
        picker = app.screen
        assert isinstance(picker, ModelPickerScreen)
        assert own not in [m.id for m in picker._models]
        list_widget = picker.query_one("#pick-list")
        for peer in sim.peer_model_ids:
            list_widget.deselect(peer)
        three = sim.peer_model_ids[:3]
        for peer in three:
            list_widget.select(peer)
        await pilot.press("y")  # three peers: refused, at most two
        assert isinstance(app.screen, ModelPickerScreen)
        assert "at most 2" in str(picker.query_one("#pick-error").render())
        list_widget.deselect(three[2])
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                screen.peers == three[:2]
                and screen.loaded
                and screen.comparison is not None
                and len(screen.comparison.models) == 3
            ),
            what="the three-way comparison",
        )
        assert {c.key.value for c in table.columns.values()} >= {f"score:{m}" for m in [own, *three[:2]]}
