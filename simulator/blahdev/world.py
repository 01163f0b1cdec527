"""The simulated platform's state: models, evals, logs, runs, chatroom, ... (thread-safe).

Every public method takes ``self.lock`` (an RLock), so tests may call them from their own
thread while the server's event loop uses the same world. Dicts handed out are the wire
shapes; callers must not mutate them (routes copy before adding fields).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from simulator.blahdev import catalog
from simulator.blahdev import chat_templates as templates
from simulator.blahdev.catalog import EvalSpec
from simulator.blahdev.small_model import Call, Generation, PeerModel, SmallModel
from simulator.blahdev.store import LogDict, LogStore

Json = dict[str, Any]
EventHook = Callable[[str, Json], None]

DAY_MS = 86_400_000


def now_ms() -> int:
    return int(time.time() * 1000)


class World:
    """All state of one simulated platform. ``World(seed)`` holds the catalog only;
    ``simulator.blahdev.snapshot.seeded_world(seed)`` gives one with its two days of seeded past."""

    def __init__(self, seed: int = 7, anchor_ms: int | None = None) -> None:
        self.seed = seed
        self.lock = threading.RLock()
        self.rng = random.Random(seed)
        self.anchor_ms = anchor_ms if anchor_ms is not None else now_ms()
        self.clock: Callable[[], int] = now_ms
        self.person_model_id = catalog.PERSON_MODEL_ID
        self.council_key = f"blah_demo_council_{self.rng.getrandbits(64):016x}"
        self.member_key = f"blah_demo_member_{self.rng.getrandbits(64):016x}"
        self.keys: dict[str, Json] = {
            self.council_key: {"user": "demo-person", "tier": "council"},
            self.member_key: {"user": "demo-member", "tier": "member"},
        }
        self.models: dict[str, Json] = {}
        self.behaviours: dict[str, SmallModel | PeerModel] = {}
        self.evals: dict[str, Json] = {}
        self.logs = LogStore()
        self.truth: dict[str, str] = {}
        """log_id -> ground-truth outcome of the call (tests and benchmarks only)."""
        self.judge_flaws: dict[str, str] = {}
        """result_id -> ``overscore``/``contradiction`` for wrong judge verdicts (tests only)."""
        self.runs: dict[str, Json] = {}
        self.run_state: dict[str, Json] = {}
        self.results: dict[str, Json] = {}
        self.messages: list[Json] = []
        self.messages_by_id: dict[str, Json] = {}
        self.health: dict[str, list[Json]] = {}
        self.outages: dict[str, list[tuple[int, int]]] = {}
        self.games: dict[str, Json] = {}
        self.training_sets: dict[str, Json] = {}
        self.uploads: dict[str, Json] = {}
        self.webhooks: dict[str, Json] = {}
        self.deliveries: list[Json] = []
        """Webhook delivery attempts, oldest first (for tests and the curious)."""
        self.chat_jobs: dict[str, Json] = {}
        self.on_event: EventHook | None = None
        self._counters: dict[str, int] = {}
        self.calls = 0
        self._add_catalog()

    # ------------------------------------------------------------------ basics

    def new_id(self, prefix: str) -> str:
        with self.lock:
            n = self._counters.get(prefix, 0) + 1
            self._counters[prefix] = n
            return f"{prefix}_{n:05d}"

    def counters_snapshot(self) -> dict[str, int]:
        with self.lock:
            return dict(self._counters)

    def set_counters(self, counters: dict[str, int]) -> None:
        with self.lock:
            self._counters = dict(counters)

    def now(self) -> int:
        return self.clock()

    def emit(self, event: str, payload: Json) -> None:
        hook = self.on_event
        if hook is not None:
            hook(event, payload)

    @property
    def peer_model_ids(self) -> list[str]:
        return [m for m in self.models if m != self.person_model_id]

    def key_info(self, key: str) -> Json | None:
        return self.keys.get(key)

    def _add_catalog(self) -> None:
        created = self.anchor_ms - 30 * DAY_MS
        for spec in catalog.MODELS:
            model: Json = {
                "id": spec.id,
                "name": spec.name,
                "description": spec.description,
                "inference_uri": spec.inference_uri,
                "is_official": spec.is_official,
                "submitted_by": spec.submitted_by,
                "created_at": created,
                "updated_at": created,
                "chatroom_enabled": True,
            }
            if spec.chat_template is not None:  # unknown template: the field is absent
                model["chat_template"] = spec.chat_template
            self.models[spec.id] = model
            if spec.id == self.person_model_id:
                self.behaviours[spec.id] = SmallModel(self.seed, spec.id, spec.chat_template or "chatml")
            else:
                self.behaviours[spec.id] = PeerModel(self.seed, spec.id, spec.skill, spec.chat_template)
        for ev in catalog.EVALS:
            self.evals[ev.id] = {
                "id": ev.id,
                "name": ev.name,
                "description": ev.description,
                "prompt": ev.prompt,
                "expected_behavior": ev.expected_behavior,
                "eval_type": ev.eval_type,
                "eval_criteria": ev.eval_criteria,
                "submitted_by": "blah",
                "created_at": created,
                "updated_at": created,
                "subject": ev.subject,
                "instruction_type": ev.instruction_type,
            }

    # ------------------------------------------------------------------ calls

    def is_down(self, model_id: str, at: int) -> bool:
        return any(a <= at < b for a, b in self.outages.get(model_id, ()))

    def call_model(
        self,
        model_id: str,
        turns: Sequence[templates.Turn],
        *,
        source: str,
        max_tokens: int,
        template: str | None = None,
        spec: EvalSpec | None = None,
        run_id: str | None = None,
        message_id: str | None = None,
        at: int | None = None,
    ) -> tuple[LogDict, Generation]:
        """Make one call of ``model_id`` and log it. ``template`` defaults to the model's own;
        ``spec``: the eval the call answers (its id is logged; its answers are what a model can say)."""
        with self.lock:
            model = self.models[model_id]
            used = template or templates.template_for_calls(model.get("chat_template"))
            prompt = templates.render(used, turns)
            # Live calls never land before the model's newest entry, so polling with since works.
            created = at if at is not None else max(self.now(), self.logs.latest(model_id) or 0)
            call = Call(
                prompt=prompt,
                max_tokens=max_tokens,
                template_used=used,
                user_text=turns[-1]["content"] if turns else "",
                spec=spec,
                instruction_type=spec.instruction_type if spec else None,
                down=self.is_down(model_id, created),
            )
            self.calls += 1
            gen = self.behaviours[model_id].generate(call, self.calls)
            entry: LogDict = {
                "id": self.logs.next_id(),
                "model_id": model_id,
                "source": source,
                "created_at": created,
                "prompt": prompt,
                "messages": [dict(t) for t in turns],
                "response": gen.response,
                "error": gen.error,
                "latency_ms": gen.latency_ms,
                "max_tokens": max_tokens,
                "prompt_tokens": gen.prompt_tokens,
                "completion_tokens": gen.completion_tokens,
                "finish_reason": gen.finish_reason,
                "eval_id": spec.id if spec else None,
                "run_id": run_id,
                "result_id": None,
                "message_id": message_id,
            }
            self.logs.add(entry)
            self.truth[entry["id"]] = gen.kind
            return entry, gen

    def infer(
        self, model_id: str, prompt: str, max_tokens: int, source: str = "test", at: int | None = None
    ) -> LogDict:
        """The ``/infer`` call: one user turn, in the model's own template."""
        entry, _ = self.call_model(
            model_id, [{"role": "user", "content": prompt}], source=source, max_tokens=max_tokens, at=at
        )
        return entry

    def add_log_burst(
        self, n: int, same_ms: bool = True, model_id: str | None = None, source: str = "test"
    ) -> list[str]:
        """Add ``n`` calls at once (a batch script). With ``same_ms`` they share one millisecond
        as far as the 300-per-millisecond cap allows (then spill into the next ones)."""
        with self.lock:
            mid = model_id or self.person_model_id
            start = self.now()
            rng = random.Random(f"{self.seed}-burst-{self.calls}")
            ids: list[str] = []
            for i in range(n):
                at = start if same_ms else start + i
                prompt = rng.choice(BURST_PROMPTS)
                ids.append(self.infer(mid, prompt, max_tokens=64, source=source, at=at)["id"])
            return ids

    def log(self, log_id: str) -> LogDict | None:
        with self.lock:
            return self.logs.by_id.get(log_id)

    def query_logs(self, model_id: str, **kwargs: Any) -> Json:
        with self.lock:
            return self.logs.query(model_id, **kwargs)

    # ------------------------------------------------------------------ models

    def register_model(
        self, owner: str, name: str, inference_uri: str, description: str | None, is_official: bool
    ) -> Json:
        with self.lock:
            slug = "-".join(topic for topic in name.lower().split() if topic.isalnum())[:40] or "model"
            model_id = f"{slug}-{self.new_id('m').split('_')[1]}"
            at = self.now()
            model: Json = {
                "id": model_id,
                "name": name,
                "description": description,
                "inference_uri": inference_uri,
                "is_official": is_official,
                "submitted_by": owner,
                "created_at": at,
                "updated_at": at,
                "chatroom_enabled": True,
            }
            self.models[model_id] = model
            self.behaviours[model_id] = PeerModel(self.seed, model_id, 0.6, None)
            self.health[model_id] = []
            return model

    def set_chatroom_enabled(self, model_id: str, enabled: bool) -> Json:
        with self.lock:
            model = self.models[model_id]
            model["chatroom_enabled"] = enabled
            model["updated_at"] = self.now()
            return {"model_id": model_id, "chatroom_enabled": enabled}

    def unmuted(self) -> list[str]:
        with self.lock:
            return [m for m, d in self.models.items() if d.get("chatroom_enabled")]

    def search(self, q: str) -> Json:
        needle = q.lower()
        with self.lock:
            models = [
                m
                for m in self.models.values()
                if needle in " ".join(str(m.get(k) or "") for k in ("id", "name", "description")).lower()
            ]
            evals = [
                e
                for e in self.evals.values()
                if needle
                in " ".join(
                    str(e.get(k) or "") for k in ("id", "name", "description", "subject", "instruction_type")
                ).lower()
            ]
            return {"models": models, "evals": evals}

    def health_of(self, model_id: str, limit: int) -> Json:
        with self.lock:
            checks = self.health.get(model_id, [])
            return {"model_id": model_id, "checks": list(reversed(checks[-limit:]))}


BURST_PROMPTS: tuple[str, ...] = (
    "The capital of France is",
    "Once upon a time",
    "Tell me a story about a cat.",
    "What is 2 + 2?",
    "Write one sentence about the sea.",
    'Return only JSON with key "ok".',
    "Hello, who are you?",
    "Summarise: the dog ran to the park and played all day.",
)


def turns_for(spec: EvalSpec, system: str | None = None) -> list[templates.Turn]:
    """The turns the platform sends for an eval: any earlier turns, then its prompt."""
    turns: list[templates.Turn] = [{"role": "system", "content": system}] if system else []
    turns += [{"role": r, "content": c} for r, c in spec.history]
    turns.append({"role": "user", "content": spec.prompt})
    return turns
