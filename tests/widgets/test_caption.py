"""The screens' one way to say a caption or an error (widgets/caption.py)."""

from __future__ import annotations

import re
from pathlib import Path

from textual.app import App, ComposeResult

from widgets.caption import Caption

ROOT = Path(__file__).resolve().parents[2]


class CaptionApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Caption("loading…", id="said")
        yield Caption(id="hiding", hide_when_empty=True)


async def test_a_caption_says_text_literally_in_the_error_colour_only_when_asked() -> None:
    app = CaptionApp()
    async with app.run_test() as pilot:
        said = app.query_one("#said", Caption)
        said.say("couldn't load: [bold]nope[/bold]", error=True)
        await pilot.pause()
        assert said.has_class("error")
        assert str(said.render()) == "couldn't load: [bold]nope[/bold]"  # platform text is never markup
        plain = app.query_one("#hiding", Caption)
        assert said.styles.color != plain.styles.color  # the error colour
        said.say("3 runs")
        await pilot.pause()
        assert not said.has_class("error") and said.styles.color == plain.styles.color
        hiding = app.query_one("#hiding", Caption)
        hiding.say("something")
        assert hiding.display
        hiding.say("")
        assert not hiding.display


def test_no_screen_keeps_an_error_rule_of_its_own() -> None:
    """The error colour of a screen's message line is Caption's one rule."""
    own = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tui").rglob("*.py")
        if re.search(r"#[\w-]+\.error\s*\{", path.read_text(encoding="utf-8"))
    )
    # the leaderboard screen is being split (issue 31): its caption moves to Caption then
    assert own in ([], ["tui/screens/leaderboard/screen.py"]), f"an .error rule of their own: {own}"
