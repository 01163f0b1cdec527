"""An archive of the first layout is rewritten when the Logs screen first opens it: the person
is told it is happening and when it is done, and the list shows the calls it held."""

from __future__ import annotations

import shutil

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.paths import data_dir
from simulator.server import SimulatorServer
from tests.api_client.archives.answers_corpus import CALLS, v1_archive
from tests.support.logs_world import FAST_TAIL, logs_screen, wait_for
from tests.support.notify_log import NotificationLog
from tests.support.settings import settings_with
from tui.app import create_app


async def test_the_logs_screen_migrates_an_old_archive_and_says_so(sim: SimulatorServer) -> None:
    model = sim.person_model_id
    target = Archive.path_for(data_dir(), sim.base_url, model)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(v1_archive(data_dir()), target)  # the calls of the corpus, as the first layout held them
    async with BlahClient(sim.base_url, deadline=2.0) as client:
        ctx = AppContext(model_id=model, client=client, base_url=sim.base_url, settings=settings_with(FAST_TAIL))
        app = create_app(ctx)
        async with app.run_test(size=(120, 36)) as pilot:

            def compacted() -> bool:
                return any("Local archive compacted" in m for m in NotificationLog.current.messages(app))

            await wait_for(pilot, compacted, what="the migration to finish")
            await wait_for(pilot, lambda: len(logs_screen(app).feed.rows) >= CALLS, what="the list to show the calls")
            messages = NotificationLog.current.messages(app)
            await pilot.press("q")
    assert f"Compacting the local archive for this version (once): 0 of {CALLS:,} calls" in messages
    assert f"Local archive compacted: {CALLS:,} calls" in messages
