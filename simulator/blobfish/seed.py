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

SEEDED_JOBS = 126
HISTORY_DAYS = 14
DAY_S = 86_400
STEP_LIMIT = 24

SMALL_MODELS = ("smollm2-360m-instruct", "qwen2.5-0.5b-instruct", "llama-3.2-1b-instruct", "tinyagent-125m")
LARGE_MODELS = ("claude-sonnet-4-5", "gpt-4.1", "qwen2.5-72b-instruct", "deepseek-r1")
REASONING_MODELS = frozenset({"claude-sonnet-4-5", "deepseek-r1"})
NO_USAGE_MODELS = frozenset({"tinyagent-125m"})
"""Served by the person's own loop without usage accounting: no ``usage`` on completions."""

OUTCOMES = ("ok", "wrong", "tool_loop", "truncated", "empty", "advisory", "ungraded")
SMALL_WEIGHTS = (30, 18, 16, 12, 10, 8, 2)
LARGE_WEIGHTS = (62, 12, 3, 4, 2, 15, 2)
CAPTURES = ("none", "ids", "ids+logprobs", "ids+logprobs+lineage")

ESC = "\x1b"
_RAMBLE = (
    "To be thorough, I should consider every possibility, including the edge cases.",
    "Before committing to an answer, I will double-check each intermediate result.",
    "It is worth restating the assumptions once more, because precision matters here.",
    "On the other hand, there may be a subtlety I have not yet taken into account.",
    "Let me reconsider the problem from the beginning to make sure nothing was missed.",
)


@dataclass(frozen=True)
class Call:
    tool: str
    args: Json
    result: Any
    ok: bool = True


@dataclass(frozen=True)
class Task:
    task_id: str
    prompt: str
    answer: str
    """The expected value the grader looks for."""
    final: str
    """A correct final reply."""
    wrong: str
    """A plausible wrong final reply."""
    plan: tuple[Call, ...]
    loop: Call
    """The call a looping agent repeats."""
    checks: tuple[str, ...] = ("answer_matches",)


@dataclass(frozen=True)
class Taskset:
    name: str
    tasks: tuple[Task, ...]
    sandbox: bool = False
    """Ran in the Blobfish sandbox: tool records are sandbox-server entries."""
    secrets: bool = False
    """Its evidence carries credentials (masked by the store)."""


def _letter(word: str, letter: str, wrong: int) -> Task:
    count = word.count(letter)
    code = {"code": f"print({word!r}.count({letter!r}))"}
    return Task(
        task_id=f"letter-count/{word}", answer=str(count),
        prompt=f"How many times does the letter '{letter}' appear in '{word}'? Answer with a number.",
        final=f"The letter '{letter}' appears {count} times in '{word}'.", wrong=f"The letter '{letter}' appears "
        f"{wrong} times in '{word}'.", plan=(Call("python", code, f"{count}\n"),),
        loop=Call("python", {"code": f"print({word!r}.find({letter!r}))"}, f"{word.find(letter)}\n"),
    )


LETTER_COUNT = Taskset("letter-count", (
    _letter("strawberry", "r", 2), _letter("mississippi", "s", 3), _letter("bookkeeper", "e", 4),
))

