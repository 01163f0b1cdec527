"""The "New bake-off" dialog (Runs, ``e``): every field of a bake-off (contract 3.2).

Kind (comparison or criterion) and the criterion picked from ``GET /v1/criteria`` with its
trust, TPR/TNR, kappa and drift (a judge no better than chance is said at once); the rubric
and its type; the judge (warned when it shares a family with a candidate); the baseline, or
"against what you shipped" (``__stored__``: a certified switch, with its noninferiority
margin); the candidates offered from what the workspace already ran (any other id typed in);
versioned arms (label, system and tools overrides, best-of-N); sample filters; up to 10
assertions; sample count and answer cap.

The queue's own rules are checked as the person continues (``application.bakeoffs.new_run.request``):
a refused field is said under its row, gets the focus (cursor at its end, nothing selected)
and nothing is sent; the refusal goes once a field it was about changes. Enter in a one-line
field continues, Esc cancels; it answers once per showing. ``candidates`` prefills ticked
candidates and ``initial`` every field (e.g. a screening's recommendation). The same dialog is
shown again (:meth:`BakeoffNewScreen.ask_again`) when the confirmation goes back to it or the
queue refuses the request, so nothing typed is lost.

What is being worked on stays in view at 80x24: the fields scroll (Tab scrolls the focus into
view; a field typed into is kept there), and the title, the live ``plan:`` line and the
buttons are docked outside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static, TextArea

from api_client.errors import BlahError
from application.bakeoffs.dialog_text import confirm_text, criterion_option, row_of_field
from application.bakeoffs.new_run.fields import parse_arm, parse_assertion, parse_each_line, parse_margin, whole_number
from application.bakeoffs.new_run.hints import criterion_line, used_models
from application.bakeoffs.new_run.request import (
    ASSERTION_HELP,
    DEFAULT_MAX_OUTPUT_TOKENS,
    DEFAULT_SAMPLE_COUNT,
    MAX_CANDIDATES,
    RUBRIC_TYPE_HELP,
    STORED,
    ArmSpec,
    NewRun,
    Problem,
    SampleFilters,
    judge_family_warning,
)
from application.bakeoffs.planning import run_plan_lines
from tui import bindings
from widgets.check_list import CheckList
from widgets.dialog import answer_buttons
from widgets.form_dialog import FormDialog
from widgets.safe_text import one_line
from widgets.tick_box import TickBox

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from application.bakeoffs.screening import BakeoffPrefill

__all__ = ["BakeoffNewScreen", "confirm_text"]

_FIELDS_OF_ROW: dict[str, tuple[str, ...]] = {
    # A row's refusal (``#bn-err-<row>``): the field focused to change it, then every other field
    # the refusal was about; a change to any of them takes the refusal away (it may no longer hold).
    "name": ("bn-name",),
    "kind": ("bn-kind",),
    "criterion": ("bn-criterion", "bn-kind"),
    "rubric": ("bn-rubric", "bn-kind", "bn-rubric-type"),
    "rubric-type": ("bn-rubric-type", "bn-kind"),
    "judge": ("bn-judge", "bn-kind", "bn-criterion"),
    "baseline": ("bn-baseline", "bn-stored"),
    "margin": ("bn-margin", "bn-stored"),
    "candidates": ("bn-candidates", "bn-other", "bn-arms"),
    "other": ("bn-other", "bn-candidates", "bn-arms"),
    "arms": ("bn-arms", "bn-candidates", "bn-other"),
    "filters": ("bn-tag", "bn-filter-model", "bn-segment", "bn-dataset", "bn-trace", "bn-stored", "bn-criterion"),
    "assertions": ("bn-assertions",),
    # underpowered (the queue's 412) is about the sample count and what the plan reads: the
    # margin, a certified switch and the criterion's judge
    "samples": ("bn-samples", "bn-margin", "bn-stored", "bn-criterion", "bn-kind"),
    "max": ("bn-max",),
}


class BakeoffNewScreen(FormDialog[NewRun]):
    """Dismisses with the ``NewRun`` asked for, or None (cancelled)."""

    DEFAULT_CSS = """
    BakeoffNewScreen > #bn-dialog { width: 110; max-width: 98%; max-height: 96%; padding: 0 1; }
    BakeoffNewScreen #bn-head { dock: top; height: auto; }
    BakeoffNewScreen #bn-foot { dock: bottom; height: auto; }
    BakeoffNewScreen #bn-form { height: auto; max-height: 1fr; }
    BakeoffNewScreen .bn-row { height: auto; }
    BakeoffNewScreen .bn-row Label { width: 18; }
    BakeoffNewScreen .bn-row Input { width: 1fr; }
    BakeoffNewScreen .bn-row Select { width: 1fr; }
    BakeoffNewScreen .bn-row TextArea { width: 1fr; height: 4; }
    BakeoffNewScreen .bn-row TickBox { width: 1fr; height: auto; text-wrap: wrap; }
    BakeoffNewScreen .bn-note { color: $foreground-muted; height: auto; padding-left: 18; }
    BakeoffNewScreen .bn-warn { color: $warning; height: auto; padding-left: 18; }
    BakeoffNewScreen .bn-field-error { color: $error; height: auto; padding-left: 18; display: none; }
    BakeoffNewScreen .bn-field-error.-said { display: block; }
    BakeoffNewScreen #bn-judge-warning { display: none; }
    BakeoffNewScreen #bn-judge-warning.-said { display: block; }
    BakeoffNewScreen #bn-candidates { width: 1fr; height: auto; max-height: 8; }
    BakeoffNewScreen #bn-plan-row { height: auto; color: $foreground-muted; }
    BakeoffNewScreen #bn-plan-row Label { width: 6; }
    BakeoffNewScreen #bn-plan-row.-none { display: none; }
    BakeoffNewScreen #bn-plan { width: 1fr; height: auto; }
    BakeoffNewScreen #bn-error { display: none; }
    BakeoffNewScreen #bn-error.-said { display: block; }
    BakeoffNewScreen #bn-error.-on-its-row { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    BINDINGS = [bindings.cancel("runs.bakeoff.new")]
    ERROR_ID = "bn-error"
    OK_ID = "bn-ok"

    def __init__(
        self,
        candidates: list[str] | None = None,
        *,
        prefill: BakeoffPrefill | None = None,
        initial: NewRun | None = None,
        runs: Sequence[assumed.Run] | None = None,
        criteria: Sequence[assumed.Criterion] | None = None,
    ) -> None:
        """``candidates``: ticked at the start (offered even when no run used them);
        ``prefill``: a screening's next step (name, rubric, the incumbent as baseline, the
        recommended candidates); ``runs``/``criteria``: what the workspace has (read from the
        queue when not given)."""
        super().__init__()
        if prefill is not None and initial is None:
            initial = NewRun(
                prefill.name,
                prefill.baseline_model,
                tuple(ArmSpec(m) for m in prefill.candidate_models),
                rubric=prefill.rubric,
            )
        self.prefill = list(candidates or ([a.model for a in initial.arms if a.plain] if initial else []))
        self.initial = initial
        self._said: str | None = None
        """The row whose refusal is said (None: none, or one said only under the buttons)."""
        self._focus_on_resume: Widget | None = None
        self.runs: list[assumed.Run] = list(runs or [])
        self.criteria: list[assumed.Criterion] = list(criteria or [])
        self.loaded = runs is not None and criteria is not None
        """The workspace's runs and criteria are in (the lists below are final)."""
        self.load_problem: str | None = None

    # ----------------------------------------------------------------- layout

    def _row(self, label: str, *widgets: Widget, row: str) -> ComposeResult:
        with Horizontal(classes="bn-row"):
            yield Label(label)
            yield from widgets
        yield Static("", id=f"bn-err-{row}", classes="bn-field-error")

    def compose(self) -> ComposeResult:
        initial = self.initial
        with Vertical(id="bn-dialog", classes="dialog-box"):
            with Vertical(id="bn-head"):
                yield Static(Text("New bake-off"), id="bn-title", classes="dialog-title")
                yield Static(
                    Text(
                        "Enter in a one-line field continues to a confirmation; Esc cancels. Tab moves; space "
                        "ticks a candidate or a box."
                    ),
                    id="bn-hint",
                    classes="dialog-hint",
                )
            with VerticalScroll(id="bn-form", can_focus=False):  # the fields scroll; Tab scrolls to the focus
                yield from self._row(
                    "Name",
                    Input(
                        initial.name if initial else "", placeholder="1 to 80 characters", id="bn-name", compact=True
                    ),
                    row="name",
                )
                yield from self._row(
                    "Kind",
                    Select[str](
                        (
                            ("comparison: candidates judged against the baseline", "comparison"),
                            ("criterion: every model graded pass/fail by a saved judge", "criterion"),
                        ),
                        value=initial.eval_kind if initial else "comparison",
                        allow_blank=False,
                        id="bn-kind",
                        compact=True,
                    ),
                    row="kind",
                )
                yield from self._row(
                    "Criterion",
                    Select[str]((), prompt="(criterion runs) loading the criteria…", id="bn-criterion", compact=True),
                    row="criterion",
                )
                yield Static("", id="bn-criterion-info", classes="bn-note")
                yield from self._row(
                    "Rubric",
                    Input(
                        initial.rubric if initial else "",
                        placeholder="comparison runs: what a better answer is, 10-2000",
                        id="bn-rubric",
                        compact=True,
                    ),
                    row="rubric",
                )
                yield from self._row(
                    "Rubric type",
                    Select[str](
                        (("direct", "direct"), ("adherence", "adherence")),
                        value=initial.rubric_type if initial else "direct",
                        allow_blank=False,
                        id="bn-rubric-type",
                        compact=True,
                    ),
                    row="rubric-type",
                )
                yield Static("\n".join(RUBRIC_TYPE_HELP.values()), classes="bn-note")
                yield from self._row(
                    "Judge",
                    Input(
                        initial.judge_model or "" if initial else "",
                        placeholder="blank: the queue's default (prefer another family)",
                        id="bn-judge",
                        compact=True,
                    ),
                    row="judge",
                )
                yield Static("", id="bn-judge-warning", classes="bn-warn")
                stored = bool(initial and initial.baseline_model == STORED)
                yield from self._row(
                    "Baseline",
                    Input(
                        "" if stored or not initial else initial.baseline_model,
                        placeholder="the model you run today",
                        id="bn-baseline",
                        compact=True,
                    ),
                    row="baseline",
                )
                with Horizontal(classes="bn-row"):
                    yield Label("")
                    yield TickBox(
                        "against what you shipped: a certified switch, needs a calibrated criterion",
                        stored,
                        id="bn-stored",
                        compact=True,
                    )
                margin = initial.noninferiority_margin if initial else None
                yield from self._row(
                    "Margin",
                    Input(
                        "" if margin is None else f"{margin:g}",
                        placeholder="certified switch: noninferiority margin, e.g. 0.05",
                        id="bn-margin",
                        compact=True,
                    ),
                    row="margin",
                )
                yield from self._row(
                    f"Candidates (≤{MAX_CANDIDATES})",
                    CheckList[str](id="bn-candidates", compact=True),
                    row="candidates",
                )
                yield Static("", id="bn-candidates-note", classes="bn-note")
                yield from self._row(
                    "Other models",
                    Input("", placeholder="any other model ids, comma-separated", id="bn-other", compact=True),
                    row="other",
                )
                arms = "\n".join(_arm_line(a) for a in (initial.arms if initial else ()) if not a.plain)
                yield from self._row(
                    "Versioned arms",
                    TextArea(
                        arms,
                        id="bn-arms",
                        compact=True,
                        placeholder="one per line: model=M; label=L; n=3; system=TEXT; tools=JSON",
                    ),
                    row="arms",
                )
                filters = initial.filters if initial else SampleFilters()
                for label, field_id, value, hint in (
                    ("Filter: tag", "bn-tag", filters.tag, "X-Omnia-Tag"),
                    ("Filter: model", "bn-filter-model", filters.model, "only this model's traffic"),
                    ("Filter: segment", "bn-segment", filters.segment, "a traffic segment"),
                    ("Filter: dataset", "bn-dataset", filters.dataset_id, "a managed dataset id instead of live logs"),
                ):
                    with Horizontal(classes="bn-row"):
                        yield Label(label)
                        yield Input(value, placeholder=hint, id=field_id, compact=True)
                with Horizontal(classes="bn-row"):
                    yield Label("")
                    yield TickBox(
                        "trace replay: one sample per completed agent step (needs what you shipped)",
                        filters.trace_replay,
                        id="bn-trace",
                        compact=True,
                    )
                yield Static("", id="bn-err-filters", classes="bn-field-error")
                lines = "\n".join(
                    a["type"] + (f"={a['value']}" if "value" in a else "")
                    for a in (initial.assertions if initial else ())
                )
                yield from self._row(
                    "Assertions (≤10)",
                    TextArea(lines, id="bn-assertions", compact=True, placeholder="one per line: TYPE or TYPE=VALUE"),
                    row="assertions",
                )
                yield Static("types: " + "; ".join(ASSERTION_HELP.values()), classes="bn-note")
                for label, row, count, bounds in (
                    ("Samples", "samples", initial.sample_count if initial else DEFAULT_SAMPLE_COUNT, "5-500"),
                    (
                        "Max output tokens",
                        "max",
                        initial.max_output_tokens if initial else DEFAULT_MAX_OUTPUT_TOKENS,
                        "256-16384",
                    ),
                ):
                    whole_number = Input(str(count), placeholder=bounds, type="integer", id=f"bn-{row}", compact=True)
                    yield from self._row(label, whole_number, row=row)
            with Vertical(id="bn-foot"):  # docked: in view however far the form is scrolled
                with Horizontal(id="bn-plan-row"):
                    yield Label("plan:")
                    yield Static("", id="bn-plan")
                yield Static("", id="bn-error", classes="dialog-error")
                yield answer_buttons("bn", "Continue", compact=True)

    def on_mount(self) -> None:
        for field in self.query(Input):
            # Focus puts the cursor where it was, selecting nothing: a key pressed after the focus
            # moved (Tab, a refusal) adds to what is there, never replaces it unseen.
            field.select_on_focus = False
        self.query_one("#bn-name", Input).focus()
        self._show_candidates()
        self._show_criteria()
        self._plan()
        if not self.loaded:
            self._load()

    def ask_again(self, problem: Problem | None = None) -> None:
        """Ready to be shown again, every field as the person left it: after the confirmation
        went back to the form (``n``, Esc), or with ``problem`` (the queue refused the request)
        said on its row, whose field gets the focus."""
        self._answered = False
        if problem is not None:
            self._say(problem)
            self._focus_on_resume = self._refused_field()

    def on_screen_resume(self) -> None:
        field, self._focus_on_resume = self._focus_on_resume, None
        if field is not None:
            self._focus_to_change(field)

    @work(exclusive=True, group="bakeoff-new.load", exit_on_error=False)
    async def _load(self) -> None:
        """The workspace's runs (the models it used) and criteria: both free reads."""
        client = getattr(getattr(self.app, "ctx", None), "errorbar", None)
        if client is not None:
            try:
                self.runs = await client.list_runs()
                self.criteria = await client.criteria()
            except BlahError as error:
                self.load_problem = f"couldn't read the queue's runs and criteria: {one_line(error.message, 200)}"
        self.loaded = True
        self._show_candidates()
        self._show_criteria()

    def _show_candidates(self) -> None:
        check = self.query_one("#bn-candidates", CheckList)
        chosen = set(check.selected) | set(self.prefill)
        offered = list(dict.fromkeys([*self.prefill, *used_models(self.runs)]))
        check.clear_options()
        check.add_options([(Text(one_line(m, max_len=70)), m, m in chosen) for m in offered])  # inert, never markup
        note = self.query_one("#bn-candidates-note", Static)
        if self.load_problem:
            note.update(Text(self.load_problem))
        elif not self.loaded:
            note.update(Text("reading the models this workspace already ran…"))
        elif not offered:
            note.update(
                Text("no earlier run to offer models from: type any model id below; the queue says whether it has it")
            )
        else:
            note.update(Text("the models this workspace already ran; any other id can be typed below"))
        self._judge_warning()

    def _show_criteria(self) -> None:
        select = self.query_one("#bn-criterion", Select)
        wanted = self.initial.criterion_id if self.initial else None
        if self.criteria:
            current = wanted if select.is_blank() else select.value
            select.set_options((Text(criterion_option(c)), c.id) for c in self.criteria)
            select.prompt = "(criterion runs) choose a criterion"
            if current in {c.id for c in self.criteria}:
                select.value = current
        elif self.loaded:
            select.set_options(())
            select.prompt = "the queue lists no criteria"
        self._criterion_info()

    # ----------------------------------------------------------------- live notes

    def _criterion(self) -> assumed.Criterion | None:
        value = self.query_one("#bn-criterion", Select).value
        return next((c for c in self.criteria if c.id == value), None)

    def _criterion_info(self) -> None:
        chosen = self._criterion()
        info = self.query_one("#bn-criterion-info", Static)
        info.set_class(chosen is not None and "\n  !" in criterion_line(chosen), "bn-warn")
        info.update(
            Text(
                criterion_line(chosen)
                if chosen is not None
                else "a criterion run grades every model pass/fail with a saved, calibrated judge"
            )
        )
        self._judge_warning()

    def _judge_warning(self) -> None:
        models = list(self.query_one("#bn-candidates", CheckList).selected) + _split(self._value("bn-other"))
        kind = self.query_one("#bn-kind", Select).value
        criterion = self._criterion()
        judge = (
            (criterion.judge_model if criterion else None) if kind == "criterion" else self._value("bn-judge").strip()
        )
        warning = judge_family_warning(judge or None, models)
        note = self.query_one("#bn-judge-warning", Static)
        note.update(Text(one_line(warning or "", max_len=300)))
        note.set_class(bool(warning), "-said")

    def _plan(self) -> None:
        """What the run can answer, before it is paid for (``bakeoff plan``'s figures), kept in
        step with the sample count, the margin and the criterion's judge."""
        kind = self.query_one("#bn-kind", Select).value
        criterion = self._criterion() if kind == "criterion" else None
        samples, _ = whole_number(self._value("bn-samples"), "sample_count", DEFAULT_SAMPLE_COUNT)
        margin = None
        if self.query_one("#bn-stored", TickBox).value:
            margin, _ = parse_margin(self._value("bn-margin"))
        lines = run_plan_lines(
            samples, margin, criterion.tpr if criterion else None, criterion.tnr if criterion else None
        )
        self.query_one("#bn-plan", Static).update(Text("\n".join(lines)))
        self.query_one("#bn-plan-row").set_class(not lines, "-none")

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "bn-stored":
            self._plan()
        self._changed(event.checkbox)

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id in ("bn-criterion", "bn-kind"):
            self._criterion_info()
            self._plan()
        self._changed(event.select)

    def on_selection_list_selected_changed(self, event: CheckList.SelectedChanged) -> None:
        event.stop()
        self._judge_warning()
        self._changed(event.selection_list)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("bn-judge", "bn-other"):
            self._judge_warning()
        elif event.input.id in ("bn-samples", "bn-margin"):
            self._plan()
        self._changed(event.input)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._changed(event.text_area)

    def _changed(self, field: Widget) -> None:
        """A refusal about ``field`` may no longer hold: it goes (Enter checks again; the plan
        line already reads the new figures). A field typed into is kept in view."""
        if self._said is not None and field.id in _FIELDS_OF_ROW.get(self._said, ()):
            self._say(None)
        if field.has_focus:
            field.scroll_visible(animate=False)

    # ----------------------------------------------------------------- reading the fields

    def _value(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value

    def _say(self, problem: Problem | None) -> None:
        """Say ``problem`` under its row (and, one line, above the buttons); None clears."""
        for row in _FIELDS_OF_ROW:
            cleared = self.query_one(f"#bn-err-{row}", Static)
            cleared.update("")
            cleared.remove_class("-said")
        below = self.query_one("#bn-error", Static)
        self._said = row_of_field(problem.field) if problem is not None else None
        below.update(Text(one_line(problem.message, max_len=600)) if problem is not None else "")
        below.set_class(problem is not None, "-said")
        below.set_class(self._said is not None, "-on-its-row")  # whole under the row; one line here
        if problem is not None and self._said is not None:
            where = self.query_one(f"#bn-err-{self._said}", Static)
            where.update(Text(one_line(problem.message, max_len=600)))
            where.add_class("-said")

    def _refused_field(self) -> Widget | None:
        """The field to change for the refusal said (the first of its row)."""
        return self.query_one(f"#{_FIELDS_OF_ROW[self._said][0]}") if self._said is not None else None

    def _focus_to_change(self, field: Widget) -> None:
        """The focus on the refused field, the cursor at its end with nothing selected, and its
        row scrolled to the top of the form, with as much of the refusal below it as fits."""
        field.focus()
        if isinstance(field, Input):
            field.cursor_position = len(field.value)
        form = self.query_one("#bn-form", VerticalScroll)
        row = field.parent if isinstance(field.parent, Horizontal) else field
        self.call_after_refresh(lambda: form.scroll_to_widget(row, top=True, animate=False))

    def read(self) -> tuple[NewRun | None, Problem | None]:
        """The request the fields make, or the first reason the queue would refuse it."""
        arms = [ArmSpec(m) for m in self.query_one("#bn-candidates", CheckList).selected]
        arms += [ArmSpec(m) for m in _split(self._value("bn-other")) if m not in {a.model for a in arms}]
        problem = parse_each_line(self.query_one("#bn-arms", TextArea).text, parse_arm, arms)
        if problem is not None:
            return None, problem
        assertions: list[dict[str, Any]] = []
        problem = parse_each_line(self.query_one("#bn-assertions", TextArea).text, parse_assertion, assertions)
        if problem is not None:
            return None, problem
        samples, problem = whole_number(self._value("bn-samples"), "sample_count", DEFAULT_SAMPLE_COUNT)
        if problem is not None:
            return None, problem
        cap, problem = whole_number(self._value("bn-max"), "max_output_tokens", DEFAULT_MAX_OUTPUT_TOKENS)
        if problem is not None:
            return None, problem
        margin, problem = parse_margin(self._value("bn-margin"))
        if problem is not None:
            return None, problem
        kind = str(self.query_one("#bn-kind", Select).value)
        criterion = self._criterion()
        stored = self.query_one("#bn-stored", TickBox).value
        request = NewRun(
            name=self._value("bn-name"),
            baseline_model=STORED if stored else self._value("bn-baseline").strip(),
            arms=tuple(arms),
            eval_kind=kind,
            rubric=self._value("bn-rubric"),
            rubric_type=str(self.query_one("#bn-rubric-type", Select).value),
            criterion_id=criterion.id if criterion is not None and kind == "criterion" else None,
            judge_model=self._value("bn-judge").strip() or None,
            sample_count=DEFAULT_SAMPLE_COUNT if samples is None else samples,
            max_output_tokens=DEFAULT_MAX_OUTPUT_TOKENS if cap is None else cap,
            filters=SampleFilters(
                self._value("bn-tag"),
                self._value("bn-filter-model"),
                self._value("bn-segment"),
                self._value("bn-dataset"),
                self.query_one("#bn-trace", TickBox).value,
            ),
            assertions=tuple(a for a in assertions if a is not None),
            noninferiority_margin=margin,
        )
        problem = request.problem(criterion)
        return (None, problem) if problem else (request, None)

    def request(self) -> tuple[NewRun | None, str | None]:
        request, problem = self.read()
        self._say(problem)
        field = self._refused_field()
        if field is not None:
            self._focus_to_change(field)
        return request, (one_line(problem.message, max_len=600) if problem else None)

    def chosen_criterion(self) -> assumed.Criterion | None:
        """The criterion the person picked (for the confirmation's judge reading)."""
        return self._criterion()


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _arm_line(arm: ArmSpec) -> str:
    import json

    parts = [f"model={arm.model}"]
    if arm.label:
        parts.append(f"label={arm.label}")
    if arm.n:
        parts.append(f"n={arm.n}")
    if arm.system is not None:
        parts.append(f"system={arm.system}")
    if arm.tools is not None:
        parts.append(f"tools={json.dumps(arm.tools)}")
    return "; ".join(parts)
