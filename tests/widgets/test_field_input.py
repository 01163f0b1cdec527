"""A form's one-line field repaints itself alone as it is typed into (widgets/field_input.py), and a
live note is laid out again only when its height changes (widgets/note.py): what is shown is the
same as Textual's ``Input`` and ``Static.update`` show."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from tests.support.quick_keys import keys_of
from widgets.field_input import FieldInput
from widgets.note import show_text

EDITS = [
    *keys_of("a rubric far longer than the field is wide, typed to its end"),
    *["backspace"] * 7,
    "home",
    *["right"] * 5,
    "delete",
    "end",
    *["backspace"] * 30,
    *keys_of("again to the end of a long line"),
    "ctrl+w",
    "ctrl+u",
    *keys_of("short"),
]


class TwoFields(App[None]):
    CSS = "Input { width: 24; }"

    def compose(self) -> ComposeResult:
        yield Input(id="textual", compact=True)
        yield FieldInput(id="field", compact=True)


def _seen(field: Input) -> tuple[Any, ...]:
    return (field.value, field.cursor_position, field.scroll_x, [str(field.render_line(0).text)])


async def test_a_field_shows_what_textuals_input_shows_after_every_key() -> None:
    app = TwoFields()
    async with app.run_test(size=(40, 6)) as pilot:
        textual, field = app.query_one("#textual", Input), app.query_one("#field", FieldInput)
        for key in EDITS:
            seen = []
            for widget in (textual, field):  # each typed into, and read, while it has the focus
                widget.focus()
                await pilot.press(key)
                await pilot.pause()
                seen.append(_seen(widget))
            assert seen[1] == seen[0], key


async def test_typing_into_a_field_does_not_lay_the_screen_out(monkeypatch: Any) -> None:
    layouts: list[int] = []
    refresh_layout = Screen._refresh_layout

    def counted(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(1)
        refresh_layout(screen, *args, **kwargs)

    app = TwoFields()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one("#field", FieldInput).focus()
        await pilot.pause()
        monkeypatch.setattr(Screen, "_refresh_layout", counted)
        for key in keys_of("twelve keys!"):
            await pilot.press(key)
        assert app.query_one("#field", FieldInput).value == "twelve keys!"
        assert layouts == []


class Notes(App[None]):
    CSS = "Static { height: auto; width: 20; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="note")
            yield Static("below", id="below")


async def test_a_note_moves_what_is_below_it_only_when_its_height_changes() -> None:
    app = Notes()
    async with app.run_test(size=(30, 8)) as pilot:
        note, below = app.query_one("#note", Static), app.query_one("#below", Static)
        for text, lines in [("one line", 1), ("another line", 1), ("a note long enough to wrap", 2), ("short", 1)]:
            show_text(note, text)
            show_text(note, text)  # the same again
            await pilot.pause()
            assert str(note.render()) == text
            assert (note.size.height, below.region.y) == (lines, lines)
        note.update("[b]set elsewhere[/b]")  # the note updated by other code is told again
        show_text(note, "short")
        await pilot.pause()
        assert str(note.render()) == "short"
