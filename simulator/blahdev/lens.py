"""BLAH Lens: a bundle for the person's model only, and a simulated layer-by-layer analysis.

Choice (documented in /api/spec): ``GET /models/{id}/lens`` for a known model WITHOUT a
bundle answers 200 ``{"model_id", "available": false}``; ``POST .../lens/analyze`` for such
a model answers 404 ``{"error": "model has no Lens bundle"}``; unknown models 404 on both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from simulator.blahdev import tokenizer
from simulator.blahdev.small_model import stable_rng, topic_of
from simulator.blahdev.world import Json, World

LAYERS = 8
_GENERIC = [" the", ",", " a", "\n", " and", " is", "<|im_end|>", " of"]
_NEXT = {"france is": " Paris", "japan is": " Tokyo", "once upon a": " time", "upon a time": ","}


def bundle(world: World, model_id: str) -> Json:
    if model_id != world.person_model_id:
        return {"model_id": model_id, "available": False}
    template = world.models[model_id].get("chat_template")
    fingerprint = hashlib.sha256(f"template:{template}".encode()).hexdigest()[:16]
    return {
        "model_id": model_id,
        "available": True,
        "version": "0.3.1",
        "captures": ["residual", "attention"],
        "layers": LAYERS,
        "template_fingerprint": f"sha256:{fingerprint}",
        "chat_template": template,
    }


def has_bundle(world: World, model_id: str) -> bool:
    return model_id == world.person_model_id


def _target(prompt: str) -> str:
    low = prompt.lower().rstrip()
    for tail, token in _NEXT.items():
        if low.endswith(tail):
            return token
    return " " + topic_of(prompt)


def analyze(world: World, prompt: str, max_new_tokens: int, top_k: int) -> Iterator[Json]:
    """The NDJSON events: start, then per new token LAYERS ``layer`` events and a ``token``, then done."""
    toks = tokenizer.tokens(prompt)[:256]
    yield {"type": "start", "layers": LAYERS, "tokens": toks}
    text = prompt
    for step in range(max_new_tokens):
        target = _target(text)
        rng = stable_rng(world.seed, "lens", text)
        position = len(toks) + step
        for layer in range(LAYERS):
            share = 0.05 + 0.85 * (layer + 1) / LAYERS
            rest = [t for t in _GENERIC if t != target]
            rng.shuffle(rest)
            weights = [rng.random() for _ in rest]
            scale = (1 - share) / sum(weights)
            pairs = [(target, round(share, 4))] + [(t, round(w * scale, 4)) for t, w in zip(rest, weights)]
            pairs.sort(key=lambda pair: -pair[1])
            top = [{"token": t, "prob": p} for t, p in pairs[:top_k]]
            yield {"type": "layer", "layer": layer, "position": position, "top_k": top}
        yield {"type": "token", "position": position, "token": target}
        text += target
    yield {"type": "done"}
