"""``render_markdown``: the report for a person. Untrusted text only inside code spans/blocks."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from common.format import plural

from . import kinds
from .health import OutageWindow
from .markdown import code_span, plain, plain_cell, table_cell
from .suggest import to_markdown
from .templates import template_name
from .text import fmt_ms, fmt_rate, user_text

if TYPE_CHECKING:
    from .report import Report

TOP_GROUPS = 10
TOP_PROMPTS = 8
PROMPT_CHARS = 120
EXAMPLES_PER_KIND = 2


def render_markdown(report: Report) -> str:
    parts = [
        _header(report),
        _verdict(report),
        _kinds(report),
        _groups(report),
        _examples(report),
        _format(report),
        _cutoff(report),
        _platform(report),
        _clusters(report),
        _doubts(report),
        _health(report),
        "## Training data to add\n\n" + to_markdown(list(report.suggestions)),
    ]
    return "\n\n".join(p.rstrip() for p in parts if p) + "\n"


def _pct(rate: float | None) -> str:
    return "no data" if rate is None else f"{100 * rate:.1f}%"


def _header(r: Report) -> str:
    s = r.summary
    name = code_span(r.model_name or r.model_id or "unknown model", limit=80)
    lines = [f"# Diagnosis of {name}", ""]
    lines.append(
        f"{s.calls_examined} calls examined, from {fmt_ms(s.window_from)} to {fmt_ms(s.window_to)}. "
        f"{s.model_calls} are the model's to answer for"
        + (f" ({s.host.calls} fell in a host outage)" if s.host.calls else "")
        + "."
    )
    if r.trained_template is None:
        lines.append("Trained chat template: unknown, so no template verdict is given.")
    else:
        lines.append(
            f"Trained chat template: {code_span(r.trained_template)} ({plain(template_name(r.trained_template))}), "
            f"from the {plain(r.template_source)}."
        )
    for sentence in r.missing:
        lines.append(f"- {plain(sentence)}")
    return "\n".join(lines)


def _verdict(r: Report) -> str:
    s = r.summary
    if not s.model_calls:
        return "## Verdict\n\nNo calls of the model to judge."
    lines = ["## Verdict", ""]
    lines.append(f"- {fmt_rate(s.failing_calls, s.model_calls)} of the model's calls fail in some way.")
    top = sorted(
        (rate for k, rate in s.rates.items() if rate.count and k not in kinds.CAUSE_ONLY_KINDS),
        key=lambda rate: -rate.count,
    )[:3]
    for rate in top:
        lines.append(
            f"- {plain(kinds.describe(rate.kind).label)}: {fmt_rate(rate.count, rate.population)} "
            f"of {plain(rate.population_label)}."
        )
    mismatch = s.rates.get(kinds.TEMPLATE_MISMATCH)
    if mismatch is not None and mismatch.count:
        lines.append(
            f"- {mismatch.count} calls were sent in the wrong chat template: "
            "that looks like a bad model and is not one."
        )
        by_template = _template_rates(r)
        if by_template:
            lines.append(f"- Failure rate by the template the prompt was sent in: {by_template}.")
    worst = s.failing_groups(limit=1)
    if worst:
        g = worst[0]
        lines.append(
            f"- Failures concentrate where {plain(g.dimension)} = {code_span(g.value, limit=60)}: "
            f"{fmt_rate(g.failures, g.calls)} fail."
        )
    if s.host.failures:
        lines.append(f"- {plural(s.host.failures, 'failure')} happened during host outages: not the model's fault.")
    return "\n".join(lines)


def _template_rates(r: Report) -> str:
    """ "in ChatML 27% fail (…); in Llama 2 80% (…)": the trained template first, then the others."""
    groups = r.summary.groups_for("template")
    trained = [g for g in groups if g.value == r.trained_template]
    others = sorted((g for g in groups if g.value != r.trained_template and g.calls), key=lambda g: -g.calls)
    parts = []
    for g in [*trained, *others]:
        if not g.calls:
            continue
        name = template_name(g.value) if g.value != "unknown" else "no recognisable template"
        role = " (trained)" if g.value == r.trained_template else ""
        # "of the N calls sent in it": N is then plainly the same number as the Failure kinds
        # table's "N sent in another template", not a count of failures.
        parts.append(
            f"in {plain(name)}{role} {_pct0(g.failure_rate)} fail ({g.failures} of the {g.calls} calls sent in it)"
        )
    return "; ".join(parts) if len(parts) > 1 else ""


def _pct0(rate: float | None) -> str:
    return "no data" if rate is None else f"{100 * rate:.0f}%"


def _kinds(r: Report) -> str:
    s = r.summary
    lines = ["## Failure kinds", "", "| kind | count | out of | rate | what fixes it |", "|---|---:|---|---:|---|"]
    for kind, rate in s.rates.items():
        info = kinds.describe(kind)
        if kind == kinds.TEMPLATE_MISMATCH and r.trained_template is None:
            lines.append(
                f"| {plain_cell(info.label)} | no verdict | trained template unknown | "
                f"no data | {plain_cell(info.fix)} |"
            )
            continue
        # A wrong template is how a call was sent, not how it failed: say so beside the number,
        # or "wrong template 368" reads as 368 failures next to the verdict's "296 of 368 fail".
        count = f"{rate.count} sent in another template" if kind == kinds.TEMPLATE_MISMATCH else str(rate.count)
        lines.append(
            f"| {plain_cell(info.label)} | {count} | {rate.population} {plain_cell(rate.population_label)} | "
            f"{_pct(rate.rate)} | {plain_cell(info.fix)} |"
        )
    return "\n".join(lines)


def _groups(r: Report) -> str:
    s = r.summary
    groups = s.failing_groups(limit=TOP_GROUPS)
    lines = ["## Which prompts fail, and what they have in common", ""]
    lines += _failing_prompts(r)
    if not groups:
        lines.append("No group of calls fails more often than the model does overall.")
        return "\n".join(lines)
    lines.append(f"Overall failure rate: {_pct(s.failure_rate)}. Groups that fail more often:")
    lines += ["", "| dimension | value | failing | rate | kinds | examples |", "|---|---|---:|---:|---|---|"]
    for g in groups:
        top = ", ".join(f"{kinds.describe(k).label} {n}" for k, n in g.kinds.most_common(3))
        ids = " ".join(table_cell(i, limit=40) for i in g.example_log_ids[:3])
        lines.append(
            f"| {plain_cell(g.dimension)} | {table_cell(g.value, limit=50)} | {g.failures} of {g.calls} | "
            f"{_pct(g.failure_rate)} | {plain_cell(top)} | {ids} |"
        )
    return "\n".join(lines)


def _failing_prompts(r: Report) -> list[str]:
    """The prompts that fail most often (the user's words), with how often they fail."""
    if r.failing_prompts is not None:
        if not r.failing_prompts:
            return ["No prompt failed.", ""]
        lines = ["Prompts that failed most often (the user's words):", ""]
        for said, n, of in r.failing_prompts[:TOP_PROMPTS]:
            lines.append(f"- {n} of {of}: {code_span(said, limit=PROMPT_CHARS)}")
        return [*lines, ""]
    failing: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for log_id, entry in r.entries_by_id.items():
        if log_id in r.summary.host_log_ids:
            continue
        said = user_text(entry.prompt, entry.messages).strip()[:PROMPT_CHARS]
        asked[said] += 1
        if any(k not in kinds.CAUSE_ONLY_KINDS for k in r.summary.kinds_by_log_id.get(log_id, ())):
            failing[said] += 1
    if not failing:
        return ["No prompt failed.", ""]
    lines = ["Prompts that failed most often (the user's words):", ""]
    for said, n in failing.most_common(TOP_PROMPTS):
        lines.append(f"- {n} of {asked[said]}: {code_span(said, limit=PROMPT_CHARS)}")
    return [*lines, ""]


def _examples(r: Report) -> str:
    s = r.summary
    if not s.examples:
        return ""
    lines = ["## What the model actually said", ""]
    for kind in kinds.CLASSIFY_KINDS:
        for log_id, finding in s.examples.get(kind, ())[:EXAMPLES_PER_KIND]:
            lines.append(
                f"- {code_span(log_id, limit=40)} {plain(kinds.describe(kind).label)}: "
                f"{code_span(finding.evidence, limit=400)}"
            )
    return "\n".join(lines)


def _format(r: Report) -> str:
    s = r.summary
    lines = ["## Prompt format", ""]
    if s.templates:
        lines.append(
            "Templates the prompts were sent in: "
            + ", ".join(f"{code_span(t)} {n}" for t, n in s.templates.most_common())
            + "."
        )
    mismatch = s.rates.get(kinds.TEMPLATE_MISMATCH)
    if r.trained_template is None or mismatch is None:
        lines.append("The trained template is unknown, so whether these match cannot be said. Set it in the config.")
    elif mismatch.count:
        lines.append(
            f"{fmt_rate(mismatch.count, mismatch.population)} calls were not in {code_span(r.trained_template)}. "
            "Fix the prompt format before judging the model on them."
        )
    else:
        lines.append(f"Every prompt matches the trained template {code_span(r.trained_template)}.")
    return "\n".join(lines)


def _cutoff(r: Report) -> str:
    fr = r.summary.finish_reasons
    lines = ["## Cut off or stopped", ""]
    if not fr:
        return "\n".join(lines + ["No calls."])
    lines.append(
        f'finish_reason "length" (cut off by the limit): {fr.get("length", 0)}; "stop" (chose to stop): '
        f'{fr.get("stop", 0)}; "error": {fr.get("error", 0)}; not recorded: {fr.get("missing", 0)}.'
    )
    others = {k: n for k, n in fr.items() if k not in ("length", "stop", "error", "missing")}
    if others:
        lines.append("Other values: " + ", ".join(f"{code_span(k)} {n}" for k, n in others.items()) + ".")
    return "\n".join(lines)


def _platform(r: Report) -> str:
    lines = ["## The platform's own diagnosis", ""]
    if r.platform is None or r.agreements is None:
        said = "The platform's /diagnose returned nothing." if r.platform_asked else "The platform was not asked."
        return "\n".join(lines + [plain(said)])
    examined = r.platform.calls_examined
    lines.append(f"The platform examined {examined if examined is not None else 'an unstated number of'} calls.")
    windowed = any(a.window_count is not None for a in r.agreements)
    head = (
        "| kind | platform | us | us, on the platform's window | verdict |"
        if windowed
        else ("| kind | platform | us | verdict |")
    )
    lines += ["", head, "|---|---|---|---|---|" if windowed else "|---|---|---|---|"]
    for a in r.agreements:
        theirs = "does not check" if a.platform_count is None else f"{a.platform_count} ({_pct(a.platform_rate)})"
        ours = f"{a.our_count} of {a.our_population}"
        if a.kind == kinds.WRONG_ANSWER:
            ours += " judged"
        ours += f" ({_pct(a.our_rate)})"
        cells = [plain_cell(kinds.describe(a.kind).label), theirs, ours]
        if windowed:
            cells.append(
                f"{a.window_count} of {a.window_population} ({_pct(a.window_rate)})"
                if a.window_count is not None
                else "not compared"
            )
        cells.append(plain_cell(a.verdict_text))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for a in r.agreements:
        if a.gap is None:
            continue
        label = plain(kinds.describe(a.kind).label)
        basis = (
            f"on the platform's window we find {_pct(a.window_rate)}"
            if a.window_rate is not None
            else f"we find {_pct(a.our_rate)} (on our window)"
        )
        line = f"- {label}: the platform finds {_pct(a.platform_rate)}; {basis}, so we find {a.gap}."
        if a.missed:
            said = " and ".join(f"{n} {plain(what)}" for what, n in a.missed)
            line += f" We count {said} as {label}; the platform may not."
        lines.append(line)
    for a in r.agreements:
        label = plain(kinds.describe(a.kind).label)
        if a.disputed_log_ids:
            said = "; ".join(
                f"{code_span(i, limit=40)} (we found: "
                f"{plain(', '.join(kinds.describe(k).label for k in a.instead.get(i, ())) or 'nothing')})"
                for i in a.disputed_log_ids
            )
            lines.append(f"- {label}: we disagree on the platform's examples {said}.")
        if a.our_only_log_ids and a.platform_count is not None:
            ids = " ".join(code_span(i, limit=40) for i in a.our_only_log_ids)
            lines.append(f"- {label}: the platform reports none; we found {a.our_count}, e.g. {ids}.")
        if a.usual_cause:
            lines.append(f"- {label}: the platform says the usual cause is {code_span(a.usual_cause, limit=200)}.")
    for a in r.agreements:
        if a.kind_note and a.platform_count is not None:
            lines.append(f"- {plain(kinds.describe(a.kind).label)}: {plain(a.kind_note)}")
    window = next((a.window_note for a in r.agreements if a.window_note), "")
    if window:
        lines.append(f"- Note: {plain(window)}")
    return "\n".join(lines)


def _clusters(r: Report) -> str:
    lines = ["## The platform's failure clusters", ""]
    if not r.clusters_requested:
        return "\n".join(lines + ["Not requested: asking for them spends a judge call."])
    if r.clusters is None or r.cluster_checks is None:
        return "\n".join(lines + [plain("The platform's /failure-clusters returned nothing.")])
    if not r.cluster_checks:
        return "\n".join(lines + ["The platform returned no clusters."])
    judge = r.clusters.judge_model
    lines.append(f"Grouped by the judge {code_span(judge) if judge else '(not named)'}.")
    for c in r.cluster_checks:
        size = c.size if c.size is not None else "unstated"
        lines.append(
            f"- {code_span(c.label or 'unlabelled', limit=80)}, size {size}: "
            f"{code_span(c.what_goes_wrong or '', limit=200)}; "
            f"suggests {code_span(c.suggestion or '', limit=200)}. Of its {plural(len(c.log_ids), 'call')} we examined "
            f"{c.we_examined} and find a failure in {c.we_flag}."
        )
    return "\n".join(lines)


def _doubts(r: Report) -> str:
    lines = ["## Judge results worth doubting", ""]
    if r.doubts is None or r.results_count is None:
        return "\n".join(lines + [plain("The platform's /results returned nothing.")])
    if not r.results_count:
        return "\n".join(lines + ["The platform returned no results, so no judge verdict could be checked."])
    if not r.doubts:
        return "\n".join(lines + [f"None among {plural(r.results_count, 'result')}."])
    lines.append(f"{len(r.doubts)} of {r.results_count} results:")
    for d in r.doubts:
        lines.append(
            f"- result {code_span(d.result_id, limit=40)} ({plain(d.kind.replace('_', ' '))}): "
            f"{code_span(d.evidence, limit=300)}"
        )
    return "\n".join(lines)


def _health(r: Report) -> str:
    lines = ["## Health: the model or its host?", ""]
    if r.health_checks is None:
        return "\n".join(lines + [plain("The platform's /health returned nothing.")])
    host = r.summary.host
    if not r.health_checks:
        return "\n".join(
            lines
            + [("The platform returned no health checks, so host outages cannot be told apart from model failures.")]
        )
    if not host.windows:
        return "\n".join(lines + [f"No outage in {r.health_checks} health checks."])
    lines.append(f"{plural(len(host.windows), 'outage window')} in {plural(r.health_checks, 'health check')}:")
    lines += [f"- {_window(w)}" for w in host.windows]
    lines.append(
        f"{plural(host.calls, 'call')} fell in them and {host.failures} failed; those are counted as host failures, "
        "not the model's."
    )
    return "\n".join(lines)


def _window(w: OutageWindow) -> str:
    end = fmt_ms(w.end) if w.end is not None else "still down at the last check"
    distinct = list(dict.fromkeys(e.strip() for e in w.errors if e.strip()))
    errors = ", ".join(code_span(e, limit=80) for e in distinct[:3]) or "no error text"
    if len(distinct) > 3:
        errors += f" and {len(distinct) - 3} more"
    return f"from {fmt_ms(w.start)} to {end}: {plural(w.failed_checks, 'failed check')} ({errors})"


__all__ = ["render_markdown"]
