"""Where the Inspector reads a call from (``application.inspector.call_reader``): what the
opening screen holds, then the local archive, then the platform (the real client against the
simulator, whose request log says what was asked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from api_client.errors import NotFoundError
from application.inspector.call_reader import CallReader
from application.session.context import AppContext
from simulator.server import SimulatorServer


async def some_calls(client: BlahClient, sim: SimulatorServer) -> list[LogEntry]:
    page = await client.get_logs(sim.person_model_id, limit=3)
    assert len(page.logs) == 3
    return list(page.logs)


def context(
    client: BlahClient | None, sim: SimulatorServer, archive: Archive | None = None, **kw: object
) -> AppContext:
    return AppContext(model_id=sim.person_model_id, client=client, archive=archive, **kw)  # type: ignore[arg-type]


async def test_a_call_the_archive_holds_is_read_there_and_the_platform_is_not_asked(
    client: BlahClient, sim: SimulatorServer, tmp_path: Path
) -> None:
    held, other, held_by_screen = await some_calls(client, sim)
    with Archive(tmp_path / "a.sqlite3") as archive:
        archive.add_new([held])
        reader = CallReader(
            context(client, sim, archive), lookup=lambda i: held_by_screen if i == held_by_screen.id else None
        )
        asked = sim.requests.count("GET", "/logs/" + held.id) + sim.requests.count("GET", "/logs/" + held_by_screen.id)

        found = await reader.find(held_by_screen.id)
        assert (found.entry, found.platform_answered) == (held_by_screen, False)
        found = await reader.find(held.id)
        assert found.entry is not None and found.entry.id == held.id and not found.platform_answered
        assert (
            sim.requests.count("GET", "/logs/" + held.id) + sim.requests.count("GET", "/logs/" + held_by_screen.id)
            == asked
        )

        found = await reader.find(other.id)  # not in the archive: the platform has it
        assert found.entry == other and found.platform_answered
        assert sim.requests.count("GET", "/logs/" + other.id) >= 1


async def test_offline_a_call_nowhere_is_none_and_online_the_platform_says_not_found(
    client: BlahClient, sim: SimulatorServer
) -> None:
    offline = await CallReader(context(None, sim)).find("log_nosuch")
    assert (offline.entry, offline.platform_answered) == (None, False)
    with pytest.raises(NotFoundError):
        await CallReader(context(client, sim)).find("log_nosuch")


async def test_the_trained_template_comes_from_the_config_else_once_from_the_platform(
    client: BlahClient, sim: SimulatorServer
) -> None:
    first, second, _ = await some_calls(client, sim)
    configured = CallReader(context(client, sim, trained_template="llama3"))
    before = sim.requests.count("GET", f"/models/{sim.person_model_id}")
    assert await configured.trained_template(first) == ("llama3", "config")
    assert sim.requests.count("GET", f"/models/{sim.person_model_id}") == before  # nothing asked

    reader = CallReader(context(client, sim))
    template, source = await reader.trained_template(first)
    model = await client.get_model(sim.person_model_id)
    assert (template, source) == (model.chat_template, "platform")
    asked = sim.requests.count("GET", f"/models/{sim.person_model_id}")
    assert await reader.trained_template(second) == (template, source)
    assert sim.requests.count("GET", f"/models/{sim.person_model_id}") == asked  # asked once per Inspector