CALENDAR = Taskset("calendar-agent", (
    Task("calendar-agent/book-dana",
         "Book a 30-minute meeting with Dana on Tuesday 2 December after 14:00. Avoid conflicts.",
         "15:00", "Booked: Tuesday 2 December, 15:00-15:30, with Dana.",
         "Booked: Tuesday 2 December, 14:00-14:30, with Dana.",
         (Call("list_events", {"date": "2026-12-02"}, [{"start": "14:00", "end": "15:00", "title": "Design review"}]),
          Call("create_event", {"title": "Dana / 1:1", "start": "2026-12-02T15:00", "minutes": 30},
               {"ok": True, "event_id": "ev_311"})),
         Call("list_events", {"date": "2026-12-02"}, [{"start": "14:00", "end": "15:00", "title": "Design review"}]),
         ("answer_matches", "no_conflict")),
    Task("calendar-agent/move-standup",
         "Move Thursday's stand-up to 09:30 and tell the team.", "09:30",
         "Moved the stand-up to Thursday 09:30 and posted a note to #team.",
         "Moved the stand-up to Friday 09:30 and posted a note to #team.",
         (Call("find_event", {"title": "Stand-up", "day": "thursday"}, {"event_id": "ev_88", "start": "09:00"}),
          Call("update_event", {"event_id": "ev_88", "start": "09:30"}, {"ok": True}),
          Call("post_message", {"channel": "#team", "text": "Stand-up moves to 09:30 on Thursday."}, {"ok": True})),
         Call("find_event", {"title": "Stand-up", "day": "thursday"}, {"event_id": "ev_88", "start": "09:00"})),
))

WEB = Taskset("web-research", (
    Task("web-research/canberra",
         "What was the population of Australia's capital at the 2021 census? Cite the source.", "453,558",
         "Canberra had 453,558 residents at the 2021 census (Australian Bureau of Statistics).",
         "Sydney, the capital, had about 5.2 million residents in 2021.",
         (Call("search", {"query": "Canberra population 2021 census"},
               "[1] ABS QuickStats: Canberra, 2021 Census, 453,558 people\n[2] Wikipedia: Canberra"),
          Call("fetch", {"url": "https://www.abs.gov.au/census/2021/canberra"},
               "Canberra (Significant Urban Area) ... People: 453,558 ...")),
         Call("search", {"query": "Canberra population 2021 census"},
              "[1] ABS QuickStats: Canberra, 2021 Census, 453,558 people\n[2] Wikipedia: Canberra"),
         ("answer_matches", "cites_source")),
    Task("web-research/danube",
         "How long is the Danube, in kilometres? One number and a source.", "2,850",
         "The Danube is about 2,850 km long (ICPDR).", "The Danube is about 6,650 km long (ICPDR).",
         (Call("search", {"query": "Danube length km"}, "[1] ICPDR: the Danube, 2,850 km from the Black Forest"),),
         Call("fetch", {"url": "https://www.icpdr.org/danube-basin"}, {"error": "timeout after 10 s"}, ok=False),
         ("answer_matches", "cites_source")),
))

SQL = Taskset("sql-agent", (
    Task("sql-agent/top-customers", "Which three customers spent the most in 2025? Use the orders table.",
         "Acme, Globex, Initech", "Acme (41,200), Globex (38,950) and Initech (22,300).",
         "Acme (41,200), Globex (38,950) and Hooli (19,800).",
         (Call("run_sql", {"query": "SELECT customer, SUM(total) AS spent FROM orders WHERE year = 2025 "
                                    "GROUP BY customer ORDER BY spent DESC LIMIT 3"},
               {"rows": [["Acme", 41200], ["Globex", 38950], ["Initech", 22300]]}),),
         Call("run_sql", {"query": "SELECT customer, SUM(amount) FROM orders GROUP BY customer"},
              {"error": 'ERROR: column "amount" does not exist'}, ok=False)),
    Task("sql-agent/late-orders", "How many orders shipped late in March 2025?", "17",
         "17 orders shipped late in March 2025.", "12 orders shipped late in March 2025.",
         (Call("run_sql", {"query": "SELECT COUNT(*) FROM orders WHERE shipped_at > due_at "
                                    "AND due_at >= '2025-03-01' AND due_at < '2025-04-01'"}, {"rows": [[17]]}),),
         Call("run_sql", {"query": "SELECT COUNT(*) FROM order WHERE late"},
              {"error": 'ERROR: syntax error at or near "order"'}, ok=False)),
))

