"""Our processes import httpx without its own command-line client (click, pygments, rich's
console, progress and syntax: 40-80 ms of every command's start-up), and httpx's CLI still
works for whoever asks for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CLI_MODULES = ("httpx._main", "click", "pygments", "rich.syntax", "rich.progress")


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_platform_client_loads_httpx_without_its_command_line() -> None:
    loaded = run(
        "import sys, api_client.blobfish.client, api_client.blahdev.client, httpx\n"
        f"print(sorted(m for m in {CLI_MODULES!r} if m in sys.modules))\n"
        "httpx.AsyncClient; httpx.URL('http://127.0.0.1:1/x')"
    )
    assert loaded == "[]"


def test_httpx_command_line_still_imports_on_request() -> None:
    # in a process of ours (an explicit import works once httpx is loaded) ...
    assert run("import api_client.transport.http, httpx._main; print(type(httpx._main.main).__name__)") == "Command"
    # ... and httpx's own entry point, as its installed `httpx` command runs it, is untouched
    done = subprocess.run(
        [sys.executable, "-c", "import httpx, sys; sys.argv = ['httpx', '--help']; httpx.main()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Usage: httpx" in done.stdout


def test_the_httpx_client_is_made_at_its_first_request() -> None:
    """A core whose requests all go elsewhere (BulkGet) never builds httpx's transport nor
    imports httpcore; its first request makes the client and works as before; a closed core
    refuses a request as httpx refuses one on a closed client."""
    out = run(
        "import asyncio, sys\n"
        "from api_client.errors import UnreachableError\n"
        "from api_client.transport.http import HttpCore\n"
        "from api_client.transport.retry import RetryPolicy\n"
        "def core():\n"
        "    return HttpCore('http://127.0.0.1:9', None, transport=None, timeout=1, deadline=2,\n"
        "                    retry=RetryPolicy(max_attempts=1), sleep=asyncio.sleep, limits=None, user_agent='t')\n"
        "async def go():\n"
        "    c = core()\n"
        "    print('httpcore' in sys.modules, c.is_closed)\n"
        "    try:\n"
        "        await c.request_json('GET', '/api/v1/x', lambda d: d)\n"
        "    except UnreachableError:\n"
        "        print('unreachable', 'httpcore' in sys.modules)\n"
        "    await c.aclose()\n"
        "    print(c.is_closed)\n"
        "    unused = core()\n"
        "    await unused.aclose()\n"
        "    try:\n"
        "        await unused.request_json('GET', '/api/v1/x', lambda d: d)\n"
        "    except RuntimeError as e:\n"
        "        print(unused.is_closed, e)\n"
        "asyncio.run(go())\n"
    )
    assert out.splitlines() == [
        "False False",
        "unreachable True",
        "True",
        "True Cannot send a request, as the client has been closed.",
    ]
