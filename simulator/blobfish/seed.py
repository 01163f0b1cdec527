"""Seeded SDK-evaluation evidence: the envelopes a person's agents would have published.

``EvidenceFactory(seed, anchor_s).envelope(index)`` builds job number ``index`` (a
``blobfish.sdk-evaluation.v1`` envelope) from its own RNG, so a job is the same whatever was
built before it, and the live stream continues the seeded history without disturbing it.

The jobs carry the failures people debug on agent rollouts, small models failing more:

- ``tool_loop``: the same tool with the same arguments again and again until the step limit
  (no final answer), or until the model gives up with an empty one;
- ``truncated``: the final reply cut mid-word at the token limit (the last completion's
  ``completion_tokens`` equals the job's ``metadata.max_tokens``);
- ``empty``: a final answer that is empty or whitespace;
- ``wrong``: a plausible wrong answer (``failed_conditions`` says what);
- ``advisory``: a pass whose grade carries ``advisory_conditions`` such as
  ``"62/103 tool calls succeeded"`` (counted from the trace's own tool results);
- ``ungraded``: the grader recorded nothing: no ``reward``, no ``grade``, no ``verify`` record
  (absent, never 0).

Token ids, log-probabilities and lineage appear only in jobs whose agent captured them (the
small local models; API models never), usage only where the provider reported it, thinking
records and ``reasoning_tokens`` only for reasoning models. Some prompts hold hostile text
(escape sequences, markup, bidi controls) and some evidence holds key-shaped secrets: the
store masks those on the way in, like any publication. Repo-fix jobs ran in the sandbox and
their tool records are sandbox-server entries (``{id: "trace_...", type, tool, args, result,
timestamp}``, tool name in ``tool``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from simulator.blobfish import shapes
from simulator.blobfish.envelope import MAX_ROLLOUTS
from simulator.blobfish.shapes import Json
from simulator.blobfish.tasksets import (
    CALENDAR,
    CAPTURES,
    LARGE_MODELS,
    LARGE_WEIGHTS,
    LETTER_COUNT,
    NO_USAGE_MODELS,
    OUTCOMES,
    RAMBLE,
    REASONING_MODELS,
    REPO_FIX,
    SMALL_MODELS,
    SMALL_WEIGHTS,
    SPELLING_BEE,
    SQL,
    SUPPORT,
    TASKSETS,
    WEB,
    Call,
    Task,
    Taskset,
)

SEEDED_JOBS = 126
HISTORY_DAYS = 14
DAY_S = 86_400
STEP_LIMIT = 24


@dataclass
class Turn:
    calls: list[Call] = field(default_factory=list)
    final: str | None = None
    completion_tokens: int = 0


@dataclass(frozen=True)
class JobPlan:
    taskset: Taskset
    model: str
    capture: str
    group: int
    forced: str | None = None
    """The first rollout's outcome, where the history must show it whatever the seed."""
    tool_calls: tuple[int, int] | None = None
    """(succeeded, total) for a forced ``advisory`` rollout."""


FORCED_PLANS: tuple[JobPlan, ...] = (
    JobPlan(REPO_FIX, "claude-sonnet-4-5", "none", 2, "advisory", (62, 103)),
    JobPlan(WEB, "qwen2.5-0.5b-instruct", "ids+logprobs", 2, "tool_loop"),
    JobPlan(LETTER_COUNT, "smollm2-360m-instruct", "ids", 2, "truncated"),
    JobPlan(CALENDAR, "llama-3.2-1b-instruct", "ids+logprobs+lineage", 2, "empty"),
    JobPlan(SQL, "tinyagent-125m", "ids+logprobs", 2, "tool_loop"),
    JobPlan(SUPPORT, "gpt-4.1", "none", 2, "advisory"),
    JobPlan(SPELLING_BEE, "qwen2.5-0.5b-instruct", "none", 2, None),
    JobPlan(LETTER_COUNT, "deepseek-r1", "none", 1, "ungraded"),
)
"""Jobs placed at fixed points of every seeded history (see ``EvidenceFactory.plan``)."""


