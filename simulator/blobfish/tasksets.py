"""The Blobfish simulator's task catalog: the tasksets the seeded agents run, the models that
run them, and how likely each kind of outcome is for a small or a large model. Data only:
``simulator.blobfish.seed`` builds the rollouts from it."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any

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
RAMBLE = (
    "To be thorough, I should consider every possibility, including the edge cases.",
    "Before committing to an answer, I will double-check each intermediate result.",
    "It is worth restating the assumptions once more, because precision matters here.",
    "On the other hand, there may be a subtlety I have not yet taken into account.",
    "Let me reconsider the problem from the beginning to make sure nothing was missed.",
)


@dataclass(frozen=True)
class Call:
    tool: str
    args: dict[str, Any]
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
        task_id=f"letter-count/{word}",
        answer=str(count),
        prompt=f"How many times does the letter '{letter}' appear in '{word}'? Answer with a number.",
        final=f"The letter '{letter}' appears {count} times in '{word}'.",
        wrong=f"The letter '{letter}' appears {wrong} times in '{word}'.",
        plan=(Call("python", code, f"{count}\n"),),
        loop=Call("python", {"code": f"print({word!r}.find({letter!r}))"}, f"{word.find(letter)}\n"),
    )


LETTER_COUNT = Taskset(
    "letter-count",
    (
        _letter("strawberry", "r", 2),
        _letter("mississippi", "s", 3),
        _letter("bookkeeper", "e", 4),
    ),
)

CALENDAR = Taskset(
    "calendar-agent",
    (
        Task(
            "calendar-agent/book-dana",
            "Book a 30-minute meeting with Dana on Tuesday 2 December after 14:00. Avoid conflicts.",
            "15:00",
            "Booked: Tuesday 2 December, 15:00-15:30, with Dana.",
            "Booked: Tuesday 2 December, 14:00-14:30, with Dana.",
            (
                Call(
                    "list_events",
                    {"date": "2026-12-02"},
                    [{"start": "14:00", "end": "15:00", "title": "Design review"}],
                ),
                Call(
                    "create_event",
                    {"title": "Dana / 1:1", "start": "2026-12-02T15:00", "minutes": 30},
                    {"ok": True, "event_id": "ev_311"},
                ),
            ),
            Call("list_events", {"date": "2026-12-02"}, [{"start": "14:00", "end": "15:00", "title": "Design review"}]),
            ("answer_matches", "no_conflict"),
        ),
        Task(
            "calendar-agent/move-standup",
            "Move Thursday's stand-up to 09:30 and tell the team.",
            "09:30",
            "Moved the stand-up to Thursday 09:30 and posted a note to #team.",
            "Moved the stand-up to Friday 09:30 and posted a note to #team.",
            (
                Call("find_event", {"title": "Stand-up", "day": "thursday"}, {"event_id": "ev_88", "start": "09:00"}),
                Call("update_event", {"event_id": "ev_88", "start": "09:30"}, {"ok": True}),
                Call(
                    "post_message", {"channel": "#team", "text": "Stand-up moves to 09:30 on Thursday."}, {"ok": True}
                ),
            ),
            Call("find_event", {"title": "Stand-up", "day": "thursday"}, {"event_id": "ev_88", "start": "09:00"}),
        ),
    ),
)

WEB = Taskset(
    "web-research",
    (
        Task(
            "web-research/canberra",
            "What was the population of Australia's capital at the 2021 census? Cite the source.",
            "453,558",
            "Canberra had 453,558 residents at the 2021 census (Australian Bureau of Statistics).",
            "Sydney, the capital, had about 5.2 million residents in 2021.",
            (
                Call(
                    "search",
                    {"query": "Canberra population 2021 census"},
                    "[1] ABS QuickStats: Canberra, 2021 Census, 453,558 people\n[2] Wikipedia: Canberra",
                ),
                Call(
                    "fetch",
                    {"url": "https://www.abs.gov.au/census/2021/canberra"},
                    "Canberra (Significant Urban Area) ... People: 453,558 ...",
                ),
            ),
            Call(
                "search",
                {"query": "Canberra population 2021 census"},
                "[1] ABS QuickStats: Canberra, 2021 Census, 453,558 people\n[2] Wikipedia: Canberra",
            ),
            ("answer_matches", "cites_source"),
        ),
        Task(
            "web-research/danube",
            "How long is the Danube, in kilometres? One number and a source.",
            "2,850",
            "The Danube is about 2,850 km long (ICPDR).",
            "The Danube is about 6,650 km long (ICPDR).",
            (Call("search", {"query": "Danube length km"}, "[1] ICPDR: the Danube, 2,850 km from the Black Forest"),),
            Call("fetch", {"url": "https://www.icpdr.org/danube-basin"}, {"error": "timeout after 10 s"}, ok=False),
            ("answer_matches", "cites_source"),
        ),
    ),
)

SQL = Taskset(
    "sql-agent",
    (
        Task(
            "sql-agent/top-customers",
            "Which three customers spent the most in 2025? Use the orders table.",
            "Acme, Globex, Initech",
            "Acme (41,200), Globex (38,950) and Initech (22,300).",
            "Acme (41,200), Globex (38,950) and Hooli (19,800).",
            (
                Call(
                    "run_sql",
                    {
                        "query": "SELECT customer, SUM(total) AS spent FROM orders WHERE year = 2025 "
                        "GROUP BY customer ORDER BY spent DESC LIMIT 3"
                    },
                    {"rows": [["Acme", 41200], ["Globex", 38950], ["Initech", 22300]]},
                ),
            ),
            Call(
                "run_sql",
                {"query": "SELECT customer, SUM(amount) FROM orders GROUP BY customer"},
                {"error": 'ERROR: column "amount" does not exist'},
                ok=False,
            ),
        ),
        Task(
            "sql-agent/late-orders",
            "How many orders shipped late in March 2025?",
            "17",
            "17 orders shipped late in March 2025.",
            "12 orders shipped late in March 2025.",
            (
                Call(
                    "run_sql",
                    {
                        "query": "SELECT COUNT(*) FROM orders WHERE shipped_at > due_at "
                        "AND due_at >= '2025-03-01' AND due_at < '2025-04-01'"
                    },
                    {"rows": [[17]]},
                ),
            ),
            Call(
                "run_sql",
                {"query": "SELECT COUNT(*) FROM order WHERE late"},
                {"error": 'ERROR: syntax error at or near "order"'},
                ok=False,
            ),
        ),
    ),
)

REPO_FIX = Taskset(
    "repo-fix",
    (
        Task(
            "repo-fix/pager-off-by-one",
            "tests/test_pager.py fails: page 2 should start at item 11. Fix src/pager.py.",
            "tests pass",
            "Fixed the off-by-one in page_start(); tests pass (14 passed).",
            "Changed page_size to 11; tests still fail (1 failed, 13 passed).",
            (
                Call("read_file", {"path": "src/pager.py"}, "def page_start(page, size=10):\n    return page * size\n"),
                Call(
                    "apply_patch",
                    {"path": "src/pager.py", "diff": "-    return page * size\n+    return (page - 1) * size + 1\n"},
                    {"ok": True},
                ),
                Call("run_tests", {"path": "tests/test_pager.py"}, "14 passed in 0.21s"),
            ),
            Call(
                "run_tests",
                {"path": "tests/test_pager.py"},
                "FAILED tests/test_pager.py::test_second_page - 1 failed",
                ok=False,
            ),
            ("answer_matches", "tests_pass"),
        ),
    ),
    sandbox=True,
)

_TICKET = (
    f"Customer ticket #5521:\n[bold red]URGENT[/bold red] refund order A-1042 {ESC}[31mNOW{ESC}[0m\n"
    "I paid twice!! \u202e.dnuf er a tnaw I\u202c -- sent from my phone"
)

SUPPORT = Taskset(
    "support-desk",
    (
        Task(
            "support-desk/refund-a1042",
            _TICKET,
            "refunded",
            "Refunded the duplicate charge on order A-1042 (49.90 EUR); the customer has been told.",
            "Order A-1042 was charged once; no refund is due.",
            (
                Call(
                    "lookup_order",
                    {"order_id": "A-1042"},
                    {"order_id": "A-1042", "charges": [{"amount": "49.90", "currency": "EUR"}] * 2},
                ),
                Call(
                    "http_request",
                    {
                        "method": "POST",
                        "url": "https://payments.example.internal/refunds",
                        "headers": {"Authorization": "Bearer {secret_bearer}"},
                        "body": {"order_id": "A-1042", "amount": "49.90"},
                    },
                    {"status": 201},
                ),
                Call("send_reply", {"ticket": 5521, "text": "We refunded the duplicate charge."}, {"ok": True}),
            ),
            Call(
                "lookup_order",
                {"order_id": "A-1042"},
                {"order_id": "A-1042", "charges": [{"amount": "49.90", "currency": "EUR"}] * 2},
            ),
        ),
        Task(
            "support-desk/address-change",
            "Ticket #5530: please change the delivery address of order B-77 to 12 Rue [Haute], Lyon <b>ASAP</b>.",
            "updated",
            "Updated the delivery address of order B-77 to 12 Rue [Haute], Lyon.",
            "Order B-77 has already shipped; the address cannot be changed.",
            (
                Call(
                    "update_order",
                    {"order_id": "B-77", "address": "12 Rue [Haute], Lyon", "api_key": "{secret_key}"},
                    {"ok": True},
                ),
            ),
            Call(
                "update_order",
                {"order_id": "B-77", "address": "12 Rue [Haute], Lyon", "api_key": "{secret_key}"},
                {"error": "403 Forbidden: invalid API key sk-ant-api03-{secret_echo}"},
                ok=False,
            ),
        ),
    ),
    secrets=True,
)

TASKSETS = (LETTER_COUNT, CALENDAR, WEB, SQL, REPO_FIX, SUPPORT)
TASKSETS_BY_NAME = {t.name: t for t in TASKSETS}

_WORDS = (
    "banana",
    "committee",
    "parallel",
    "occurrence",
    "assessment",
    "balloon",
    "coffee",
    "mammal",
    "necessary",
    "embarrass",
    "referee",
    "tattoo",
    "millennium",
    "possession",
    "success",
    "address",
)


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
