"""``blah-tui sim [--platform blah|blobfish|errorbar|all]``: run simulators in the foreground
until Ctrl-C, printing each one's URL and demo keys."""

from __future__ import annotations

import argparse
import threading
from typing import NoReturn

from simulator.blobfish.benchmarks import BENCHMARKS as BENCHMARK_SLUGS
from simulator.blobfish.server import BlobfishServer
from simulator.blobfish.shapes import REJECTED_PROVIDER_KEY_MARK
from simulator.chaos import ChaosConfig
from simulator.errorbar.demo import queue_demo_runs
from simulator.errorbar.server import ErrorbarServer
from simulator.server import AppServer, SimulatorServer

PLATFORMS = ("blah", "blobfish", "errorbar", "all")


class _OneLineParser(argparse.ArgumentParser):
    """A wrong command line is one line and exit 2 (as the product's parsers say it)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="blah-tui sim",
        description="Run a local, seeded platform: blah.dev (default), Blobfish, the errorbar eval-run queue, or all.",
    )
    parser.add_argument(
        "--platform",
        choices=PLATFORMS,
        default="blah",
        help="which simulator: blah (default), blobfish, errorbar, or all; "
        "with all and --port N, Blobfish listens on N+1 and errorbar on N+2",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free port)")
    parser.add_argument("--seed", type=int, default=7, help="world seed (default 7)")
    parser.add_argument("--speed", type=float, default=1.0, help="simulated time multiplier (default 1)")
    parser.add_argument(
        "--chaos",
        default=None,
        metavar="SPEC",
        help='faults, e.g. "5xx=0.1,429=0.05,reset=0.02,latency=0.1,latency_s=2"',
    )
    parser.add_argument("--quiet-world", action="store_true", help="no live activity (live=False)")
    parser.add_argument(
        "--empty",
        action="store_true",
        help="errorbar: start with an empty queue (default: the bake-offs `blah-tui --demo` finds, "
        "three finished and one running)",
    )
    parser.add_argument(
        "--bench-die-after",
        type=int,
        default=None,
        metavar="N",
        help="Blobfish: every suite run's runner dies after N tasks (the job reads interrupted)",
    )
    return parser


def main(argv: list[str] | None = None, stop: threading.Event | None = None) -> int:
    """Start the ``--platform``'s simulators, print each one's URL and demo keys (blah.dev: the
    council key and the person's model id), then serve until interrupted (or until ``stop``
    is set, for tests)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 < args.speed < float("inf"):  # nan and inf too
        parser.error(f"--speed {args.speed!r} must be a number above 0")
    try:
        chaos = ChaosConfig.parse(args.chaos) if args.chaos else None
    except ValueError as exc:
        parser.error(str(exc))
    servers: list[AppServer] = []
    try:
        if args.platform in ("blah", "all"):
            blah = SimulatorServer(
                seed=args.seed, speed=args.speed, host=args.host, port=args.port, live=not args.quiet_world, chaos=chaos
            )
            servers.append(blah.start())
            _print_blah(blah)
        if args.platform in ("blobfish", "all"):
            port = args.port + 1 if args.platform == "all" and args.port else args.port
            blobfish = BlobfishServer(
                seed=args.seed, speed=args.speed, host=args.host, port=port, live=not args.quiet_world, chaos=chaos
            )
            blobfish.die_after_tasks(args.bench_die_after)
            servers.append(blobfish.start())
            _print_blobfish(blobfish)
        if args.platform in ("errorbar", "all"):
            port = args.port + 2 if args.platform == "all" and args.port else args.port
            queue = ErrorbarServer(seed=args.seed, speed=args.speed, host=args.host, port=port, chaos=chaos)
            servers.append(queue.start())
            if not args.empty:
                queue_demo_runs(queue)
            _print_errorbar(queue)
    except BaseException:
        for server in reversed(servers):
            server.stop()
        raise
    waiter = stop or threading.Event()
    try:
        while not waiter.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for server in reversed(servers):
            server.stop()
    return 0


def _print_blah(server: SimulatorServer) -> None:
    print(f"blah.dev simulator at {server.base_url}", flush=True)
    print(f"  API base:          {server.base_url}", flush=True)
    print(f"  council demo key:  {server.council_key}", flush=True)
    print(f"  member demo key:   {server.member_key}", flush=True)
    print(f"  your model id:     {server.person_model_id}", flush=True)
    print(f"  OpenAPI spec:      {server.base_url}/api/spec", flush=True)


def _print_blobfish(server: BlobfishServer) -> None:
    print(f"Blobfish simulator at {server.base_url}", flush=True)
    print(f"  base URL:          {server.base_url}   (BLOBFISH_BASE_URL; routes under /api/v1)", flush=True)
    print(f"  account demo key:  {server.account_key}   (BLOBFISH_API_KEY; the seeded evaluations)", flush=True)
    print(f"  isolated demo key: {server.isolated_key}   (an unverified email's key: sees nothing)", flush=True)
    print(
        f"  benchmarks:        {', '.join(BENCHMARK_SLUGS)}   (blah-tui bench; a provider key with "
        f"'{REJECTED_PROVIDER_KEY_MARK}' in it is rejected)",
        flush=True,
    )
    print(f"  OpenAPI spec:      {server.base_url}/api/spec", flush=True)


def _print_errorbar(server: ErrorbarServer) -> None:
    print(f"errorbar eval-run queue simulator at {server.base_url}", flush=True)
    print(f"  base URL:          {server.base_url}   (--base-url; routes under /v1)", flush=True)
    print(f"  admin demo key:    {server.admin_key}   (ERRORBAR_API_KEY; an OWNER/ADMIN: every call)", flush=True)
    print(f"  member demo key:   {server.member_key}   (not an admin: create, cancel, delete answer 403)", flush=True)
    print(f"  read demo key:     {server.read_key}   (the read scope: what CI should use for the gate)", flush=True)
    print(f"  OpenAPI spec:      {server.base_url}/v1/spec", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
