"""Pure diagnosis of a model's calls: no IO, no Textual, no client. Reads the product's own records
(``common.records``: a ``Call``, a ``Rollout``) and, as Protocols (``diagnosis.inputs``), what it
needs of the platform's other records; an import-linter contract forbids ``api_client`` here.

Start with :func:`classify` (one call) and :func:`summarize` (many); :mod:`diagnosis.report`
turns everything into the blunt report.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Names are loaded from their module on first use (PEP 562), so that importing one small
# module of the package does not compile every detector's patterns.
_WHERE: dict[str, str] = {
    "kinds": "",
    "classify": "classifier",
    "classify_many": "classifier",
    "kinds_of": "classifier",
    "Finding": "finding",
    "OutageIndex": "health",
    "OutageWindow": "health",
    "outage_windows": "health",
    "Doubt": "judge",
    "doubtful_judgements": "judge",
    "KIND_INFO": "kinds",
    "KindInfo": "kinds",
    "describe": "kinds",
    "LoopHit": "loop",
    "find_loop": "loop",
    "KindAgreement": "platform",
    "compare_with_platform": "platform",
    "Report": "report",
    "build_report": "report",
    "render_json": "report",
    "render_markdown": "report_markdown",
    "PromptQuote": "suggest",
    "Suggestion": "suggest",
    "suggest_training_data": "suggest",
    "to_jsonl": "suggest",
    "to_markdown": "suggest",
    "FailureGroup": "summary",
    "HostImpact": "summary",
    "KindRate": "summary",
    "Summary": "summary",
    "summarize": "summary",
    "detect_template": "templates",
    "normalize_template": "templates",
    "resolve_trained_template": "templates",
    "template_name": "templates",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = import_module(f"{__name__}.{where or name}")
    if where:
        value = getattr(value, name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from . import kinds
    from .classifier import classify, classify_many, kinds_of
    from .finding import Finding
    from .health import OutageIndex, OutageWindow, outage_windows
    from .judge import Doubt, doubtful_judgements
    from .kinds import KIND_INFO, KindInfo, describe
    from .loop import LoopHit, find_loop
    from .platform import KindAgreement, compare_with_platform
    from .report import Report, build_report, render_json
    from .report_markdown import render_markdown
    from .suggest import PromptQuote, Suggestion, suggest_training_data, to_jsonl, to_markdown
    from .summary import FailureGroup, HostImpact, KindRate, Summary, summarize
    from .templates import detect_template, normalize_template, resolve_trained_template, template_name

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
