"""A fixed corpus of calls and the questions asked of an archive holding them, for the tests that
hold the archive's answers to what the first (uncompressed, schema 1) archive gave.

``answers(archive)`` is every answer a person can see: each search's count and ids (alone and
within other filters), each filter's count and rows as the list draws them, every entry read
back whole. ``tests/api_client/archives/data/answers-v1.json`` holds what schema 1 answered
(written by ``python -m tests.api_client.archives.answers_corpus`` on the code of 72a4149), and
``archive-v1.sqlite3.gz`` a schema 1 file holding the same calls, to migrate.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import orjson

from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.shapes import LogEntry

DATA = Path(__file__).resolve().parent / "data"
ANSWERS = DATA / "answers-v1.json"
V1_ARCHIVE = DATA / "archive-v1.sqlite3.gz"
CALLS = 1600

_WORDS = (  # noqa: SIM905 - the words as a person types them, one string
    "the model answer question please explain gpt-4 don't e.g. naïve naive café CAFÉ résumé "
    "zanzibar colour color state-of-the-art x y z 42 3.14 foo_bar foo bar baz AND OR NOT NEAR "
    "user assistant system prompt: secret value hello world ### {{ }} ... !!! 🙂 漢字 日本語 中文 ｆｕｌｌ "
    "ß straße STRASSE İstanbul ﬁne "
).split()
_ODD = ("\x00", "\x1b[31m", "\u2028", "\t", "\r\n", '"', "\\", "<|im_start|>", "\U0001f642", "\x7f")
QUERIES = (
    "model",
    "MODEL",
    "answer",
    "zanzibar",
    "xylograph",
    "gpt-4",
    "gpt",
    "4",
    "don't",
    "don",
    "e.g.",
    "naïve",
    "naive",
    "café",
    "cafe",
    "résumé",
    "colour color",
    "state-of-the-art",
    "state of",
    "42",
    "3.14",
    "foo_bar",
    "foo bar",
    "AND",
    "OR(",
    "NEAR",
    "prompt:secret",
    "secret",
    "###",
    "{{",
    "...",
    "!!!",
    "🙂",
    "漢字",
    "日本",
    "中文",
    "ｆｕｌｌ",
    "full",
    "straße",
    "strasse",
    "istanbul",
    "İstanbul",
    "fine",
    "ﬁne",
    "hello world",
    "upstream",
    "timeout",
    '"',
    "\\",
    "user",
    "the answer model",
    "a",
    "x",
)
FILTERS = (
    LogFilter(),
    LogFilter(source="chat"),
    LogFilter(errors_only=True),
    LogFilter(badge="error"),
    LogFilter(since_ms=1_000_000 + 900 * 5),
)


def _text(rng: random.Random, n: int) -> str:
    parts = []
    for _ in range(n):
        parts.append(rng.choice(_WORDS) if rng.random() > 0.05 else rng.choice(_ODD))
    return " ".join(parts)


def corpus() -> list[LogEntry]:
    rng = random.Random(42)
    out = []
    for i in range(CALLS):
        failed = rng.random() < 0.1
        user = _text(rng, rng.randint(0, 40))
        with_messages = rng.random() < 0.6
        out.append(
            LogEntry.model_validate(
                {
                    "id": f"log_{i:05d}",
                    "model_id": "m",
                    "source": ("eval", "chat", "chatroom", "test", None)[i % 5],
                    "created_at": 1_000_000 + i * 5 // 3,
                    "prompt": None if i % 97 == 5 else f"<|user|>\n{user}\n<|assistant|>",
                    "messages": [{"role": "user", "content": user}] if with_messages else None,
                    "response": None if failed else _text(rng, rng.randint(0, 80)),
                    "error": "upstream timeout" if failed else None,
                    "latency_ms": rng.randint(1, 9000),
                    "max_tokens": 256,
                    "prompt_tokens": rng.randint(1, 400),
                    "completion_tokens": None if failed else 5,
                    "finish_reason": "error" if failed else "stop",
                    "eval_id": "ev_1" if i % 7 == 0 else None,
                    "run_id": None,
                    "result_id": None,
                    "message_id": None,
                }
            )
        )
    return out


def badges(entry: LogEntry) -> list[str]:
    return ["error"] if entry.error is not None else (["empty"] if not entry.response else [])


def fill(archive: Archive) -> None:
    """Store the corpus as the app's writers do: newest pages first (an export), a bulk load in
    no order, a batch inside the list, and some rows indexed later."""
    calls = corpus()
    archive.add(calls[1200:], badges)  # the newest first
    archive.add(calls[800:1200][::-1], badges, index_text=False)  # a page below, text indexed later
    shuffled = calls[:800]
    random.Random(7).shuffle(shuffled)
    archive.add(shuffled[:400], badges, number=False)
    archive.add(shuffled[400:], badges, number=False, index_text=False)
    archive.number_pending()


def _digest(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value)).hexdigest()


def answers(archive: Archive) -> dict[str, Any]:
    out: dict[str, Any] = {"searches": {}, "filters": {}}
    for flt_i, flt in enumerate(FILTERS):
        n = archive.count(flt)
        rows = [list(_row(r)) for r in archive.window(flt, 0, n + 5)]
        out["filters"][str(flt_i)] = {"count": n, "rows": _digest(rows)}
        for q in QUERIES:
            result = archive.search(q, flt, limit=None)
            texty = LogFilter(
                source=flt.source, errors_only=flt.errors_only, badge=flt.badge, text=q, since_ms=flt.since_ms
            )
            m = archive.count(texty)
            window = [r.id for r in archive.window(texty, max(0, m - 40), 40)]
            out["searches"][f"{flt_i}|{q}"] = {
                "count": result.count,
                "ids": _digest(result.ids),
                "terms": list(result.terms),
                "list_count": m,
                "window": _digest(window),
            }
    out["entries"] = _digest([_as_json(e) for e in archive.iter_all()])
    out["newest_entries"] = _digest([_as_json(e) for e in archive.iter_all(newest_first=True)])
    out["one"] = _as_json(archive.get("log_00007"))
    return out


def _as_json(call: Any) -> Any:
    """A call read back, as the JSON of its fields in order (a ``Call`` record, or the
    ``LogEntry`` the archive gave when the fixture was written: the same JSON)."""
    fields = call.model_dump(mode="json") if hasattr(call, "model_dump") else dataclasses.asdict(call)
    return orjson.loads(orjson.dumps(fields))


def _row(row: Any) -> tuple[Any, ...]:
    return (
        row.id,
        row.created_at,
        row.source,
        row.latency_ms,
        row.finish_reason,
        row.failed,
        list(row.badges),
        row.prompt_prefix,
        row.response_prefix,
        row.error_prefix,
    )


def v1_archive(folder: Path) -> Path:
    """A copy of the schema 1 file holding the corpus, in ``folder``."""
    path = folder / "v1.sqlite3"
    with gzip.open(V1_ARCHIVE, "rb") as src, open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return path


def main() -> int:
    """Write the fixtures (run on the code whose answers they hold)."""
    DATA.mkdir(exist_ok=True)
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/answers-corpus")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "v1.sqlite3"
    for old in folder.glob("v1.sqlite3*"):
        old.unlink()
    with Archive(path) as archive:
        fill(archive)
        archive.set_meta("model_id", "m")
        got = answers(archive)
        archive._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ANSWERS.write_bytes(orjson.dumps(got, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    with open(path, "rb") as src, gzip.open(V1_ARCHIVE, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    print(f"wrote {ANSWERS} and {V1_ARCHIVE} ({V1_ARCHIVE.stat().st_size:,} B)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
