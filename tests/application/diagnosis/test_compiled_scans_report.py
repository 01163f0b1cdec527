"""The whole report (JSON and markdown) of a stream of calls is the same with the compiled scans
of diagnosis (diagnosis/_loop_gate.c, _word_scan.c, _text_scan.c) as with their Python twins:
on the simulated world's calls (every kind of failure, chat messages, other templates) and on
the bench's distinct calls (numbered "Case N:" prompts, loops, refusals, cut-offs)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from application.diagnosis.dump import read_calls
from application.diagnosis.whole import diagnose_calls
from diagnosis import detectors_continuation, detectors_refusal, features, loop, loop_words, render_json, render_markdown, text
from tests.support.logs_world import fixed_world_dump

pytest.importorskip("diagnosis._text_scan", reason="the compiled scans are not built (pip install -e .)")


def _report(calls: list, model_id: str) -> tuple[str, str]:
    features.text_features.cache_clear()
    detectors_continuation._series_in_prompt.cache_clear()
    whole = diagnose_calls(iter(calls), model=model_id, trained_template="chatml", template_source="config")
    return render_json(whole.report), render_markdown(whole.report)


def _python_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "_user_turn", text.user_turn_py)
    monkeypatch.setattr(text, "_last_said", (None, None, ""))
    monkeypatch.setattr(detectors_refusal, "_refusal_hints", lambda reply: -1)
    for name, value in (("_prefilter", None), ("_long_suspects", None), ("_trigram_gate", None),
                        ("_periods_of", loop_words.candidate_periods), ("_stripped", loop_words.stripped_py),
                        ("_spans_of", loop_words.token_spans_py), ("_labelled_numbers", loop_words.labelled_numbers_py)):
        monkeypatch.setattr(loop, name, value)
    monkeypatch.setattr(detectors_continuation, "_series_items", detectors_continuation.series_items_py)
    monkeypatch.setattr(detectors_continuation, "_series_gate", None)
    monkeypatch.setattr(detectors_continuation, "_speaker_line", lambda reply: True)
    monkeypatch.setattr(features, "scan_words", None)
    monkeypatch.setattr(features, "first_compiled", None)


def test_the_report_is_the_same_with_the_python_twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_diagnosis

    dump, model_id = fixed_world_dump(tmp_path)
    world = list(read_calls(dump))
    bench = bench_diagnosis.make_calls(4000, seed=9, distinct=True)
    compiled = [_report(world, model_id), _report(bench, "bench")]
    assert '"failing_calls": 0' not in compiled[0][0]
    _python_twins(monkeypatch)
    assert [_report(world, model_id), _report(bench, "bench")] == compiled
