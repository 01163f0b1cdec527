"""Settings the person changes from the command palette, saved to the config file at once:
the poll interval, the bell at the end of a run, and the trained chat template of the current
model. (The theme is saved by ``BlahApp.watch_theme``.)

Each change takes effect in this session (``ctx.settings`` / ``ctx.trained_template``) even
when it cannot be saved, and the person is told which happened.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import TypeAdapter, ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from application.session.paths import config_file
from application.session.settings.config import KNOWN_TEMPLATES, Config, save_setting
from tui import bindings
from widgets.form_dialog import FormDialog
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from tui.app_protocol import BlahAppApi

__all__ = [
    "ValuePrompt",
    "parse_poll_interval",
    "persist_setting",
    "prompt_poll_interval",
    "prompt_trained_template",
    "toggle_bell",
]

#: A checker turns the typed text into a value, or raises ValueError with a human message.
Checker = Callable[[str], Any]


class ValuePrompt(FormDialog[str]):
    """Ask for one value: Enter checks it (a problem is shown under the field, the dialog
    stays), Esc cancels. Dismisses with the accepted text, once."""

    DEFAULT_CSS = """
    ValuePrompt > #prompt-box { width: 70; max-width: 95%; }
    ValuePrompt #prompt-problem { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [bindings.cancel("prompt")]
    ERROR_ID = "prompt-problem"

    def __init__(
        self,
        title: str,
        *,
        value: str = "",
        hint: str = "",
        check: Checker | None = None,
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._title = title
        self._value = value
        self._hint = hint
        self._check = check
        self._suggestions = list(suggestions)

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box", classes="dialog-box"):
            yield Static(Text(self._title), id="prompt-title", classes="dialog-title")
            yield Input(
                value=self._value,
                id="prompt-input",
                suggester=SuggestFromList(self._suggestions, case_sensitive=False) if self._suggestions else None,
            )
            yield Static(Text(self._hint), id="prompt-hint", classes="dialog-hint")
            yield Static(id="prompt-problem")

    def request(self) -> tuple[str | None, str | None]:
        """Enter: the typed text (stripped) once the checker accepts it."""
        text = self.query_one("#prompt-input", Input).value.strip()
        if self._check is not None:
            try:
                self._check(text)
            except ValueError as error:
                return None, one_line(str(error), max_len=200)
        return text, None


def _first_error(error: ValidationError) -> str:
    return str(error.errors()[0]["msg"])


_POLL = TypeAdapter(Annotated[float, *Config.model_fields["poll_interval"].metadata])


def parse_poll_interval(text: str) -> float:
    """Seconds between polls, within the bounds the config accepts."""
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    try:
        return float(_POLL.validate_python(seconds))
    except ValidationError as error:
        raise ValueError(f"{text} s: {_first_error(error)}") from None


def persist_setting(key: str | Sequence[str], value: Any) -> str:
    """Save to the config file; return a sentence saying what happened."""
    try:
        written = save_setting(key, value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"not saved: {config_file()} has a wrong value for {where or 'a setting'} ({first['msg']}); fix it first"
    except OSError as error:
        return f"not saved: {one_line(str(error), max_len=120)}"
    if not written:
        return f"not saved: {config_file()} has a syntax error; fix it first (this session uses the new value)"
    top = key.split(".")[0] if isinstance(key, str) else key[0]
    env = f"BLAH_{top.upper()}"
    if env in os.environ:
        return f"saved to {config_file()}, but ${env} overrides it when the app starts"
    return f"saved to {config_file()}"


def _notify(app: BlahAppApi, title: str, message: str) -> None:
    if message.startswith("not saved") or "overrides" in message:
        app.notify(message, title=title, markup=False, severity="warning")
    else:
        app.notify(message, title=title, markup=False)


def prompt_poll_interval(app: BlahAppApi) -> None:
    current = app.ctx.settings.poll_interval

    def done(text: str | None) -> None:
        if text is None:
            return
        value = parse_poll_interval(text)
        app.ctx.settings.poll_interval = value
        _notify(app, f"Poll interval: {value:g} s", persist_setting("poll_interval", value))

    app.push_screen(
        ValuePrompt(
            "Poll interval (seconds)",
            value=f"{float(current):g}",
            hint="How often the log tail, the chatroom and a watched run ask the platform for news "
            "(0.2 to 300; screens opened from now on).",
            check=parse_poll_interval,
        ),
        done,
    )


def toggle_bell(app: BlahAppApi) -> None:
    value = not app.ctx.settings.bell_on_run_end
    app.ctx.settings.bell_on_run_end = value
    _notify(app, f"Bell on run end: {'on' if value else 'off'}", persist_setting("bell_on_run_end", value))


def _check_template(text: str) -> str:
    if any(not ch.isprintable() for ch in text):
        raise ValueError("the template name has control characters")
    return text


def prompt_trained_template(app: BlahAppApi) -> None:
    model_id = app.ctx.model_id
    shown = one_line(model_id, max_len=60)

    def done(text: str | None) -> None:
        if text is None:
            return
        templates = dict(app.ctx.settings.templates)
        if text:
            templates[model_id] = text
        else:
            templates.pop(model_id, None)
        app.ctx.settings.templates = templates
        app.ctx.trained_template = text or None
        message = persist_setting(("templates", model_id), text or None)
        title = f"Trained template of {shown}: {one_line(text, max_len=30) if text else 'not set'}"
        _notify(app, title, message + " · screens use it from their next refresh")

    app.push_screen(
        ValuePrompt(
            f"Trained chat template of {shown}",
            value=app.ctx.trained_template or "",
            hint=f"The template the model was trained with: {', '.join(KNOWN_TEMPLATES)}. Empty: not set.",
            check=_check_template,
            suggestions=KNOWN_TEMPLATES,
        ),
        done,
    )
