"""Publishing and exporting from the Evaluations list as a person does it, against the Blobfish
simulator over real HTTP: ``P`` on an evaluation asks (naming the job and what it holds),
sends once and says the answer on the screen; a refusal, a lost answer and a job that is not
completed are each one sentence. ``space`` marks evaluations, ``x`` exports the marked ones as
one file whose receipt (records, bytes, SHA-256) is the file's own, the same as the CLI's for the
same ids; more than 50 marked is refused, naming the limit."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.app import App

from api_client.blobfish import BlobfishClient
from application.evaluations.source import ClientSource
from application.session.context import AppContext
from cli.main import main as cli_main
from simulator.blobfish.envelope import Envelope, encode
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import RecordingTransport, envelope
from tests.support.hostile_payloads import HOSTILE
from tests.support.quick_keys import press_quickly
from tests.support.waiting import wait_for
from tests.tui.evaluations.test_evaluations_screens import assert_frame_inert
from tui.app import BlahApp, create_app
from tui.screens.evaluations import marking
from tui.screens.evaluations.screen import EvaluationsScreen
from widgets.caption import Caption
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as running:
        yield running


@pytest.fixture
def bf(server: BlobfishServer) -> BlobfishServer:
    """The module's server as a fresh one is to these tests: the isolated key's scope (all they
    publish into and read) empty, no request logged. One server for the file: building its
    seeded store costs ~0.35 s of CPU."""
    isolated = server.store.isolated
    with server.store.lock:
        isolated.evaluations.clear()
        isolated.by_id.clear()
        isolated.by_job.clear()
    server.requests.clear()
    return server


@pytest.fixture
def exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(marking, "exports_dir", lambda: tmp_path)
    return tmp_path / "exports"


def publish_jobs(bf: BlobfishServer, *jobs: dict[str, Any]) -> list[str]:
    """Publish ``jobs`` (as an SDK sends them) under the isolated key's scope, which holds nothing
    else; their evaluation ids, newest first (the list's order)."""
    ids = [bf.store.publish(bf.store.isolated, encode(job))[0]["evaluation_id"] for job in jobs]
    return ids[::-1]


def make_app(bf: BlobfishServer, key: str | None = None, transport: httpx.AsyncBaseTransport | None = None) -> BlahApp:
    client = BlobfishClient(bf.base_url, key or bf.isolated_key, transport=transport, max_attempts=1)
    ctx = AppContext(
        model_id="m",
        blobfish=ClientSource(client),
        settings={"start_mode": "evaluations", "timezone": "UTC", "persist_theme": False},
    )
    return create_app(ctx)


def listing(app: App[Any]) -> EvaluationsScreen:
    screen = app.screen
    assert isinstance(screen, EvaluationsScreen)
    return screen


def read(app: App[Any]) -> bool:
    screen = app.screen
    return isinstance(screen, EvaluationsScreen) and screen.loaded and screen.diagnosed == len(screen.rows) > 0


def outcome(app: App[Any]) -> str:
    caption = listing(app).query_one("#ev-outcome", Caption)
    return str(caption.render()) if caption.display else ""


def dialog_text(app: App[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


# ---------------------------------------------------------------------------- P: publish


async def test_P_asks_naming_the_job_then_sends_once_and_shows_the_evaluation(bf: BlobfishServer) -> None:
    [evaluation_id] = publish_jobs(bf, envelope("tui-publish", rollouts=2, model="tiny-model"))
    app = make_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        shown = dialog_text(app)
        assert "Publish job tui-publish to Blobfish?" in shown
        assert "model      tiny-model" in shown and "rollouts   2 with 2 traces (1-256 accepted)" in shown
        assert f"built from evaluation {evaluation_id}" in shown and f"to         {bf.base_url}" in shown
        assert bf.requests.count("POST") == 0  # asking sends nothing

        await pilot.press("y")
        await wait_for(
            pilot, lambda: "evaluation" in outcome(app) and "Publishing" not in outcome(app), what="the answer"
        )
        assert outcome(app) == (
            f"Blobfish already holds this evidence: job tui-publish is evaluation {evaluation_id}: "
            f"{bf.base_url}/evaluations/{evaluation_id}"
        )
        assert bf.requests.count("POST") == 1 and listing(app).publisher.write.sent == 1

        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation again")
        await pilot.press("n")
        await wait_for(pilot, lambda: outcome(app).startswith("Not published"), what="the cancel")
        assert outcome(app) == "Not published: job tui-publish was not sent."
        assert bf.requests.count("POST") == 1


async def test_P_on_evidence_the_platform_masked_says_the_409_in_one_sentence(bf: BlobfishServer) -> None:
    job = envelope("tui-masked")
    job["job"]["metadata"]["openai_api_key"] = "sk-proj-" + "Q" * 36
    publish_jobs(bf, job)
    app = make_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: "409" in outcome(app), what="the refusal")
        assert outcome(app) == (
            "Blobfish refused it (409 job_conflict): job tui-masked is already published and "
            "these bytes differ from the first (a field it masked, or another serialization, "
            "counts as changed evidence); the platform keeps the first."
        )
        assert listing(app).query_one("#ev-outcome", Caption).has_class("error")


class LoseEveryPublishAnswer(RecordingTransport):
    """Each POST reaches the server and is processed; its answer never comes back. With
    ``then_unreachable``, every read after the first lost answer fails too."""

    def __init__(self, then_unreachable: bool = False) -> None:
        super().__init__()
        self.lost = 0
        self.then_unreachable = then_unreachable

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.lost and self.then_unreachable and request.method == "GET":
            raise httpx.ConnectError("connection refused", request=request)
        response = await super().handle_async_request(request)
        if request.method == "POST":
            await response.aread()
            await response.aclose()
            self.lost += 1
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


@pytest.mark.parametrize("list_readable", [True, False], ids=["settled-by-the-list", "outcome-unknown"])
async def test_a_lost_answer_is_settled_by_reading_the_list_never_by_a_blind_resend(
    bf: BlobfishServer, list_readable: bool
) -> None:
    [evaluation_id] = publish_jobs(bf, envelope("tui-lost"))
    transport = LoseEveryPublishAnswer(then_unreachable=not list_readable)
    app = make_app(bf, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: "answer was lost" in outcome(app), what="the settled answer")
        if list_readable:
            assert outcome(app) == f"The answer was lost; the list shows job tui-lost as evaluation {evaluation_id}."
        else:
            assert "the list could not be read" in outcome(app) and "outcome unknown" in outcome(app)
            assert "before publishing job tui-lost again" in outcome(app)
        posts = [body for method, _, _, body in transport.sent if method == "POST"]
        # One confirmation, one send; the client's single resend of a lost answer is the same bytes.
        assert listing(app).publisher.write.sent == 1 and len(posts) == 2 and posts[0] == posts[1]
        assert listing(app).publisher.made["tui-lost"].body == posts[0]  # kept: a later P resends these bytes


async def test_P_on_a_job_that_is_not_completed_says_why_and_sends_nothing(bf: BlobfishServer) -> None:
    """A job the platform lists with another status (the simulator never accepts one: it is
    placed in its store directly)."""
    job = envelope("tui-running", status="running")
    bf.store._store(bf.store.isolated, Envelope(job, "0" * 64), time.time())
    app = make_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        await pilot.press("P")
        await wait_for(pilot, lambda: bool(outcome(app)), what="the reason")
        assert outcome(app) == (
            "Job tui-running is not completed (status 'running'): Blobfish publishes only "
            "completed jobs. Nothing was sent."
        )
        assert not isinstance(app.screen, ConfirmScreen) and bf.requests.count("POST") == 0


# ---------------------------------------------------------------------------- space + x: export


async def test_mark_three_and_export_shows_the_receipt_of_the_file_the_same_as_the_cli(
    bf: BlobfishServer,
    exports: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = publish_jobs(bf, *(envelope(f"tui-export-{n}", rollouts=n + 1) for n in range(4)))
    app = make_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        screen = listing(app)
        await pilot.press("space", "space", "space")
        assert screen.marks.ordered() == [row.evaluation_id for row in screen.shown[:3]] == ids[:3]
        assert str(screen.query_one("#ev-marks", Caption).render()).startswith("3 marked · x exports them")
        await pilot.press("x")
        await wait_for(pilot, lambda: getattr(screen, "export_receipt", None) is not None, what="the export")
        [written] = list(exports.iterdir())
        data = written.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        records = data.count(b"\n")
        assert records == 4 + 3 + 2  # the traces of the three newest jobs (4, 3 and 2 rollouts)
        assert outcome(app).startswith(
            f"Exported 3 evaluations to {written}: {records} records, "
            f"{len(data):,} bytes, SHA-256 {sha} (computed by blah-tui"
        )

    monkeypatch.setenv("BLOBFISH_API_KEY", bf.isolated_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    capsys.readouterr()
    # the CLI runs its own event loop: off this test's loop, as from a shell
    assert await asyncio.to_thread(cli_main, ["blobfish", "export", *ids[:3], "-o", str(tmp_path / "cli.jsonl")]) == 0
    assert f"SHA-256 {sha}" in capsys.readouterr().out
    assert (tmp_path / "cli.jsonl").read_bytes() == data


async def test_more_than_50_marked_is_refused_naming_the_limit(bf: BlobfishServer, exports: Path) -> None:
    publish_jobs(bf, *(envelope(f"tui-many-{n}") for n in range(52)))
    app = make_app(bf)
    async with app.run_test(size=(80, 24)) as pilot:  # at 80 columns too (and fewer rows to redraw per key)
        await wait_for(pilot, lambda: listing(app).loaded and len(listing(app).shown) == 52, what="the list")
        screen = listing(app)
        await press_quickly(pilot, *["space"] * 51)  # as fast as a person marks down a list
        assert len(screen.marks) == 51
        assert str(screen.query_one("#ev-marks", Caption).render()).startswith(
            "51 marked: over the 50 one export takes (Blobfish's limit)"
        )
        await pilot.press("x")
        await wait_for(pilot, lambda: outcome(app).startswith("Not exported"), what="the refusal")
        assert outcome(app) == (
            "Not exported: 51 evaluations are selected: an export takes 1-50 (Blobfish's limit "
            "per export); leave out 1. Nothing was written."
        )
        assert not exports.exists()

        await pilot.press("up", "space", "x")  # unmark the last one: 50 go
        await wait_for(
            pilot, lambda: getattr(screen, "export_receipt", None) is not None, what="the export", timeout=60
        )
        assert screen.export_receipt.sources == 50  # type: ignore[attr-defined]
        assert outcome(app).startswith("Exported 50 evaluations")


# ---------------------------------------------------------------------------- hostile text


HOSTILE_JOB = "job " + " ".join(
    payload
    for name, payload in HOSTILE
    if name
    in (
        "osc52-bel",
        "osc0-title",
        "csi-clear",
        "sgr-colour",
        "c1-csi-clear",
        "markup-click",
        "markup-link",
        "bidi-override",
        "bare-cr",
        "crlf",
        "nul-bytes",
    )
)


async def test_a_hostile_job_id_and_model_stay_inert_in_the_dialog_and_the_answer(bf: BlobfishServer) -> None:
    publish_jobs(bf, envelope(HOSTILE_JOB, model="model " + HOSTILE_JOB, taskset="task " + HOSTILE_JOB))
    app = make_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: read(app), what="the evaluations, read")
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        assert_frame_inert(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: "already holds this evidence" in outcome(app), what="the answer")
        assert_frame_inert(app)
        assert "\x1b" not in outcome(app) and "[@click=app.quit]x[/]" in outcome(app)  # shown, never obeyed
