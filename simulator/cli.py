"""``blah-tui sim``: run the simulator in the foreground until Ctrl-C."""

from __future__ import annotations

import argparse
import threading

from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blah-tui sim", description="Run a local, seeded blah.dev.")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free port)")
    parser.add_argument("--seed", type=int, default=7, help="world seed (default 7)")
    parser.add_argument("--speed", type=float, default=1.0, help="simulated time multiplier (default 1)")
    parser.add_argument("--chaos", default=None, metavar="SPEC",
                        help='faults, e.g. "5xx=0.1,429=0.05,reset=0.02,latency=0.1,latency_s=2"')
    parser.add_argument("--quiet-world", action="store_true", help="no live activity (live=False)")
    return parser


def main(argv: list[str] | None = None, stop: threading.Event | None = None) -> int:
    """Start, print the base URL, the council demo key and the person's model id, then
    serve until interrupted (or until ``stop`` is set, for tests)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.speed <= 0:
        parser.error("--speed must be positive")
    try:
        chaos = ChaosConfig.parse(args.chaos) if args.chaos else None
    except ValueError as exc:
        parser.error(str(exc))
    server = SimulatorServer(seed=args.seed, speed=args.speed, host=args.host, port=args.port,
                             live=not args.quiet_world, chaos=chaos)
    server.start()
    print(f"blah.dev simulator at {server.base_url}", flush=True)
    print(f"  API base:          {server.base_url}", flush=True)
    print(f"  council demo key:  {server.council_key}", flush=True)
    print(f"  member demo key:   {server.member_key}", flush=True)
    print(f"  your model id:     {server.person_model_id}", flush=True)
    print(f"  OpenAPI spec:      {server.base_url}/api/spec", flush=True)
    waiter = stop or threading.Event()
    try:
        while not waiter.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