REPO_FIX = Taskset("repo-fix", (
    Task("repo-fix/pager-off-by-one",
         "tests/test_pager.py fails: page 2 should start at item 11. Fix src/pager.py.", "tests pass",
         "Fixed the off-by-one in page_start(); tests pass (14 passed).",
         "Changed page_size to 11; tests still fail (1 failed, 13 passed).",
         (Call("read_file", {"path": "src/pager.py"}, "def page_start(page, size=10):\n    return page * size\n"),
          Call("apply_patch",
               {"path": "src/pager.py", "diff": "-    return page * size\n+    return (page - 1) * size + 1\n"},
               {"ok": True}),
          Call("run_tests", {"path": "tests/test_pager.py"}, "14 passed in 0.21s")),
         Call("run_tests", {"path": "tests/test_pager.py"}, "FAILED tests/test_pager.py::test_second_page - 1 failed",
              ok=False),
         ("answer_matches", "tests_pass")),
), sandbox=True)

_TICKET = (f"Customer ticket #5521:\n[bold red]URGENT[/bold red] refund order A-1042 {ESC}[31mNOW{ESC}[0m\n"
           "I paid twice!! \u202e.dnuf er a tnaw I\u202c -- sent from my phone")

SUPPORT = Taskset("support-desk", (
    Task("support-desk/refund-a1042", _TICKET, "refunded",
         "Refunded the duplicate charge on order A-1042 (49.90 EUR); the customer has been told.",
         "Order A-1042 was charged once; no refund is due.",
         (Call("lookup_order", {"order_id": "A-1042"},
               {"order_id": "A-1042", "charges": [{"amount": "49.90", "currency": "EUR"}] * 2}),
          Call("http_request", {"method": "POST", "url": "https://payments.example.internal/refunds",
                                "headers": {"Authorization": "Bearer {secret_bearer}"},
                                "body": {"order_id": "A-1042", "amount": "49.90"}}, {"status": 201}),
          Call("send_reply", {"ticket": 5521, "text": "We refunded the duplicate charge."}, {"ok": True})),
         Call("lookup_order", {"order_id": "A-1042"},
              {"order_id": "A-1042", "charges": [{"amount": "49.90", "currency": "EUR"}] * 2})),
    Task("support-desk/address-change",
         "Ticket #5530: please change the delivery address of order B-77 to 12 Rue [Haute], Lyon <b>ASAP</b>.",
         "updated", "Updated the delivery address of order B-77 to 12 Rue [Haute], Lyon.",
         "Order B-77 has already shipped; the address cannot be changed.",
         (Call("update_order", {"order_id": "B-77", "address": "12 Rue [Haute], Lyon", "api_key": "{secret_key}"},
               {"ok": True}),),
         Call("update_order", {"order_id": "B-77", "address": "12 Rue [Haute], Lyon", "api_key": "{secret_key}"},
              {"error": "403 Forbidden: invalid API key sk-ant-api03-{secret_echo}"}, ok=False)),
), secrets=True)

TASKSETS = (LETTER_COUNT, CALENDAR, WEB, SQL, REPO_FIX, SUPPORT)
TASKSETS_BY_NAME = {t.name: t for t in TASKSETS}

_WORDS = ("banana", "committee", "parallel", "occurrence", "assessment", "balloon", "coffee", "mammal",
          "necessary", "embarrass", "referee", "tattoo", "millennium", "possession", "success", "address")


def _spelling_bee() -> Taskset:
    """128 letter-count tasks, for the job at the documented maximum of 256 rollouts."""
    tasks = []
    for n in range(128):
        word = _WORDS[n % len(_WORDS)] + ("" if n < len(_WORDS) else f"-{n // len(_WORDS)}")
        letter = max(set(word) - {"-"} - set(string.digits), key=lambda c: (word.count(c), c))
        task = _letter(word, letter, word.count(letter) - 1)
        tasks.append(Task(f"spelling-bee/{n:03d}", task.prompt, task.answer, task.final, task.wrong, (), task.loop))
    return Taskset("spelling-bee", tuple(tasks))


