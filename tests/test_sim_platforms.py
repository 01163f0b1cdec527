"""`blah-tui sim --platform blah|blobfish|errorbar|all`: which simulators start, and what is printed."""

from __future__ import annotations

import io
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout

import httpx

from simulator import cli


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
        answer = httpx.get(f"{url}/api/v1/evaluations", headers={"X-API-Key": key}, timeout=10)
        assert answer.status_code == 200 and answer.json()["evaluations"]


def test_all_starts_blah_and_blobfish_and_says_errorbar_is_not_simulated() -> None:
    with running(["--platform", "all", "--quiet-world"], "not simulated yet") as text:
        assert "errorbar: not simulated yet" in text
        blah = text.split("API base:")[1].split()[0]
        assert httpx.get(blah + "/api/v1/models", timeout=10).status_code == 200
        url, key = blobfish_url_and_key(text)
        assert httpx.get(f"{url}/api/v1/evaluations", headers={"X-API-Key": key}, timeout=10).status_code == 200


def test_errorbar_alone_exits_2_with_a_clear_line() -> None:
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        code = cli.main(["--platform", "errorbar"])
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue() == (
        "blah-tui sim: there is no errorbar simulator yet; --platform blah, blobfish or all run the ones there are\n"
    )


def test_the_default_platform_is_blah() -> None:
    with running(["--quiet-world"], "your model id") as text:
        assert "blah.dev simulator at" in text and "Blobfish" not in text
