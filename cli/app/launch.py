"""Build the session and run the app: on the real platform, on the demo simulator, or
offline on a saved dump."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from application.session.context import AppContext
from application.session.settings.config import LoadedConfig, load_config
from cli.exit_codes import ExitCode
from common.constants import DEFAULT_BASE_URL

if TYPE_CHECKING:
    from application.session.profiles.resolve import ResolvedProfile
    from tui.app import BlahApp


def _fail(message: str) -> int:
    print(f"blah-tui: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _run(ctx: AppContext) -> int:
    """Build and run the app; a crash inside it (already printed by Textual) makes a non-zero
    exit. Textual and the screens are imported here, not at module top, so building the
    session (and failing early on a bad flag) does not wait for them."""
    from tui.app import create_app

    app: BlahApp = create_app(ctx)
    app.run()
    return app.return_code or 0


def attach_blobfish(ctx: AppContext, base_url: str | None, api_key: str | None) -> AppContext:
    """The one place the session gets its Blobfish client (the Evaluations area): with a key,
    from the demo simulator or ``$BLOBFISH_API_KEY``. A key of the wrong shape is said in the
    app, never shown."""
    if not api_key:
        return ctx
    from api_client.blobfish.benchmarks import BenchmarkClient
    from application.evaluations.source import ClientSource

    try:
        # One client serves both areas: benchmark runs extend the evaluations client.
        client = BenchmarkClient(base_url, api_key=api_key) if base_url else BenchmarkClient(api_key=api_key)
        ctx.blobfish = ClientSource(client)
        ctx.bench = client
    except ValueError as error:  # KeyShapeError and a refused base URL are ValueErrors
        ctx.blobfish_problem = f"Blobfish not connected: {error}"
    return ctx


def attach_errorbar(
    ctx: AppContext, base_url: str | None, api_key: str | None, key_source: str | None = None
) -> AppContext:
    """The one place the session gets its errorbar client (Compare's bake-offs): with an
    address and a key, from the demo simulator, a profile or ``$ERRORBAR_API_KEY``. A key of
    the wrong shape is said in the app, never shown."""
    if not api_key or not base_url:
        return ctx
    from api_client.errorbar.client import ErrorbarClient

    try:
        ctx.errorbar = ErrorbarClient(base_url, api_key=api_key, key_source=key_source)
    except ValueError as error:  # KeyShapeError and a refused base URL are ValueErrors
        ctx.errorbar_problem = f"errorbar not connected: {error}"
    return ctx


def _attach_configured_errorbar(ctx: AppContext) -> AppContext:
    """The errorbar profile's client (key: ``$ERRORBAR_API_KEY``, else the stored one), when
    one is configured; none configured is not a problem (the bake-off view says so)."""
    from application.session.profiles.resolve import ProfileError, resolve_profile

    try:
        resolved = resolve_profile(None, platform="errorbar")
    except ProfileError as error:
        if os.environ.get("ERRORBAR_API_KEY"):
            ctx.errorbar_problem = f"errorbar not connected: {error}"
        return ctx
    if not resolved.api_key:
        ctx.errorbar_problem = (
            f"errorbar not connected: profile {resolved.name!r} has no key (set $ERRORBAR_API_KEY "
            f"or run blah-tui login --profile {resolved.name})"
        )
        return ctx
    source = f"the key of profile {resolved.name!r}, from {resolved.key_source_text}"
    return attach_errorbar(ctx, resolved.origin, resolved.api_key, source)


def apply_config(ctx: AppContext, loaded: LoadedConfig) -> AppContext:
    """Copy the person's settings into the session."""
    config = loaded.config
    ctx.settings = ctx.settings.with_config(config)
    ctx.config_problem = loaded.problem
    if ctx.trained_template is None:
        ctx.trained_template = config.templates.get(ctx.model_id)
    return ctx


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def run_profile(profile: ResolvedProfile, *, model_id: str | None, log_id: str | None) -> int:
    """The app on a resolved profile (``application.session.profiles.resolve_profile``)."""
    if profile.platform == "blobfish":
        return run_blobfish(profile)
    if profile.platform != "blah":
        return _fail(
            f"profile {profile.name!r} is {_a(profile.spec.title)} profile; the app opens blah.dev profiles "
            "for now (pass --profile NAME of a blah.dev profile)"
        )
    return run_online(
        base_url=profile.origin,
        api_key=profile.api_key,
        key_source=profile.key_source,
        model_id=model_id or profile.default_model,
        log_id=log_id,
        key_problem=profile.key_problem,
        profile_label=profile.label,
    )


def run_blobfish(profile: ResolvedProfile) -> int:
    """The app on a Blobfish profile: it opens on Evaluations; the blah.dev areas are there,
    offline (each says it needs the platform)."""
    loaded = load_config()
    ctx = AppContext(
        model_id="",
        client=None,
        platform="Blobfish",
        base_url=profile.origin,
        key_source=profile.key_source,
        profile=profile.label,
    )
    ctx = apply_config(ctx, loaded)
    ctx.settings.start_mode = "evaluations"
    if not profile.has_key:
        return _fail(
            f"profile {profile.name!r} has no key: set $BLOBFISH_API_KEY or run blah-tui login --profile {profile.name}"
        )
    ctx = attach_blobfish(ctx, profile.origin, profile.api_key)
    if ctx.blobfish is None:
        return _fail(ctx.blobfish_problem or "Blobfish not connected")
    return _run(ctx)


def run_online(
    *,
    base_url: str | None,
    api_key: str | None,
    key_source: str,
    model_id: str | None,
    log_id: str | None,
    key_problem: str | None = None,
    profile_label: str = "",
) -> int:
    loaded = load_config()
    model_id = model_id or loaded.config.default_model
    base_url = base_url or loaded.config.base_url or DEFAULT_BASE_URL
    if not model_id:
        return _fail(
            "no model: pass --model MODEL_ID, or set default_model (blah-tui config set default_model ID); "
            "to try the app on a local simulated platform first, run blah-tui --demo"
        )
    from application.session.base_url import base_url_problem, explain_bad_base_url

    problem = base_url_problem(base_url)
    if problem:  # --base-url was checked by the CLI: this one comes from the config or BLAH_BASE_URL
        return _fail(explain_bad_base_url(base_url, problem, option="base_url (config file or BLAH_BASE_URL)"))
    from api_client.blahdev.client import BlahClient

    try:
        client = BlahClient(base_url, api_key=api_key)
    except ValueError as error:  # e.g. a key that would go out in clear text
        return _fail(str(error))
    ctx = AppContext(
        model_id=model_id,
        client=client,
        base_url=base_url,
        key_source=key_source,
        open_log_id=log_id,
        profile=profile_label,
    )
    ctx = apply_config(ctx, loaded)
    from application.session.profiles.resolve import ProfileError
    from cli.blobfish.command import resolve_connection

    try:
        blobfish = resolve_connection(None)
    except ProfileError as error:  # e.g. two Blobfish profiles and none named: the app still opens
        ctx.blobfish_problem = f"Blobfish not connected: {error}"
    else:
        ctx = attach_blobfish(ctx, blobfish.base_url, blobfish.api_key)
    ctx = _attach_configured_errorbar(ctx)
    if key_problem:
        ctx.key_problem = key_problem  # said in the app: stderr is hidden once it starts
    return _run(ctx)


def run_demo(*, seed: int, speed: float, log_id: str | None) -> int:
    from api_client.blahdev.client import BlahClient
    from simulator.blobfish.benchmarks import BENCHMARKS as DEMO_BENCHMARKS
    from simulator.blobfish.server import BlobfishServer
    from simulator.errorbar.demo import queue_demo_runs
    from simulator.errorbar.server import ErrorbarServer
    from simulator.server import SimulatorServer

    print("Starting the local blah.dev, Blobfish and errorbar simulators…", file=sys.stderr)
    server = SimulatorServer(seed=seed, speed=speed, live=True)
    server.start()
    blobfish = BlobfishServer(seed=seed, speed=speed, live=True)
    blobfish.start()
    errorbar = ErrorbarServer(seed=seed, speed=speed)
    errorbar.start()
    try:
        queue_demo_runs(errorbar)
        client = BlahClient(server.base_url, api_key=server.council_key)
        ctx = AppContext(
            model_id=server.person_model_id,
            client=client,
            platform="blah.dev (demo simulator)",
            base_url=server.base_url,
            demo=True,
            key_source="demo",
            open_log_id=log_id,
        )
        ctx = attach_blobfish(ctx, blobfish.base_url, blobfish.account_key)
        ctx.bench_slugs = tuple(DEMO_BENCHMARKS)  # the demo's benchmarks, listed in Runs without typing
        # The demo's person owns its workspace: an OWNER/ADMIN key, so screening and bake-offs can be queued.
        ctx = attach_errorbar(ctx, errorbar.base_url, errorbar.admin_key, "the demo simulator's admin key")
        return _run(apply_config(ctx, load_config()))
    finally:
        errorbar.stop()
        blobfish.stop()
        server.stop()


def run_offline(path: str, *, model_id: str | None) -> int:
    from cli.app.open_file import NotADumpError, load_dump

    file = Path(path)
    if file.is_dir():
        return _fail(
            f"{path} is a directory: open takes a file (a JSONL dump of calls or rollouts, or an evidence bundle)"
        )
    if not file.is_file():
        return _fail(f"no such file: {path}")
    from application.bakeoffs.verify import looks_like_bundle

    if looks_like_bundle(file):
        return run_bundle(file)
    try:
        archive = load_dump(file)
    except NotADumpError as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read {path}: {error.strerror or error}")
    ctx = AppContext(
        model_id=model_id or archive.model_id or file.stem,
        client=None,
        platform=f"offline: {file.name}",
        archive=archive,
        offline_source=file,
    )
    return _run(apply_config(ctx, load_config()))


def run_bundle(file: Path) -> int:
    """`blah-tui open BUNDLE.json`: the app on an evidence bundle, re-checked offline (no
    platform, no calls: an empty archive under the areas)."""
    import json

    from api_client.archives.archive import Archive

    run = json.loads(file.read_text(encoding="utf-8")).get("run") or {}
    models = [str(m) for m in run.get("candidate_models") or [] if isinstance(m, str)]
    archive = Archive.create_temporary(prefix="blah-tui-bundle-")
    ctx = AppContext(
        model_id=", ".join(models) or file.stem,
        client=None,
        platform=f"offline: {file.name}",
        archive=archive,
        open_bundle=file,
    )
    try:
        return _run(apply_config(ctx, load_config()))
    finally:
        archive.close()


DEMO_SEED, DEMO_SPEED = 7, 1.0


def run_app(args: argparse.Namespace) -> int:
    """`blah-tui` with no command: the app on the demo platforms or on a profile's platform
    (:mod:`cli.main` has checked ``--base-url``)."""
    raw = getattr(args, "base_url", None)
    if getattr(args, "demo", False):
        seed, speed = getattr(args, "seed", None), getattr(args, "speed", None)
        return run_demo(
            seed=DEMO_SEED if seed is None else seed,
            speed=DEMO_SPEED if speed is None else speed,
            log_id=getattr(args, "log", None),
        )
    from application.session.profiles.resolve import ProfileError, resolve_profile

    try:
        profile = resolve_profile(
            getattr(args, "profile", None), base_url_flag=raw, key_flag=getattr(args, "api_key", None)
        )
    except ProfileError as error:
        return _fail(str(error))
    return run_profile(profile, model_id=getattr(args, "model", None), log_id=getattr(args, "log", None))
