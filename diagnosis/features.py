"""What a call has in common with others: the dimensions failures are grouped by.

Everything is inferred from the prompt text by keywords; a call that matches nothing gets
``"other"`` (instruction) or ``"unknown"`` (subject) rather than a guess.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from common.records import Call

from .features_scan import INSTRUCTION_SCAN, OUTPUT_SCAN, TOPIC_SCAN, first_compiled, looked_up_words, scan_words
from .templates import detect_template
from .text import user_text

#: Dimension names, in the order the report lists them.
DIMENSIONS: tuple[str, ...] = (
    "template",
    "chat_or_completion",
    "asked_output",
    "prompt_length",
    "instruction",
    "subject",
    "source",
)

LENGTH_BUCKETS: tuple[tuple[int, str], ...] = ((200, "<200"), (1000, "200-1k"), (4000, "1k-4k"))
LONGEST_BUCKET = ">4k"

# First match wins: the more specific kinds of instruction come first.
_INSTRUCTIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "translate",
            (
                r"\btranslat|\bin(?:to)? (?:french|german|spanish|italian|japanese|chinese|english|"
                r"portuguese|dutch|russian|korean)\b"
            ),
        ),
        ("summarise", r"\bsummar|\btl;?dr\b|\bin (?:one|two|three|a few) sentences?\b|\bkey points\b"),
        (
            "classify",
            (
                r"\bclassif|\bcategori[sz]|\bsentiment\b|\b(?:label|tag) (?:this|the|each)\b|"
                r"\bis (?:this|the following) (?:positive|negative|spam)\b"
            ),
        ),
        (
            "code",
            (
                r"```|\b(?:python|javascript|typescript|rust|java|c\+\+|sql|bash|regex|html|css)\b|"
                r"\b(?:function|code|program|script|class|method|bug|compile)\b"
            ),
        ),
        (
            "maths",
            (
                r"\d\s*[-+*/×÷^]\s*\d|\b(?:calculate|solve|equation|sum of|product of|how many|how much|"
                r"percent|math|maths|arithmetic|divided|multiplied|integer|fraction)\b"
            ),
        ),
        (
            "creative",
            (
                r"\b(?:story|poem|haiku|song|lyrics|limerick|joke|fairy tale|once upon|imagine|"
                r"write a (?:short )?(?:scene|tale|letter))\b"
            ),
        ),
        (
            "question",
            (
                r"\?\s*$|^\s*(?:what|who|whom|whose|why|when|where|which|how|is|are|does|do|did|can|"
                r"could|should|would|will)\b"
            ),
        ),
        (
            "conversation",
            (
                r"^\s*(?:hi|hello|hey|good (?:morning|evening|afternoon)|thanks|thank you)\b|"
                r"\b(?:how are you|what do you think|let's chat|tell me about yourself)\b"
            ),
        ),
    )
)

_OUTPUTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("json", r"\bjson\b"),
        (
            "code",
            (
                r"```|\b(?:write|implement|complete|fix) (?:a |the |this )?(?:\w+ )?(?:function|program|"
                r"script|class|method|code|query)\b|\bin (?:python|javascript|rust|sql|bash)\b"
            ),
        ),
        ("list", r"\b(?:list|bullet|enumerate|numbered)\b|\b(?:name|give me|suggest) (?:three|five|ten|\d+)\b"),
    )
)

_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("programming", r"\b(?:python|javascript|code|function|program|algorithm|sql|api|compiler|bug)\b"),
        ("maths", r"\b(?:math|maths|equation|number|sum|multiply|divide|fraction|algebra|geometry|\d+\s*[-+*/]\s*\d+)"),
        ("science", r"\b(?:physics|chemistry|biology|atom|molecule|cell|gravity|energy|planet|dna|photosynthesis)\b"),
        (
            "geography",
            r"\b(?:capital|country|countries|city|river|mountain|continent|ocean|france|paris|europe|africa|asia)\b",
        ),
        ("history", r"\b(?:history|historical|war|century|empire|king|queen|revolution|ancient|medieval)\b"),
        ("health", r"\b(?:health|doctor|medicine|disease|sleep|diet|exercise|symptom|headache)\b"),
        ("food", r"\b(?:recipe|cook|cooking|food|bake|ingredient|meal|dinner|breakfast)\b"),
        ("finance", r"\b(?:money|finance|stock|invest|budget|tax|bank|price|cost)\b"),
        ("language", r"\b(?:grammar|word|sentence|spelling|synonym|translate|french|spanish|german)\b"),
        ("arts", r"\b(?:poem|story|song|music|painting|novel|poetry|film|movie|book)\b"),
        ("sports", r"\b(?:football|soccer|tennis|basketball|cricket|sport|olympic|match)\b"),
    )
)


@dataclass(frozen=True, slots=True)
class CallFeatures:
    """The value of each grouping dimension for one call."""

    template: str
    chat_or_completion: str
    asked_output: str
    prompt_length: str
    instruction: str
    subject: str
    source: str

    def items(self) -> tuple[tuple[str, str], ...]:
        return tuple(zip(DIMENSIONS, self.values()))

    def values(self) -> tuple[str, ...]:
        """The values in ``DIMENSIONS`` order."""
        return (
            self.template,
            self.chat_or_completion,
            self.asked_output,
            self.prompt_length,
            self.instruction,
            self.subject,
            self.source,
        )


_LIMITS = tuple(limit for limit, _ in LENGTH_BUCKETS)
_LABELS = tuple(label for _, label in LENGTH_BUCKETS) + (LONGEST_BUCKET,)


def length_bucket(chars: int) -> str:
    return _LABELS[bisect_right(_LIMITS, chars)]  # the first bucket whose limit is above ``chars``


def instruction_type(text: str) -> str:
    return _first(_INSTRUCTIONS, _INSTRUCTIONS_LOWER, text, "other")


def asked_output(text: str) -> str:
    return _first(_OUTPUTS, _OUTPUTS_LOWER, text, "prose")


def topic(text: str) -> str:
    return _first(_TOPICS, _TOPICS_LOWER, text, "unknown")


def _lower_twins(table: tuple[tuple[str, re.Pattern[str]], ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The same patterns without IGNORECASE, for text already lower-cased.

    For ASCII text, case-insensitive matching is plain ASCII case folding and ``str.lower``
    keeps every position, so searching the lower-cased text with the (lower-case) pattern finds
    exactly what the case-insensitive search finds, about 2.5x faster: the regex engine compares
    characters directly instead of folding each one. Every pattern above is written in lower
    case (checked here: an upper-case letter other than an escape would make the twin wrong).
    """
    for _, pattern in table:
        if re.search(r"(?<!\\)[A-Z]", pattern.pattern):
            raise ValueError(f"feature pattern not in lower case: {pattern.pattern!r}")
    return tuple((name, re.compile(pattern.pattern)) for name, pattern in table)


