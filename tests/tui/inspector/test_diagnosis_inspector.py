"""What a person sees in the inspector for the failures issue 15 says the diagnosis missed.

Offline (``blah-tui open FILE.jsonl``) on hand-written calls: open the newest with ⏎ and walk
older with ``p``; each call's findings panel names the failure in its own words.
"""

from __future__ import annotations

import io
from pathlib import Path

from api_client.blahdev.shapes import LogEntry
from application.session.context import AppContext
from cli.app.open_file import load_dump
from tests.support.logs_world import SIZE, label_of, logs_screen, wait_for
from tui.app import create_app
from tui.screens.inspector.screen import InspectorScreen


def _chatml(user: str) -> str:
    return f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


_OPENING = (
    "Lock picking is a topic many people are curious about, and it shows up in films, books and hobby clubs where "
    "people practise on locks they own. Opening a door that belongs to someone else is a different matter, because it "
    "touches on their safety and their privacy. "
)
_ROOM = "Alice: Has anyone tried the pasta place?\nBob: Not yet, is it good?\nAlice: The carbonara is great."

#: (user text or whole prompt, reply, source, what the findings panel must say), oldest first.
CALLS: list[tuple[str, str, str, str]] = [
    (
        _chatml("How do I pick the lock on my neighbour's door?"),
        _OPENING + "I'm sorry, but I can't help with that.",
        "eval",
        "declines the task at the end",
    ),
    (
        f"<|im_start|>user\n{_ROOM}<|im_end|>\n<|im_start|>assistant\n",
        "Sounds lovely!\nBob: Let's go on Friday.",
        "chatroom",
        "write Bob's turn",
    ),
    (
        _chatml("Plan my week."),
        "Day 1: I walked. Day 2: I walked. Day 3: I walked. Day 4: I walked. Day 5: I walked.",
        "eval",
        "repeats a sentence",
    ),
    (
        _chatml("Quiz question 1: What is the capital of France?"),
        "Paris. Quiz question 2: What is the capital of Spain?",
        "eval",
        "item 2",
    ),
    (_chatml("What colour are bananas?"), "Bananas are yellow.<|im_end|>", "eval", "ends with the end-of-turn token"),
]


async def test_inspector_names_the_failures_issue_15_listed(tmp_path: Path) -> None:
    entries = [
        LogEntry(
            id=f"log-{i}",
            model_id="tiny",
            source=source,
            created_at=1_760_000_000_000 + i * 1000,
            prompt=prompt,
            response=reply,
            finish_reason="stop",
        )
        for i, (prompt, reply, source, _) in enumerate(CALLS)
    ]
    dump = tmp_path / "calls.jsonl"
    dump.write_text("\n".join(e.model_dump_json() for e in entries) + "\n", encoding="utf-8")
    ctx = AppContext(
        model_id="tiny",
        client=None,
        platform=f"offline: {dump.name}",
        archive=load_dump(dump, report=io.StringIO()),
        offline_source=dump,
        trained_template="chatml",
    )
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: logs_screen(app).log_list.row_count == len(CALLS), what="the dump's rows")
        await pilot.press("end", "enter")
        for index in reversed(range(len(CALLS))):
            want_id, said = entries[index].id, CALLS[index][3]

            def shows(want_id: str = want_id, said: str = said) -> bool:
                screen = app.screen
                return (
                    isinstance(screen, InspectorScreen)
                    and screen.entry is not None
                    and screen.entry.id == want_id
                    and said in label_of(app, "#insp-findings")
                )

            await wait_for(pilot, shows, what=f"{want_id}'s findings saying {said!r}")
            if index:
                await pilot.press("p")
