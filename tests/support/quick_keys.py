"""Keys sent in a run, as fast as a person's typing, in pilot tests.

``pilot.press`` waits for the app to go idle twice after every key (at least 2 x 20 ms of
sleep each, Textual's ``wait_for_idle``), so typing a 50-character rubric cost about 2 s of a
test's time. :func:`press_quickly` sends the very same key events through the app's driver, in
order, and waits for idle once at the end: the app receives the same keys in the same order
(they queue and are handled one after another), only without an idle pause between them. Use it
for characters typed into one field, or a key repeated on one list (``space`` x 51); keys that
open or close a screen stay on ``pilot.press``, which settles after each.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from textual import events
from textual._wait import wait_for_idle
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot


def keys_of(text: str) -> list[str]:
    """``text`` as the key names a person's keystrokes make (a space is "space")."""
    return ["space" if char == " " else char for char in text]


def key_event(key: str) -> events.Key:
    """The event ``pilot.press(key)`` sends (the same key name and character)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def press_quickly(pilot: Pilot[Any], *keys: str) -> None:
    """Send ``keys`` one after another, then let the app settle once."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        driver.send_message(event)
    await wait_for_idle(0)
    await app._animator.wait_until_complete()
    await wait_for_idle(0)


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` (one line) into the focused widget: one key a character."""
    await press_quickly(pilot, *keys_of(text))
