"""A corpus of hostile untrusted text, and checks that rendered output stayed inert.

Every widget that shows model/user text is run over ``HOSTILE`` in the tests. Names are stable
so a failing parametrized test says which payload broke through.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.segment import Segment

ESC = "\x1b"
BEL = "\x07"
ST = ESC + "\\"

# Text that must come out verbatim (no marker, nothing dropped).
VERBATIM: list[tuple[str, str]] = [
    ("emoji", "Great job 😀🎉👍 — naïve café ✓"),
    ("cjk", "模型回答：北京是中国的首都。日本語のテキスト、한국어 텍스트"),
    ("markup-looking-plain", "a[0] = b[i][j] and x[1:2]; see [note] (fine)"),
]

HOSTILE: list[tuple[str, str]] = [
    ("osc52-bel", f"copy this{ESC}]52;c;ZWNobyBwd25lZA=={BEL} please"),
    ("osc52-st", f"copy this{ESC}]52;c;ZWNobyBwd25lZA=={ST} please"),
    ("osc8-link", f"{ESC}]8;;https://evil.example/{ST}click me{ESC}]8;;{ST}"),
    ("osc0-title", f"{ESC}]0;pwned title{BEL}normal reply"),
    ("osc2-title", f"{ESC}]2;pwned title{ST}normal reply"),
    ("title-report", f"{ESC}[21t"),
    ("csi-clear", f"before{ESC}[2J{ESC}[3Jafter"),
    ("cursor-home", f"{ESC}[Hoverwrite top-left"),
    ("cursor-up", f"line{ESC}[10Aten lines up"),
    ("sgr-colour", f"{ESC}[31;1mred bold{ESC}[0m"),
    ("c1-csi-clear", "before\x9b2Jafter"),
    ("c1-osc-title", "\x9d0;title\x9cafter"),
    ("dcs", f"{ESC}Pq#0;2;0;0;0#1;2;100;100;0{ST}after"),
    ("apc", f"{ESC}_Gf=100;payload{ST}after"),
    ("unterminated-osc", f"{ESC}]52;c;AAAA and then the normal answer continues here"),
    ("bare-cr", "safe\rEVIL"),
    ("crlf", "line one\r\nline two\r\n"),
    ("markup-click", "[@click=app.quit]x[/]"),
    ("markup-close", "[/]"),
    ("markup-link", "[link=https://evil]x[/link]"),
    ("markup-style", "[bold red]shouting[/bold red] [reverse]"),
    ("markup-dismiss", "[@click=screen.dismiss()]close[/]"),
    ("markup-textual-var", "[$accent]theme var[/] [on $error]bg[/]"),
    ("markup-backslash", "\\[bold]not bold\\"),
    ("bidi-override", "user\u202egnp.exe\u202c is safe \u2066x\u2069 \u200f\u061c"),
    ("zero-width", "pass\u200bword\u200c\u200d\u2060\ufeff"),
    ("tag-chars", "hi\U000e0049\U000e0047\U000e004e\U000e004f\U000e0052\U000e0045 there"),
    ("one-mb-line", "A" * 1_000_000),
    ("nul-bytes", "nul\x00in\x00the\x00middle"),
    ("del", "delete\x7fme"),
    ("backspace", "secret\x08\x08\x08\x08\x08\x08public"),
    ("bell-alone", "ding\x07dong"),
    ("vt-ff", "vertical\x0btab and form\x0cfeed"),
    ("lone-surrogate", "broken \ud83d pair"),
    *VERBATIM,
]

# SGR colour codes Rich emits: ESC [ params m
_SGR = re.compile(r"\x1b\[[0-9;:]*m")
# Cursor positioning Textual's compositor emits between lines: ESC [ row ; col H
_CUP = re.compile(r"\x1b\[\d+;\d+H")
_C1 = re.compile("[\x80-\x9f]")


def assert_inert(rendered: str, *, allow_cursor_position: bool = False) -> None:
    """Fail if ``rendered`` could make a terminal do anything but print text.

    Allowed: SGR (``ESC[...m``) and, with ``allow_cursor_position`` (for a whole Textual frame),
    the ``ESC[row;colH`` moves the compositor itself writes. Anything else fails: another
    ESC sequence (OSC, DCS, APC, CSI clear/moves), BEL, a C1 byte, CR, backspace, NUL or DEL.
    """
    stripped = _SGR.sub("", rendered)
    if allow_cursor_position:
        stripped = _CUP.sub("", stripped)
    for bad, name in (
        (ESC, "ESC"),
        (BEL, "BEL"),
        ("\r", "CR"),
        ("\x08", "BS"),
        ("\x00", "NUL"),
        ("\x7f", "DEL"),
    ):
        index = stripped.find(bad)
        assert index < 0, f"raw {name} at {index}: {stripped[max(0, index - 20) : index + 20]!r}"
    match = _C1.search(stripped)
    assert match is None, f"raw C1 byte {match.group()!r} at {match.start()}"


def assert_segments_inert(segments: Iterable[Segment]) -> None:
    """Fail if any segment carries a clickable action, a link, or un-inert text."""
    for segment in segments:
        style = segment.style
        if style is not None:
            meta = style.meta or {}
            assert "@click" not in meta, f"clickable action in {segment!r}"
            assert not style.link, f"hyperlink in {segment!r}"
        if segment.control:
            raise AssertionError(f"control segment {segment!r}")
        assert_inert(segment.text)
