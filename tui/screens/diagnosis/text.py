"""The sentences of the Diagnosis screen, as Rich ``Text`` (pure: no Textual).

Blunt, and every number from the data: what was read, how much of it fails, whether the
prompts were in the model's template, what the platform says, what the judge got wrong, and
what training data to add. Untrusted text (prompts, the platform's explanations, error texts)
goes through ``safe_text``/``one_line`` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from api_client.errors import AuthError, BlahError, MissingKeyError, OutcomeUnknownError
from api_client.models import FailureClusters
from diagnosis import kinds as K
from diagnosis.suggest import ADD_DATA, FIX_ENDPOINT, FIX_FORMAT, Suggestion
from diagnosis.summary import FailureGroup
from diagnosis.templates import template_name
from diagnosis.text import user_text
from application.diagnosis.analysis import ClusterView, DiagnosisView
from application.diagnosis.data import DiagnosisInputs
from tui.screens.diagnosis.rows import KindRow
from tui.screens.runs.format import fmt_time
from widgets.bars import format_rate
from widgets.safe_text import one_line, one_line_text, safe_text

__all__ = [
    "cluster_detail",
    "clusters_error",
    "clusters_status",
    "group_detail",
    "groups_note",
    "judge_text",
    "kind_detail",
    "suggestions_text",
    "summary_text",
    "template_sentence",
]

EXAMPLES = 2  # quoted findings under the highlighted kind

_SOURCES = {
    "config": "from your config",
    "platform": "from the platform's model record",
    "lens": "from the model's Lens bundle",
}


def template_sentence(view: DiagnosisView) -> Text:
    inputs = view.inputs
    s = view.summary
    text = Text("Trained template: ", end="")
    if view.template is None:
        text.append("unknown", style="bold")
        text.append(" (no config entry, model record or Lens bundle names it), so no mismatch verdict is given")
        # Offline, both say the same "offline: this needs the platform": say it once.
        problems = list(dict.fromkeys(p for p in (inputs.model.error, inputs.lens.error) if p))
        if problems:
            text.append(" · ")
            text.append(one_line("; ".join(problems), max_len=200), style="dim")
        text.append(" · set it: blah-tui config set templates.MODEL chatml", style="dim")
    else:
        text.append(one_line(view.template, max_len=30), style="bold")
        text.append(f" ({template_name(view.template)}), {_SOURCES.get(view.template_source, view.template_source)}")
    if s.templates:
        sent = ", ".join(f"{one_line(t, max_len=20)} {n}" for t, n in s.templates.most_common())
        text.append(f" · prompts sent in: {sent}")
    mismatch = s.rates.get(K.TEMPLATE_MISMATCH)
    if view.template is not None and mismatch is not None and mismatch.count:
        text.append(
            f" · {mismatch.count} calls were in the wrong template: a format problem, not a bad model",
            style="bold",
        )
    return text


def summary_text(view: DiagnosisView) -> Text:
    """The lines at the top: what was read, how much fails, cut off or stopped, the template."""
    inputs = view.inputs
    s = view.summary
    where = {"platform": "from the platform", "archive": "from the local archive"}.get(inputs.entries_from, "")
    text = Text(end="")
    if not s.calls_examined:
        text.append(_no_calls(inputs), style="bold")
        return text
    text.append(f"{s.calls_examined} most recent calls {where}, {fmt_time(s.window_from)} to {fmt_time(s.window_to)}")
    text.append(f" · {s.model_calls} are the model's to answer for")
    if s.host.calls:
        text.append(f" · {s.host.calls} fell in host outages ({s.host.failures} failed): the host's, not the model's")
    if inputs.entries_note:
        text.append(f" · {one_line(inputs.entries_note, max_len=160)}", style="bold")
    text.append("\n")
    if s.model_calls:
        text.append(f"{s.failing_calls} of {s.model_calls} fail in some way ({format_rate(s.failure_rate)})", style="bold")
        fr = s.finish_reasons
        text.append(
            f" · cut off by the token limit: {fr.get('length', 0)}, chose to stop: {fr.get('stop', 0)}, "
            f"failed: {fr.get('error', 0)}, not recorded: {fr.get('missing', 0)}"
        )
    else:
        text.append("none of them are the model's to answer for (all fell in outages)", style="bold")
    text.append("\n")
    text.append_text(template_sentence(view))
    return text


def _no_calls(inputs: DiagnosisInputs) -> str:
    if inputs.entries_error:
        return f"couldn't load the calls: {inputs.entries_error}"
    if inputs.entries_from == "none":
        return "no calls: offline and nothing in the local file"
    return "the platform returned no calls for this model: there is nothing to diagnose"


def kind_detail(row: KindRow | None, view: DiagnosisView) -> Text:
    """What the highlighted kind means, what fixes it, and what the platform says about it."""
    if row is None:
        return Text("")
    inputs = view.inputs
    text = Text(end="")
    if row.is_host:
        text.append("host down: ", style="bold")
        text.append("failed calls made while the health checks said the endpoint was down. ")
        text.append("They say nothing about the answers and are left out of every rate above.")
        if inputs.health.error:
            text.append(f"\n{inputs.health.error}: outages cannot be told apart from model failures", style="bold")
        elif inputs.health.value is not None and not inputs.health.value.checks:
            text.append("\nthe platform returned no health checks", style="dim")
        for window in view.summary.host.windows:
            end = fmt_time(window.end) if window.end is not None else "still down at the last check"
            errors = ", ".join(one_line(e, max_len=60) for e in window.errors[:3]) or "no error text"
            text.append(f"\noutage {fmt_time(window.start)} to {end}: {window.failed_checks} failed checks ({errors})")
        return text
    info = K.describe(row.kind)
    text.append(f"{info.label}: ", style="bold")
    text.append(f"{info.description} ")
    text.append("Fix: ", style="bold")
    text.append(info.fix)
    for log_id, finding in view.summary.examples.get(row.kind, ())[:EXAMPLES]:
        text.append(f"\n  {one_line(log_id, max_len=30)}: ", style="dim")
        text.append_text(one_line_text(finding.evidence, max_len=220))
    if row.kind == K.WRONG_ANSWER and inputs.results.error:
        text.append(f"\n{inputs.results.error}: no judge verdicts to check", style="bold")
    a = row.agreement
    if a is None:
        if inputs.diagnose.error:
            text.append(f"\n{inputs.diagnose.error}", style="bold")
        elif inputs.diagnose.value is None:
            text.append("\nthe platform's /diagnose returned nothing", style="dim")
        return text
    if a.usual_cause:
        text.append("\nThe platform says the usual cause is: ", style="dim")
        text.append_text(safe_text(one_line(a.usual_cause, max_len=300)))
    if a.disputed_log_ids:
        text.append(
            f"\nWe disagree on {len(a.disputed_log_ids)} of the platform's examples (Disputed: Enter lists them).",
            style="bold",
        )
    if a.note:
        text.append(f"\n{one_line(a.note, max_len=400)}", style="dim")
    return text


# --------------------------------------------------------------------------- judge


def judge_text(view: DiagnosisView) -> Text:
    inputs = view.inputs
    report = view.report
    text = Text(end="")
    if inputs.results.error:
        text.append(f"{inputs.results.error}: no judge verdicts to check and no wrong-answer rate.", style="bold")
        return text
    results = inputs.results.value
    if results is None:
        text.append("The platform's /results returned nothing.", style="dim")
        return text
    if not results:
        text.append("The platform returned no results for this model: nothing has been judged.")
        return text
    linked = sum(1 for r in results if r.log_id is not None)
    wrong = view.summary.rates.get(K.WRONG_ANSWER)
    if wrong is not None and wrong.population:
        text.append(f"wrong answer: {wrong.count} of {wrong.population} judged calls ({format_rate(wrong.rate)})",
                    style="bold")
        text.append(": scored low by the judge, and nothing in the text (loop, cut-off, refusal…) explains it.")
    else:
        text.append("No judged result matches a call read here, so there is no wrong-answer rate.", style="bold")
    if linked < len(results):
        text.append(f"\n{len(results) - linked} of {len(results)} results name no log id and cannot be matched "
                    "to a call.", style="dim")
    doubts = report.doubts or ()
    text.append("\n")
    if doubts:
        text.append(f"{len(doubts)} of {len(results)} judge verdicts are worth doubting", style="bold")
        text.append(" (the judge can be wrong; Enter opens the call):")
    else:
        text.append(f"None of the {len(results)} judge verdicts looks doubtful.")
    return text


# --------------------------------------------------------------------------- clusters


def clusters_status(clusters: FailureClusters | None, error: str | None, busy: bool, online: bool) -> Text:
    if busy:
        return Text("asking the platform's judge to group the failures…", style="italic")
    if error:
        return Text(error, style="bold")
    if clusters is None:
        if not online:
            return Text("offline: the platform's failure clusters need the platform", style="dim")
        return Text(
            "Not asked yet: c asks the platform's judge to group the failures (council tier; it spends a judge call).",
            style="dim",
        )
    considered = "an unstated number of" if clusters.calls_considered is None else str(clusters.calls_considered)
    judge = one_line(clusters.judge_model, max_len=40) if clusters.judge_model else "an unnamed judge"
    if not clusters.clusters:
        return Text(f"The platform returned no clusters ({judge}, {considered} calls considered).")
    return Text(f"{len(clusters.clusters)} clusters by {judge} over {considered} calls. We flag: of the "
                "cluster's listed calls that we read, how many we find a failure in too.")


def clusters_error(error: BaseException) -> str:
    """A plain sentence for a failed /failure-clusters request."""
    server = f" (platform: {one_line(error.server_error, max_len=160)})" if isinstance(error, BlahError) and \
        error.server_error else ""
    if isinstance(error, MissingKeyError):
        return "Failure clusters need an API key with council tier; none is configured. Nothing was sent."
    if isinstance(error, OutcomeUnknownError):
        return (
            f"Outcome unknown: {one_line(error.message, max_len=160)}, so the judge call may have been spent. "
            "The platform has no endpoint to read the clusters back, so it was not sent again; press c to ask again."
        )
    if isinstance(error, AuthError):
        if error.status == 403:
            return f"Failure clusters need council tier: the platform refused this key (HTTP 403){server}."
        return f"The platform did not accept the API key (HTTP {error.status}){server}."
    if isinstance(error, BlahError):
        return f"The platform's /failure-clusters failed: {one_line(str(error), max_len=200)}"
    return f"The platform's /failure-clusters failed: {one_line(f'{type(error).__name__}: {error}', max_len=200)}"


def cluster_detail(cluster: ClusterView | None) -> Text:
    if cluster is None:
        return Text("")
    text = Text(end="")
    text.append_text(safe_text(one_line(cluster.label or "unlabelled", max_len=80), style="bold"))
    text.append("\nwhat goes wrong: ", style="dim")
    text.append_text(safe_text(one_line(cluster.what_goes_wrong or "—", max_len=300)))
    text.append("\nsuggestion: ", style="dim")
    text.append_text(safe_text(one_line(cluster.suggestion or "—", max_len=300)))
    return text


# --------------------------------------------------------------------------- suggestions

_ACTIONS = {ADD_DATA: "add training data", FIX_FORMAT: "fix the prompt format", FIX_ENDPOINT: "check the endpoint"}


def suggestions_text(suggestions: Sequence[Suggestion], view: DiagnosisView) -> Text:
    text = Text(end="")
    if not view.summary.model_calls:
        text.append("No calls of the model to learn from.")
        return text
    if not suggestions:
        text.append("No group of calls fails more often than the model does overall, so there is no "
                    "training data to suggest.")
        return text
    examples = sum(len(s.prompts) for s in suggestions if s.action == ADD_DATA)
    text.append(f"{len(suggestions)} suggestions from the groups that fail more than the model overall. ", style="bold")
    text.append(f"x exports them: JSONL ({examples} examples, replies left empty for you to write) and markdown.")
    for n, s in enumerate(suggestions, 1):
        text.append(f"\n\n{n}. {s.dimension.replace('_', ' ')} = ", style="bold")
        text.append_text(safe_text(one_line(s.value, max_len=60), style="bold"))
        text.append(f": {_ACTIONS.get(s.action, s.action)}", style="bold")
        text.append(f" · {s.failures} of {s.calls} calls fail, mostly {K.describe(s.kind).label}.")
        text.append("\n   target: ", style="dim")
        text.append_text(safe_text(one_line(s.target, max_len=400)))
        for quote in s.prompts:
            entry = view.entries_by_id.get(quote.log_id)
            said = quote.prompt if entry is None else user_text(entry.prompt, entry.messages)
            text.append(f"\n   {one_line(quote.log_id, max_len=30)} asked: ", style="dim")
            text.append_text(safe_text(one_line(said, max_len=220)))
            if quote.reply is not None:
                text.append("\n      it said: ", style="dim")
                text.append_text(safe_text(one_line(quote.reply, max_len=160), style="italic"))
    return text


# --------------------------------------------------------------------------- groups


def groups_note(view: DiagnosisView, shown: Sequence[FailureGroup]) -> Text:
    """The line above the groups: the overall rate, and what is left out and why."""
    s = view.summary
    note = Text(f"overall failure rate {format_rate(s.failure_rate)}; bold rates are above it", end="")
    kept = {(g.dimension, g.value) for g in shown}
    everything = [f"{g.dimension.replace('_', ' ')} = {g.value}" for g in s.groups if (g.dimension, g.value) not in kept]
    if everything:
        note.append(" · left out, as every call is in them: ")
        note.append_text(one_line_text(", ".join(sorted(everything)), max_len=120))
    if s.host.calls:
        note.append(f" · the {s.host.calls} calls in host outages are left out (the host's, not the model's)")
    return note


def group_detail(group: FailureGroup, view: DiagnosisView) -> Text:
    """The highlighted group: how many of its calls fail, and what two of them said."""
    ids = view.group_ids.get((group.dimension, group.value), ())
    text = Text(end="")
    text.append(f"{group.dimension.replace('_', ' ')} = ", style="bold")
    text.append_text(one_line_text(group.value, max_len=60, style="bold"))
    text.append(f": {group.failures} of {len(ids)} calls fail", style="bold")
    for log_id in group.example_log_ids[:2]:
        entry = view.entries_by_id.get(log_id)
        if entry is None:
            continue
        said = "said" if entry.response is not None else "failed"
        text.append(f"\n  {one_line(entry.id, max_len=30)} {said}: ", style="dim")
        text.append_text(one_line_text(entry.response if entry.response is not None else entry.error, max_len=160))
    return text
