"""A data set like real model traffic, for the benches that measure the archive's size, its
index and the export (issue 42): distinct prompts and replies drawn from a Zipf vocabulary of
24,000 words, with lengths like real prompts and replies (log-normal: a prompt's user text
~33 words, a reply ~60 (medians), both with a long tail), sentences with capitals and full stops, and
the rest of a call as the simulator serves it (the prompt rendered from one user message,
which ``messages`` also holds; ~5% errors). About 1.2 KB of JSON a call; gzip takes the
JSONL down ~3x.

Seeded and fast (numpy draws the words for a whole block of calls at once): call ``i`` is
the same on every run and on every machine with the same numpy. ``SPECIAL`` words have
fixed ranks, so the benches search for a common word ('model'), a rare one ('zanzibar',
rank 5,000: ~0.1% of calls) and an absent one ('xylograph').

Run alone to see the figures: ``.venv/bin/python tests/bench/natural_text.py [--calls N]``.
"""

from __future__ import annotations

import argparse
import gzip
import time
from collections.abc import Iterator
from operator import itemgetter
from typing import Any

import numpy as np
import orjson

VOCABULARY = 24_000
BLOCK = 2_000
"""Calls drawn at once (the words of a block are one numpy draw)."""
SPECIAL = {
    0: "the",
    1: "of",
    2: "and",
    3: "to",
    4: "a",
    5: "in",
    6: "is",
    7: "model",
    8: "you",
    9: "that",
    5_000: "zanzibar",
}
ABSENT = "xylograph"
SOURCES = ("eval", "eval", "eval", "chatroom", "chat", "test")
_STOP = VOCABULARY  # the index of "." in a draw: a sentence ends there
_ONSETS = (
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "st",
    "tr",
    "pl",
    "ch",
    "sh",
    "th",
    "gr",
    "br",
    "",
)
_VOWELS = ("a", "e", "i", "o", "u", "ea", "ou", "io", "ai")
_CODAS = ("", "", "n", "r", "s", "t", "l", "nd", "st", "ng", "ck", "m")


