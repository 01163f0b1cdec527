"""What the community-board screen tests share: the app on Leaderboard with a Blobfish
benchmark client, suite runs made ready on the simulator (its clock is a fake one, moved on
at once), and reading the frame."""

from __future__ import annotations

from typing import Any

import httpx
from rich.segment import Segment
from textual.app import App

from api_client.blobfish.benchmarks import BenchmarkClient
from application.session.context import AppContext
from simulator.blobfish.server import BlobfishServer
from tests.support.bench import SLUG, FakeClock
from tests.support.blobfish import RecordingTransport
from tests.support.settings import settings_with
from tui.app import BlahApp, create_app

__all__ = ["SLUG", "DropFirstDelete", "SuiteMaker", "frame_segments", "frame_text", "make_board_app"]

QUIET = {"logs_interval": 5.0, "logs_max_interval": 30.0}


def make_board_app(
    bf: BlobfishServer,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    key: str | None = None,
    demo: bool = False,
    bench: bool = True,
    **settings: Any,
) -> BlahApp:
    """The app opened on Leaderboard, with no blah.dev client (that tab says it is offline) and
    a Blobfish benchmark client on ``bf`` (``bench=False``: Blobfish not configured)."""
    client = (
        BenchmarkClient(bf.base_url, bf.account_key if key is None else key, transport=transport) if bench else None
    )
    ctx = AppContext(
        model_id="tinystories-chat-1m",
        demo=demo,
        bench=client,
        settings=settings_with(
            QUIET, start_mode="leaderboard", timezone="UTC", persist_theme=False, theme="blah-dark", **settings
        ),
    )
    return create_app(ctx)


class SuiteMaker:
    """Suite runs in the account's scope, made through the real client as the Runs screen would."""

    def __init__(self, bf: BlobfishServer, clock: FakeClock) -> None:
        self.bf = bf
        self.clock = clock

    def client(self) -> BenchmarkClient:
        return BenchmarkClient(self.bf.base_url, self.bf.account_key)

    async def completed(self, *, max_tasks: int = 2, model: str = "grok-4") -> str:
        """A sample suite of ``max_tasks`` tasks, run to completion; its run id."""
        run_id = await self.started(max_tasks=max_tasks, model=model)
        self.clock.now += 10_000  # the simulated tasks are done
        async with self.client() as client:
            record = await client.get_run(SLUG, run_id)
        assert getattr(record, "status", None) == "completed", record
        return run_id

    async def started(self, *, max_tasks: int = 2, model: str = "grok-4") -> str:
        async with self.client() as client:
            started = await client.start_suite(SLUG, provider="xai", model=model, suite="sample", max_tasks=max_tasks)
        return started.record.run_id

    async def single(self) -> str:
        async with self.client() as client:
            return (await client.start_single(SLUG, provider="xai", model="grok-4")).run_id

    async def publish(self, run_id: str, display_name: str | None = None, notes: str | None = None) -> str:
        async with self.client() as client:
            row = await client.submit(SLUG, run_id, display_name=display_name, notes=notes)
        return row.community_run_id

    async def delete(self, community_run_id: str) -> None:
        async with self.client() as client:
            await client.delete(SLUG, community_run_id)

    async def board_ids(self, *, mine: bool = False) -> list[str]:
        async with self.client() as client:
            board = await client.board(SLUG)
        return [row.community_run_id for row in board.community_runs if row.mine or not mine]


class DropFirstDelete(RecordingTransport):
    """The first DELETE reaches the server and is done; its answer is then lost."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "DELETE" and not self.dropped:
            await response.aread()
            await response.aclose()
            self.dropped += 1
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


def frame_segments(app: App[Any]) -> list[Segment]:
    return [segment for strip in app.screen._compositor.render_strips() for segment in strip]


def frame_text(app: App[Any]) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())