def forced_index(n: int) -> int:
    """Where the n-th forced job sits: spread from the newest back through the history."""
    return SEEDED_JOBS - 1 - 9 * n


class EvidenceFactory:
    def __init__(self, seed: int, anchor_s: float) -> None:
        self.seed = seed
        self.anchor_s = anchor_s
        secrets = random.Random(f"blobfish:{seed}:secrets")
        alphabet = string.ascii_letters + string.digits
        self.secrets = {
            "secret_bearer": "sk-live-" + "".join(secrets.choices(alphabet, k=32)),
            "secret_key": "sk-ant-api03-" + "".join(secrets.choices(alphabet, k=40)),
            "secret_echo": "".join(secrets.choices(alphabet, k=24)),
            "metadata_key": "sk-proj-" + "".join(secrets.choices(alphabet, k=36)),
        }
        """Key-shaped values planted in the seeded evidence (tests check none survives)."""
        self._forced = {forced_index(n): plan for n, plan in enumerate(FORCED_PLANS)}

    # ------------------------------------------------------------------ jobs

    def seeded_time(self, index: int) -> float:
        """When seeded job ``index`` was published: spread over the last two weeks, in order."""
        rng = random.Random(f"blobfish:{self.seed}:time:{index}")
        spacing = HISTORY_DAYS * DAY_S / SEEDED_JOBS
        return self.anchor_s - (SEEDED_JOBS - index) * spacing + rng.uniform(0, spacing * 0.6)

    def plan(self, index: int, rng: random.Random) -> JobPlan:
        forced = self._forced.get(index)
        if forced is not None:
            return forced
        taskset = rng.choice(TASKSETS)
        small = rng.random() < 0.6
        model = rng.choice(SMALL_MODELS if small else LARGE_MODELS)
        capture = rng.choice(CAPTURES) if small else "none"
        return JobPlan(taskset, model, capture, rng.choice((1, 2, 2, 4)))

    def envelope(self, index: int, published_s: float) -> Json:
        """Job ``index``, published at ``published_s``, as the SDK would send it (nothing masked yet)."""
        rng = random.Random(f"blobfish:{self.seed}:job:{index}")
        plan = self.plan(index, rng)
        small = plan.model in SMALL_MODELS
        max_tokens = rng.choice((256, 512, 1024))
        job_id = f"job_{rng.getrandbits(48):012x}"
        metadata: Json = {"model": plan.model, "max_tokens": max_tokens}
        if plan.taskset.secrets and rng.random() < 0.5:
            metadata["openai_api_key"] = self.secrets["metadata_key"]  # pasted by mistake
        rollouts: list[Json] = []
        traces: list[Json] = []
        weights = SMALL_WEIGHTS if small else LARGE_WEIGHTS
        tasks = plan.taskset.tasks
        for g in range(plan.group):
            for t, task in enumerate(tasks):
                n = g * len(tasks) + t
                outcome = plan.forced if (n == 0 and plan.forced) else rng.choices(OUTCOMES, weights)[0]
                if not task.plan and outcome in ("tool_loop", "advisory"):
                    outcome = "wrong"
                rollout, trace = self._rollout(
                    rng, job_id, n, task, plan, outcome, max_tokens, plan.tool_calls if n == 0 else None, published_s
                )
                rollouts.append(rollout)
                traces.append(trace)
        assert 1 <= len(rollouts) <= MAX_ROLLOUTS
        return shapes.envelope_record(shapes.job_record(job_id, plan.taskset.name, metadata, rollouts), traces)

    # ------------------------------------------------------------------ rollouts

    def _turns(
        self, rng: random.Random, task: Task, outcome: str, max_tokens: int, tool_calls: tuple[int, int] | None
    ) -> list[Turn]:
        plan = list(task.plan)
        if outcome == "tool_loop":
            gives_up = rng.random() < 0.35  # with an empty answer; else it runs into the step limit
            repeats = rng.randint(6, STEP_LIMIT - 3) if gives_up else STEP_LIMIT - 1
            turns = [Turn([plan[0]])] + [Turn([task.loop]) for _ in range(repeats)]
            return turns + [Turn(final="")] if gives_up else turns
        if outcome == "advisory":
            ok, total = tool_calls or self._advisory_counts(rng)
            failed = Call(task.loop.tool, task.loop.args, {"error": "upstream 503, try again"}, ok=False)
            mixed = [plan[i % len(plan)] for i in range(ok - 1)] + [failed] * (total - ok)
            rng.shuffle(mixed)
            mixed.append(plan[-1])  # the last planned call still comes last
            per_turn = max(1, -(-len(mixed) // (STEP_LIMIT - 2)))
            turns = [Turn(mixed[i : i + per_turn]) for i in range(0, len(mixed), per_turn)]
            return turns + [Turn(final=task.final)]
        final = {
            "ok": task.final,
            "wrong": task.wrong,
            "ungraded": task.final,
            "empty": rng.choice(("", "", "\n\n", " ")),
            "truncated": self._truncated(rng, task, max_tokens),
        }[outcome]
        turns = [Turn([c]) for c in plan] + [Turn(final=final)]
        if outcome == "truncated":
            turns[-1].completion_tokens = max_tokens
        return turns

    @staticmethod
    def _advisory_counts(rng: random.Random) -> tuple[int, int]:
        total = rng.randint(8, 40)
        return rng.randint(total // 2, total - 1), total

    @staticmethod
    def _truncated(rng: random.Random, task: Task, max_tokens: int) -> str:
        """A rambling reply of about ``max_tokens`` tokens that never reaches the answer, cut mid-word."""
        parts = ["Let me think about this step by step. First, I will restate the task: " + task.prompt]
        while sum(map(len, parts)) < max_tokens * 4 + 40:
            parts.append(rng.choice(RAMBLE))
        ramble = " ".join(parts)
        mid_word = [
            i for i in range(max_tokens * 4 - 30, max_tokens * 4) if ramble[i - 1].isalpha() and ramble[i].isalpha()
        ]
        return ramble[: rng.choice(mid_word)]

    def _rollout(
        self,
        rng: random.Random,
        job_id: str,
        n: int,
        task: Task,
        plan: JobPlan,
        outcome: str,
        max_tokens: int,
        tool_calls: tuple[int, int] | None,
        published_s: float,
    ) -> tuple[Json, Json]:
        rollout_id = f"{job_id}-r{n:03d}"
        trace_id = f"tr_{rng.getrandbits(40):010x}"
        turns = self._turns(rng, task, outcome, max_tokens, tool_calls)
        graded = outcome != "ungraded"
        grade = self._grade(task, outcome, turns) if graded else None
        records: list[Json] = []
        steps: list[Json] = []
        context = 160 + len(task.prompt) // 4
        clock = published_s - 900 + n * 3
        prompt = self._fill(task.prompt)
        for k, turn in enumerate(turns):
            number = k + 1
            if not turn.completion_tokens:
                text_tokens = len(turn.final) // 4 + 3 if turn.final is not None else 0
                turn.completion_tokens = text_tokens + 18 * len(turn.calls) + rng.randint(4, 30)
            records.append(self._completion(rng, plan.model, number, context, turn.completion_tokens))
            if plan.model in REASONING_MODELS:
                records.append(shapes.thinking_entry(number, f"The user wants: {prompt[:60]}... Next step?"))
            for call in turn.calls:
                clock += rng.uniform(0.2, 3.0)
                records.append(self._tool_record(rng, call, number, plan.taskset.sandbox, clock))
            if turn.final is not None:
                records.append(shapes.final_entry(number, turn.final))
            steps.append(
                shapes.step_record(
                    k,
                    number,
                    prompt,
                    turn.final,
                    grade if k == len(turns) - 1 else None,
                    self._samples(rng, plan, turn.completion_tokens),
                )
            )
            context += turn.completion_tokens + 40 * len(turn.calls)
            prompt = "\n".join(f"[{c.tool}] {self._fill(_text(c.result))}" for c in turn.calls) or "(no new input)"
        if grade is not None:
            records.append(shapes.verify_entry(len(turns), grade))
        return (
            shapes.rollout_record(rollout_id, task.task_id, trace_id, steps, grade),
            shapes.trace_record(trace_id, rollout_id, records),
        )

    def _grade(self, task: Task, outcome: str, turns: Sequence[Turn]) -> Json:
        calls = [c for t in turns for c in t.calls]
        succeeded = sum(c.ok for c in calls)
        final = turns[-1].final
        assertions: list[Json] = []
        for check in task.checks:
            if check == "answer_matches":
                passed = outcome in ("ok", "advisory")
                found = (
                    "it"
                    if passed
                    else "no final answer"
                    if final is None
                    else "an empty answer"
                    if not final.strip()
                    else "no answer in the reply"
                    if outcome == "truncated"
                    else "a different answer"
                )
                details = f"expected {task.answer!r}, found {found}"
            else:
                passed = outcome in ("ok", "advisory", "wrong")
                details = "ok" if passed else "not checked: no usable final answer"
            assertions.append(shapes.assertion_record(check, passed, details))
        failed = [f"{a['name']}: {a['details']}" for a in assertions if not a["passed"]]
        if final is None:
            failed.insert(0, f"no final answer: step limit ({STEP_LIMIT}) reached")
        elif not final.strip():
            failed.insert(0, "final answer is empty")
        advisory = [f"{succeeded}/{len(calls)} tool calls succeeded"] if calls and succeeded < len(calls) else []
        reward = round(sum(a["passed"] for a in assertions) / len(assertions), 4)
        explanation = (
            "all checks passed" if not failed else f"{len(failed)} condition{'s' if len(failed) != 1 else ''} failed"
        )
        return shapes.grade_record(
            task.task_id,
            not failed,
            reward if not failed else min(reward, 0.5),
            explanation,
            assertions,
            failed,
            advisory,
        )

    @staticmethod
    def _completion(rng: random.Random, model: str, turn: int, prompt_tokens: int, completion_tokens: int) -> Json:
        if model in NO_USAGE_MODELS:
            return shapes.completion_entry(turn, model)  # usage not reported: absent, never 0
        reasoning = min(completion_tokens - 1, rng.randint(40, 400)) if model in REASONING_MODELS else None
        return shapes.completion_entry(turn, model, prompt_tokens, completion_tokens, reasoning)

    def _tool_record(self, rng: random.Random, call: Call, turn: int, sandbox: bool, clock: float) -> Json:
        args = self._fill(call.args)
        result = self._fill(call.result)
        if sandbox:
            return shapes.sandbox_tool_entry(
                f"trace_{rng.getrandbits(40):010x}", call.tool, args, result, shapes.iso_utc(clock)
            )
        return shapes.tool_entry(turn, call.tool, args, result)

    @staticmethod
    def _samples(rng: random.Random, plan: JobPlan, tokens: int) -> list[Json] | None:
        if plan.capture == "none":
            return None
        bits = rng.getrandbits
        token_ids = [bits(15) + 3 for _ in range(tokens)]
        logprobs = (
            [round(-0.0005 - rng.expovariate(3.0), 4) for _ in range(tokens)] if "logprobs" in plan.capture else None
        )
        lineage = (
            {"model": plan.model, "checkpoint": "step-1200", "sampler": "local-vllm"}
            if "lineage" in plan.capture
            else None
        )
        return [shapes.training_sample(token_ids, logprobs, lineage)]

    def _fill(self, value: Any) -> Any:
        """Plant the seeded secrets where the task text has ``{secret_...}`` slots."""
        if isinstance(value, str):
            if "{secret_" in value:
                for name, secret in self.secrets.items():
                    value = value.replace("{" + name + "}", secret)
            return value
        if isinstance(value, dict):
            return {k: self._fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._fill(v) for v in value]
        return value


def _text(result: Any) -> str:
    return result if isinstance(result, str) else orjson.dumps(result).decode()