def _vocabulary(rng: np.random.Generator) -> list[str]:
    """24,000 distinct pronounceable words, short ones more common (as in English)."""
    words: list[str] = []
    seen = set(SPECIAL.values()) | {ABSENT}
    while len(words) < VOCABULARY:
        syllables = 1 + min(4, int(rng.exponential(0.5 + len(words) / VOCABULARY)))
        word = "".join(
            _ONSETS[rng.integers(len(_ONSETS))]
            + _VOWELS[rng.integers(len(_VOWELS))]
            + _CODAS[rng.integers(len(_CODAS))]
            for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    for rank, word in SPECIAL.items():
        words[rank] = word
    return words


class NaturalCalls:
    """Deterministic calls of natural-looking text: ``call(i)`` is the same on every run."""

    def __init__(self, seed: int = 42, *, t0: int = 1_700_000_000_000, model_id: str = "bench-model") -> None:
        self.seed = seed
        self.t0 = t0
        self.model_id = model_id
        rng = np.random.default_rng(seed)
        self.words = [*_vocabulary(rng), "."]
        ranks = np.arange(1, VOCABULARY + 1, dtype=np.float64)
        weights = 1.0 / (ranks + 2.7) ** 1.07  # Zipf-Mandelbrot, close to English's
        p = np.append(weights / weights.sum() * (1 - 1 / 13), 1 / 13)  # a full stop every ~13 words
        self._cumulative = np.cumsum(p)
        self._cumulative[-1] = 1.0
        self._block: tuple[int, list[dict[str, Any]]] | None = None

    def _text(self, indices: np.ndarray) -> str:
        if not len(indices):
            return ""
        words = itemgetter(*indices.tolist())(self.words) if len(indices) > 1 else (self.words[int(indices[0])],)
        text = " ".join(words).replace(" .", ".")
        sentences = text.split(". ")
        return ". ".join(s[:1].upper() + s[1:] for s in sentences).rstrip(".") + "."

    def _draw_block(self, b: int) -> list[dict[str, Any]]:
        rng = np.random.default_rng([self.seed, b])
        prompt_words = np.minimum(np.rint(rng.lognormal(3.5, 0.7, BLOCK)), 900).astype(np.int64) + 3
        reply_words = np.minimum(np.rint(rng.lognormal(4.1, 0.75, BLOCK)), 1500).astype(np.int64) + 1
        failed = rng.random(BLOCK) < 0.05
        truncated = rng.random(BLOCK) < 0.04
        latency = rng.integers(40, 4000, BLOCK)
        total = int(prompt_words.sum() + reply_words.sum())
        drawn = np.searchsorted(self._cumulative, rng.random(total), side="right")
        calls: list[dict[str, Any]] = []
        at = 0
        for k in range(BLOCK):
            i = b * BLOCK + k
            user = self._text(drawn[at : at + prompt_words[k]])
            at += prompt_words[k]
            reply = self._text(drawn[at : at + reply_words[k]])
            at += reply_words[k]
            bad = bool(failed[k])
            calls.append(
                {
                    "id": f"log_{i:09d}",
                    "model_id": self.model_id,
                    "source": SOURCES[i % len(SOURCES)],
                    "created_at": self.t0 + i * 7,
                    "prompt": f"<|user|>\n{user}\n<|assistant|>\n",
                    "messages": [{"role": "user", "content": user}],
                    "response": None if bad else reply,
                    "error": "upstream timeout after 30 s" if bad else None,
                    "latency_ms": int(latency[k]),
                    "max_tokens": 512,
                    "prompt_tokens": int(prompt_words[k] * 4 // 3),
                    "completion_tokens": None if bad else int(reply_words[k] * 4 // 3),
                    "finish_reason": "error" if bad else ("length" if truncated[k] else "stop"),
                    "eval_id": None,
                    "run_id": None,
                    "result_id": None,
                    "message_id": None,
                }
            )
        return calls

    def call(self, i: int) -> dict[str, Any]:
        """Call ``i`` as the platform serves it (a wire dict; a fresh copy)."""
        b = i // BLOCK
        if self._block is None or self._block[0] != b:
            self._block = (b, self._draw_block(b))
        call = dict(self._block[1][i % BLOCK])
        call["messages"] = [dict(m) for m in call["messages"]]
        return call

    def calls(self, start: int, stop: int) -> Iterator[dict[str, Any]]:
        for i in range(start, stop):
            yield self.call(i)

    def entries(self, start: int, stop: int) -> list[Any]:
        """Calls ``start .. stop-1`` as ``LogEntry`` (validated)."""
        from api_client.blahdev.shapes import LogEntry

        return [LogEntry.model_validate(c) for c in self.calls(start, stop)]

    def batches(self, start: int, stop: int, size: int = 5000) -> Iterator[list[Any]]:
        for lo in range(start, stop, size):
            yield self.entries(lo, min(stop, lo + size))

    def add_to_world(self, world: Any, n: int, model_id: str | None = None) -> int:
        """Add calls ``0 .. n-1`` to a simulator ``World``'s log store as the person's model's
        calls (their times moved to end now, oldest first); returns how many were added."""
        model = model_id or world.person_model_id
        with world.lock:
            end = max(world.now(), world.logs.latest(model) or 0)
            start = end - (n - 1) * 7
            for call in self.calls(0, n):
                call["model_id"] = model
                call["created_at"] = call["created_at"] - self.t0 + start
                call["id"] = world.logs.next_id()
                world.logs.add(call)
        return n


def jsonl_bytes(calls: Iterator[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(c) + b"\n" for c in calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    started, cpu = time.perf_counter(), time.process_time()
    gen = NaturalCalls()
    data = jsonl_bytes(gen.calls(0, args.calls))
    spent, spent_cpu = time.perf_counter() - started, time.process_time() - cpu
    texts = b"".join(orjson.dumps(c["prompt"]) + orjson.dumps(c["response"]) for c in gen.calls(0, 200))
    print(
        f"{args.calls:,} calls in {spent:.2f} s (CPU {spent_cpu:.2f} s): "
        f"{len(data) / args.calls:,.0f} B of JSON a call, "
        f"gzip {len(data) / len(gzip.compress(data, 6)):.2f}x; distinct prompts: "
        f"{len({c['prompt'] for c in gen.calls(0, min(args.calls, 20_000))}):,} of {min(args.calls, 20_000):,}"
    )
    print(texts[:600].decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
