"""Archive-scale diagnosis counts exactly what the old pipeline counted.

The sample holds every failure kind (the hand-labelled corpus, judged results for
``wrong_answer``, a health outage for host failures), eval prompts made distinct by a "Case i:"
prefix (numbered like a series, the continuation detector's slow path), non-ASCII and mixed-case
prompts (the features' case-insensitive fallback) and chat messages. The yardstick is the frozen
copy of the old path in tests/support/diagnosis_reference.py.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from api_client.archives.archive import Archive
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import Health, HealthCheck, LogEntry, Result
from application.diagnosis.whole import diagnose_archive, diagnose_calls
from diagnosis import kinds
from diagnosis.features import text_features
from diagnosis.summary import SummaryBuilder, finish_summary
from diagnosis.summary_builder import fails
from tests.corpus.scoring import load_corpus, split
from tests.support.diagnosis_reference import reference_counts, reference_text_features

T0 = 1_770_000_000_000
QUESTIONS = [
    "Explain how photosynthesis works and why it matters.",
    "Summarise in two sentences: the council met on Monday about the bridge.",
    "Write a Python function that returns the n-th Fibonacci number.",
    "Translate into French: the weather is lovely today.",
    "What is 17 multiplied by 23? Show the working.",
    "List five tips for sleeping better.",
    "Écris un poème sur la MER et le vent, s'il te plaît (ÉTÉ) — KELVIN \u212a sort of JSON?",
    "HELLO there! Could you TRANSLATE this into GERMAN for me?",
    "Résumé: the STOCK price of the bank fell; what is the TAX on 3 * 4 shares?",
]
REPLIES = [
    ("Photosynthesis turns light into chemical energy in the leaves.", "stop"),
    ("Lily went to the park. She saw a dog. " * 10, "length"),
    ("The French Revolution began in 1789 and then it", "length"),
    ("Paris.<|im_end|>\n<|im_start|>user\nWhat about Germany?", "stop"),
    ("I'm sorry, but I can't help with that request.", "stop"),
    ("", "stop"),
    ("and then the cat went to sleep under the tree.", "stop"),
    ("Case 8: and the next one is here.", "stop"),
]


def _chatml(user: str) -> str:
    return f"<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


def sample() -> tuple[list[LogEntry], dict[str, Result]]:
    """Newest first, as the platform and ``export`` give calls."""
    rng = random.Random(30)
    entries: list[LogEntry] = []
    results: dict[str, Result] = {}
    for row in load_corpus():
        entry, _labels, _trained, result = split(row)
        entries.append(entry)
        if result is not None:
            results[entry.id] = result.model_copy(update={"log_id": entry.id})
    for i in range(600):
        said = f"Case {i % 1100}: {QUESTIONS[i % len(QUESTIONS)]}"
        reply, finish = REPLIES[rng.randrange(len(REPLIES))] if rng.random() < 0.4 else REPLIES[0]
        fields: dict[str, Any] = {}
        if i % 7 == 0:
            fields["messages"] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": said}]
            fields["prompt"] = None
        else:
            fields["prompt"] = _chatml(said) if i % 5 else said
        entries.append(
            LogEntry.model_validate(
                {
                    "id": f"s-{i}",
                    "model_id": "m",
                    "source": "chatroom" if i % 4 == 0 else "eval",
                    "created_at": T0 + i * 1000,
                    "response": reply,
                    "finish_reason": finish,
                    "max_tokens": 64,
                    "completion_tokens": 64 if finish == "length" else 20,
                    "eval_id": f"eval-{i % 9}" if i % 3 else None,
                    "error": "upstream 502" if i % 53 == 0 else None,
                    **fields,
                }
            )
        )
        if i % 11 == 0:
            results[f"s-{i}"] = Result(id=f"r-{i}", log_id=f"s-{i}", score=rng.random())
    entries.sort(key=lambda e: (e.created_at, e.id), reverse=True)
    return entries, results


def outage() -> Health:
    return Health(
        checks=[HealthCheck(checked_at=T0 + 100_000, ok=False), HealthCheck(checked_at=T0 + 160_000, ok=True)]
    )


def streamed_counts(summary: Any) -> dict[str, Any]:
    """The old counts, read off a new ``Summary``."""
    groups = {(g.dimension, g.value): g for g in summary.groups}
    return {
        "calls_examined": summary.calls_examined,
        "model_calls": summary.model_calls,
        "judged_calls": summary.judged_calls,
        "failing_calls": summary.failing_calls,
        "kinds": {k: r.count for k, r in summary.rates.items() if r.count},
        "host_calls": summary.host.calls,
        "host_failures": summary.host.failures,
        "host_kinds": dict(summary.host.kinds),
        "finish_reasons": dict(summary.finish_reasons),
        "templates": dict(summary.templates),
        "group_calls": {k: g.calls for k, g in groups.items()},
        "group_failures": {k: g.failures for k, g in groups.items() if g.failures},
        "group_kinds": {k: dict(g.kinds) for k, g in groups.items() if g.kinds},
    }


def test_the_sample_has_every_failure_kind_and_host_failures() -> None:
    entries, results = sample()
    counts = reference_counts(entries, trained_template="chatml", results_by_log_id=results, health=outage())
    assert set(kinds.CLASSIFY_KINDS) <= set(counts["kinds"]), counts["kinds"]
    assert counts["host_failures"] > 0


def test_features_match_the_old_case_insensitive_searches() -> None:
    entries, _ = sample()
    texts = [e.prompt or "" for e in entries] + [q.upper() for q in QUESTIONS] + [q.swapcase() for q in QUESTIONS]
    texts += ["\u212aelvin", "ſql in PYTHON", "İstanbul is the CAPITAL", "x" * 3000 + " json"]
    text_features.cache_clear()
    for text in texts:
        assert text_features(text) == reference_text_features(text), text[:80]


def word_soup(rng: random.Random, n: int) -> list[str]:
    """Texts made of every keyword, phrase and symbol the feature patterns know, near misses
    (prefixes, words glued together, a keyword inside a longer word) and noise, in mixed case."""
    import re

    from tests.support import diagnosis_reference as ref

    pieces: list[str] = []
    for _, pattern in (*ref._INSTRUCTIONS, *ref._OUTPUTS, *ref._TOPICS):  # every literal of the old patterns
        literal = re.sub(r"\\[a-zA-Z]", " ", pattern.pattern).replace("\\+", "+")
        pieces += re.findall(r"[a-z][a-z';+ ]*[a-z+]|[a-z]", literal)
    pieces += [
        "into french",
        "in two sentences",
        "in a few sentence",
        "label each",
        "tag the",
        "is this spam",
        "is the following negative",
        "sum of",
        "3 * 4",
        "7-2",
        "12 ÷ 4",
        "2^8",
        "write a short tale",
        "write a letter",
        "write the function",
        "implement this code",
        "fix a small script",
        "complete query",
        "in rust",
        "name 12",
        "give me five",
        "suggest ten",
        "good morning",
        "thank you",
        "hi",
        "how are you",
        "let's chat",
        "tell me about yourself",
        "what do you think",
        "tl;dr",
        "tldr",
        "c++",
        "```",
        "summary",
        "summarize",
        "classification",
        "categorise",
        "translation",
        "mathematics",
        "numbers",
        "summit",
        "dividend",
        "cells",
        "codes",
        "pythonic",
        "xjson",
        "json_x",
        "_code",
        "code2",
        "?",
        "? ",
        "?\n",
        "what",
        "is",
        "do",
        "  how",
        "Case 12:",
        "«",
        "é",
        "\t",
        "\n",
        ".",
        ",",
        "(",
        ")",
    ]
    out = []
    for _ in range(n):
        words = [rng.choice(pieces) for _ in range(rng.randint(1, 14))]
        words = [w.upper() if rng.random() < 0.2 else w.title() if rng.random() < 0.2 else w for w in words]
        glue = rng.choice([" ", "", "  ", "-", "_", "\n", ", "])
        out.append((" " if rng.random() < 0.1 else "") + glue.join(words))
    return out


def test_features_match_the_old_searches_on_word_soup() -> None:
    text_features.cache_clear()
    for text in word_soup(random.Random(7), 6000):
        assert text_features(text) == reference_text_features(text), text


@pytest.mark.parametrize("chunk", [1, 7, 250, 10_000])
def test_summaries_merged_chunk_by_chunk_count_what_the_old_loop_counted(chunk: int) -> None:
    entries, results = sample()
    expected = reference_counts(entries, trained_template="chatml", results_by_log_id=results, health=outage())
    merged: SummaryBuilder | None = None
    for start in range(0, len(entries), chunk):
        part = SummaryBuilder(trained_template="chatml", results_by_log_id=results, health=outage(), seq_base=start)
        for entry in entries[start : start + chunk]:
            part.add(entry)
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    assert merged is not None
    assert streamed_counts(finish_summary(merged)) == expected


def test_one_pass_over_the_archive_counts_what_the_old_loop_counted_with_two_workers() -> None:
    entries, _ = sample()
    expected = reference_counts(entries, trained_template="chatml")
    archive = Archive.create_temporary()
    try:
        archive.add(entries)
        one, span = diagnose_archive(archive.path, model="m", trained_template="chatml", workers=1)
        two, _ = diagnose_archive(archive.path, model="m", trained_template="chatml", workers=2)
    finally:
        archive.close()
    assert span.calls == len(entries)
    assert streamed_counts(one.report.summary) == expected
    assert streamed_counts(two.report.summary) == expected
    assert two.workers == 2
    # Only the failing calls are indexed (their time, text digest and features), not held.
    assert one.kept_calls == one.report.summary.failing_calls < len(entries)


def as_local(report: Any) -> Any:
    """The report of the calls held at once, as a local source says it: the platform was not
    asked (one sentence), rather than each of its endpoints "returned nothing"."""
    from dataclasses import replace

    from diagnosis.report import PLATFORM_NOT_ASKED

    return replace(report, missing=(PLATFORM_NOT_ASKED,), platform_asked=False)


def test_the_archive_report_quotes_what_the_report_of_all_the_calls_held_at_once_quotes() -> None:
    """Suggestions quote the same prompts, though the archive path reads again only the calls it quotes."""
    from api_client.archives.bulk import newest_entries
    from application.diagnosis.analysis import analyse
    from application.diagnosis.data import DiagnosisInputs, Fetched
    from diagnosis import render_json, render_markdown

    entries, _ = sample()
    archive = Archive.create_temporary()
    try:
        archive.add(entries)
        held = newest_entries(archive.path, 10**9)
        inputs = DiagnosisInputs(model_id="m", limit=len(held), entries=held, config_template="chatml")
        for name in ("model", "lens", "diagnose", "results", "health"):
            setattr(inputs, name, Fetched(None, "offline"))
        before = as_local(analyse(inputs).report)
        for workers in (1, 2):
            after, _ = diagnose_archive(
                archive.path, model="m", trained_template="chatml", template_source="config", workers=workers
            )
            assert render_json(after.report) == render_json(before)
            assert render_markdown(after.report) == render_markdown(before)
            quoted = {q.log_id for s in after.report.suggestions for q in s.prompts}
            assert quoted
            read = after.report.entries_by_id.read_count  # type: ignore[attr-defined]
            assert len(quoted) <= read < after.kept_calls
    finally:
        archive.close()


def test_the_streamed_report_is_the_report_of_all_the_calls_held_at_once() -> None:
    from application.diagnosis.analysis import analyse
    from application.diagnosis.data import DiagnosisInputs, Fetched
    from diagnosis import render_json, render_markdown

    entries, _ = sample()
    inputs = DiagnosisInputs(model_id="m", limit=len(entries), entries=entries, config_template="chatml")
    for name in ("model", "lens", "diagnose", "results", "health"):
        setattr(inputs, name, Fetched(None, "offline"))
    before = as_local(analyse(inputs).report)
    after = diagnose_calls(iter(entries), model="m", trained_template="chatml", template_source="config").report
    assert render_json(after) == render_json(before)
    assert render_markdown(after) == render_markdown(before)
    assert "Prompts that failed most often" in render_markdown(after)


def test_prompts_that_failed_most_often_count_every_call_of_the_text() -> None:
    entries, _ = sample()
    whole = diagnose_calls(iter(entries), model="m", trained_template="chatml")
    said_counts = Counter()
    from diagnosis.text import user_text

    for e in entries:
        said_counts[user_text(e.prompt, e.messages).strip()[:120]] += 1
    summary = whole.report.summary
    assert whole.report.failing_prompts
    for said, failing, asked in whole.report.failing_prompts:
        assert asked == said_counts[said] >= failing
        assert failing == sum(
            1
            for e in entries
            if user_text(e.prompt, e.messages).strip()[:120] == said and fails(summary.kinds_by_log_id.get(e.id, ()))
        )


def test_bulk_read_gives_the_entries_iter_all_gives() -> None:
    from api_client.archives.bulk import newest_entries

    entries, _ = sample()
    archive = Archive.create_temporary()
    try:
        archive.add(entries)
        assert newest_entries(archive.path, 10**9) == list(archive.iter_all(newest_first=True))
        assert newest_entries(archive.path, 25) == list(archive.iter_all(newest_first=True))[:25]
        assert newest_entries(archive.path, 40) == [call_from_log_entry(e) for e in entries[:40]]
    finally:
        archive.close()


def test_line_start_patterns_find_what_their_multiline_scans_found() -> None:
    """The continuation detector's line patterns, matched at each line start (few lines) or by
    their MULTILINE twin (many): the same matches as the old ``^`` + MULTILINE scans, from any line start."""
    import re

    from diagnosis.continuation import lines as dc

    rng = random.Random(11)
    pieces = [
        "Case 12:",
        "Q1:",
        "Question:",
        "Alice: hi",
        "Bob Smith: yes",
        "Note: x",
        "step 3.",
        "Item #4)",
        " ",
        "\t",
        "\n",
        "\n\n",
        "> ",
        "* ",
        "- ",
        "## ",
        "Problem 999)",
        "Word 1000:",
        "answer",
        ":",
        ".",
        ")",
        "É",
        "x" * 60,
        "User: next",
        "Example 2 :",
        "a\tb 7 .",
        "Dr. Who: ok",
    ]
    cases = 0
    for pattern in (dc.FEW_SHOT_LABEL, dc.SERIES_ITEM, dc.SPEAKER_LINE):
        old = re.compile("^" + pattern.at.pattern, re.MULTILINE)
        for _ in range(1500):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
            starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
            for pos in (0, rng.choice(starts)):
                got = [(m.span(), m.groups()) for m in pattern.finditer(text, pos)]
                assert got == [(m.span(), m.groups()) for m in old.finditer(text, pos)], (text, pos)
                cases += 1
            found = pattern.search(text)
            want = old.search(text)
            assert (found.span() if found else None) == (want.span() if want else None), text
    assert cases > 4000


def test_a_dump_report_reads_again_only_the_lines_of_the_calls_it_quotes(tmp_path) -> None:
    """``report --from FILE``: the failing calls are located by their line's offset, not held,
    and the report is the one made holding them."""
    from application.diagnosis.dump import DumpReading, entries_at, read_calls
    from diagnosis import render_json, render_markdown

    entries, _ = sample()
    path = tmp_path / "dump.jsonl"
    lines = [e.model_dump_json() for e in entries[:300]]
    lines.insert(5, "this line is not JSON")
    lines.insert(9, "[" + ",".join(e.model_dump_json() for e in entries[300:320]) + "]")  # a line of many calls
    lines += [e.model_dump_json() for e in entries[320:]]
    path.write_text("\n".join(lines) + "\n")

    held = diagnose_calls(read_calls(path), model="m", trained_template="chatml", template_source="config")
    reading = DumpReading(path)
    reads: list[dict[str, int]] = []

    def reread(where: dict[str, int]) -> dict[str, LogEntry]:
        reads.append(where)
        return entries_at(path, where)

    located = diagnose_calls(
        read_calls(path, reading),
        model="m",
        trained_template="chatml",
        template_source="config",
        locate=lambda: reading.offset,
        reread=reread,
    )
    assert reading.bad_count == 1 and reading.calls == len(entries)
    assert render_json(located.report) == render_json(held.report)
    assert render_markdown(located.report) == render_markdown(held.report)
    quoted = {q.log_id for s in located.report.suggestions for q in s.prompts}
    asked = {i for where in reads for i in where}
    assert quoted and quoted <= asked and len(asked) < located.kept_calls


def test_operator_and_question_gates_settle_what_their_patterns_find() -> None:
    """The grouping features' exact stand-ins for ``\\d\\s*[ops]\\s*\\d``, ``\\b\\d+\\s*[ops]\\s*\\d+``
    and ``\\?\\s*$`` (lower-cased ASCII text), on fuzzed strings of digits, operators, spaces and word characters."""
    import re

    from diagnosis import features_scan as fs

    loose, bounded = re.compile(r"\d\s*[-+*/×÷^]\s*\d"), re.compile(r"\b\d+\s*[-+*/]\s*\d+")
    question = re.compile(r"\?\s*$")
    rng = random.Random(5)
    alphabet = "0123456789-+*/^ \t\n\x0b\x1c_ax?.,"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert fs._arith_in(text, "-+*/×÷^", False) == (loose.search(text) is not None), repr(text)
        assert fs._arith_in(text, "-+*/", True) == (bounded.search(text) is not None), repr(text)
        assert text.rstrip().endswith("?") == (question.search(text) is not None), repr(text)


def test_the_list_gate_lets_through_every_text_its_pattern_matches() -> None:
    """The "name / give me / suggest N" alternative is tried only when "name ", "give me " or
    "suggest " occurs: fuzzed near misses (other spacing, glued words, other cases) give the
    features the old case-insensitive searches give."""
    rng = random.Random(11)
    parts = ["name", "give", "me", "suggest", "three", "five", "ten", "12", "names", "given", "rename", "Give", "ME"]
    glue = [" ", "  ", "\t", "", "\n", "-", ", "]
    text_features.cache_clear()
    for _ in range(4000):
        text = "".join(rng.choice(parts) + rng.choice(glue) for _ in range(rng.randint(1, 6)))
        assert text_features(text) == reference_text_features(text), repr(text)


def test_digest_counts_are_array_counts_even_where_a_digest_spans_two_items() -> None:
    """``_count_digest`` (a bytes scan) counts what ``array.count`` counts: on random arrays of a
    few values, and on arrays built so that the key's 8 bytes also occur across two items."""
    import sys
    from array import array

    from application.diagnosis.whole import _count_digest

    rng = random.Random(9)
    for _ in range(3000):
        key = rng.getrandbits(64)
        raw = key.to_bytes(8, sys.byteorder)
        values = [key, rng.getrandbits(64), 0, 2**64 - 1]
        for cut in range(1, 8):  # an item ending with the key's first bytes, then one starting with the rest
            values.append(int.from_bytes(bytes(8 - cut) + raw[:cut], sys.byteorder))
            values.append(int.from_bytes(raw[cut:] + bytes(cut), sys.byteorder))
            values.append(int.from_bytes(raw[cut:] + raw[:cut], sys.byteorder))
        digests = array("Q", (rng.choice(values) for _ in range(rng.randint(0, 60))))
        assert _count_digest(digests.tobytes(), key) == digests.count(key)
