"""The platform's own analyses: diagnose (a deliberately naive heuristic), failure clusters
(a "judge" that reads the calls properly), and compare.

Diagnose heuristics (simpler than a careful reader, on purpose, as a real platform's):
- loop: some 20-character chunk, taken at offsets 0, 20, 40, ..., occurs 4+ times
  (non-overlapping) in the reply; paragraph loops and short sentence loops slip through;
- truncation: finish_reason == "length";
- empty: response == "" (whitespace-only and a bare ``<|im_end|>`` are missed);
- continuation: the reply starts with a lowercase letter (a reply starting with a newline
  and a fake ``User:`` turn is missed); template leaks are not looked for at all.
It examines the model's newest ``DIAGNOSE_WINDOW`` calls, failed calls included in the count.
"""

from __future__ import annotations

from collections.abc import Callable

from simulator.blahdev import catalog, runs
from simulator.blahdev.scorer import JUDGE_MODEL
from simulator.blahdev.store import LogDict
from simulator.blahdev.world import Json, World

DIAGNOSE_WINDOW = 1000
_CAUSES = {
    "loop": "Degenerate repetition: usually too little varied training data or greedy decoding "
    "without a repetition penalty.",
    "truncation": "The reply hit max_tokens: the model rambles instead of stopping, or the limit is too low.",
    "empty": "The model emits its end-of-turn token at once: often a prompt format it was not trained on.",
    "continuation": "The model continues the prompt instead of answering: typical of a chat template "
    "mismatch or a base model.",
}


def _loops(text: str) -> bool:
    for start in range(0, max(0, len(text) - 20) + 1, 20):
        chunk = text[start : start + 20]
        if len(chunk) == 20 and text.count(chunk) >= 4:
            return True
    return False


_CHECKS: dict[str, Callable[[LogDict], bool]] = {
    "loop": lambda e: e["response"] is not None and _loops(e["response"]),
    "truncation": lambda e: e["finish_reason"] == "length",
    "empty": lambda e: e["response"] == "",
    "continuation": lambda e: bool(e["response"]) and e["response"][0].islower(),
}


def recent_calls(world: World, model_id: str, n: int) -> list[LogDict]:
    with world.lock:
        return world.logs.all_for(model_id)[-n:]


def diagnose(world: World, model_id: str) -> Json:
    calls = recent_calls(world, model_id, DIAGNOSE_WINDOW)
    findings: list[Json] = []
    for kind, check in _CHECKS.items():
        hits = [e for e in calls if check(e)]
        findings.append(
            {
                "kind": kind,
                "count": len(hits),
                "rate": round(len(hits) / len(calls), 4) if calls else 0.0,
                "examples": [{"log_id": e["id"], "excerpt": (e["response"] or "")[:120]} for e in hits[-3:][::-1]],
                "usual_cause": _CAUSES[kind],
            }
        )
    return {
        "model_id": model_id,
        "calls_examined": len(calls),
        "window_from": calls[0]["created_at"] if calls else None,
        "window_to": calls[-1]["created_at"] if calls else None,
        "findings": findings,
    }