_INSTRUCTIONS_LOWER = _lower_twins(_INSTRUCTIONS)
_OUTPUTS_LOWER = _lower_twins(_OUTPUTS)
_TOPICS_LOWER = _lower_twins(_TOPICS)


def _first(
    table: tuple[tuple[str, re.Pattern[str]], ...],
    lower: tuple[tuple[str, re.Pattern[str]], ...],
    text: str,
    default: str,
    *,
    folded: str | None = None,
) -> str:
    """The first category of ``table`` whose pattern occurs in the first 1,500 characters."""
    head = text[:1500]
    if folded is None and head.isascii():
        folded = head.lower()
    if folded is not None:
        for name, pattern in lower:
            if pattern.search(folded):
                return name
        return default
    for name, pattern in table:
        if pattern.search(head):
            return name
    return default


_INSTRUCTION_SPEC, _OUTPUT_SPEC, _TOPIC_SPEC = INSTRUCTION_SCAN.spec, OUTPUT_SCAN.spec, TOPIC_SCAN.spec


@lru_cache(maxsize=8192)
def text_features(said: str) -> tuple[str, str, str]:
    """(instruction type, asked output, topic) of the user's text; cached: eval prompts repeat.

    ASCII text (most of it) is lower-cased and read once for the three dimensions (see
    ``features_scan``); other text is searched with the case-insensitive patterns above."""
    head = said[:1500]
    if not head.isascii():
        return instruction_type(head), asked_output(head), topic(head)
    folded = head.lower()
    scanned = scan_words(folded) if scan_words is not None else None  # (compiled: words and prefixes at once)
    if scanned is None:
        words, started = looked_up_words(folded), None
    else:
        words, started = scanned
        if first_compiled is not None:  # (compiled: each table's gates and patterns tried in C)
            return (
                first_compiled(_INSTRUCTION_SPEC, folded, words, started, "other"),
                first_compiled(_OUTPUT_SPEC, folded, words, started, "prose"),
                first_compiled(_TOPIC_SPEC, folded, words, started, "unknown"),
            )
    return (
        INSTRUCTION_SCAN.first(folded, words, "other", started),
        OUTPUT_SCAN.first(folded, words, "prose", started),
        TOPIC_SCAN.first(folded, words, "unknown", started),
    )


def features_of(entry: Call, detected: str | None = None) -> CallFeatures:
    """Grouping features of one call (``detected`` saves detecting the template again)."""
    return CallFeatures(*feature_values(entry, detected))


def feature_values(entry: Call, detected: str | None = None) -> tuple[str, ...]:
    """``features_of(entry, detected).values()`` without building the object (the summary's hot loop)."""
    template = detected if detected is not None else detect_template(entry.prompt, entry.messages)
    said = user_text(entry.prompt, entry.messages)
    instruction, output, subject = text_features(said[:1500])
    if instruction == "other" and entry.source == "chatroom":
        instruction = "conversation"
    chat = template not in (None, "none") or bool(entry.messages)
    prompt_chars = len(entry.prompt) if entry.prompt else 0
    return (
        template or "unknown",
        "chat" if chat else "completion",
        output,
        length_bucket(prompt_chars),
        instruction,
        entry.eval_id if entry.eval_id else f"topic:{subject}",
        entry.source or "unknown",
    )
