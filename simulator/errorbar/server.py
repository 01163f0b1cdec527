"""``ErrorbarServer``: the local eval-run queue in a background thread (uvicorn on loopback).

with ErrorbarServer(seed=7, speed=50) as queue:
    httpx.get(f"{queue.base_url}/v1/evals", headers={"Authorization": f"Bearer {queue.admin_key}"})
"""

from __future__ import annotations

from starlette.types import ASGIApp

from simulator.chaos import ChaosConfig, ChaosState
from simulator.errorbar.app import create_app
from simulator.errorbar.faults import LOSE_ANSWER, Fault, Faults
from simulator.errorbar.runs import RunStore
from simulator.request_log import RequestLog
from simulator.server import PlatformServer


class ErrorbarServer(PlatformServer):
    store: RunStore
    faults: Faults

    def __init__(
        self,
        seed: int = 7,
        speed: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
        chaos: ChaosConfig | None = None,
    ) -> None:
        def build_app(chaos_state: ChaosState, requests: RequestLog) -> ASGIApp:
            self.store = RunStore(seed, speed)
            self.faults = Faults()
            return create_app(self.store, chaos_state, self.faults, requests)

        super().__init__(
            build_app, seed=seed, speed=speed, chaos=chaos, host=host, port=port, thread_name="errorbar-simulator"
        )

    @property
    def admin_key(self) -> str:
        return self.store.keys.admin

    @property
    def member_key(self) -> str:
        return self.store.keys.member

    @property
    def read_key(self) -> str:
        return self.store.keys.read

    # ------------------------------------------------------------------ test hooks

    def finish(self, run_id: str) -> None:
        """The run's simulated time has all passed (it reads DONE on the next request)."""
        self.store.finish(run_id)

    def fail_run(self, run_id: str, message: str = "Generation failed: the provider returned errors.") -> None:
        self.store.fail(run_id, message)

    def set_balance(self, usd: float) -> None:
        """0: screening is refused with 402 and plain runs end in ERROR part-way."""
        self.store.balance_usd = usd

    def clear_traffic(self) -> None:
        """No logged traffic: screening answers 422, other creates 400."""
        self.store.traffic = []

    def lose_next_answer(self, method: str, path: str, times: int = 1) -> None:
        """The next matching request is carried out, then its answer is lost mid-body."""
        self.faults.add(Fault(method.upper(), path, LOSE_ANSWER, "", None, times))

    def fail_next(
        self,
        method: str,
        path: str,
        status: int,
        message: str = "Injected fault.",
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """The next matching request answers ``status`` (``path``: exact, or ``*suffix``)."""
        self.faults.add(Fault(method.upper(), path, str(status), message, retry_after, times))