_CLUSTERS: dict[str, tuple[str, str, str]] = {
    "format": (
        "Chatroom prompts in a format it was not trained on",
        (
            "In the chatroom the prompt arrives as llama2 [INST] text; the chatml-trained model continues "
            "the transcript, leaks end-of-turn tokens or loops instead of replying."
        ),
        (
            "Add chat examples rendered in the [INST] format, or ask for the chatroom to use chatml; "
            "this is a format problem, not a knowledge one."
        ),
    ),
    "json": (
        "Strict JSON answers",
        "Asked for JSON only, it adds prose, breaks the syntax or stops mid-object.",
        "Add a few hundred short extraction examples whose answers are a single valid JSON object.",
    ),
    "maths": (
        "Arithmetic",
        "Gives confident but wrong numbers on one-step sums and word problems.",
        "Add worked arithmetic examples with the final number stated plainly.",
    ),
    "long": (
        "Long prompts cut off",
        "On long passages it rambles until max_tokens instead of summarising.",
        "Add summaries of long passages whose answers are one or two sentences, ending with the stop token.",
    ),
    "refusal": (
        "Refuses harmless requests",
        "Answers 'I'm sorry, but I can't ...' to ordinary questions.",
        "Remove refusal-style replies from the training data; add direct answers to the same prompts.",
    ),
    "loop": (
        "Repeats itself",
        "Falls into repeating a word, a sentence or a whole paragraph until the limit.",
        "Add varied, short, complete answers; check decoding uses a repetition penalty.",
    ),
    "empty": (
        "Says nothing",
        "Returns an empty reply, whitespace, or only its end-of-turn token.",
        "Add examples where the first assistant token is content, not <|im_end|>.",
    ),
    "runover": (
        "Runs past the end of its turn",
        ("Continues the prompt, writes the next User: turn, or leaks end-of-turn tokens followed by more text."),
        "Make sure every training answer ends with exactly one <|im_end|> and nothing after it.",
    ),
    "wrong": (
        "Wrong answers",
        "Fluent, confident and wrong on factual or language items.",
        "Add more factual QA pairs on the failing subjects, quoting the prompts listed.",
    ),
    "truncated": (
        "Rambles until the token limit",
        "Starts answering, then keeps going until max_tokens.",
        "Add short answers that stop; the model has not learned when to end.",
    ),
}


def _cluster_key(world: World, entry: LogDict, kind: str) -> str:
    if entry["source"] == "chatroom" and kind in ("continuation", "leak", "loop", "empty", "truncated"):
        return "format"
    itype = catalog.EVALS_BY_ID[entry["eval_id"]].instruction_type if entry["eval_id"] in catalog.EVALS_BY_ID else ""
    text = (entry["messages"] or [{}])[-1].get("content", "") if entry["messages"] else ""
    if itype == "json_output" or "json" in text.lower():
        return "json"
    if itype == "maths" and kind == "wrong":
        return "maths"
    if kind == "truncated" and (entry["prompt_tokens"] or 0) >= 120:
        return "long"
    if kind in ("continuation", "leak"):
        return "runover"
    return kind


def failure_clusters(world: World, model_id: str) -> Json:
    calls = recent_calls(world, model_id, DIAGNOSE_WINDOW)
    groups: dict[str, list[str]] = {}
    for entry in calls:
        kind = world.truth.get(entry["id"], "ok")
        if kind in ("ok", "error"):
            continue
        groups.setdefault(_cluster_key(world, entry, kind), []).append(entry["id"])
    ordered = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    clusters = [
        {
            "label": _CLUSTERS[k][0],
            "size": len(ids),
            "what_goes_wrong": _CLUSTERS[k][1],
            "suggestion": _CLUSTERS[k][2],
            "log_ids": ids[-50:][::-1],
        }
        for k, ids in ordered
    ]
    return {"judge_model": JUDGE_MODEL, "calls_considered": len(calls), "clusters": clusters}


def compare(world: World, model_ids: list[str]) -> Json:
    """One row per eval that any of the models answered: each model's most recent result."""
    latest: dict[tuple[str, str], Json] = {}
    for result in sorted(runs.results_where(world), key=lambda r: r["created_at"]):
        if result["model_id"] in model_ids:
            latest[(result["eval_id"], result["model_id"])] = result
    rows: list[Json] = []
    with world.lock:
        evals = list(world.evals.values())
    for ev in evals:
        answers = {
            m: {"response": r["response"], "score": r["score"], "result_id": r["id"]}
            for m in model_ids
            if (r := latest.get((ev["id"], m))) is not None
        }
        if answers:
            rows.append({"eval_id": ev["id"], "prompt": ev["prompt"], "answers": answers})
    return {"models": model_ids, "rows": rows}
