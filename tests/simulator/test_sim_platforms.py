"""`blah-tui sim --platform blah|blobfish|errorbar|all`: which simulators start, and what is printed."""

from __future__ import annotations

import io
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout

from simulator import cli
from simulator.errorbar.demo import DEMO_RUNS
from tests.support import sim_http


@contextmanager
def running(argv: list[str], printed: str) -> Iterator[str]:
    """The sim CLI running in a thread; yields its stdout once ``printed`` is on it, stops it
    at the end and checks it exited 0."""
    stop = threading.Event()
    out = io.StringIO()
    done: list[int] = []

    def run() -> None:
        with redirect_stdout(out):
            done.append(cli.main(argv, stop=stop))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while printed not in out.getvalue() and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert printed in out.getvalue(), out.getvalue()
        yield out.getvalue()
    finally:
        stop.set()
        thread.join(timeout=15)
    assert done == [0]


def blobfish_url_and_key(text: str) -> tuple[str, str]:
    url = re.search(r"Blobfish simulator at (\S+)", text)
    key = re.search(r"account demo key:\s+(bf_\S+)", text)
    assert url and key, text
    return url.group(1), key.group(1)


def test_blobfish_alone_prints_its_url_and_keys_and_serves() -> None:
    with running(["--platform", "blobfish", "--quiet-world", "--seed", "4"], "OpenAPI spec") as text:
        url, key = blobfish_url_and_key(text)
        assert "isolated demo key: bf_unverified_" in text and "blah.dev" not in text
        answer = sim_http.get(f"{url}/api/v1/evaluations", headers={"X-API-Key": key}, timeout=10)
        assert answer.status_code == 200 and answer.json()["evaluations"]


def errorbar_url_and_key(text: str) -> tuple[str, str]:
    url = re.search(r"errorbar eval-run queue simulator at (\S+)", text)
    key = re.search(r"admin demo key:\s+(sk_\S+)", text)
    assert url and key, text
    return url.group(1), key.group(1)


def test_all_starts_blah_blobfish_and_errorbar() -> None:
    with running(["--platform", "all", "--quiet-world"], "/v1/spec") as text:
        blah = text.split("API base:")[1].split()[0]
        assert sim_http.get(blah + "/api/v1/models", timeout=10).status_code == 200
        url, key = blobfish_url_and_key(text)
        assert sim_http.get(f"{url}/api/v1/evaluations", headers={"X-API-Key": key}, timeout=10).status_code == 200
        queue, admin = errorbar_url_and_key(text)
        answer = sim_http.get(f"{queue}/v1/evals", headers={"Authorization": f"Bearer {admin}"}, timeout=10)
        assert answer.status_code == 200
        names = sorted(run["name"] for run in answer.json()["data"])
        assert names == sorted(body["name"] for body, _ in DEMO_RUNS)  # the queue --demo finds
        statuses = sorted(run["status"] for run in answer.json()["data"])
        assert statuses.count("DONE") == 3 and len(statuses) == 4


def test_empty_starts_an_empty_queue() -> None:
    with running(["--platform", "errorbar", "--empty"], "OpenAPI spec") as text:
        queue, admin = errorbar_url_and_key(text)
        answer = sim_http.get(f"{queue}/v1/evals", headers={"Authorization": f"Bearer {admin}"}, timeout=10)
        assert answer.status_code == 200 and answer.json() == {"object": "list", "data": []}


def test_errorbar_alone_serves_the_queue_and_prints_its_three_keys() -> None:
    with running(["--platform", "errorbar", "--seed", "3"], "OpenAPI spec") as text:
        assert "blah.dev" not in text and "Blobfish" not in text
        assert "member demo key:   sk_sovereign_member_" in text and "read demo key:     sk_sovereign_read_" in text
        queue, admin = errorbar_url_and_key(text)
        criteria = sim_http.get(f"{queue}/v1/criteria", headers={"Authorization": f"Bearer {admin}"}, timeout=10)
        assert criteria.status_code == 200 and criteria.json()["data"]
        assert sim_http.get(f"{queue}/v1/evals", timeout=10).status_code == 401


def test_the_default_platform_is_blah() -> None:
    with running(["--quiet-world"], "your model id") as text:
        assert "blah.dev simulator at" in text and "Blobfish" not in text