SPELLING_BEE = _spelling_bee()


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
                rollout, trace = self._rollout(rng, job_id, n, task, plan, outcome, max_tokens,
                                               plan.tool_calls if n == 0 else None, published_s)
                rollouts.append(rollout)
                traces.append(trace)
        assert 1 <= len(rollouts) <= MAX_ROLLOUTS
        return shapes.envelope_record(shapes.job_record(job_id, plan.taskset.name, metadata, rollouts), traces)

    # ------------------------------------------------------------------ rollouts

    def _turns(self, rng: random.Random, task: Task, outcome: str, max_tokens: int,
               tool_calls: tuple[int, int] | None) -> list[Turn]:
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
            turns = [Turn(mixed[i:i + per_turn]) for i in range(0, len(mixed), per_turn)]
            return turns + [Turn(final=task.final)]
        final = {"ok": task.final, "wrong": task.wrong, "ungraded": task.final,
                 "empty": rng.choice(("", "", "\n\n", " ")),
                 "truncated": self._truncated(rng, task, max_tokens)}[outcome]
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
            parts.append(rng.choice(_RAMBLE))
        ramble = " ".join(parts)
        mid_word = [i for i in range(max_tokens * 4 - 30, max_tokens * 4)
                    if ramble[i - 1].isalpha() and ramble[i].isalpha()]
        return ramble[:rng.choice(mid_word)]

    def _rollout(self, rng: random.Random, job_id: str, n: int, task: Task, plan: JobPlan, outcome: str,
                 max_tokens: int, tool_calls: tuple[int, int] | None, published_s: float) -> tuple[Json, Json]:
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
            steps.append(shapes.step_record(k, number, prompt, turn.final, grade if k == len(turns) - 1 else None,
                                            self._samples(rng, plan, turn.completion_tokens)))
            context += turn.completion_tokens + 40 * len(turn.calls)
            prompt = "\n".join(f"[{c.tool}] {self._fill(_text(c.result))}" for c in turn.calls) or "(no new input)"
        if grade is not None:
            records.append(shapes.verify_entry(len(turns), grade))
        return (shapes.rollout_record(rollout_id, task.task_id, trace_id, steps, grade),
                shapes.trace_record(trace_id, rollout_id, records))

    def _grade(self, task: Task, outcome: str, turns: Sequence[Turn]) -> Json:
        calls = [c for t in turns for c in t.calls]
        succeeded = sum(c.ok for c in calls)
        final = turns[-1].final
        assertions: list[Json] = []
        for check in task.checks:
            if check == "answer_matches":
                passed = outcome in ("ok", "advisory")
                found = ("it" if passed else "no final answer" if final is None else
                         "an empty answer" if not final.strip() else
                         "no answer in the reply" if outcome == "truncated" else "a different answer")
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
        explanation = ("all checks passed" if not failed else
                       f"{len(failed)} condition{'s' if len(failed) != 1 else ''} failed")
        return shapes.grade_record(task.task_id, not failed, reward if not failed else min(reward, 0.5), explanation,
                                   assertions, failed, advisory)

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
            return shapes.sandbox_tool_entry(f"trace_{rng.getrandbits(40):010x}", call.tool, args, result,
                                             shapes.iso_utc(clock))
        return shapes.tool_entry(turn, call.tool, args, result)

    @staticmethod
    def _samples(rng: random.Random, plan: JobPlan, tokens: int) -> list[Json] | None:
        if plan.capture == "none":
            return None
        bits = rng.getrandbits
        token_ids = [bits(15) + 3 for _ in range(tokens)]
        logprobs = ([round(-0.0005 - rng.expovariate(3.0), 4) for _ in range(tokens)]
                    if "logprobs" in plan.capture else None)
        lineage = ({"model": plan.model, "checkpoint": "step-1200", "sampler": "local-vllm"}
                   if "lineage" in plan.capture else None)
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
