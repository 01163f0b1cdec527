"""The whole report (JSON and markdown) of a stream of calls is byte for byte the same on the
compiled path of diagnosis (diagnosis/_loop_gate.c, _word_scan.c) as on the pure-Python path:
on the simulated world's calls (every kind of failure, chat messages, other templates) and on
the bench's distinct calls (numbered "Case N:" prompts, loops, refusals, cut-offs). Each path
runs in its own process, chosen as a person chooses it (``BLAH_TUI_PURE_PYTHON``), so the test
goes through the one place that chooses (``diagnosis.compiled``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from diagnosis.compiled import PURE_PYTHON_VARIABLE
from tests.support.compiled_scans import compiled_modules
from tests.support.logs_world import fixed_world_dump

ROOT = Path(__file__).resolve().parents[3]

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[3])
import bench_diagnosis
from application.diagnosis.dump import read_calls
from application.diagnosis.whole import diagnose_calls
from diagnosis import render_json, render_markdown
from diagnosis.compiled import describe_scan_path

def report(calls, model_id):
    whole = diagnose_calls(iter(calls), model=model_id, trained_template="chatml", template_source="config")
    return [render_json(whole.report), render_markdown(whole.report)]

world = list(read_calls(sys.argv[1]))
bench = bench_diagnosis.make_calls(4000, seed=9, distinct=True)
print(json.dumps({"path": describe_scan_path(), "reports": [report(world, sys.argv[2]), report(bench, "bench")]}))
"""


def _reports(dump: Path, model_id: str, *, pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON_VARIABLE}
    if pure:
        env[PURE_PYTHON_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(dump), model_id, str(ROOT / "tests" / "bench")],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
        timeout=110,
    )
    return json.loads(done.stdout)


def test_the_report_is_the_same_on_the_compiled_and_the_pure_path(tmp_path: Path) -> None:
    compiled_modules()  # (skips where they are not built, fails in CI)
    dump, model_id = fixed_world_dump(tmp_path)
    compiled = _reports(dump, model_id, pure=False)
    pure = _reports(dump, model_id, pure=True)
    assert str(compiled["path"]).startswith("scans: compiled (")
    assert pure["path"] == f"scans: pure Python ({PURE_PYTHON_VARIABLE}=1)"
    assert '"failing_calls": 0' not in compiled["reports"][0][0]  # type: ignore[index]
    assert pure["reports"] == compiled["reports"]
