"""How the simulated models answer: the person's small model fails like a real small model.

Every answer is deterministic given (world seed, model id, prompt, call counter).

Outcomes of the person's small model (``SmallModel``) and their base weights for a short,
plain prompt in the template it was trained with (``chatml``):

    ok 0.62 | wrong 0.10 | empty 0.04 | loop 0.05 | truncated 0.05 | continuation 0.04
    refusal 0.04 | leak 0.06

Prompt features multiply the weights (then everything is renormalised):

- long prompt (>= 120 prompt tokens): truncated x4, loop x2, continuation x1.5
- strict-JSON task:                   wrong x4, loop x1.5, leak x1.5
- maths task:                         wrong x4
- template mismatch (prompt rendered in a template other than ``chatml``, which is what the
  platform's chatroom does: it renders every chatroom prompt as llama2 ``[INST]``):
  continuation x8, leak x6, loop x3, empty x2, ok x0.5, wrong x0.5

So a short eval prompt fails 38% of the time, a long summarise prompt about 55%, a JSON
prompt about 60%, and a chatroom prompt (mismatched and long) about 83%, mostly by
continuation, leaks and loops: a format problem, not a capability problem.
``outcome_rates`` computes the exact table for any feature set.

What each outcome looks like in the reply text:

- empty: ``""`` (40%), a bare ``<|im_end|>`` (30%) or whitespace only (30%);
- loop: one word, one sentence or (when max_tokens >= 100) a whole paragraph repeated;
  70% of loops run into max_tokens (finish_reason ``length``);
- truncated: a rambling answer cut at exactly max_tokens tokens, mid-sentence;
- continuation: extends the user's sentence (starts lowercase, 50%) or writes the next
  ``User:`` turn (starts with a newline, 50%);
- refusal: ``I'm sorry, but I can't ...``;
- wrong: the eval's plausible wrong answer (or an off-topic sentence for free prompts);
- leak: an answer, then the end-of-turn token (``<|im_end|>``; ``[/INST]`` in the
  mismatched chatroom format half the time), then more text.

Besides these, every model's call errors (response null, finish_reason ``error``) during a
health outage, and 0.5% of the time otherwise (``connection reset by peer``).
Peers (``PeerModel``) answer correctly with probability ``skill`` and otherwise give the
wrong reference answer; 1% refusals, and only on long prompts 3% truncation. The base
model (template ``none``) continues the prompt 40% of the time instead of answering.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from simulator.blahdev import tokenizer
from simulator.blahdev.catalog import EvalSpec

OUTCOMES = ("ok", "wrong", "empty", "loop", "truncated", "continuation", "refusal", "leak")

BASE_WEIGHTS: dict[str, float] = {
    "ok": 0.62,
    "wrong": 0.10,
    "empty": 0.04,
    "loop": 0.05,
    "truncated": 0.05,
    "continuation": 0.04,
    "refusal": 0.04,
    "leak": 0.06,
}
LONG_PROMPT_TOKENS = 120
_MULTIPLIERS: dict[str, dict[str, float]] = {
    "long": {"truncated": 4, "loop": 2, "continuation": 1.5},
    "json": {"wrong": 4, "loop": 1.5, "leak": 1.5},
    "maths": {"wrong": 4},
    "mismatch": {"continuation": 8, "leak": 6, "loop": 3, "empty": 2, "ok": 0.5, "wrong": 0.5},
}
RANDOM_ERROR_RATE = 0.005


@dataclass(frozen=True)
class Call:
    """One call as the platform makes it."""

    prompt: str
    max_tokens: int
    template_used: str
    user_text: str
    spec: EvalSpec | None = None
    """The eval this call answers (None for free prompts)."""
    instruction_type: str | None = None
    down: bool = False
    """The model's endpoint is in a health outage: the call errors."""


@dataclass(frozen=True)
class Generation:
    response: str | None
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int | None
    latency_ms: int
    error: str | None
    kind: str
    """Ground truth: one of OUTCOMES or ``error`` (never sent on the wire)."""
    correct: bool | None
    """Whether the content answers the eval right (None for free prompts/errors)."""


def stable_rng(*parts: object) -> random.Random:
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def features(call: Call, trained_template: str | None, prompt_tokens: int | None = None) -> frozenset[str]:
    found: set[str] = set()
    if (prompt_tokens if prompt_tokens is not None else tokenizer.count(call.prompt)) >= LONG_PROMPT_TOKENS:
        found.add("long")
    if call.instruction_type == "json_output" or "json" in call.user_text.lower():
        found.add("json")
    if call.instruction_type == "maths" or re.search(r"\d+\s*[-+*/]\s*\d+", call.user_text):
        found.add("maths")
    if trained_template is not None and call.template_used != trained_template:
        found.add("mismatch")
    return frozenset(found)


