"""`blah-tui serve`: the app in a web browser, through textual-serve.

Each browser tab that connects starts its own `blah-tui` process (``python -m cli ...``) with
the same options. The API key never goes on that command line (which textual-serve prints and
which other users of the machine can read): the child finds it as the parent would (the
environment or the stored key), and a key given with ``--api-key`` is handed down in the
child's environment only.

Anyone who can reach the address can drive the app (and with it the key's rights), so the
default address is loopback and another one is only used with a warning.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shlex
import sys

__all__ = ["child_command", "is_loopback", "serve_main"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def child_command(
    *, demo: bool, model: str | None, base_url: str | None, log_id: str | None, seed: int | None = None,
    speed: float | None = None, python: str | None = None, profile: str | None = None,
) -> str:  # fmt: skip
    """The shell command textual-serve runs for each browser tab (no key in it, ever)."""
    parts: list[str] = [python or sys.executable, "-m", "cli"]
    if demo:
        parts.append("--demo")
        if seed is not None:
            parts += ["--seed", str(seed)]
        if speed is not None:
            parts += ["--speed", repr(float(speed))]
    else:
        if profile:
            parts += ["--profile", profile]
        if base_url:
            parts += ["--base-url", base_url]
        if model:
            parts += ["--model", model]
    if log_id:
        parts += ["--log", log_id]
    return shlex.join(parts)


def serve_main(
    *, host: str, port: int, demo: bool, model: str | None, base_url: str | None, api_key: str | None,
    log_id: str | None, seed: int | None = None, speed: float | None = None, public_url: str | None = None,
    argv_out: list[str] | None = None, profile: str | None = None,
) -> int:  # fmt: skip
    """Serve the app until Ctrl+C. ``argv_out`` (tests) receives the command instead of serving."""
    if not demo:
        from application.session.profiles import ProfileError, resolve_profile

        try:
            chosen = resolve_profile(profile, platform="blah", base_url_flag=base_url, key_flag=api_key)
        except ProfileError as error:
            print(f"blah-tui serve: {error}", file=sys.stderr)
            return 2
        from application.session.config import load_config

        if not (model or chosen.default_model or load_config().config.default_model):
            print("blah-tui serve: no model: pass --model MODEL_ID, --demo, or set default_model", file=sys.stderr)
            return 2
    command = child_command(
        demo=demo, model=model, base_url=base_url, log_id=log_id, seed=seed, speed=speed, profile=profile
    )
    if api_key:
        os.environ["EVALS_BLAH_API_KEY"] = api_key  # inherited by the children, never on their command line
    if not is_loopback(host):
        print(
            f"blah-tui serve: warning: listening on {host}: anyone who can reach it can use the app"
            " (and the API key's rights). Use --host 127.0.0.1 to keep it on this machine.",
            file=sys.stderr,
        )
    if argv_out is not None:
        argv_out.append(command)
        return 0
    from textual_serve.server import Server

    server = Server(command, host=host, port=port, title="blah-tui", public_url=public_url)
    server.serve()
    return 0


def build_parser() -> argparse.ArgumentParser:
    from cli.global_options import CONNECTION, add_global_options
    from cli.parsing import OneLineParser, port_number

    parser = OneLineParser(prog="blah-tui serve", description=(
        "Serve blah-tui to a web browser: open the printed address. Each tab runs its own app "
        "with these options. Anyone who can reach the address can use the app and the API "
        "key's rights, so it listens on 127.0.0.1 unless told otherwise."))
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--public-url", help="the address browsers use, when behind a proxy (default http://HOST:PORT)")
    add_global_options(parser, ("--demo", "--seed", "--speed", "--log", *CONNECTION, "--model"), helps={
        "--demo": "each tab gets its own local simulated blah.dev",
        "--seed": "with --demo: the simulated world's seed",
        "--speed": "with --demo: how fast simulated time runs",
    })
    return parser


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui serve ...` (:mod:`cli.tree`)."""
    from cli.global_options import starting_from

    args = build_parser().parse_args(argv, namespace=starting_from(given))
    raw = getattr(args, "base_url", None)
    if raw is not None:
        from application.session.base_url import base_url_problem, explain_bad_base_url

        problem = base_url_problem(raw)
        if problem:
            print(f"blah-tui: {explain_bad_base_url(raw, problem)}", file=sys.stderr)
            return 2
    return serve_main(
        host=args.host, port=args.port, public_url=args.public_url, demo=getattr(args, "demo", False),
        seed=getattr(args, "seed", None), speed=getattr(args, "speed", None), model=getattr(args, "model", None),
        base_url=raw, api_key=getattr(args, "api_key", None), log_id=getattr(args, "log", None),
        profile=getattr(args, "profile", None),
    )
