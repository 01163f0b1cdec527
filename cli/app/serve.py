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

import ipaddress
import os
import shlex
import sys

from cli.exit_codes import ExitCode

__all__ = ["child_command", "is_loopback", "serve_main"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def child_command(
    *,
    demo: bool,
    model: str | None,
    base_url: str | None,
    log_id: str | None,
    seed: int | None = None,
    speed: float | None = None,
    python: str | None = None,
    profile: str | None = None,
) -> str:
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
    *,
    host: str,
    port: int,
    demo: bool,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    log_id: str | None,
    seed: int | None = None,
    speed: float | None = None,
    public_url: str | None = None,
    argv_out: list[str] | None = None,
    profile: str | None = None,
) -> int:
    """Serve the app until Ctrl+C. ``argv_out`` (tests) receives the command instead of serving."""
    if not demo:
        from application.session.profiles.resolve import ProfileError, resolve_profile

        try:
            chosen = resolve_profile(profile, platform="blah", base_url_flag=base_url, key_flag=api_key)
        except ProfileError as error:
            print(f"blah-tui serve: {error}", file=sys.stderr)
            return ExitCode.USAGE
        from application.session.settings.config import load_config

        if not (model or chosen.default_model or load_config().config.default_model):
            print("blah-tui serve: no model: pass --model MODEL_ID, --demo, or set default_model", file=sys.stderr)
            return ExitCode.USAGE
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
        return ExitCode.OK
    from textual_serve.server import Server

    server = Server(command, host=host, port=port, title="blah-tui", public_url=public_url)
    server.serve()
    return ExitCode.OK
