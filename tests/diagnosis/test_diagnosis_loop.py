"""The loop detector: what it reports for real repetition, and the traps it must not fire on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api_client.blahdev.shapes import LogEntry
from diagnosis import classify, find_loop


def test_word_loop_reports_unit_period_repeats_and_start() -> None:
    text = "The answer is no no no no no no no no"
    hit = find_loop(text)
    assert hit is not None
    assert (hit.unit, hit.period, hit.period_unit, hit.level) == ("no", 1, "words", "word")
    assert hit.repeats == 8
    assert hit.start == text.index("no")
    assert text[hit.start : hit.end] == "no no no no no no no no"


def test_sentence_loop_unit_is_quoted_from_the_reply() -> None:
    text = "Sure. " + "The capital of France is Paris. " * 5 + "Bye."
    hit = find_loop(text)
    assert hit is not None
    assert hit.unit == "The capital of France is Paris."
    assert hit.period == 6 and hit.repeats == 5 and hit.level == "sentence"
    assert hit.start == 6


def test_paragraph_loop_cut_inside_third_copy() -> None:
    para = "Lily went to the park with her mom. She saw a big red ball and a small dog that wanted to play.\n\n"
    text = para * 2 + "Lily went to the park with"
    hit = find_loop(text)
    assert hit is not None
    assert hit.repeats == 2 and hit.level == "paragraph"
    assert hit.end == len(text)


def test_paragraph_said_exactly_twice_is_not_a_loop() -> None:
    line = "We are the champions of the little league and we never give up on the field.\n"
    assert find_loop(line * 2) is None


@pytest.mark.parametrize(
    ("text", "unit", "repeats"),
    [
        ("Wow" + "!" * 30, "!", 30),
        ("Yes" + "s" * 20, "s", 21),
        ("ha" * 12, "ha", 12),
        ("😂" * 12, "😂", 12),
    ],
)
def test_character_runs(text: str, unit: str, repeats: int) -> None:
    hit = find_loop(text)
    assert hit is not None
    assert (hit.unit, hit.repeats, hit.period_unit) == (unit, repeats, "chars")


def test_blank_lines_until_the_limit() -> None:
    hit = find_loop("Sure." + "\n" * 50)
    assert hit is not None and hit.level == "whitespace" and hit.repeats == 50


def test_numbered_items_that_repeat_are_a_loop() -> None:
    hit = find_loop("1. Add salt.\n2. Add salt.\n3. Add salt.\n4. Add salt.")
    assert hit is not None and hit.repeats == 4


@pytest.mark.parametrize(
    ("text", "repeats"),
    [
        ("Day 1: I walked. Day 2: I walked. Day 3: I walked. Day 4: I walked. Day 5: I walked.", 5),
        ("Chapter 7\nThe dog ran home.\n\nChapter 8\nThe dog ran home.\n\nChapter 9\nThe dog ran home.", 3),
        ("Step 1: Pull the rope. Step 2: Pull the rope. Step 3: Pull the rope. Step 4: Pull the rope.", 4),
    ],
)
def test_copies_that_differ_only_by_a_counter_are_a_loop(text: str, repeats: int) -> None:
    hit = find_loop(text)
    assert hit is not None and hit.repeats == repeats
    assert hit.start == 0 and text[hit.start : hit.end].rstrip(".") == text.rstrip(".")


@pytest.mark.parametrize(
    "text",
    [
        "Day 1: See the Colosseum.\nDay 2: Visit the Vatican.\nDay 3: Walk around Trastevere.\nDay 4: Rest.",
        "Day 1: Walk 20 minutes.\nDay 2: Walk 25 minutes.\nDay 3: Walk 30 minutes.\nDay 4: Walk 35 minutes.",
        "1 x 1 = 1\n1 x 2 = 2\n1 x 3 = 3\n1 x 4 = 4\n1 x 5 = 5\n1 x 6 = 6\n1 x 7 = 7",
        "| Week | km |\n|---|---|\n| Week 1 | 5 |\n| Week 2 | 5 |\n| Week 3 | 5 |\n| Week 4 | 5 |\n| Week 5 | 5 |",
        "Table 1 lists the inputs. Table 2 lists the outputs. Table 3 lists the costs.",
    ],
)
def test_counters_with_different_copies_are_not_loops(text: str) -> None:
    """Only the counter is folded: an itinerary, a plan that grows, a times table stay clean."""
    assert find_loop(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "1. Apple\n2. Banana\n3. Cherry\n4. Mango\n5. Orange",
        "- Add 1 cup of flour\n- Add 1 cup of milk\n- Add 1 egg\n- Add 1 pinch of salt",
        "| Plan | Sharing |\n|---|---|\n| Free | Yes |\n| Pro | Yes |\n| Team | Yes |\n| Max | Yes |\n| Pro+ | Yes |",
        "| a | 0 | 0 | 0 | 0 | 0 | 0 | 0 |\n| b | 0 | 0 | 0 | 0 | 0 | 0 | 0 |",
        "```python\nprint('-' * 13)\nprint('-' * 13)\nprint('-' * 13)\nx = [0, 0, 0, 0, 0, 0, 0, 0]\n```",
        "x = 0\nx += 1\nx += 1\nx += 1\nprint(x)",
        (
            "Chorus:\nOh my darling, come back home.\n\nVerse:\nRain is falling on the stone.\n\n"
            "Chorus:\nOh my darling, come back home.\n\nVerse:\nStars are hiding in the sky.\n\n"
            "Chorus:\nOh my darling, come back home."
        ),
        "My Heading\n" + "-" * 60 + "\ntext",
        "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
        "The little dog ran and ran and ran and ran until it found home.",
        "It is very very good.",
        "Sooooo good!!! hahaha",
        "See https://docs.example.com/guide/getting-started/installation for details.",
        "0x0000000000000000 is the null address",
    ],
)
def test_traps_are_not_loops(text: str) -> None:
    assert find_loop(text) is None


def test_code_needs_many_more_copies_before_it_counts() -> None:
    assert find_loop("```python\n" + "import os\n" * 4 + "```") is None
    hit = find_loop("```python\n" + "import os\n" * 12 + "```")
    assert hit is not None and hit.repeats == 12


def test_classify_reports_loop_span_and_detail() -> None:
    reply = "Hello! How can I help you today? " * 4
    entry = LogEntry(id="a", created_at=0, prompt="hi", response=reply, finish_reason="stop")
    [finding] = [f for f in classify(entry) if f.kind == "loop"]
    assert finding.detail["unit"] == "Hello! How can I help you today?"
    assert finding.detail["repeats"] == 4 and finding.detail["period"] == 7
    assert finding.span == (0, len(reply.rstrip()))
    assert '"Hello! How can I help you today?"' in finding.evidence and "4 times" in finding.evidence


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_never_crashes_and_spans_stay_inside(text: str) -> None:
    hit = find_loop(text)
    if hit is not None:
        assert 0 <= hit.start < hit.end <= len(text)
        assert hit.repeats >= 2


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="ascii", categories=["L"]), min_size=3, max_size=8), st.integers(8, 20))
def test_any_word_said_many_times_in_a_row_is_found(word: str, times: int) -> None:
    text = "Well, " + " ".join([word] * times)
    hit = find_loop(text)
    assert hit is not None
    assert hit.unit.lower() == word.lower() and hit.repeats == times