def outcome_rates(feats: frozenset[str] | set[str]) -> dict[str, float]:
    """The documented outcome probabilities of the small model for these prompt features."""
    weights = dict(BASE_WEIGHTS)
    for feat in feats:
        for outcome, factor in _MULTIPLIERS.get(feat, {}).items():
            weights[outcome] *= factor
    total = sum(weights.values())
    return {k: v / total for k, v in weights.items()}


_STORY = (
    "Once upon a time, there was a little girl named Lily. She liked to play in the park with her dog. "
    "One day the sun was very hot, so they sat under a big tree. Lily told the dog a story about a bird. "
    "The dog wagged his tail and they were very happy together. Then it was time to go home for dinner. "
)
_STOP = {
    "what",
    "which",
    "write",
    "that",
    "this",
    "with",
    "about",
    "from",
    "your",
    "have",
    "only",
    "return",
    "keys",
    "answer",
    "reply",
    "there",
    "their",
    "would",
    "could",
    "should",
}


def topic_of(text: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z]{4,}", text[-400:]) if w.lower() not in _STOP]
    return max(words, key=len).lower() if words else "friends"


def _finish(text: str, max_tokens: int, natural_stop: bool = True) -> tuple[str, str, int]:
    """Cut ``text`` at max_tokens: (response, finish_reason, completion_tokens)."""
    n = tokenizer.count(text)
    if n <= max_tokens and natural_stop:
        return text, "stop", n
    cut = tokenizer.cut(text, max_tokens)
    return cut, ("length" if n > max_tokens or not natural_stop else "stop"), tokenizer.count(cut)


def _ramble(answer: str, topic: str, max_tokens: int) -> str:
    text = f"{answer} Also, {topic} is something that many people like to talk about because "
    while tokenizer.count(text) <= max_tokens + 5:
        text += _STORY
    cut = tokenizer.cut(text, max_tokens)
    while cut.rstrip()[-1:] in ".!?":  # never end a truncated reply on a full stop
        text = "So " + text
        cut = tokenizer.cut(text, max_tokens)
    return text


def _loop(rng: random.Random, topic: str, max_tokens: int) -> tuple[str, bool]:
    style = rng.choice(["word", "sentence", "paragraph"] if max_tokens >= 100 else ["word", "sentence"])
    if style == "word":
        unit = rng.choice(["the ", f"{topic} ", "and ", "very "])
    elif style == "sentence":
        unit = rng.choice([f"I like {topic}. ", "She was very happy. ", f"The {topic} is big. "])
    else:
        unit = f"Lily went to see the {topic}. It was big and nice. She smiled and said hello. Then she went home.\n\n"
    runs_out = rng.random() < 0.7
    enough = max_tokens // max(1, tokenizer.count(unit)) + 2
    reps = enough if runs_out else (3 if style == "paragraph" else rng.randint(5, 9))
    return unit * reps, runs_out


def _latency(rng: random.Random, base: int, per_token: float, tokens: int) -> int:
    return int(base + per_token * tokens + rng.uniform(0, base))


def _error(rng: random.Random, call: Call, prompt_tokens: int) -> Generation:
    if call.down:
        err = rng.choice(
            [
                "upstream returned 502 Bad Gateway",
                "upstream timed out after 30 s",
                "connection refused by inference endpoint",
            ]
        )
        latency = 30000 if "timed out" in err else rng.randint(20, 400)
    else:
        err, latency = "connection reset by peer", rng.randint(50, 2000)
    return Generation(None, "error", prompt_tokens, None, latency, err, "error", None)


class _SimulatedModel:
    """What every simulated model does first: a random source fixed by the seed, the model,
    the prompt and the call's counter (the same call answers the same way), and an error when
    the host is down or by the random error rate; otherwise the model's own ``_answer``."""

    seed: int
    model_id: str

    def generate(self, call: Call, counter: int) -> Generation:
        rng = stable_rng(self.seed, self.model_id, call.prompt, counter)
        prompt_tokens = tokenizer.count(call.prompt)
        if call.down or rng.random() < RANDOM_ERROR_RATE:
            return _error(rng, call, prompt_tokens)
        return self._answer(call, rng, prompt_tokens)

    def _answer(self, call: Call, rng: random.Random, prompt_tokens: int) -> Generation:
        raise NotImplementedError


