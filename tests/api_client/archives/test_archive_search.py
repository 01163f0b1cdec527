"""Full-text search in the archive: literal terms, hostile input, unicode, highlighting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_client.archives.archive import Archive, LogFilter, match_spans
from api_client.blahdev.shapes import LogEntry

TEXTS = {
    "a": ("The column prompt: secret value", "ok"),
    "b": ("AND( mixed NEAR(x y) OR stuff", None),
    "c": ("say hi", 'He said "hi" then *left*'),
    "d": ("### Instruction:\nName a colour.\n### Response:", "Blue."),
    "e": ("<|im_start|>user\nbonjour<|im_end|>", "Café crème, naïve résumé"),
    "f": ("日本語のテキストです", "中文回答"),
    "g": ("emoji 🙂 party", "ÉCOLE"),
    "h": ("plain prompt", "{{template}} leaked"),
}


def make(key: str, n: int, **kw: object) -> LogEntry:
    prompt, response = TEXTS[key]
    fields: dict[str, object] = {
        "id": f"log_{key}",
        "created_at": 1000 + n,
        "source": "chat" if n % 2 else "eval",
        "prompt": prompt,
        "response": response,
        "error": "upstream timeout" if response is None else None,
    }
    fields.update(kw)
    return LogEntry.model_validate(fields)


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[Archive]:
    a = Archive(tmp_path / "s.sqlite3")
    a.add([make(k, n) for n, k in enumerate(TEXTS)])
    yield a
    a.close()


def found(archive: Archive, query: str, flt: LogFilter | None = None) -> list[str]:
    return [i.removeprefix("log_") for i in archive.search(query, flt or LogFilter()).ids]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("secret", ["a"]),
        ("SECRET value", ["a"]),  # case-insensitive, every term required
        ("secret blue", []),
        ("prompt:secret", ["a"]),  # not a column filter: the words "prompt" "secret" in a row
        ("AND(", ["b"]),  # not an operator
        ("NEAR(x", ["b"]),
        ('"hi"', ["c"]),
        ('"', ["c"]),  # a lone quote is not a syntax error: it is the quote character
        ("*left*", ["c"]),
        ("upstream", ["b"]),  # the error text is searched too
        ("###", ["d"]),  # punctuation only: found as a substring
        ("### colour", ["d"]),
        ("{{", ["h"]),
        ("<|im_end|>", ["e"]),
        ("cafe naive", ["e"]),  # accents ignored
        ("CRÈME", ["e"]),
        ("école", ["g"]),
        ("🙂", ["g"]),
        ("日本語", ["f"]),  # no spaces in Japanese: found inside the run of characters
        ("回答", ["f"]),
        ("   ", []),
    ],
)
def test_user_text_is_searched_literally(archive: Archive, query: str, expected: list[str]) -> None:
    result = archive.search(query)
    assert sorted(found(archive, query)) == expected
    assert result.count == len(expected)


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "a OR",
        "NOT",
        "(",
        ")",
        "-x",
        "^x",
        "x*",
        "col:",
        "NEAR(a b, 2)",
        "\\",
        "'",
        "\x00",
        "x\ud800y",
        "\u202e",
        "a" * 5000,
        "AND AND AND",
        "{",
        "+",
        "prompt : x",
    ],
)
def test_hostile_queries_never_raise(archive: Archive, query: str) -> None:
    result = archive.search(query)
    assert result.count == len(result.ids)
    if result.terms:  # a text filter without terms filters nothing; a search of it finds nothing
        assert archive.count(LogFilter(text=query)) == result.count


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_any_typed_text_is_a_valid_search(archive: Archive, query: str) -> None:
    result = archive.search(query)
    assert 0 <= result.count <= len(TEXTS)
    if query.strip() == "":
        assert result.count == 0


def test_search_respects_the_filter_and_reports_terms(archive: Archive) -> None:
    chat = LogFilter(source="chat")
    everywhere = archive.search("prompt")
    assert sorted(found(archive, "prompt")) == ["a", "h"]
    assert found(archive, "prompt", chat) == ["h"]  # a is an eval call, h a chat call
    assert everywhere.terms == ("prompt",)
    assert archive.search("Colour  ###").terms == ("Colour", "###")


def test_search_ids_are_oldest_first_and_limited_with_exact_count(tmp_path: Path) -> None:
    with Archive(tmp_path / "x.sqlite3") as a:
        a.add([LogEntry(id=f"l{i:03d}", created_at=5000 - i, prompt=f"needle {i}") for i in range(50)])
        result = a.search("needle", limit=5)
        assert result.count == 50 and result.truncated
        assert result.ids == [f"l{i:03d}" for i in (49, 48, 47, 46, 45)]


def test_text_filter_combines_with_window_and_position(archive: Archive) -> None:
    flt = LogFilter(text="prompt")
    assert [r.id for r in archive.window(flt, 0, 10)] == ["log_a", "log_h"]
    assert archive.position("log_h", flt) == 1
    assert archive.position("log_b", flt) is None
    assert archive.neighbours("log_a", flt) == (None, "log_h")


def test_deferred_indexing_never_hides_matches(tmp_path: Path) -> None:
    with Archive(tmp_path / "x.sqlite3") as a:
        a.add([LogEntry(id="l1", created_at=1, prompt="alpha beta")], index_text=False)
        a.add([LogEntry(id="l2", created_at=2, prompt="alpha gamma")], index_text=False)
        assert a.pending_text_index() == 2
        assert a.search("alpha").count == 2  # the search indexed what was pending first
        assert a.pending_text_index() == 0
        a.add([LogEntry(id="l3", created_at=3, prompt="alpha")], index_text=False)
        assert a.index_pending() == 1
        assert a.count(LogFilter(text="alpha")) == 3


def test_new_entries_are_searchable_at_once(archive: Archive) -> None:
    assert archive.search("zebra").count == 0
    archive.add([LogEntry(id="late", created_at=99_999, response="a zebra appears")])
    assert archive.search("zebra").ids == ["late"]


def test_match_spans_mark_each_term_case_insensitively() -> None:
    text = "Secret: the SECRET is a secretive ###"
    spans = match_spans(text, ("secret", "###"))
    assert [text[a:b] for a, b in spans] == ["Secret", "SECRET", "secret", "###"]
    assert match_spans("aaaa", ("aa", "a")) == [(0, 4)]  # overlapping matches merge
    assert match_spans("", ("x",)) == [] and match_spans("x", ()) == []
    assert match_spans("a.b", (".",)) == [(1, 2)]  # regex characters are literal
