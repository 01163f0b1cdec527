"""The Blobfish simulator's SDK evaluations over real HTTP (httpx against a running server):
paging while evaluations are published, publish idempotency and every refusal, key scopes,
redaction, and the seeded failures a person debugs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from simulator.blobfish.envelope import MAX_BYTES
from simulator.blobfish.seed import SEEDED_JOBS, STEP_LIMIT, EvidenceFactory
from simulator.blobfish.server import BlobfishServer
from simulator.blobfish.store import EvaluationStore
from simulator.blobfish.tasksets import LARGE_MODELS, SMALL_MODELS
from simulator.chaos import ChaosConfig
from tests.support import sim_http

Json = dict[str, Any]


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as server:
        yield server


def client(server: BlobfishServer, key: str | None) -> httpx.Client:
    headers = {"X-API-Key": key} if key is not None else {}
    return sim_http.Client(base_url=server.base_url + "/api/v1", headers=headers, timeout=10)


@pytest.fixture(scope="module")
def account(bf: BlobfishServer) -> Iterator[httpx.Client]:
    with client(bf, bf.account_key) as c:
        yield c


@pytest.fixture(scope="module")
def isolated(bf: BlobfishServer) -> Iterator[httpx.Client]:
    with client(bf, bf.isolated_key) as c:
        yield c


def read_all(http: httpx.Client, limit: int = 100) -> list[Json]:
    out: list[Json] = []
    offset: int | None = 0
    while offset is not None:
        page = http.get("/evaluations", params={"limit": limit, "offset": offset}).json()
        out += page["evaluations"]
        offset = page["next_offset"]
    return out


@pytest.fixture(scope="module")
def details(bf: BlobfishServer, account: httpx.Client) -> list[Json]:
    """The seeded history (the account's first publications; tests publish more), in full, as
    the detail route serves it."""
    seeded = [e["evaluation_id"] for e in bf.store.account.evaluations[:SEEDED_JOBS]]
    return [account.get(f"/evaluations/{evaluation_id}").json() for evaluation_id in seeded]


def envelope(
    job_id: str,
    rollouts: int = 1,
    status: str = "completed",
    reward: float = 1.0,
    prompt: str = "How many r's are in 'strawberry'?",
) -> Json:
    """A small, valid publication: ``rollouts`` one-step rollouts, each with its trace."""
    traces = [
        {
            "schema": "blobfish.trace.v1",
            "trace_id": f"t{n}",
            "rollout_id": f"r{n}",
            "records": [{"type": "final", "turn": 1, "text": "3"}],
        }
        for n in range(rollouts)
    ]
    rolls = [
        {
            "rollout_id": f"r{n}",
            "task_id": "letter-count/strawberry",
            "reward": reward,
            "trace_id": f"t{n}",
            "steps": [{"index": 0, "turn": 1, "prompt": prompt, "final_answer": "3", "reward": reward}],
        }
        for n in range(rollouts)
    ]
    return {
        "schema": "blobfish.sdk-evaluation.v1",
        "traces": traces,
        "job": {
            "schema": "blobfish.job.v1",
            "job_id": job_id,
            "status": status,
            "taskset": "letter-count",
            "metadata": {"model": "my-model"},
            "rollouts": rolls,
        },
    }


def encoded(data: Json) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def post(http: httpx.Client, body: bytes) -> httpx.Response:
    return http.post("/evaluations", content=body, headers={"Content-Type": "application/json"})


# ---------------------------------------------------------------------------- paging


def test_paging_to_the_end_while_evaluations_are_published(bf: BlobfishServer, account: httpx.Client) -> None:
    """Offset paging over a newest-first list cannot by itself show each evaluation exactly
    once while new ones arrive: every publication at the head shifts the later offsets by one,
    so the last evaluation of a page comes again at the top of the next. None is missed
    (evaluations are never deleted, so an item only moves towards the end). A client must
    therefore de-duplicate by ``evaluation_id``, follow ``next_offset`` until it is null, and
    then read from offset 0 again until it meets an id it holds, to pick up what arrived."""
    at_start = bf.evaluation_ids()
    assert len(at_start) >= 120
    seen: list[str] = []
    published: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = account.get("/evaluations", params={"limit": 25, "offset": offset}).json()
        seen += [s["evaluation_id"] for s in page["evaluations"]]
        offset = page["next_offset"]
        published.append(bf.publish_now()["evaluation_id"])  # a new one at the head, between two pages
    counts = Counter(seen)
    assert set(counts) == set(at_start)  # every one that existed is there, nothing else
    assert sorted(counts.values()) == [1] * (len(at_start) - len(published) + 1) + [2] * (len(published) - 1)
    assert list(dict.fromkeys(seen)) == at_start  # de-duplicated by id: each exactly once, in order
    held = set(seen)
    head = account.get("/evaluations", params={"limit": 50}).json()["evaluations"]
    arrived = [s["evaluation_id"] for s in head[: next(i for i, s in enumerate(head) if s["evaluation_id"] in held)]]
    assert arrived == published[::-1]  # the catch-up read finds exactly what was published meanwhile


def test_page_size_default_clamp_and_end(account: httpx.Client) -> None:
    total = len(read_all(account))
    default = account.get("/evaluations").json()
    assert len(default["evaluations"]) == 50 and default["next_offset"] == 50
    clamped = account.get("/evaluations", params={"limit": 1000, "offset": 10}).json()
    assert len(clamped["evaluations"]) == 100 and clamped["next_offset"] == 110  # follow next_offset, not offset+limit
    last = account.get("/evaluations", params={"limit": 5, "offset": total - 3}).json()
    assert len(last["evaluations"]) == 3 and last["next_offset"] is None and "next_offset" in last
    beyond = account.get("/evaluations", params={"offset": total + 10}).json()
    assert beyond == {"evaluations": [], "next_offset": None}
    for bad in ({"limit": 0}, {"offset": -1}, {"limit": "ten"}):
        r = account.get("/evaluations", params=bad)
        assert r.status_code == 400 and r.json()["error"] == "invalid_request"


def test_summary_detail_and_jsonl_agree(account: httpx.Client) -> None:
    summary = account.get("/evaluations", params={"limit": 1}).json()["evaluations"][0]
    assert set(summary) == {"evaluation_id", "job_id", "created_at", "rollout_count", "mean_reward", "metadata"}
    detail = account.get(f"/evaluations/{summary['evaluation_id']}").json()
    assert {k: v for k, v in detail.items() if k != "envelope"} == summary
    job = detail["envelope"]["job"]
    assert job["job_id"] == summary["job_id"] and len(job["rollouts"]) == summary["rollout_count"]
    jsonl = account.get(f"/evaluations/{summary['evaluation_id']}", params={"format": "jsonl"})
    assert jsonl.status_code == 200 and jsonl.headers["content-type"].startswith("application/x-ndjson")
    lines = jsonl.text.splitlines()
    assert len(lines) == summary["rollout_count"] and jsonl.text.endswith("\n")
    assert [json.loads(line) for line in lines] == detail["envelope"]["traces"]
    assert all(json.loads(line)["schema"] == "blobfish.trace.v1" for line in lines)
    bad = account.get(f"/evaluations/{summary['evaluation_id']}", params={"format": "xml"})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_request"
    missing = account.get("/evaluations/no-such-evaluation")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


# ---------------------------------------------------------------------------- publishing


def test_publish_is_idempotent_on_the_same_bytes_and_refuses_changed_evidence(
    bf: BlobfishServer, isolated: httpx.Client, account: httpx.Client
) -> None:
    data = envelope("job-idempotent", rollouts=2, reward=0.5)
    body = encoded(data)  # serialized once, resent verbatim
    first = post(isolated, body)
    assert first.status_code == 201
    receipt = first.json()
    assert set(receipt) == {"evaluation_id", "job_id", "dashboard_url"} and receipt["job_id"] == "job-idempotent"
    assert receipt["dashboard_url"] == f"{bf.base_url}/evaluations/{receipt['evaluation_id']}"
    again = post(isolated, body)
    assert again.status_code == 200 and again.json() == receipt
    listed = [s["evaluation_id"] for s in read_all(isolated)]
    assert listed.count(receipt["evaluation_id"]) == 1 and listed[0] == receipt["evaluation_id"]

    reserialized = json.dumps(data, indent=2).encode()  # same content, other bytes
    changed = encoded(envelope("job-idempotent", rollouts=2, reward=1.0))
    for other in (reserialized, changed):
        r = post(isolated, other)
        assert r.status_code == 409 and r.json()["error"] == "job_conflict" and r.json()["message"]
    stored = isolated.get(f"/evaluations/{receipt['evaluation_id']}").json()
    assert stored["envelope"] == data and stored["mean_reward"] == 0.5 and stored["rollout_count"] == 2
    assert [s["evaluation_id"] for s in read_all(isolated)] == listed  # the refusals stored nothing

    elsewhere = post(account, body)  # job ids are local: another scope's job is another evaluation
    assert elsewhere.status_code == 201 and elsewhere.json()["evaluation_id"] != receipt["evaluation_id"]


def _too_many() -> bytes:
    return encoded(envelope("job-257", rollouts=257))


def _exactly(size: int, job_id: str) -> bytes:
    """A valid envelope of exactly ``size`` bytes (its prompt padded)."""
    base = encoded(envelope(job_id, prompt=""))
    return encoded(envelope(job_id, prompt="x" * (size - len(base))))


def _trace_missing() -> bytes:
    data = envelope("job-no-trace", rollouts=2)
    data["traces"].pop()
    return encoded(data)


REFUSALS = [
    ("no rollouts", lambda: encoded(envelope("job-empty", rollouts=0)), 400, "invalid_envelope"),
    ("257 rollouts", _too_many, 400, "invalid_envelope"),
    ("job still running", lambda: encoded(envelope("job-running", status="running")), 400, "invalid_envelope"),
    ("job failed", lambda: encoded(envelope("job-failed", status="failed")), 400, "invalid_envelope"),
    (
        "wrong schema",
        lambda: encoded({**envelope("job-schema"), "schema": "blobfish.sdk-evaluation.v2"}),
        400,
        "invalid_envelope",
    ),
    ("not JSON", lambda: b"{not json", 400, "invalid_envelope"),
    ("a JSON list", lambda: b"[]", 400, "invalid_envelope"),
    ("a rollout's trace missing", _trace_missing, 400, "invalid_envelope"),
    ("one byte over 1 MiB", lambda: _exactly(MAX_BYTES + 1, "job-big"), 413, "too_large"),
    ("5 MiB", lambda: _exactly(5 * MAX_BYTES, "job-huge"), 413, "too_large"),
]


@pytest.mark.parametrize(("body", "status", "code"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_publish_refusals(isolated: httpx.Client, body: Any, status: int, code: str) -> None:
    before = read_all(isolated)
    r = post(isolated, body())
    assert r.status_code == status
    assert set(r.json()) == {"error", "message"} and r.json()["error"] == code and r.json()["message"]
    assert read_all(isolated) == before


def test_publish_limits_are_inclusive(isolated: httpx.Client) -> None:
    at_limit = _exactly(MAX_BYTES, "job-1mib")
    assert len(at_limit) == MAX_BYTES
    assert post(isolated, at_limit).status_code == 201
    most = post(isolated, encoded(envelope("job-256", rollouts=256)))
    assert most.status_code == 201
    assert isolated.get(f"/evaluations/{most.json()['evaluation_id']}").json()["rollout_count"] == 256


# ---------------------------------------------------------------------------- keys


def test_every_route_needs_a_bf_key(bf: BlobfishServer) -> None:
    some_id = bf.evaluation_ids()[0]
    with (
        client(bf, None) as anonymous,
        client(bf, "sk-ant-notblobfish0000000") as foreign,
        client(bf, "bf_unknown_000000000000000000") as unknown,
    ):
        for http in (anonymous, foreign, unknown):
            for r in (
                http.get("/evaluations"),
                http.get(f"/evaluations/{some_id}"),
                http.get(f"/evaluations/{some_id}", params={"format": "jsonl"}),
                post(http, encoded(envelope("job-anon"))),
            ):
                assert r.status_code == 401 and r.json()["error"] == "unauthorized"
                assert "notblobfish" not in r.text and "bf_unknown" not in r.text
    bearer = sim_http.get(f"{bf.base_url}/api/v1/evaluations", headers={"Authorization": f"Bearer {bf.account_key}"})
    assert bearer.status_code == 200 and bearer.json()["evaluations"][0]["evaluation_id"] == some_id
    both = sim_http.get(
        f"{bf.base_url}/api/v1/evaluations",
        headers={"X-API-Key": bf.account_key, "Authorization": f"Bearer {bf.isolated_key}"},
    )
    assert both.status_code == 400 and bf.account_key not in both.text and bf.isolated_key not in both.text


def test_an_unverified_email_key_is_isolated(bf: BlobfishServer, isolated: httpx.Client) -> None:
    theirs = bf.evaluation_ids()[0]
    r = isolated.get(f"/evaluations/{theirs}")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert theirs not in {s["evaluation_id"] for s in read_all(isolated)}


def test_the_request_log_notes_a_key_but_never_holds_one(bf: BlobfishServer, account: httpx.Client) -> None:
    bf.requests.clear()
    account.get("/evaluations", params={"limit": 1})
    sim_http.get(f"{bf.base_url}/api/v1/evaluations")
    records = bf.requests.records()
    assert [(r.status, r.authorized) for r in records] == [(200, True), (401, False)]
    assert bf.account_key not in bf.requests.text() and bf.isolated_key not in bf.requests.text()


# ---------------------------------------------------------------------------- redaction

HOSTILE_PROMPT = "[bold red]refund[/bold red] \x1b[2J now \u202eevil\u202c <script>x</script>"


def test_secrets_are_masked_before_storage_and_export(isolated: httpx.Client) -> None:
    secrets = {
        "provider": "sk-ant-api03-" + "A1b2" * 10,
        "bearer": "sk-live-" + "Zz09" * 8,
        "blobfish": "bf_live_" + "0f" * 16,
        "aws": "AKIA" + "ABCDEFGHIJKLMNOP",
        "meta": "anything-at-all-123",
    }
    data = envelope("job-secrets", prompt=f"{HOSTILE_PROMPT} use {secrets['provider']} for the API")
    data["job"]["metadata"]["OPENAI-API-KEY"] = secrets["meta"]
    data["traces"][0]["records"] = [
        {"type": "completion", "turn": 1, "model": "m", "usage": {"prompt_tokens": 12, "completion_tokens": 3}},
        {
            "type": "tool",
            "turn": 1,
            "name": "http_request",
            "args": {
                "url": "https://api.example/x",
                "headers": {"Authorization": f"Bearer {secrets['bearer']}"},
                "api_key": secrets["provider"],
                "eos_token": "<|im_end|>",
            },
            "result": f"echo: key={secrets['blobfish']} aws={secrets['aws']}",
        },
        {"type": "final", "turn": 1, "text": HOSTILE_PROMPT},
    ]
    sample = {"token_ids": [11, 0, 7], "logprobs": [-0.1, -2.5, -0.01]}
    data["job"]["rollouts"][0]["steps"][0]["training_samples"] = [sample]
    body = encoded(data)
    receipt = post(isolated, body).json()
    assert post(isolated, body).json() == receipt  # an identical retry still matches (raw bytes, not stored text)
    detail = isolated.get(f"/evaluations/{receipt['evaluation_id']}")
    jsonl = isolated.get(f"/evaluations/{receipt['evaluation_id']}", params={"format": "jsonl"})
    listing = isolated.get("/evaluations")
    for text in (detail.text, jsonl.text, listing.text):
        assert not [name for name, value in secrets.items() if value in text]
    job = detail.json()["envelope"]["job"]
    assert job["metadata"] == {"model": "my-model", "OPENAI-API-KEY": "[REDACTED]"}
    assert listing.json()["evaluations"][0]["metadata"]["OPENAI-API-KEY"] == "[REDACTED]"
    tool = detail.json()["envelope"]["traces"][0]["records"][1]
    assert tool["args"]["headers"] == {"Authorization": "[REDACTED]"} and tool["args"]["api_key"] == "[REDACTED]"
    assert tool["args"]["eos_token"] == "<|im_end|>" and tool["args"]["url"] == "https://api.example/x"
    assert tool["result"] == "echo: key=[REDACTED] aws=[REDACTED]"
    step = job["rollouts"][0]["steps"][0]
    assert step["prompt"] == f"{HOSTILE_PROMPT} use [REDACTED] for the API"  # untrusted text kept verbatim
    assert step["training_samples"] == [sample]
    assert detail.json()["envelope"]["traces"][0]["records"][0]["usage"] == {
        "prompt_tokens": 12,
        "completion_tokens": 3,
    }


def test_seeded_secrets_never_leave_the_server(bf: BlobfishServer, details: list[Json]) -> None:
    everything = json.dumps(details)
    assert not [name for name, value in bf.store.factory.secrets.items() if value in everything]
    assert everything.count("[REDACTED]") >= 3


# ---------------------------------------------------------------------------- the seeded account


def _tool_key(record: Json) -> tuple[str, str] | None:
    if record.get("type") != "tool":
        return None
    return str(record.get("name", record.get("tool"))), json.dumps(record.get("args"), sort_keys=True)


def _longest_repeat(records: list[Json]) -> int:
    best = run = 0
    previous: tuple[str, str] | None = None
    for key in filter(None, map(_tool_key, records)):
        run = run + 1 if key == previous else 1
        previous = key
        best = max(best, run)
    return best


def test_the_seeded_account_holds_the_failures_people_debug(details: list[Json]) -> None:
    assert len(details) == SEEDED_JOBS >= 120
    models = Counter(d["metadata"]["model"] for d in details)
    assert set(models) & set(SMALL_MODELS) and set(models) & set(LARGE_MODELS)
    found: Counter[str] = Counter()
    for d in details:
        job = d["envelope"]["job"]
        traces = {t["trace_id"]: t for t in d["envelope"]["traces"]}
        assert d["rollout_count"] == len(job["rollouts"]) and 1 <= len(job["rollouts"]) <= 256
        rewards = [r["reward"] for r in job["rollouts"] if "reward" in r]
        assert d["mean_reward"] == (pytest.approx(sum(rewards) / len(rewards)) if rewards else None)
        for rollout in job["rollouts"]:
            records = traces[rollout["trace_id"]]["records"]
            finals = [r["text"] for r in records if r["type"] == "final"]
            completions = [r for r in records if r["type"] == "completion"]
            grade = rollout.get("grade")
            if _longest_repeat(records) >= 5:
                found["tool loop"] += 1
            if grade is not None and not finals and any("step limit" in c for c in grade["failed_conditions"]):
                assert len(completions) == STEP_LIMIT
                found["no final answer"] += 1
            if finals and not finals[-1].strip():
                found["empty final answer"] += 1
                assert grade is None or not grade["passed"]
            last_usage = completions[-1].get("usage") if completions else None
            if (
                finals
                and last_usage
                and last_usage["completion_tokens"] == job["metadata"]["max_tokens"]
                and finals[-1][-1:].isalpha()
            ):
                found["cut at the token limit"] += 1
            if grade is None:
                assert "reward" not in rollout and not [r for r in records if r["type"] == "verify"]
                found["ungraded"] += 1
            elif grade["passed"] and grade["advisory_conditions"]:
                found["passed with advisories"] += 1
                assert grade["failed_conditions"] == []
            elif not grade["passed"]:
                assert grade["failed_conditions"]
            if grade is not None and "62/103 tool calls succeeded" in grade["advisory_conditions"]:
                tools = [r for r in records if r["type"] == "tool"]
                failed = [r for r in tools if isinstance(r["result"], dict) and "error" in r["result"]]
                assert (len(tools), len(failed)) == (103, 41) and grade["passed"]
                found["62/103"] += 1
            if any(r["type"] == "tool" and r.get("id", "").startswith("trace_") and "tool" in r for r in records):
                found["sandbox tool entries"] += 1
            if any(c.get("usage") is None for c in completions):
                found["usage not reported"] += 1
            for step in rollout["steps"]:
                samples = step.get("training_samples")
                if samples is None:
                    found["step without samples"] += 1
                    continue
                for sample in samples:
                    assert sample["token_ids"] and all(lp < 0 for lp in sample.get("logprobs", [-1]))
                    found["token ids and logprobs" if "logprobs" in sample else "token ids only"] += 1
    wanted = (
        "tool loop",
        "no final answer",
        "empty final answer",
        "cut at the token limit",
        "ungraded",
        "passed with advisories",
        "62/103",
        "sandbox tool entries",
        "usage not reported",
        "step without samples",
        "token ids and logprobs",
        "token ids only",
    )
    assert not [name for name in wanted if not found[name]], found


def test_the_seeded_history_is_deterministic() -> None:
    anchor = 1_800_000_000.0
    one, two, other = EvidenceFactory(5, anchor), EvidenceFactory(5, anchor), EvidenceFactory(6, anchor)
    indices = range(0, SEEDED_JOBS, 5)
    assert [one.envelope(i, one.seeded_time(i)) for i in indices] == [
        two.envelope(i, two.seeded_time(i)) for i in indices
    ]
    assert [one.envelope(i, 0)["job"]["job_id"] for i in indices] != [
        other.envelope(i, 0)["job"]["job_id"] for i in indices
    ]
    empty = EvaluationStore(5, anchor, seeded=False)
    assert (empty.account_key, empty.isolated_key) == (
        EvaluationStore(5, anchor, seeded=False).account_key,
        EvaluationStore(5, anchor, seeded=False).isolated_key,
    )
    assert empty.account_key.startswith("bf_") and empty.ids(empty.account) == []


# ---------------------------------------------------------------------------- live, chaos, imports


def test_live_publishes_new_evaluations_at_the_head() -> None:
    with BlobfishServer(seed=9, speed=100.0, live=True) as live, client(live, live.account_key) as http:
        first = http.get("/evaluations", params={"limit": 1}).json()["evaluations"][0]["evaluation_id"]
        deadline = time.monotonic() + 10
        head = [first]
        while first in head[:1] and time.monotonic() < deadline:  # wait for a publication to show
            time.sleep(0.05)  # one every 0.2 s at this speed: no need to hammer the server
            head = [s["evaluation_id"] for s in http.get("/evaluations", params={"limit": 5}).json()["evaluations"]]
        assert head[0] != first and first in head


def test_chaos_applies_to_the_api(bf: BlobfishServer, account: httpx.Client) -> None:
    bf.set_chaos(ChaosConfig(rate_429=1.0, retry_after=3))
    try:
        r = account.get("/evaluations")
        assert r.status_code == 429 and r.headers["Retry-After"] == "3"
    finally:
        bf.set_chaos(None)
    assert account.get("/evaluations").status_code == 200


def test_the_simulator_imports_no_product_package() -> None:
    code = (
        "import sys, simulator.blobfish.server; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'api_client', 'diagnosis', 'tui', 'widgets', "
        "'textual'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
