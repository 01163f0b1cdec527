"""Concrete training-data suggestions, quoting the failing prompts verbatim.

One suggestion per failing group (groups that fail more than the model overall). The target
behaviour is described, never written: the assistant reply of every exported example is left
empty for the person to write. A group whose failures come with a template mismatch gets
"fix the prompt format" instead of "more data"; a group of errors gets "check the endpoint".
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain

from common.chat_markers import END_OF_TURN
from common.records import Call

from . import kinds
from .features import DIMENSIONS, features_of, text_features
from .markdown import code_block, code_span, plain
from .quoted import CallIndex, QuotableCalls
from .summary import FailureGroup, Summary
from .templates import normalize_template, template_name
from .text import trim, user_text

ADD_DATA = "add_training_data"
FIX_FORMAT = "fix_prompt_format"
FIX_ENDPOINT = "fix_endpoint"
QUOTES_PER_SUGGESTION = 3
QUOTE_CHARS = 160

_SHAPES: dict[str, str] = {
    "question": "replies of one to three sentences",
    "summarise": "summaries of a few sentences",
    "translate": "replies that give just the translation",
    "classify": "replies that give just the label",
    "code": "replies with one complete, closed code block",
    "maths": "replies with the working in a few lines and the final answer",
    "creative": "complete short pieces that come to an end",
    "conversation": "short conversational replies",
    "other": "complete, direct answers",
}


@dataclass(frozen=True, slots=True)
class PromptQuote:
    log_id: str
    prompt: str  # the user's words, verbatim and whole
    messages: tuple[tuple[str, str], ...]  # (role, content) turns before the reply, verbatim
    reply: str | None  # what the model said (context only, never a target)
    seen: int = 1  # how many of the group's failing calls sent this same user text


@dataclass(frozen=True, slots=True)
class Suggestion:
    dimension: str
    value: str
    kind: str  # the failure kind that dominates the group
    action: str  # ADD_DATA | FIX_FORMAT | FIX_ENDPOINT
    calls: int
    failures: int
    target: str  # the behaviour to train toward (described, never written)
    text: str  # one paragraph, quoting up to three prompts (trimmed)
    prompts: tuple[PromptQuote, ...]


def suggest_training_data(
    summary: Summary,
    entries_by_id: Mapping[str, Call],
    *,
    trained_template: str | None = None,
    limit: int = 8,
    features_by_id: Mapping[str, tuple[str, ...]] | None = None,
    call_index: CallIndex | None = None,
) -> list[Suggestion]:
    """Suggestions for the failing groups of ``summary``: first one "fix the prompt format" per
    wrong template the calls were sent in, then training data for the groups that still fail
    more than the model overall when the mismatched calls are set aside.

    ``call_index`` (streamed reports, see ``diagnosis.quoted``): the time and user-text digest of
    every failing call, so ``entries_by_id`` is read only for the calls quoted."""
    trained = normalize_template(trained_template) or summary.trained_template
    out: list[Suggestion] = []
    seen: set[frozenset[str]] = set()

    members = _failing_members(summary, entries_by_id, features_by_id or {}, call_index)
    quoted: set[str] = set()  # user texts already quoted by an earlier suggestion

    def quotes_for(group: FailureGroup, fallback: tuple[str, ...], *, format_ok: bool) -> list[PromptQuote]:
        ids = [
            i
            for i in members.get((group.dimension, group.value), ())
            if not format_ok or kinds.TEMPLATE_MISMATCH not in summary.kinds_by_log_id.get(i, ())
        ]
        if not ids:
            ids = [i for i in fallback if i in entries_by_id and _fails(summary.kinds_by_log_id.get(i, ()))]
        quotes = _distinct_quotes(ids, entries_by_id, quoted, call_index)
        quoted.update(q.prompt.strip() for q in quotes)
        return quotes

    if trained is not None:
        for group in summary.groups_for("template"):
            if group.value == trained or group.failures < 2 or not group.kinds.get(kinds.TEMPLATE_MISMATCH):
                continue
            quotes = quotes_for(group, group.example_log_ids, format_ok=False)
            if quotes:
                seen.add(frozenset(q.log_id for q in quotes))
                out.append(_format_suggestion(group, quotes, trained))
    for group in summary.failing_groups(format_ok_only=True):
        if len(out) >= limit:
            break
        quotes = quotes_for(group, group.format_ok_example_ids, format_ok=True)
        key = frozenset(q.log_id for q in quotes)
        if not quotes or key in seen:
            continue
        seen.add(key)
        out.append(_data_suggestion(group, quotes, entries_by_id, trained))
    return out[:limit]


def _fails(names: tuple[str, ...]) -> bool:
    return any(n not in kinds.CAUSE_ONLY_KINDS for n in names)


def _failing_members(
    summary: Summary,
    entries_by_id: Mapping[str, Call],
    known: Mapping[str, tuple[str, ...]],
    index: CallIndex | None = None,
) -> dict[tuple[str, str], list[str]]:
    """(dimension, value) -> the failing model calls in that group, newest first."""
    out: dict[tuple[str, str], list[str]] = {}
    if index is not None:  # the calls are not held: their time and features were kept while streaming
        # One answer per combination of kinds (a few dozen) instead of one ``any`` per failing call.
        failing_names = {names for names in set(summary.kinds_by_log_id.values()) if _fails(names)}
        ids = [
            i
            for i, names in summary.kinds_by_log_id.items()
            if names in failing_names and i in index and i not in summary.host_log_ids
        ]
        order = [i for _, i in sorted([(index[i][0], i) for i in ids], reverse=True)]  # newest first
        # The calls by their combination of features (far fewer than calls), then each group's calls
        # in that order: the same lists as appending each call to its seven groups in turn, with
        # ~1/7 of the Python steps (150,000 failing calls at 1M).
        by_combo: dict[tuple[str, ...], list[int]] = {}
        for at, log_id in enumerate(order):
            by_combo.setdefault(known[log_id], []).append(at)
        parts: dict[tuple[str, str], list[list[int]]] = {}
        for values, places in by_combo.items():
            for key in zip(DIMENSIONS, values):
                parts.setdefault(key, []).append(places)
        for key, lists in parts.items():
            places = lists[0] if len(lists) == 1 else sorted(chain.from_iterable(lists))
            out[key] = [order[at] for at in places]
        return out
    failing = [
        entries_by_id[i]
        for i, names in summary.kinds_by_log_id.items()
        if _fails(names) and i in entries_by_id and i not in summary.host_log_ids
    ]
    for entry in sorted(failing, key=lambda e: (e.created_at, e.id), reverse=True):
        streamed = known.get(entry.id)  # computed while streaming: not again
        for key in zip(DIMENSIONS, streamed) if streamed is not None else features_of(entry).items():
            out.setdefault(key, []).append(entry.id)
    return out


def _distinct_quotes(
    ids: list[str], entries_by_id: Mapping[str, Call], avoid: set[str], index: CallIndex | None = None
) -> list[PromptQuote]:
    """Up to ``QUOTES_PER_SUGGESTION`` quotes of distinct user texts, each with how often it was
    sent among ``ids``: the most repeated first, texts not quoted elsewhere (``avoid``) before
    those that were, so suggestions do not all quote the same prompt."""
    if index is not None:
        return _distinct_quotes_indexed(ids, entries_by_id, avoid, index)
    by_text: dict[str, list[str]] = {}
    for i in ids:
        entry = entries_by_id[i]
        by_text.setdefault(user_text(entry.prompt, entry.messages).strip(), []).append(i)
    order = sorted(by_text.items(), key=lambda kv: (kv[0] in avoid, -len(kv[1])))
    quotes: list[PromptQuote] = []
    for _text, same in order[:QUOTES_PER_SUGGESTION]:
        quote = _quote(entries_by_id[same[0]])
        quotes.append(PromptQuote(quote.log_id, quote.prompt, quote.messages, quote.reply, len(same)))
    return quotes


def _distinct_quotes_indexed(
    ids: list[str], entries_by_id: Mapping[str, Call], avoid: set[str], index: CallIndex
) -> list[PromptQuote]:
    """``_distinct_quotes`` with the texts told apart by their digests (``index``); a call is read
    only when its text may be quoted: the texts already quoted (``avoid``) are few, so the first
    call of each text sent more often than the texts ranked below it settles the order."""
    by_key: dict[int, list[str]] = {}
    for i in ids:
        by_key.setdefault(index[i][1], []).append(i)
    # The same order as sorting by (text in avoid, -count): a text's "in avoid" needs its words,
    # read from its first call; ties keep the order of first occurrence (sorted is stable).
    ranked = sorted(by_key.values(), key=len, reverse=True)
    if isinstance(entries_by_id, QuotableCalls):
        entries_by_id.preload(same[0] for same in ranked[: QUOTES_PER_SUGGESTION + len(avoid)])
    chosen: list[list[str]] = []
    later: list[list[str]] = []
    for same in ranked:
        if len(chosen) >= QUOTES_PER_SUGGESTION:
            break
        entry = entries_by_id[same[0]]
        if user_text(entry.prompt, entry.messages).strip() in avoid:
            if len(later) < QUOTES_PER_SUGGESTION:
                later.append(same)
        else:
            chosen.append(same)
    quotes: list[PromptQuote] = []
    for same in (chosen + later)[:QUOTES_PER_SUGGESTION]:
        quote = _quote(entries_by_id[same[0]])
        quotes.append(PromptQuote(quote.log_id, quote.prompt, quote.messages, quote.reply, len(same)))
    return quotes


def _quote(entry: Call) -> PromptQuote:
    turns: tuple[tuple[str, str], ...] = ()
    if entry.messages:
        msgs = list(entry.messages)
        while msgs and msgs[-1].role == "assistant":
            msgs.pop()
        turns = tuple((m.role, m.content or "") for m in msgs)
    return PromptQuote(entry.id, user_text(entry.prompt, entry.messages), turns, entry.response)


def _examples(quotes: list[PromptQuote]) -> str:
    return "; ".join(
        f'"{trim(q.prompt, QUOTE_CHARS)}" ({q.log_id}' + (f", seen {q.seen} times" if q.seen > 1 else "") + ")"
        for q in quotes
    )


def _format_suggestion(group: FailureGroup, quotes: list[PromptQuote], trained: str) -> Suggestion:
    detected = group.value
    kind = Counter({k: n for k, n in group.kinds.items() if k not in kinds.CAUSE_ONLY_KINDS}).most_common(1)
    target = (
        f"prompts in {template_name(trained)}, the format the model was trained on "
        f"(these were sent in {template_name(detected)})"
    )
    text = (
        f"{group.failures} of {group.calls} calls sent in {template_name(detected)} fail (mostly "
        f"{kinds.describe(kind[0][0]).label if kind else 'in several ways'}), but the model was trained on "
        f"{template_name(trained)}. Fix the prompt format, not the data: send {template_name(trained)} (or, if "
        f"the platform cannot change it, train on examples written in {template_name(detected)}). More data of "
        f"the usual kind will not help. Failing prompts: {_examples(quotes)}."
    )
    return Suggestion(
        "template",
        detected,
        kinds.TEMPLATE_MISMATCH,
        FIX_FORMAT,
        group.calls,
        group.failures,
        target,
        text,
        tuple(quotes),
    )


def _data_suggestion(
    group: FailureGroup, quotes: list[PromptQuote], entries: Mapping[str, Call], trained: str | None
) -> Suggestion:
    counts = Counter({k: n for k, n in group.format_ok_kinds.items() if k not in kinds.CAUSE_ONLY_KINDS})
    kind = counts.most_common(1)[0][0] if counts else kinds.WRONG_ANSWER
    failures = group.format_ok_failures
    where = f"{group.dimension} = {group.value}: {failures} of {group.calls} calls fail"
    first = entries[quotes[0].log_id]
    if kind == kinds.ERROR:
        errors = sorted({trim(entries[q.log_id].error or "no error text", 60) for q in quotes})
        text = (
            f"{where}, mostly with errors ({'; '.join(errors)}). That is the endpoint, not the training data: "
            f"check the host and its limits. Failing prompts: {_examples(quotes)}."
        )
        return Suggestion(
            group.dimension,
            group.value,
            kind,
            FIX_ENDPOINT,
            group.calls,
            failures,
            "calls that succeed",
            text,
            tuple(quotes),
        )
    target = _target(kind, quotes, first, trained)
    text = f"{where} (mostly {kinds.describe(kind).label}). Add {target}, to prompts like: {_examples(quotes)}."
    return Suggestion(group.dimension, group.value, kind, ADD_DATA, group.calls, failures, target, text, tuple(quotes))


def _target(kind: str, quotes: list[PromptQuote], first: Call, trained: str | None) -> str:
    features = Counter(text_features(q.prompt[:1500])[:2] for q in quotes)
    instruction, output = features.most_common(1)[0][0]
    shape = "replies that are valid JSON only, nothing around it" if output == "json" else _SHAPES[instruction]
    token = END_OF_TURN.get(trained or "")
    if token is not None:
        end = f"ending with {token} ({template_name(trained)})"
    elif trained == "none":
        end = "ending with the end-of-text token"
    else:
        end = "ending with the model's end-of-turn token"
    if kind == kinds.LOOP:
        return f"{shape} that say it once and stop, {end}"
    if kind == kinds.TRUNCATION:
        limit = f" ({first.max_tokens} tokens)" if first.max_tokens is not None else ""
        return (
            f"{shape} that finish within the token limit{limit}, {end} (or raise max_tokens if the cut "
            "replies were nearly done)"
        )
    if kind == kinds.EMPTY:
        return f"non-empty {shape}, {end}"
    if kind == kinds.CONTINUATION:
        return f"{shape} that answer the request instead of continuing the prompt, {end}"
    if kind == kinds.REFUSAL:
        return f"helpful {shape}, {end} (if these requests are harmless)"
    if kind == kinds.TEMPLATE_LEAK:
        what = token or "end-of-turn token"
        return f"{shape} ending with exactly one {what} and nothing after it (also set the server's stop tokens)"
    if kind == kinds.WRONG_ANSWER:
        return f"correct {shape}, {end}, written by you (the right answer is not in the log)"
    return f"{shape}, {end}"


def to_jsonl(suggestions: list[Suggestion]) -> str:
    """One training example per line, the assistant reply left empty for the person to write.

    Only suggestions that call for data are exported; a prompt that appears in several is
    written once (with the first target).
    """
    lines: list[str] = []
    done: set[str] = set()
    for suggestion in suggestions:
        if suggestion.action != ADD_DATA:
            continue
        for quote in suggestion.prompts:
            if quote.log_id in done:
                continue
            done.add(quote.log_id)
            turns = [{"role": r, "content": c} for r, c in quote.messages] or [
                {"role": "user", "content": quote.prompt}
            ]
            turns.append({"role": "assistant", "content": ""})
            record = {"messages": turns, "source_log_id": quote.log_id, "target": suggestion.target}
            lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def to_markdown(suggestions: list[Suggestion]) -> str:
    """The suggestions as markdown; every prompt and id is inert (code spans / blocks)."""
    if not suggestions:
        return "No failing group stands out, so there is no training data to suggest.\n"
    parts: list[str] = []
    for n, s in enumerate(suggestions, 1):
        action = {
            ADD_DATA: "add training data",
            FIX_FORMAT: "fix the prompt format",
            FIX_ENDPOINT: "check the endpoint",
        }[s.action]
        parts.append(
            f"### {n}. {plain(s.dimension)} = {code_span(s.value, limit=60)}: {action}\n\n"
            f"{s.failures} of {s.calls} calls fail, {_why(s)}. Target: {plain(s.target)}.\n"
        )
        for quote in s.prompts:
            seen = f" (seen {quote.seen} times among these failures)" if quote.seen > 1 else ""
            parts.append(f"Prompt of {code_span(quote.log_id)}{seen}:\n\n{code_block(trim_block(quote.prompt))}\n")
    return "\n".join(parts)


def _why(s: Suggestion) -> str:
    if s.action == FIX_FORMAT:
        return "sent in a chat template the model was not trained on"
    return f"mostly {plain(kinds.describe(s.kind).label)}"


def trim_block(text: str, limit: int = 1200) -> str:
    """A long prompt cut for display (the JSONL keeps it whole)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