class SmallModel(_SimulatedModel):
    """The person's tiny chatml-trained model (see the module docstring for its rates)."""

    def __init__(self, seed: int, model_id: str, trained_template: str = "chatml") -> None:
        self.seed = seed
        self.model_id = model_id
        self.trained_template = trained_template

    def _answer(self, call: Call, rng: random.Random, prompt_tokens: int) -> Generation:
        rates = outcome_rates(features(call, self.trained_template, prompt_tokens))
        kind = rng.choices(list(rates), weights=list(rates.values()))[0]
        text, natural, correct = self._text(kind, call, rng)
        response, finish, completion = _finish(text, call.max_tokens, natural)
        if kind == "truncated":
            finish = "length"
        return Generation(
            response, finish, prompt_tokens, completion, _latency(rng, 25, 4.0, completion), None, kind, correct
        )

    def _text(self, kind: str, call: Call, rng: random.Random) -> tuple[str, bool, bool | None]:
        topic = topic_of(call.user_text)
        good = call.spec.reference if call.spec else free_answer(call.user_text, topic)
        bad = call.spec.wrong if call.spec else f"The {topic} is a big red car that can fly to the moon."
        judged = call.spec is not None
        if kind == "ok":
            return good, True, True if judged else None
        if kind == "wrong":
            return bad, True, False if judged else None
        if kind == "empty":
            return rng.choices(["", "<|im_end|>", "  \n"], weights=[4, 3, 3])[0], True, False if judged else None
        if kind == "loop":
            text, runs_out = _loop(rng, topic, call.max_tokens)
            return text, not runs_out, False if judged else None
        if kind == "truncated":
            return _ramble(good, topic, call.max_tokens), False, None
        if kind == "continuation":
            if rng.random() < 0.5:
                return f"and then the {topic} went to sleep under the big tree.", True, False if judged else None
            nxt = "\nUser: Can you tell me a story about a cat?\nAssistant: Once upon a time there was a cat."
            return nxt, True, False if judged else None
        if kind == "refusal":
            return f"I'm sorry, but I can't help with {topic}.", True, False if judged else None
        marker = "[/INST]" if call.template_used == "llama2" and rng.random() < 0.5 else "<|im_end|>"
        first = good.split(". ")[0].rstrip(".") + "."
        leak = f"{first}{marker}\n<|im_start|>user\nWhat about {topic}?{marker}\n<|im_start|>assistant\nI like {topic}."
        return leak, True, None


_FACTS = {
    "capital of france": "The capital of France is Paris.",
    "capital of spain": "The capital of Spain is Madrid.",
    "once upon a time": "Once upon a time, there was a little cat who wanted to fly.",
    "hello": "Hello! How are you today?",
    "working on": "I am working on telling better stories.",
}


def free_answer(user_text: str, topic: str) -> str:
    """A sensible reply to a prompt that is not an eval (depends on the prompt)."""
    low = user_text.lower()
    for key, answer in _FACTS.items():
        if key in low:
            return answer
    return f"I think {topic} is very nice. Lily likes {topic} too, and she smiles when she sees it."


class PeerModel(_SimulatedModel):
    """A stronger peer: mostly right; ``skill`` is its per-eval accuracy."""

    def __init__(self, seed: int, model_id: str, skill: float, template: str | None) -> None:
        self.seed = seed
        self.model_id = model_id
        self.skill = skill
        self.template = template

    def _answer(self, call: Call, rng: random.Random, prompt_tokens: int) -> Generation:
        topic = topic_of(call.user_text)
        long = prompt_tokens >= LONG_PROMPT_TOKENS
        roll = rng.random()
        correct: bool | None = None
        if self.template == "none" and roll < 0.4:
            kind, text = "continuation", f" and the {topic} was never seen again. The end.\n\nThe next day"
        elif roll < 0.01:
            kind, text = "refusal", "I'm sorry, but I can't help with that request."
        elif long and roll < 0.04:
            kind, text = "truncated", _ramble(call.spec.reference if call.spec else topic, topic, call.max_tokens)
        elif call.spec is not None:
            correct = rng.random() < self.skill
            kind = "ok" if correct else "wrong"
            text = call.spec.reference if correct else call.spec.wrong
        else:
            kind = "ok"
            text = rng.choice(
                [
                    f"Good question about {topic}! Here is what I think: it depends on context.",
                    f"I have been reading about {topic}; happy to compare notes with everyone.",
                    free_answer(call.user_text, topic),
                ]
            )
        response, finish, completion = _finish(text, call.max_tokens, kind != "truncated")
        return Generation(
            response, finish, prompt_tokens, completion, _latency(rng, 180, 12.0, completion), None, kind, correct
        )
