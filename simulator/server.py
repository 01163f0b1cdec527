"""``SimulatorServer``: the local blah.dev in a background thread (uvicorn on loopback).

    with SimulatorServer(seed=7, live=False) as sim:
        httpx.get(f"{sim.base_url}/api/v1/models")

``AppServer`` is the generic part (any ASGI app, same lifecycle); other simulated platforms
(``simulator.blobfish``) run on it too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Self

import uvicorn
from starlette.types import ASGIApp

from simulator.blahdev.app import create_app
from simulator.blahdev.jobs import Jobs
from simulator.blahdev.snapshot import seeded_world
from simulator.blahdev.world import World
from simulator.chaos import ChaosConfig, ChaosState, quiet_resets
from simulator.request_log import RequestLog

START_TIMEOUT_S = 20.0
KEEP_ALIVE_S = 30


class AppServer:
    """Serve one ASGI app with uvicorn in a background thread: ``start()``/``stop()``, or
    ``with``; ``base_url`` once started (``port=0`` picks a free port)."""

    def __init__(
        self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0, thread_name: str = "blah-simulator"
    ) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._thread_name = thread_name
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._base_url: str | None = None

    @property
    def base_url(self) -> str:
        if self._base_url is None:
            raise RuntimeError("the simulator is not running; call start() first")
        return self._base_url

    def start(self) -> Self:
        """Serve in a background thread; returns once the socket accepts connections."""
        if self._thread is not None:
            raise RuntimeError("already started")
        quiet_resets()
        # Idle keep-alive connections are kept longer than a client keeps them (httpx drops its
        # own after 5 s): with uvicorn's default of 5 s both ends close at once, and a write sent
        # on a connection the server is closing breaks, its outcome unknown. Real servers keep
        # idle connections for tens of seconds (nginx: 75 s).
        config = uvicorn.Config(
            self.app,
            host=self.host,
            port=self.port,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=2,
            timeout_keep_alive=KEEP_ALIVE_S,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name=self._thread_name, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the simulator failed to start on {self.host}:{self.port}")
            time.sleep(0.005)
        sockname = self._server.servers[0].sockets[0].getsockname()
        host = f"[{sockname[0]}]" if ":" in sockname[0] else sockname[0]
        self.port = sockname[1]
        self._base_url = f"http://{host}:{self.port}"
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._thread = None
        self._server = None
        self._base_url = None

    def __enter__(self) -> Self:
        if self._thread is None:
            self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class PlatformServer(AppServer):
    """A simulated platform served by :class:`AppServer`: its seed, its speed (above 0), the
    chaos it injects (settable while it runs) and the log of every request it answered.
    ``build_app`` makes the platform's app (and what it holds) once the speed is known good."""

    def __init__(
        self,
        build_app: Callable[[ChaosState, RequestLog], ASGIApp],
        *,
        seed: int,
        speed: float,
        chaos: ChaosConfig | None,
        host: str,
        port: int,
        thread_name: str,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.seed = seed
        self.speed = speed
        self._chaos = ChaosState(chaos)
        self.requests = RequestLog()
        """Every request answered (method, path, query, status; whether a key was sent, never which)."""
        super().__init__(build_app(self._chaos, self.requests), host, port, thread_name=thread_name)

    @property
    def chaos(self) -> ChaosConfig | None:
        return self._chaos.config

    @chaos.setter
    def chaos(self, config: ChaosConfig | None) -> None:
        self._chaos.set(config)

    def set_chaos(self, config: ChaosConfig | None) -> None:
        self._chaos.set(config)

    def chaos_counts(self) -> dict[str, int]:
        """Faults injected so far, by kind (``5xx``, ``429``, ``latency``, ``reset``, ...)."""
        return self._chaos.counts()


class SimulatorServer(PlatformServer):
    world: World
    _jobs: Jobs

    def __init__(
        self,
        seed: int = 7,
        speed: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
        live: bool = True,
        chaos: ChaosConfig | None = None,
    ) -> None:
        self.live = live

        def build_app(chaos_state: ChaosState, requests: RequestLog) -> ASGIApp:
            self.world = seeded_world(seed)
            self._jobs = Jobs(self.world, speed, live)
            return create_app(self.world, self._jobs, chaos_state, requests)

        super().__init__(
            build_app, seed=seed, speed=speed, chaos=chaos, host=host, port=port, thread_name="blah-simulator"
        )

    # ------------------------------------------------------------------ identity

    @property
    def council_key(self) -> str:
        return self.world.council_key

    @property
    def member_key(self) -> str:
        return self.world.member_key

    @property
    def person_model_id(self) -> str:
        return self.world.person_model_id

    @property
    def peer_model_ids(self) -> list[str]:
        return self.world.peer_model_ids

    # ------------------------------------------------------------------ freezing

    def freeze(self, timeout: float = 10.0) -> int:
        """Stop every background activity (live traffic, runs in progress, games, chatroom
        replies) so that from now on the world changes only through API writes. For tests
        that compare what a client saw with the world once the dust has settled. Returns how
        many background tasks were stopped. A run that was in progress stays as it was."""
        loop = self._jobs.loop
        if loop is None or loop.is_closed():
            return 0
        return asyncio.run_coroutine_threadsafe(self._jobs.cancel_all(), loop).result(timeout)
