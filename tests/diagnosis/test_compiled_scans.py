"""Every compiled function of diagnosis answers what its Python twin answers (Hypothesis
properties over texts made of the pieces each one looks for, and over any text), loaded through
the one place that chooses the path (``diagnosis.compiled``); and that place chooses as it says:
the pure path when asked or when a module is missing or was built from other sources."""

from __future__ import annotations

import hashlib
import os
import string
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diagnosis import compiled, loop, loop_words
from diagnosis import features_scan as fs
from tests.support.compiled_scans import compiled_modules

PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

SPACES = [
    " ",
    " ",
    "\n",
    "\t",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1f",
    "\xa0",
    "\u2003",
    "  ",
    "\n\n\n\n\n",
    " " * 10,
    "\t" * 5,
    "",
]
LOOP_PIECES = [
    "no",
    "the",
    "cat",
    "Milk",
    "1.",
    "(2)",
    "3)",
    "12.",
    "999)",
    "1000.",
    "2.",
    "2)",
    "(12.",
    "Day",
    "day 2",
    "step",
    "haha",
    "!!!!!!!!!!",
    "?!?!?!?!?!?!",
    "abababababababab",
    "AAAAAAAAAAAAAAAAAAAA",
    "photosynthesis",
    "a" * 10,
    "=" * 20,
    "Day 3:",
    "#4",
    "x",
    "é",
    "日本",
]
WORD_PIECES = (
    [p.decode() for p in fs.WORD_START_PREFIXES]
    + sorted(w.decode() for w in fs.LOOKED_UP_WORDS)[::2]
    + [
        "x",
        "_",
        "9",
        "sum_",
        "2sum",
        "c++",
        "```",
        "?",
        "sum of",
        "how many",
        "write a ",
        "name ",
        "give me ",
        "three",
        "3 + 4",
        "7*8",
        "- 2",
        "(5-6)",
        "a1+2",
        "hi",
        "what",
        "in python",
        "once upon",
        "é",
    ]
)


def soup(pieces: list[str]) -> st.SearchStrategy[str]:
    """Texts made of ``pieces`` and separators (what the scans look for, near each other), or any text."""
    made = st.lists(st.tuples(st.sampled_from(pieces), st.sampled_from(SPACES)), max_size=40).map(
        lambda parts: "".join(a + b for a, b in parts)
    )
    return st.one_of(made, made, made, st.text(max_size=80), st.text(string.printable, max_size=200))


@pytest.fixture(name="modules")
def _modules() -> tuple[ModuleType, ModuleType]:
    return compiled_modules()


@PROPERTY
@given(text=soup(LOOP_PIECES))
def test_the_loop_gate_is_its_python_twin(modules: tuple[ModuleType, ModuleType], text: str) -> None:
    got = modules[0].prefilter(text)
    assert got == (loop.prefilter(text) if text.isascii() else None)


@PROPERTY
@given(toks=st.lists(st.sampled_from(LOOP_PIECES + ["a", "b"]), max_size=400))
def test_the_candidate_periods_are_the_python_ones(modules: tuple[ModuleType, ModuleType], toks: list[str]) -> None:
    assert modules[0].candidate_periods(toks, loop_words.MAX_PERIOD) == loop_words.candidate_periods(toks)


@PROPERTY
@given(words=st.lists(st.text(alphabet=loop_words.PUNCT + "ab1é«’ ", max_size=6), max_size=20))
def test_the_stripped_words_are_the_python_ones(modules: tuple[ModuleType, ModuleType], words: list[str]) -> None:
    assert modules[0].strip_tokens(words, loop_words.PUNCT) == loop_words.stripped_py(words)


@PROPERTY
@given(text=soup(LOOP_PIECES))
def test_the_token_spans_and_counters_are_the_python_ones(modules: tuple[ModuleType, ModuleType], text: str) -> None:
    gate = modules[0]
    ascii_text = text.isascii()
    assert gate.token_spans(text) == (loop_words.token_spans_py(text) if ascii_text else None)
    low = text.lower()
    assert gate.labelled_numbers(low) == (loop_words.labelled_numbers_py(low) if low.isascii() else None)


@PROPERTY
@given(text=soup(WORD_PIECES))
def test_the_word_scan_and_first_matches_are_the_python_ones(modules: tuple[ModuleType, ModuleType], text: str) -> None:
    scanner = modules[1]
    folded = text.lower()
    scanned = scanner.scan(folded)
    if not folded.isascii():
        assert scanned is None
        return
    assert scanned is not None
    words, started = scanned
    assert words == fs.looked_up_words(folded)
    assert started == {p for p in fs.WORD_START_PREFIXES if fs._starts_a_word(folded, (p.decode(),))}
    for table in (fs.INSTRUCTION_SCAN, fs.OUTPUT_SCAN, fs.TOPIC_SCAN):
        want = table.first(folded, words, "none")
        assert scanner.first(table.spec, folded, words, started, "none") == want
        assert scanner.first(table.spec, folded, words, None, "none") == want


# --------------------------------------------------------------------------- the choice


def _path_in_child(env: dict[str, str], code: str = "print(describe_scan_path())") -> str:
    program = f"from diagnosis.compiled import describe_scan_path\n{code}"
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    return done.stdout.strip()


def test_the_variable_forces_the_pure_path() -> None:
    env = dict(os.environ, BLAH_TUI_PURE_PYTHON="1")
    assert _path_in_child(env) == "scans: pure Python (BLAH_TUI_PURE_PYTHON=1)"
    assert (
        _path_in_child(
            env,
            "import diagnosis.loop as l, diagnosis.features as f\nprint(l._prefilter, f.scan_words, f.first_compiled)",
        )
        == "None None None"
    )


def test_the_compiled_path_is_taken_when_its_modules_match_their_sources(modules: tuple[ModuleType, ...]) -> None:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_PYTHON_VARIABLE}
    assert _path_in_child(env) == (
        "scans: compiled (diagnosis._loop_gate and diagnosis._word_scan, built from matching sources)"
    )
    for module, name in zip(modules, compiled.COMPILED_MODULES):
        source = Path(compiled.__file__).with_name(f"{name}.c").read_bytes()
        assert hashlib.sha256(source).hexdigest() == module.SOURCE_HASH


def test_a_module_built_from_other_sources_is_refused(
    modules: tuple[ModuleType, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled, "source_hash", lambda name: "0" * 64 if name == "_word_scan" else None)
    with pytest.raises(compiled.CompiledUnusable, match=r"diagnosis\._word_scan was built from older sources"):
        compiled.load_compiled()
    monkeypatch.setattr(compiled, "source_hash", lambda name: None)  # (an install without the .c files)
    assert compiled.load_compiled()[1] is False


def test_a_module_that_is_not_built_gives_the_pure_path_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.PURE_PYTHON_VARIABLE, raising=False)
    monkeypatch.setitem(sys.modules, "diagnosis._loop_gate", None)  # (import raises ImportError)
    modules, description = compiled._choose()
    assert modules is None
    assert description.startswith("pure Python (no compiled module: ")
    assert "diagnosis._loop_gate" in description
