"""Pure diagnosis of a model's calls: no IO, no Textual. Reads ``api_client.models`` only.

Start with :func:`classify` (one call) and :func:`summarize` (many); :mod:`diagnosis.report`
turns everything into the blunt report.
"""

from __future__ import annotations

from . import kinds
from .classify import classify, classify_many, kinds_of
from .finding import Finding
from .health import OutageIndex, OutageWindow, outage_windows
from .judge import Doubt, doubtful_judgements
from .kinds import KIND_INFO, KindInfo, describe
from .loop import LoopHit, find_loop
from .platform import KindAgreement, compare_with_platform
from .report import Report, build_report, render_json
from .report_markdown import render_markdown
from .suggest import (
    PromptQuote,
    Suggestion,
    suggest_training_data,
    to_jsonl,
    to_markdown,
)
from .summary import FailureGroup, HostImpact, KindRate, Summary, summarize
from .templates import (
    detect_template,
    normalize_template,
    resolve_trained_template,
    template_name,
)

__all__ = [
    "KIND_INFO",
    "Doubt",
    "FailureGroup",
    "Finding",
    "HostImpact",
    "KindAgreement",
    "KindInfo",
    "KindRate",
    "LoopHit",
    "OutageIndex",
    "OutageWindow",
    "PromptQuote",
    "Report",
    "Suggestion",
    "Summary",
    "build_report",
    "classify",
    "classify_many",
    "compare_with_platform",
    "describe",
    "detect_template",
    "doubtful_judgements",
    "find_loop",
    "kinds",
    "kinds_of",
    "normalize_template",
    "outage_windows",
    "render_json",
    "render_markdown",
    "resolve_trained_template",
    "suggest_training_data",
    "summarize",
    "template_name",
    "to_jsonl",
    "to_markdown",
]
