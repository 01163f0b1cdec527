"""The dialog that asks what Blobfish benchmark run to start, and the confirmation's text.

It asks the slug, provider, model, suite (none: the single sandbox task; sample; full), an
optional task limit, an optional step limit (``max_steps``, the platform's 1-40, 24 when left
empty), and the NAME of the environment variable holding the provider key (never
the key itself: a typed key would sit in the terminal's scrollback). Enter in any field
continues, Esc cancels; it answers once.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, RadioSet, Static

from api_client.blobfish.shapes_bench import MAX_STEPS_RANGE, MAX_TASKS_RANGE
from application.runs.bench.rows import SUITES, BenchRequest, env_name_problem, slug_problem
from tui import bindings
from widgets.dialog import answer_buttons
from widgets.form_dialog import FormDialog
from widgets.marked_radio import MarkedRadioButton
from widgets.safe_text import one_line

__all__ = ["BenchStartScreen", "confirm_text"]

_SUITE_LABELS = {
    "none": "none: the public sandbox task (one task, up to four minutes)",
    "sample": "sample: the first 10 hosted tasks",
    "full": "full: every hosted task",
}


def confirm_text(request: BenchRequest) -> Text:
    """The confirmation's body: what will be sent, and whose credential serves it."""
    body = Text(end="")
    body.append("Benchmark  ")
    body.append(one_line(request.slug, max_len=100), style="bold")
    body.append(f"\nRun        {_SUITE_LABELS[request.suite]}")
    if request.max_tasks is not None:
        body.append(f", at most {request.max_tasks} task(s)")
    steps = f"at most {request.max_steps}" if request.max_steps is not None else "the platform's default (24)"
    body.append(f"\nSteps      {steps} per task")
    body.append("\nModel      ")
    body.append(f"{one_line(request.provider, max_len=60)}/{one_line(request.model, max_len=100)}")
    body.append("\nCredential ")
    if request.key_env:
        body.append(f"the provider key in ${request.key_env} (read when sent; never shown or stored)")
    else:
        body.append("the account's own (no provider key sent)")
    body.append(
        "\n\nA self-run graded by the benchmark's own verifier, not the official leaderboard. "
        "Sent once; one suite runs per account at a time.",
        style="italic",
    )
    return body


class BenchStartScreen(FormDialog[BenchRequest]):
    """Dismisses with the ``BenchRequest`` asked for, or None (cancelled)."""

    DEFAULT_CSS = """
    BenchStartScreen > #bs-dialog { width: 84; max-width: 96%; max-height: 96%; padding: 0 2; }
    BenchStartScreen .bs-row { height: auto; margin-top: 1; }
    BenchStartScreen .bs-row.-tight { margin-top: 0; }
    BenchStartScreen .bs-row Label { width: 16; }
    BenchStartScreen .bs-row Input { width: 1fr; }
    BenchStartScreen RadioSet { width: 1fr; height: auto; }
    BenchStartScreen #bs-buttons { margin-top: 1; }
    """

    BINDINGS = [bindings.cancel("runs.bench.start")]
    ERROR_ID = "bs-error"
    OK_ID = "bs-ok"

    def __init__(self, *, slug: str, environ: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self._slug = slug
        self._environ = environ

    def compose(self) -> ComposeResult:
        with Vertical(id="bs-dialog", classes="dialog-box"):
            yield Static(Text("Start a Blobfish benchmark run"), id="bs-title", classes="dialog-title")
            yield Static(
                Text("Enter continues to a confirmation; Esc cancels. Tab moves between fields."),
                id="bs-hint",
                classes="dialog-hint",
            )
            for label, field_id, value, placeholder in (
                ("Benchmark slug", "bs-slug", self._slug, "counselbench-100"),
                ("Provider", "bs-provider", "", "e.g. xai"),
                ("Model", "bs-model", "", "e.g. grok-4"),
            ):
                with Horizontal(classes="bs-row"):
                    yield Label(label)
                    yield Input(value, placeholder=placeholder, id=field_id, compact=True)
            with Horizontal(classes="bs-row"):
                yield Label("Suite")
                with RadioSet(id="bs-suite", compact=True):
                    for suite in SUITES:
                        yield MarkedRadioButton(_SUITE_LABELS[suite], value=suite == "sample", id=f"bs-suite-{suite}")
            with Horizontal(classes="bs-row"):
                yield Label("Max tasks")
                low, high = MAX_TASKS_RANGE
                yield Input(
                    "", placeholder=f"{low}-{high}, empty: the whole suite", type="integer", id="bs-max", compact=True
                )
            with Horizontal(classes="bs-row -tight"):
                yield Label("Max steps")
                low, high = MAX_STEPS_RANGE
                yield Input(
                    "",
                    placeholder=f"{low}-{high} tool calls per task, empty: the platform's 24",
                    type="integer",
                    id="bs-steps",
                    compact=True,
                )
            with Horizontal(classes="bs-row -tight"):
                yield Label("Key variable")
                yield Input(
                    "",
                    placeholder="e.g. XAI_API_KEY; empty: the account's own credential",
                    id="bs-key-env",
                    compact=True,
                )
            yield Static("", id="bs-error", classes="dialog-error")
            yield answer_buttons("bs", "Continue", compact=True)

    def on_mount(self) -> None:
        # The set highlights its first option on mount; start the highlight on the pressed one
        # (sample), so up/down move from what is chosen.
        self.query_one("#bs-suite", RadioSet).action_next_button()
        self.query_one("#bs-slug", Input).focus()  # the first field, as the form reads top down

    def _value(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value.strip()

    def _bounded(self, field_id: str, what: str, bounds: tuple[int, int]) -> tuple[int | None, str | None]:
        """The field's whole number within ``bounds`` (None when left empty), or why it is not."""
        raw = self._value(field_id)
        if not raw:
            return None, None
        low, high = bounds
        try:
            value = int(raw)
        except ValueError:
            return None, f"{what} is a whole number, {low}-{high}"
        if not low <= value <= high:
            return None, f"{what} is {low}-{high}"
        return value, None

    def suite(self) -> str:
        pressed = self.query_one("#bs-suite", RadioSet).pressed_button
        return (pressed.id or "bs-suite-sample").removeprefix("bs-suite-") if pressed else "sample"

    def request(self) -> tuple[BenchRequest | None, str | None]:
        """The request the fields make, or why they make none."""
        slug, provider, model = self._value("bs-slug"), self._value("bs-provider"), self._value("bs-model")
        suite = self.suite()
        problem = slug_problem(slug)
        if problem:
            return None, problem
        if not provider or not model:
            return None, "the provider and the model are both needed"
        max_tasks, problem = self._bounded("bs-max", "max tasks", MAX_TASKS_RANGE)
        if problem:
            return None, problem
        if max_tasks is not None and suite == "none":
            return None, "max tasks bounds a suite: choose sample or full, or leave it empty"
        max_steps, problem = self._bounded("bs-steps", "max steps", MAX_STEPS_RANGE)
        if problem:
            return None, problem
        key_env = self._value("bs-key-env") or None
        if key_env is not None:
            problem = env_name_problem(key_env, self._environ)
            if problem:
                return None, problem
        return BenchRequest(slug, provider, model, suite, max_tasks, key_env, max_steps), None
