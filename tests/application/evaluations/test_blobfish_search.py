"""Blobfish rollout steps in the Blobfish profile's archive, found by full-text search as
blah.dev calls are: the Textual-free ingest (``application.evaluations.rollout_steps``) and
`blah-tui blobfish search TEXT [--json]`, against the Blobfish simulator."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_client.archives.archive import Archive
from api_client.blobfish import BlobfishClient
from application.evaluations.rollout_steps import PLATFORM_MARKER, ingest_evaluations, open_steps_archive, search_steps
from application.session.paths import data_dir
from cli.main import main
from common.unsafe_chars import has_unsafe
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import envelope
from tests.support.config_files import write_config_text

WORD = "quokkaberry"  # in no seeded evaluation
HOSTILE_PROMPT = f"How many r's in {WORD}? \x1b[2J\x1b]8;;http://evil\x07click\x1b]8;;\x07 [bold]x[/bold]"


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as server:
        job = envelope("quokka-job", rollouts=2, prompt=HOSTILE_PROMPT, model="quokka-model")
        server.store.publish(server.store.account, json.dumps(job).encode())
        yield server


@pytest.fixture
def env(bf: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> BlobfishServer:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    monkeypatch.delenv("BLOBFISH_BASE_URL", raising=False)
    write_config_text(f'[profiles.fish]\nplatform = "blobfish"\nbase_url = "{bf.base_url}"\n')
    return bf


def steps_archives() -> list[Path]:
    folder = data_dir() / "archives"
    return sorted(p.relative_to(folder) for p in folder.rglob("*.sqlite3")) if folder.is_dir() else []


async def test_ingest_stores_every_step_once_with_the_platform_marker_and_search_finds_them(bf: BlobfishServer) -> None:
    archive = open_steps_archive(data_dir(), "fish", bf.base_url)
    try:
        async with BlobfishClient(bf.base_url, api_key=bf.account_key) as client:
            first = await ingest_evaluations(client, archive)
            again = await ingest_evaluations(client, archive)
        assert first.evaluations == len(bf.evaluation_ids()) and first.steps == first.new_steps > 100
        assert (again.steps, again.new_steps) == (first.steps, 0)  # ingesting again adds nothing
        count, hits = search_steps(archive, WORD)
        assert count == 2 and [(h.rollout_id, h.step, h.model) for h in hits] == [
            ("r0", 0, "quokka-model"),
            ("r1", 0, "quokka-model"),
        ]
        assert hits[0].prompt == HOSTILE_PROMPT and hits[0].final_answer == "3"  # verbatim
        assert hits[0].task_id == "letter-count/strawberry"
        entry = archive.find("r0#1")  # the step's one id (issue 39): the Inspector's, `open`'s, diagnosis's
        assert entry is not None and entry.source == PLATFORM_MARKER and entry.eval_id == hits[0].evaluation_id
        assert search_steps(archive, f"{WORD} nowhere-else")[0] == 0  # every term required
    finally:
        archive.close()
    assert steps_archives() == [Path("profiles/fish") / archive.path.name]


def test_search_prints_the_matching_steps_verbatim_in_json(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["blobfish", "search", WORD, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    found = json.loads(captured.out)
    assert [(s["rollout_id"], s["prompt"], s["final_answer"], s["model"]) for s in found] == [
        ("r0", HOSTILE_PROMPT, "3", "quokka-model"),
        ("r1", HOSTILE_PROMPT, "3", "quokka-model"),
    ]
    assert len({s["evaluation_id"] for s in found}) == 1
    assert steps_archives() and all(p.parts[:2] == ("profiles", "fish") for p in steps_archives())


def test_search_table_is_inert_and_says_how_many_matched(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["blobfish", "--profile", "fish", "search", WORD]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["evaluation", "rollout", "task", "step", "prompt", "answer"]
    assert len(lines) == 4 and lines[-1].startswith("2 steps match; searched ")
    assert not has_unsafe(out, keep="\n") and "^[[2J" in out and WORD in out  # escapes shown, never obeyed
    assert main(["blobfish", "search", "strawberry", "--limit", "3"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "(showing 3)" in last and "(0 new)" in last  # the second search reads from the same archive


def test_no_match_and_a_blank_query(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["blobfish", "search", "zzzz-in-no-step"]) == 0
    assert capsys.readouterr().out.startswith("0 steps match; searched ")
    assert main(["blobfish", "search", "  "]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "words to search" in err


def test_the_steps_archive_is_listed_under_its_profile(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["blobfish", "search", WORD, "--json"]) == 0
    capsys.readouterr()
    assert main(["archives"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:3] == ["fish", env.base_url, "blobfish-steps"]
    with Archive(data_dir() / "archives" / steps_archives()[0]) as archive:
        assert archive.get_meta("platform") == PLATFORM_MARKER
        assert int(row[3].replace(",", "")) == archive.count() > 100
