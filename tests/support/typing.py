"""Typing text into a focused field in pilot tests, as fast as a person's paste-speed typing.

``pilot.press`` waits for the app to go idle twice after every key (at least 2 x 20 ms of
sleep each, Textual's ``wait_for_idle``), so typing a 50-character rubric cost about 2 s of a
test's time. ``type_text`` sends the very same key events through the app's driver, in order,
and waits for idle once at the end: the widget receives the same keys in the same order (they
queue on the focused widget), only without an idle pause between them. Use it for characters
typed into one field; keys that move focus or open a screen (tab, enter, a binding) stay on
``pilot.press``, which settles after each.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual._wait import wait_for_idle
from textual.keys import _character_to_key  # the name pilot.press gives a punctuation key
from textual.pilot import Pilot


def keys_of(text: str) -> list[str]:
    """``text`` as the key names a person's keystrokes make (a space is "space")."""
    return ["space" if char == " " else char for char in text]


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` (one line) into the focused widget: one Key event a character."""
    app = pilot.app
    driver = app._driver  # noqa: SLF001 - where pilot.press sends its keys, too
    assert driver is not None
    for char in text:
        key = "space" if char == " " else char if char.isalnum() else _character_to_key(char)
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await wait_for_idle(0)
    await app._animator.wait_until_complete()  # noqa: SLF001 - as pilot.press does
    await wait_for_idle(0)
