"""``widgets.confirm.ConfirmScreen`` at 80x24: a long body scrolls inside the dialog, and both
buttons stay on the terminal's rows (the screening's confirmation pushed them below the
dialog's edge: y still worked, but a person saw no button to press)."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Button

from widgets.confirm import ConfirmScreen

BODY = "\n".join(f"line {n}: what this write spends and why, said plainly" for n in range(1, 17))


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_a_long_body_scrolls_and_the_buttons_stay_in_view(size: tuple[int, int]) -> None:
    app = App[None]()
    async with app.run_test(size=size) as pilot:
        dialog = ConfirmScreen("Screen for a cheaper model?", BODY, confirm_label="Screen")
        await app.push_screen(dialog)
        await pilot.pause()
        box = dialog.query_one("#confirm-dialog").region
        for button in dialog.query(Button):
            region = button.region
            assert region.height > 0 and region.bottom <= size[1], (button.id, region)
            assert box.contains_region(region), (button.id, region, box)
        await pilot.press("y")
        assert dialog.answered
