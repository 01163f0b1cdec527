"""The one table of characters that must never reach a terminal or a report raw.

Untrusted text (prompts, replies, judge reasoning, names) is shown by the app
(``widgets/safe_text.py``) and written into markdown reports (``diagnosis/markdown.py``); both
escape the same characters, listed here (this module is pure Python so both layers can use it):

- every code point whose Unicode general category is Cc (C0 and C1 controls, DEL), Cf (format:
  bidi controls such as U+202E and U+061C, zero-width characters, soft hyphen, tag characters
  U+E0001-E007F), Zl (U+2028), Zp (U+2029), Co (private use), Cs (surrogates) or Cn (unassigned,
  including the noncharacters U+FFFE/U+FFFF);
- newline and tab only where the caller does not keep them (``keep``).

The table is generated from Unicode 14.0.0 (Python 3.11's ``unicodedata``, the oldest this
project runs on): later versions only assign code points that were Cn here, so on a newer Python
the table still covers every unsafe character (a newly assigned letter is escaped, never a new
format character let through). ``tests/common/test_sanitize.py`` walks every code point against it;
``python -m common.unsafe_chars`` prints the table again from the running Python.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import cache

UNICODE_VERSION = "14.0.0"
UNSAFE_CATEGORIES: frozenset[str] = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
#: Newline and tab: kept by callers that lay text out on lines, escaped by the rest.
LAYOUT = "\n\t"

#: Inclusive ranges of code points (hex) in ``UNSAFE_CATEGORIES`` under ``UNICODE_VERSION``.
_TABLE = """
0000-001F 007F-009F 00AD 0378-0379 0380-0383 038B 038D 03A2 0530 0557-0558 058B-058C 0590 05C8-05CF 05EB-05EE
05F5-0605 061C 06DD 070E-070F 074B-074C 07B2-07BF 07FB-07FC 082E-082F 083F 085C-085D 085F 086B-086F 088F-0897
08E2 0984 098D-098E 0991-0992 09A9 09B1 09B3-09B5 09BA-09BB 09C5-09C6 09C9-09CA 09CF-09D6 09D8-09DB 09DE
09E4-09E5 09FF-0A00 0A04 0A0B-0A0E 0A11-0A12 0A29 0A31 0A34 0A37 0A3A-0A3B 0A3D 0A43-0A46 0A49-0A4A 0A4E-0A50
0A52-0A58 0A5D 0A5F-0A65 0A77-0A80 0A84 0A8E 0A92 0AA9 0AB1 0AB4 0ABA-0ABB 0AC6 0ACA 0ACE-0ACF 0AD1-0ADF
0AE4-0AE5 0AF2-0AF8 0B00 0B04 0B0D-0B0E 0B11-0B12 0B29 0B31 0B34 0B3A-0B3B 0B45-0B46 0B49-0B4A 0B4E-0B54
0B58-0B5B 0B5E 0B64-0B65 0B78-0B81 0B84 0B8B-0B8D 0B91 0B96-0B98 0B9B 0B9D 0BA0-0BA2 0BA5-0BA7 0BAB-0BAD
0BBA-0BBD 0BC3-0BC5 0BC9 0BCE-0BCF 0BD1-0BD6 0BD8-0BE5 0BFB-0BFF 0C0D 0C11 0C29 0C3A-0C3B 0C45 0C49 0C4E-0C54
0C57 0C5B-0C5C 0C5E-0C5F 0C64-0C65 0C70-0C76 0C8D 0C91 0CA9 0CB4 0CBA-0CBB 0CC5 0CC9 0CCE-0CD4 0CD7-0CDC 0CDF
0CE4-0CE5 0CF0 0CF3-0CFF 0D0D 0D11 0D45 0D49 0D50-0D53 0D64-0D65 0D80 0D84 0D97-0D99 0DB2 0DBC 0DBE-0DBF
0DC7-0DC9 0DCB-0DCE 0DD5 0DD7 0DE0-0DE5 0DF0-0DF1 0DF5-0E00 0E3B-0E3E 0E5C-0E80 0E83 0E85 0E8B 0EA4 0EA6
0EBE-0EBF 0EC5 0EC7 0ECE-0ECF 0EDA-0EDB 0EE0-0EFF 0F48 0F6D-0F70 0F98 0FBD 0FCD 0FDB-0FFF 10C6 10C8-10CC
10CE-10CF 1249 124E-124F 1257 1259 125E-125F 1289 128E-128F 12B1 12B6-12B7 12BF 12C1 12C6-12C7 12D7 1311
1316-1317 135B-135C 137D-137F 139A-139F 13F6-13F7 13FE-13FF 169D-169F 16F9-16FF 1716-171E 1737-173F 1754-175F
176D 1771 1774-177F 17DE-17DF 17EA-17EF 17FA-17FF 180E 181A-181F 1879-187F 18AB-18AF 18F6-18FF 191F 192C-192F
193C-193F 1941-1943 196E-196F 1975-197F 19AC-19AF 19CA-19CF 19DB-19DD 1A1C-1A1D 1A5F 1A7D-1A7E 1A8A-1A8F
1A9A-1A9F 1AAE-1AAF 1ACF-1AFF 1B4D-1B4F 1B7F 1BF4-1BFB 1C38-1C3A 1C4A-1C4C 1C89-1C8F 1CBB-1CBC 1CC8-1CCF
1CFB-1CFF 1F16-1F17 1F1E-1F1F 1F46-1F47 1F4E-1F4F 1F58 1F5A 1F5C 1F5E 1F7E-1F7F 1FB5 1FC5 1FD4-1FD5 1FDC
1FF0-1FF1 1FF5 1FFF 200B-200F 2028-202E 2060-206F 2072-2073 208F 209D-209F 20C1-20CF 20F1-20FF 218C-218F
2427-243F 244B-245F 2B74-2B75 2B96 2CF4-2CF8 2D26 2D28-2D2C 2D2E-2D2F 2D68-2D6E 2D71-2D7E 2D97-2D9F 2DA7 2DAF
2DB7 2DBF 2DC7 2DCF 2DD7 2DDF 2E5E-2E7F 2E9A 2EF4-2EFF 2FD6-2FEF 2FFC-2FFF 3040 3097-3098 3100-3104 3130 318F
31E4-31EF 321F A48D-A48F A4C7-A4CF A62C-A63F A6F8-A6FF A7CB-A7CF A7D2 A7D4 A7DA-A7F1 A82D-A82F A83A-A83F
A878-A87F A8C6-A8CD A8DA-A8DF A954-A95E A97D-A97F A9CE A9DA-A9DD A9FF AA37-AA3F AA4E-AA4F AA5A-AA5B AAC3-AADA
AAF7-AB00 AB07-AB08 AB0F-AB10 AB17-AB1F AB27 AB2F AB6C-AB6F ABEE-ABEF ABFA-ABFF D7A4-D7AF D7C7-D7CA D7FC-F8FF
FA6E-FA6F FADA-FAFF FB07-FB12 FB18-FB1C FB37 FB3D FB3F FB42 FB45 FBC3-FBD2 FD90-FD91 FDC8-FDCE FDD0-FDEF
FE1A-FE1F FE53 FE67 FE6C-FE6F FE75 FEFD-FF00 FFBF-FFC1 FFC8-FFC9 FFD0-FFD1 FFD8-FFD9 FFDD-FFDF FFE7 FFEF-FFFB
FFFE-FFFF 1000C 10027 1003B 1003E 1004E-1004F 1005E-1007F 100FB-100FF 10103-10106 10134-10136 1018F
1019D-1019F 101A1-101CF 101FE-1027F 1029D-1029F 102D1-102DF 102FC-102FF 10324-1032C 1034B-1034F 1037B-1037F
1039E 103C4-103C7 103D6-103FF 1049E-1049F 104AA-104AF 104D4-104D7 104FC-104FF 10528-1052F 10564-1056E 1057B
1058B 10593 10596 105A2 105B2 105BA 105BD-105FF 10737-1073F 10756-1075F 10768-1077F 10786 107B1 107BB-107FF
10806-10807 10809 10836 10839-1083B 1083D-1083E 10856 1089F-108A6 108B0-108DF 108F3 108F6-108FA 1091C-1091E
1093A-1093E 10940-1097F 109B8-109BB 109D0-109D1 10A04 10A07-10A0B 10A14 10A18 10A36-10A37 10A3B-10A3E
10A49-10A4F 10A59-10A5F 10AA0-10ABF 10AE7-10AEA 10AF7-10AFF 10B36-10B38 10B56-10B57 10B73-10B77 10B92-10B98
10B9D-10BA8 10BB0-10BFF 10C49-10C7F 10CB3-10CBF 10CF3-10CF9 10D28-10D2F 10D3A-10E5F 10E7F 10EAA 10EAE-10EAF
10EB2-10EFF 10F28-10F2F 10F5A-10F6F 10F8A-10FAF 10FCC-10FDF 10FF7-10FFF 1104E-11051 11076-1107E 110BD
110C3-110CF 110E9-110EF 110FA-110FF 11135 11148-1114F 11177-1117F 111E0 111F5-111FF 11212 1123F-1127F 11287
11289 1128E 1129E 112AA-112AF 112EB-112EF 112FA-112FF 11304 1130D-1130E 11311-11312 11329 11331 11334 1133A
11345-11346 11349-1134A 1134E-1134F 11351-11356 11358-1135C 11364-11365 1136D-1136F 11375-113FF 1145C
11462-1147F 114C8-114CF 114DA-1157F 115B6-115B7 115DE-115FF 11645-1164F 1165A-1165F 1166D-1167F 116BA-116BF
116CA-116FF 1171B-1171C 1172C-1172F 11747-117FF 1183C-1189F 118F3-118FE 11907-11908 1190A-1190B 11914 11917
11936 11939-1193A 11947-1194F 1195A-1199F 119A8-119A9 119D8-119D9 119E5-119FF 11A48-11A4F 11AA3-11AAF
11AF9-11BFF 11C09 11C37 11C46-11C4F 11C6D-11C6F 11C90-11C91 11CA8 11CB7-11CFF 11D07 11D0A 11D37-11D39 11D3B
11D3E 11D48-11D4F 11D5A-11D5F 11D66 11D69 11D8F 11D92 11D99-11D9F 11DAA-11EDF 11EF9-11FAF 11FB1-11FBF
11FF2-11FFE 1239A-123FF 1246F 12475-1247F 12544-12F8F 12FF3-12FFF 1342F-143FF 14647-167FF 16A39-16A3F 16A5F
16A6A-16A6D 16ABF 16ACA-16ACF 16AEE-16AEF 16AF6-16AFF 16B46-16B4F 16B5A 16B62 16B78-16B7C 16B90-16E3F
16E9B-16EFF 16F4B-16F4E 16F88-16F8E 16FA0-16FDF 16FE5-16FEF 16FF2-16FFF 187F8-187FF 18CD6-18CFF 18D09-1AFEF
1AFF4 1AFFC 1AFFF 1B123-1B14F 1B153-1B163 1B168-1B16F 1B2FC-1BBFF 1BC6B-1BC6F 1BC7D-1BC7F 1BC89-1BC8F
1BC9A-1BC9B 1BCA0-1CEFF 1CF2E-1CF2F 1CF47-1CF4F 1CFC4-1CFFF 1D0F6-1D0FF 1D127-1D128 1D173-1D17A 1D1EB-1D1FF
1D246-1D2DF 1D2F4-1D2FF 1D357-1D35F 1D379-1D3FF 1D455 1D49D 1D4A0-1D4A1 1D4A3-1D4A4 1D4A7-1D4A8 1D4AD 1D4BA
1D4BC 1D4C4 1D506 1D50B-1D50C 1D515 1D51D 1D53A 1D53F 1D545 1D547-1D549 1D551 1D6A6-1D6A7 1D7CC-1D7CD
1DA8C-1DA9A 1DAA0 1DAB0-1DEFF 1DF1F-1DFFF 1E007 1E019-1E01A 1E022 1E025 1E02B-1E0FF 1E12D-1E12F 1E13E-1E13F
1E14A-1E14D 1E150-1E28F 1E2AF-1E2BF 1E2FA-1E2FE 1E300-1E7DF 1E7E7 1E7EC 1E7EF 1E7FF 1E8C5-1E8C6 1E8D7-1E8FF
1E94C-1E94F 1E95A-1E95D 1E960-1EC70 1ECB5-1ED00 1ED3E-1EDFF 1EE04 1EE20 1EE23 1EE25-1EE26 1EE28 1EE33 1EE38
1EE3A 1EE3C-1EE41 1EE43-1EE46 1EE48 1EE4A 1EE4C 1EE50 1EE53 1EE55-1EE56 1EE58 1EE5A 1EE5C 1EE5E 1EE60 1EE63
1EE65-1EE66 1EE6B 1EE73 1EE78 1EE7D 1EE7F 1EE8A 1EE9C-1EEA0 1EEA4 1EEAA 1EEBC-1EEEF 1EEF2-1EFFF 1F02C-1F02F
1F094-1F09F 1F0AF-1F0B0 1F0C0 1F0D0 1F0F6-1F0FF 1F1AE-1F1E5 1F203-1F20F 1F23C-1F23F 1F249-1F24F 1F252-1F25F
1F266-1F2FF 1F6D8-1F6DC 1F6ED-1F6EF 1F6FD-1F6FF 1F774-1F77F 1F7D9-1F7DF 1F7EC-1F7EF 1F7F1-1F7FF 1F80C-1F80F
1F848-1F84F 1F85A-1F85F 1F888-1F88F 1F8AE-1F8AF 1F8B2-1F8FF 1FA54-1FA5F 1FA6E-1FA6F 1FA75-1FA77 1FA7D-1FA7F
1FA87-1FA8F 1FAAD-1FAAF 1FABB-1FABF 1FAC6-1FACF 1FADA-1FADF 1FAE8-1FAEF 1FAF7-1FAFF 1FB93 1FBCB-1FBEF
1FBFA-1FFFF 2A6E0-2A6FF 2B739-2B73F 2B81E-2B81F 2CEA2-2CEAF 2EBE1-2F7FF 2FA1E-2FFFF 3134B-E00FF E01F0-10FFFF
"""


def _parse(table: str) -> tuple[tuple[int, int], ...]:
    ranges = []
    for item in table.split():
        low, _, high = item.partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    return tuple(ranges)


UNSAFE_RANGES: tuple[tuple[int, int], ...] = _parse(_TABLE)
_ASTRAL = [r for r in UNSAFE_RANGES if r[1] >= 0x10000]
_ASTRAL_STARTS = [max(low, 0x10000) for low, _ in _ASTRAL]


def is_unsafe(char: str, keep: str = "") -> bool:
    """Whether one character must be escaped (``keep``: characters the caller lets through)."""
    if char in keep:
        return False
    code = ord(char)
    at = bisect_right(UNSAFE_RANGES, (code, 0x10FFFF)) - 1
    return at >= 0 and UNSAFE_RANGES[at][0] <= code <= UNSAFE_RANGES[at][1]


@cache
def _pattern(keep: str) -> re.Pattern[str]:
    """One character class: the table's BMP ranges (minus ``keep``) plus every astral code point.

    Astral matches are checked against the table by :func:`_astral_unsafe` (a class with the
    table's 350 astral ranges makes the regex engine walk them for every character: 100x slower).
    """
    parts: list[str] = []
    for low, high in UNSAFE_RANGES:
        if low >= 0x10000:
            break
        high = min(high, 0xFFFF)
        start = low
        for code in range(low, high + 1) if any(low <= ord(k) <= high for k in keep) else ():
            if chr(code) in keep:
                if start < code:
                    parts.append(_span(start, code - 1))
                start = code + 1
        if start <= high:
            parts.append(_span(start, high))
    return re.compile("[" + "".join(parts) + "\U00010000-\U0010ffff]")


def _span(low: int, high: int) -> str:
    return f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}"


def _astral_unsafe(code: int) -> bool:
    at = bisect_right(_ASTRAL_STARTS, code) - 1
    return at >= 0 and max(_ASTRAL[at][0], 0x10000) <= code <= _ASTRAL[at][1]


def _plain(text: str, keep: str = "") -> bool:
    """Printable ASCII only (most names, ids and labels), apart from characters of ``keep``
    (a prompt's line breaks where the caller keeps them): nothing to escape (the table's ASCII
    part is the controls, newline and tab among them), and no need to compile the character
    class (~5 ms per ``keep``: the Logs screen's first rows, whose prompts hold line breaks,
    compiled it before their first frame) or to run it."""
    if not text.isascii():
        return False
    if text.isprintable():
        return True
    return bool(keep) and text.translate(_dropping(keep)).isprintable()


@cache
def _dropping(keep: str) -> dict[int, None]:
    """A ``str.translate`` table removing the characters of ``keep``."""
    return dict.fromkeys(map(ord, keep))


def unsafe_positions(text: str, keep: str = "") -> Iterator[int]:
    """Where ``text`` holds a character to escape, left to right."""
    if _plain(text, keep):
        return
    for match in _pattern(keep).finditer(text):
        start = match.start()
        char = text[start]
        if char <= "\uffff" or _astral_unsafe(ord(char)):
            yield start


def has_unsafe(text: str, keep: str = "") -> bool:
    """Whether ``text`` holds any character to escape."""
    if _plain(text, keep):
        return False
    if text.isascii():
        return _pattern(keep).search(text) is not None
    return next(unsafe_positions(text, keep), None) is not None


def replace_unsafe(text: str, marker: Callable[[str], str], keep: str = "") -> str:
    """``text`` with every character to escape replaced by ``marker(char)``."""
    if _plain(text, keep):
        return text

    def one(match: re.Match[str]) -> str:
        char = match.group()
        return marker(char) if char <= "\uffff" or _astral_unsafe(ord(char)) else char

    return _pattern(keep).sub(one, text)


def build_ranges() -> list[tuple[int, int]]:
    """The table as the running Python's ``unicodedata`` sees it (slow: every code point)."""
    import unicodedata

    ranges: list[tuple[int, int]] = []
    start: int | None = None
    for code in range(0x110000):
        unsafe = unicodedata.category(chr(code)) in UNSAFE_CATEGORIES
        if unsafe and start is None:
            start = code
        elif not unsafe and start is not None:
            ranges.append((start, code - 1))
            start = None
    if start is not None:
        ranges.append((start, 0x10FFFF))
    return ranges


def main() -> None:
    import unicodedata

    print(f"# Unicode {unicodedata.unidata_version}")
    line = ""
    for low, high in build_ranges():
        item = f"{low:04X}" if low == high else f"{low:04X}-{high:04X}"
        if len(line) + len(item) + 1 > 110:
            print(line)
            line = ""
        line = f"{line} {item}".strip()
    print(line)


if __name__ == "__main__":
    main()
