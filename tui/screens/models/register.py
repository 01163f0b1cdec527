"""Register a model: a form checked locally (``application.models.registration``) before anything is sent,
a confirmation, one request, and the platform's answer shown as it came.

Dismisses with the registered ``Model`` or None.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Label, Static, TextArea

from api_client.blahdev.shapes import Model
from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    MissingKeyError,
)
from application.models.registration import (
    DESCRIPTION_MAX,
    NAME_MAX,
    URI_HELP,
    FieldProblem,
    RegistrationInput,
    validate_registration,
)
from application.session.context import AppContext
from common.format import DASH
from tui import bindings
from tui.base_screen import describe_error
from tui.send_once import SendOnce
from widgets.dialog import DialogScreen, answer_buttons
from widgets.safe_text import one_line_text, safe_text

__all__ = ["RegisterModelScreen"]

_FIELD_WIDGETS = {"name": "#reg-name", "inference_uri": "#reg-uri", "description": "#reg-description"}


def problems_text(problems: list[FieldProblem]) -> Text:
    labels = {"name": "Name", "inference_uri": "Inference URI", "description": "Description"}
    text = Text(end="")
    for index, problem in enumerate(problems):
        if index:
            text.append("\n")
        text.append(f"{labels[problem.field]}: ", style="bold")
        text.append(problem.message)
    return text


class RegisterModelScreen(DialogScreen[Model | None]):
    """The registration form."""

    DEFAULT_CSS = """
    RegisterModelScreen > #reg-dialog { width: 90; max-width: 95%; max-height: 90%; }
    RegisterModelScreen #reg-title { margin-bottom: 1; }
    RegisterModelScreen Label { margin-top: 1; }
    RegisterModelScreen #reg-description { height: 5; }
    RegisterModelScreen #reg-problems { margin-top: 1; }
    RegisterModelScreen #reg-answer { height: auto; margin-top: 1; }
    RegisterModelScreen #reg-buttons { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.submit("register", "Register"),
        bindings.close("register"),
    ]

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.write = SendOnce(self, group="register")  # one registration at a time, sent once
        self.registered: Model | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reg-dialog", classes="dialog-box"):
            yield Static(Text("Register a model on blah.dev"), id="reg-title", classes="dialog-title")
            yield Label(Text(f"Name (1-{NAME_MAX} characters)"))
            yield Input(id="reg-name", placeholder="My Model")
            yield Label(Text("Inference URI"))
            yield Input(id="reg-uri", placeholder="https://host/v1 · org/model · openai-compatible:https://host#model")
            yield Static(Text(URI_HELP, style="dim"))
            yield Label(Text(f"Description (optional, at most {DESCRIPTION_MAX} characters)"))
            yield TextArea(id="reg-description", soft_wrap=True, show_line_numbers=False)
            yield Static(Text(""), id="reg-problems", classes="dialog-error")
            yield Static(Text(""), id="reg-answer")
            yield answer_buttons("reg", "Register", ok="submit", cancel="close", cancel_label="Close")

    def on_mount(self) -> None:
        self.query_one("#reg-name", Input).focus()

    # ----------------------------------------------------------------- actions

    def action_close(self) -> None:
        self.dismiss(self.registered)

    @on(Button.Pressed, "#reg-close")
    def _close(self) -> None:
        self.action_close()

    @on(Button.Pressed, "#reg-submit")
    def _submit_button(self) -> None:
        self.action_submit()

    @on(Input.Submitted)
    def _enter(self) -> None:
        self.action_submit()

    def current_input(self) -> tuple[str, str, str]:
        return (
            self.query_one("#reg-name", Input).value,
            self.query_one("#reg-uri", Input).value,
            self.query_one("#reg-description", TextArea).text,
        )

    def action_submit(self) -> None:
        if self.write.busy:
            return
        if self.registered is not None:
            self.notify("Already registered: close this form to register another", markup=False)
            return
        checked, problems = validate_registration(*self.current_input())
        self.query_one("#reg-problems", Static).update(problems_text(problems))
        if checked is None:
            first = problems[0].field if problems else "name"
            self.query_one(_FIELD_WIDGETS[first]).focus()
            return
        if self.ctx.client is None:
            self._answer(Text("offline: registering needs the platform", style="italic"))
            return
        self.query_one("#reg-submit", Button).disabled = True
        self.write.start(lambda: self.register(checked))

    def _answer(self, text: Text) -> None:
        self.query_one("#reg-answer", Static).update(text)

    async def register(self, checked: RegistrationInput) -> None:
        try:
            await self._register(checked)
        finally:
            self.query_one("#reg-submit", Button).disabled = self.registered is not None

    async def _register(self, checked: RegistrationInput) -> None:
        client = self.ctx.client
        assert client is not None
        body = Text(end="")
        body.append("This model will be listed publicly on the platform:\n\n")
        for label, value in (("name", checked.name), ("inference URI", checked.inference_uri)):
            body.append(f"{label:<14}", style="bold")
            body.append_text(one_line_text(value, max_len=120))
            body.append("\n")
        body.append(f"{'description':<14}", style="bold")
        body.append_text(one_line_text(checked.description or DASH, max_len=200))
        if not await self.write.confirm("Register this model?", body, label="Register"):
            return
        try:
            model = await self.write.send(
                lambda: client.register_model(checked.name, checked.inference_uri, description=checked.description),
                settle=lambda _: self._check_unknown(checked),
            )
        except MissingKeyError:
            self._answer(Text("Not sent: registering needs an API key; none is configured.", style="bold"))
            return
        except BadRequestError as error:
            answer = Text("The platform refused it: ", style="bold", end="")
            answer.append_text(safe_text(error.server_error or error.message))
            self._answer(answer)
            return
        except AuthError as error:
            self._answer(Text(f"The platform refused the API key ({error.status}).", style="bold"))
            return
        except BlahError as error:
            self._answer(Text(f"couldn't register: {describe_error(error)}", style="bold"))
            return
        if model is not None:  # None: settled by the model list
            self._registered(model, "Registered. The platform answered:")

    def _registered(self, model: Model, heading: str) -> None:
        self.registered = model
        answer = Text(heading + "\n", style="bold", end="")
        for label, value in (("id", model.id), ("name", model.name), ("inference URI", model.inference_uri)):
            answer.append(f"{label:<14}", style="")
            answer.append_text(one_line_text(value or DASH, max_len=120, style=""))
            answer.append("\n", style="")
        answer.append("Press Esc to close.", style="dim")
        self._answer(answer)

    async def _check_unknown(self, checked: RegistrationInput) -> None:
        """The POST timed out: look for the model before saying anything."""
        client = self.ctx.client
        assert client is not None
        self._answer(Text("The request timed out: outcome unknown. Checking the model list…", style="italic"))
        try:
            models = await client.list_models()
        except BlahError as error:
            self._answer(
                Text(f"Outcome unknown (couldn't check: {describe_error(error)}). Look before retrying.", style="bold")
            )
            return
        found = [m for m in models if m.name == checked.name and m.inference_uri == checked.inference_uri]
        if found:
            self._registered(found[-1], "It went through. The platform lists:")
        else:
            self._answer(Text("It did not go through (not in the model list). You can register again.", style="bold"))
