"""One scan per text for the grouping features: the keyword patterns of ``diagnosis.features``
split into whole words (looked up in the text's set of words) and the few alternatives that are
not whole words (prefixes, phrases, symbols), each behind a cheap test that every one of its
matches passes (a substring that must occur in the text).

For ASCII text, lower-cased, this finds exactly what the case-insensitive patterns of
``features`` find (tests/diagnosis/test_diagnosis_stream.py checks both on every sample text and on word
soup made of every keyword): ``\\bword\\b`` matches a text exactly when ``word`` (letters only) is
one of the text's maximal runs of word characters, and a gated pattern is searched only where
its gate says it could match. The text is read once by ``findall(r"\\w+")`` and a handful of
substring tests, instead of 22 case-insensitive scans (about 6x faster on distinct prompts).
Non-ASCII text keeps the case-insensitive patterns (Unicode case folding is not ``lower()``).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from .compiled import word_scan as _word_scan

__all__ = [
    "INSTRUCTION_RULES",
    "INSTRUCTION_SCAN",
    "OUTPUT_RULES",
    "OUTPUT_SCAN",
    "TOPIC_RULES",
    "TOPIC_SCAN",
    "WORD_START_PREFIXES",
    "Rule",
    "first_compiled",
    "first_rule",
    "looked_up_words",
    "scan_words",
    "words_of",
]

# ASCII bytes that are not word characters (``\w`` on ASCII text, lower-cased: a-z, 0-9, _) become
# spaces: the words are then one ``bytes.translate`` and one ``split`` (both C loops) away.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")
_NON_WORD_TO_SPACE = bytes(c if c in _WORD_BYTES else 32 for c in range(256))
_HAS_DIGIT = re.compile(r"\d")


#: Gates: a frozenset of words (one of them must be a word of the text), a tuple of substrings
#: (one must occur), ``_DIGIT`` (the text has a digit) or ``_START`` (an anchored pattern: one
#: ``.match`` attempt at the start, no gate needed).
_DIGIT = "digit"


class _DigitAnd(tuple[str, ...]):
    """A gate: the text has a digit and one of these characters (an arithmetic operator). Every
    "Case 12:" prompt has a digit, so a digit alone lets the operator pattern scan most texts."""


def _arith(ops: str) -> _DigitAnd:
    return _DigitAnd(ops)


class _WordStart(tuple[str, ...]):
    r"""A gate that settles its pattern alone: the pattern is ``\b`` and these alternatives
    (``\b(?:math|sum|...)``, nothing after them), i.e. one of them occurs where no word
    character precedes it. Found by ``str.find`` and a look at the character before, instead of
    a regex scan that tries the ``\b`` at every position of the text."""


def _word_start(*prefixes: str) -> _WordStart:
    assert all(p[:1].isalnum() for p in prefixes)  # so ``\b`` before one means: no word character before it
    return _WordStart(prefixes)


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # ``\w`` in lower-cased ASCII text
_DIGITS = frozenset("0123456789")  # ``\d`` in ASCII text
_SPACES = frozenset(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")  # ``\s`` in ASCII text (what str.isspace says)

#: A gate that settles ``\?\s*$`` alone: the text, without trailing whitespace, ends with "?".
_QUESTION_END = "question end"


class _Arith(tuple[Any, ...]):  # (operators, bounded); a Gate where tuple[str, ...] is one
    r"""A gate that settles an operator pattern alone, ``\d\s*[ops]\s*\d`` or (``bounded``)
    ``\b\d+\s*[ops]\s*\d+``: (operators, bounded). Each operator found is looked at: a digit
    after it past whitespace, and one before it past whitespace (whose run of digits, when
    bounded, starts the text or follows a character that is not a word character). No regex
    scan of the text: every "Case 12:" prompt has a digit, and most have a hyphen."""

    def __new__(cls, ops: str, bounded: bool) -> _Arith:
        return super().__new__(cls, (ops, bounded))


def _arith_in(folded: str, ops: str, bounded: bool) -> bool:
    end = len(folded)
    for op in ops:
        at = folded.find(op)
        while at != -1:
            right = at + 1
            while right < end and folded[right] in _SPACES:
                right += 1
            if right < end and folded[right] in _DIGITS:
                left = at - 1
                while left >= 0 and folded[left] in _SPACES:
                    left -= 1
                if left >= 0 and folded[left] in _DIGITS:
                    if not bounded:
                        return True
                    while left > 0 and folded[left - 1] in _DIGITS:
                        left -= 1
                    if left == 0 or folded[left - 1] not in _WORD_CHARS:
                        return True
            at = folded.find(op, at + 1)
    return False


def _starts_a_word(folded: str, prefixes: tuple[str, ...]) -> bool:
    for prefix in prefixes:
        at = folded.find(prefix)
        while at != -1:
            if at == 0 or folded[at - 1] not in _WORD_CHARS:
                return True
            at = folded.find(prefix, at + 1)
    return False


_START = "start"
Gate = frozenset[bytes] | tuple[str, ...] | str  # or a _DigitAnd (below)
#: One gated alternative of a table: (rule index, gate kind, gate, pattern). The gate's and the
#: pattern's types follow the kind (``_Scanner.first`` dispatches on it), hence Any.
GatedAlternative = tuple[int, int, Any, Any]


@dataclass(frozen=True, slots=True)
class Rule:
    """A category: whole ``words`` and ``gated`` alternatives (gate, pattern)."""

    name: str
    words: frozenset[bytes]
    gated: tuple[tuple[Gate, re.Pattern[str]], ...]


def _rule(name: str, words: str = "", *gated: tuple[Gate, str]) -> Rule:
    return Rule(name, _w(words), tuple((gate, re.compile(pattern)) for gate, pattern in gated))


def _w(words: str) -> frozenset[bytes]:
    return frozenset(word.encode("ascii") for word in words.split())


INSTRUCTION_RULES: tuple[Rule, ...] = (
    _rule(
        "translate",
        "",
        (
            _word_start(
                "translat",
            ),
            r"\btranslat",
        ),
        (
            _w("french german spanish italian japanese chinese english portuguese dutch russian korean"),
            r"\bin(?:to)? (?:french|german|spanish|italian|japanese|chinese|english|portuguese|dutch|russian|korean)\b",
        ),
    ),
    _rule(
        "summarise",
        "",
        (
            _word_start(
                "summar",
            ),
            r"\bsummar",
        ),
        (_w("dr tldr"), r"\btl;?dr\b"),
        (_w("sentence sentences"), r"\bin (?:one|two|three|a few) sentences?\b"),
        (_w("points"), r"\bkey points\b"),
    ),
    _rule(
        "classify",
        "sentiment",
        (
            _word_start(
                "classif",
            ),
            r"\bclassif",
        ),
        (_word_start("categoris", "categoriz"), r"\bcategori[sz]"),
        (_w("label tag"), r"\b(?:label|tag) (?:this|the|each)\b"),
        (_w("positive negative spam"), r"\bis (?:this|the following) (?:positive|negative|spam)\b"),
    ),
    _rule(
        "code",
        "python javascript typescript rust java sql bash regex html css "
        "function code program script class method bug compile",
        (("```",), r"```"),
        (_w("c"), r"\bc\+\+\b"),
    ),
    _rule(
        "maths",
        "calculate solve equation percent math maths arithmetic divided multiplied integer fraction",
        (_Arith("-+*/×÷^", False), r"\d\s*[-+*/×÷^]\s*\d"),
        (("sum of", "product of", "how many", "how much"), r"\b(?:sum of|product of|how many|how much)\b"),
    ),
    _rule(
        "creative",
        "story poem haiku song lyrics limerick joke imagine",
        (
            ("fairy tale", "once upon", "write a "),
            r"\b(?:fairy tale|once upon|write a (?:short )?(?:scene|tale|letter))\b",
        ),
    ),
    _rule(
        "question",
        "",
        (_QUESTION_END, r"\?\s*$"),
        (
            _START,
            (
                r"^\s*(?:what|who|whom|whose|why|when|where|which|how|is|are|does|do|did|can|could|should|would|"
                r"will)\b"
            ),
        ),
    ),
    _rule(
        "conversation",
        "",
        (_START, r"^\s*(?:hi|hello|hey|good (?:morning|evening|afternoon)|thanks|thank you)\b"),
        (
            ("how are you", "what do you think", "let's chat", "tell me about yourself"),
            r"\b(?:how are you|what do you think|let's chat|tell me about yourself)\b",
        ),
    ),
)

OUTPUT_RULES: tuple[Rule, ...] = (
    _rule("json", "json"),
    _rule(
        "code",
        "",
        (("```",), r"```"),
        (
            _w("function program script class method code query"),
            (
                r"\b(?:write|implement|complete|fix) (?:a |the |this )?(?:\w+ )?"
                r"(?:function|program|script|class|method|"
                r"code|query)\b"
            ),
        ),
        (_w("python javascript rust sql bash"), r"\bin (?:python|javascript|rust|sql|bash)\b"),
    ),
    _rule(
        "list",
        "list bullet enumerate numbered",
        # Every match holds one of these with its space: tighter than the words "name", "give" and
        # "suggest" ("give the final answer" let the pattern scan the whole text).
        (("name ", "give me ", "suggest "), r"\b(?:name|give me|suggest) (?:three|five|ten|\d+)\b"),
    ),
)

TOPIC_RULES: tuple[Rule, ...] = (
    _rule("programming", "python javascript code function program algorithm sql api compiler bug"),
    _rule(
        "maths",
        "",
        (
            _word_start("math", "equation", "number", "sum", "multiply", "divide", "fraction", "algebra", "geometry"),
            r"\b(?:math|maths|equation|number|sum|multiply|divide|fraction|algebra|geometry)",
        ),
        (_Arith("-+*/", True), r"\b\d+\s*[-+*/]\s*\d+"),
    ),
    _rule("science", "physics chemistry biology atom molecule cell gravity energy planet dna photosynthesis"),
    _rule("geography", "capital country countries city river mountain continent ocean france paris europe africa asia"),
    _rule("history", "history historical war century empire king queen revolution ancient medieval"),
    _rule("health", "health doctor medicine disease sleep diet exercise symptom headache"),
    _rule("food", "recipe cook cooking food bake ingredient meal dinner breakfast"),
    _rule("finance", "money finance stock invest budget tax bank price cost"),
    _rule("language", "grammar word sentence spelling synonym translate french spanish german"),
    _rule("arts", "poem story song music painting novel poetry film movie book"),
    _rule("sports", "football soccer tennis basketball cricket sport olympic match"),
)


def words_of(folded: str) -> set[bytes]:
    """The maximal runs of word characters of a lower-cased ASCII text (what ``findall(r"\\w+")``
    finds, as bytes)."""
    return set(folded.encode("ascii").translate(_NON_WORD_TO_SPACE).split())


def first_rule(rules: tuple[Rule, ...], folded: str, words: set[bytes], default: str) -> str:
    """The first rule (in order) that matches ``folded`` (lower-cased ASCII), else ``default``."""
    return _scanner(rules).first(folded, words, default)


class _Scanner:
    """``first_rule`` for one table, with the whole words of every rule in one look-up.

    The answer is the lowest rule index that matches, by a whole word or by a gated pattern
    (which of the two does not matter: both give the rule's name). So the words are the lowest
    rank among the text's words that some rule lists; only the gated alternatives of rules
    before that rank are then tried, in order (usually a handful)."""

    __slots__ = ("gate_words", "gated", "gated_without_words", "keys", "names", "rank", "spec")

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.names = tuple(rule.name for rule in rules)
        self.rank: dict[bytes, int] = {}
        for index, rule in enumerate(rules):
            for word in rule.words:
                self.rank.setdefault(word, index)
        self.keys = frozenset(self.rank)
        self.gated: tuple[GatedAlternative, ...] = tuple(
            (index, _gate_kind(gate), frozenset(p.encode("ascii") for p in gate), tuple(gate))
            if isinstance(gate, _WordStart)
            else (index, _gate_kind(gate), gate, pattern)
            for index, rule in enumerate(rules)
            for gate, pattern in rule.gated
        )  # a word-start gate settles the pattern alone: its prefixes as bytes (for ``started``) and where the
        # pattern goes, as they are (for ``_starts_a_word``)
        self.gate_words: frozenset[bytes] = frozenset().union(
            *(gate for _, kind, gate, _ in self.gated if kind == _WORDS)
        )
        # Most texts hold none of the gate words: their alternatives are then left out of the loop
        # (each costs a turn of it), and a rule's word-start prefixes are tried in one turn.
        merged: list[GatedAlternative] = []
        for index, kind, gate, pattern in self.gated:
            if kind == _WORDS:
                continue
            if kind == _WORD_START and merged and merged[-1][0] == index and merged[-1][1] == _WORD_START:
                merged[-1] = (index, kind, merged[-1][2] | gate, merged[-1][3] + pattern)
            else:
                merged.append((index, kind, gate, pattern))
        self.gated_without_words = tuple(merged)
        #: What ``diagnosis._word_scan.first`` reads (``first`` compiled, for ASCII text).
        self.spec = (self.names, self.rank, self.gated, self.gated_without_words, self.gate_words)

    def first(
        self, folded: str, words: AbstractSet[bytes], default: str, started: AbstractSet[bytes] | None = None
    ) -> str:
        """``words``: the text's words, or only those among ``keys`` and ``gate_words`` (all
        that is looked up); ``started``: the word-start prefixes (``WORD_START_PREFIXES``) that
        start a word of the text, when known (``diagnosis._word_scan``)."""
        hits = self.keys.intersection(words)
        best = min(map(self.rank.__getitem__, hits)) if hits else len(self.names)
        has_digit: bool | None = None
        contains = folded.__contains__
        gated = self.gated_without_words if words.isdisjoint(self.gate_words) else self.gated
        for index, kind, gate, pattern in gated:
            if index >= best:
                break
            if kind == _SUBSTRINGS:
                passed = any(map(contains, gate))  # C-level: no generator frame per substring
            elif kind == _WORD_START:
                if started is not None:
                    if not started.isdisjoint(gate):  # (the rule's prefixes, as bytes)
                        return self.names[index]
                elif _starts_a_word(folded, pattern):  # (the rule's prefixes)
                    return self.names[index]
                continue
            elif kind == _ARITH:
                if _arith_in(folded, gate[0], gate[1]):
                    return self.names[index]
                continue
            elif kind == _ENDS_QUESTION:
                if folded.rstrip().endswith("?"):
                    return self.names[index]
                continue
            elif kind == _WORDS:
                passed = not words.isdisjoint(gate)
            elif kind == _ANCHORED:
                if pattern.match(folded) is not None:
                    return self.names[index]
                continue
            else:  # a digit, and (_DIGIT_AND) one of the gate's characters
                passed = kind == _ONE_DIGIT or any(map(contains, gate))
                if passed:
                    if has_digit is None:
                        has_digit = _HAS_DIGIT.search(folded) is not None
                    passed = has_digit
            if passed and pattern.search(folded) is not None:
                return self.names[index]
        return self.names[best] if best < len(self.names) else default


_SUBSTRINGS, _WORDS, _ANCHORED, _ONE_DIGIT, _DIGIT_AND, _WORD_START, _ARITH, _ENDS_QUESTION = range(8)


def _gate_kind(gate: Gate) -> int:
    if gate is _START:
        return _ANCHORED
    if gate is _DIGIT:
        return _ONE_DIGIT
    if gate is _QUESTION_END:
        return _ENDS_QUESTION
    if isinstance(gate, _Arith):
        return _ARITH
    if isinstance(gate, _DigitAnd):
        return _DIGIT_AND
    if isinstance(gate, _WordStart):
        return _WORD_START
    if isinstance(gate, frozenset):
        return _WORDS
    return _SUBSTRINGS


INSTRUCTION_SCAN = _Scanner(INSTRUCTION_RULES)
OUTPUT_SCAN = _Scanner(OUTPUT_RULES)
TOPIC_SCAN = _Scanner(TOPIC_RULES)
#: Every word any of the three tables looks up: a text's words are narrowed to these once.
LOOKED_UP_WORDS = frozenset().union(*(s.keys | s.gate_words for s in (INSTRUCTION_SCAN, OUTPUT_SCAN, TOPIC_SCAN)))


#: Every word-start prefix of the three tables (bytes), for ``diagnosis._word_scan``.
WORD_START_PREFIXES: tuple[bytes, ...] = tuple(
    sorted(
        frozenset().union(
            *(
                gate
                for scanner in (INSTRUCTION_SCAN, OUTPUT_SCAN, TOPIC_SCAN)
                for _, kind, gate, _ in scanner.gated
                if kind == _WORD_START
            )
        )
    )
)

#: The look-ups in one compiled pass over the text, and each table's first match in C, on the compiled
#: path (``diagnosis.compiled``); None on the pure path. Compiled, the three tables take 2.3 us per
#: distinct bench prompt against 10 us in Python (``looked_up_words`` and ``_Scanner.first``; the scan
#: alone 0.6 against 2.6; tests/bench/bench_scans.py).
scan_words = _word_scan.scan if _word_scan is not None else None
first_compiled = _word_scan.first if _word_scan is not None else None
if _word_scan is not None:
    _word_scan.configure(LOOKED_UP_WORDS, WORD_START_PREFIXES)


def looked_up_words(folded: str) -> frozenset[bytes]:
    """The words of a lower-cased ASCII text that the tables look up (``words_of`` narrowed to
    ``LOOKED_UP_WORDS`` in one C-level pass, without building the set of all its words)."""
    return LOOKED_UP_WORDS.intersection(folded.encode("ascii").translate(_NON_WORD_TO_SPACE).split())


_SCANNERS = {id(INSTRUCTION_RULES): INSTRUCTION_SCAN, id(OUTPUT_RULES): OUTPUT_SCAN, id(TOPIC_RULES): TOPIC_SCAN}


def _scanner(rules: tuple[Rule, ...]) -> _Scanner:
    scanner = _SCANNERS.get(id(rules))
    return scanner if scanner is not None and scanner.names == tuple(r.name for r in rules) else _Scanner(rules)
