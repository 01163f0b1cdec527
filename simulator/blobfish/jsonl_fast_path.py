"""The evaluation JSONL route's common answer without FastAPI's routing: an ASGI middleware
inside chaos (so every fault still applies) that answers ``GET /api/v1/evaluations/{id}?format=jsonl``
itself when the request is the plain good one, and hands every other request to the app.

Why: a Blobfish export asks this route once per evaluation (2,000+ times for 10,000 rollouts),
and FastAPI's per-request work (routing, the dependency and query validation, the exception
middleware) was most of the simulator's CPU for it. The simulator is the platform both sides of
the export bench talk to, so a faster one serves every client alike.

Same answers by construction: the fast path only answers what the route answers ``200`` with
the cached body (``EvaluationStore.jsonl``), the headers the route sends (``content-length``,
``content-type``). Anything else - another method or query, a second key header, a key sent
as a bearer token, a key the store does not know, an id the scope does not hold - goes to the
route, which answers or refuses as before (tests/simulator/blobfish/test_jsonl_fast_path.py
compares both on good and bad requests).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from simulator.blobfish.auth import KEY_PREFIX
from simulator.blobfish.shapes import JSONL_MEDIA_TYPE
from simulator.blobfish.store import EvaluationStore

QUERY = b"format=jsonl"
_CONTENT_TYPE = (b"content-type", JSONL_MEDIA_TYPE.encode("latin-1"))


class JsonlFastPath:
    def __init__(self, app: ASGIApp, store: EvaluationStore, prefix: str) -> None:
        self.app = app
        self.store = store
        self.route = f"{prefix}/evaluations/"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = self._answer(scope) if scope["type"] == "http" else None
        if body is None:
            await self.app(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", str(len(body)).encode("latin-1")), _CONTENT_TYPE],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": False})

    def _answer(self, scope: Scope) -> bytes | None:
        """The body when this is the plain good request (see the module's docstring); else None."""
        if scope["method"] != "GET" or scope["query_string"] != QUERY:
            return None
        path: str = scope["path"]
        if not path.startswith(self.route):
            return None
        evaluation_id = path[len(self.route) :]
        if not evaluation_id or "/" in evaluation_id:
            return None
        key: bytes | None = None
        for name, value in scope["headers"]:
            if name == b"x-api-key":
                if key is not None:
                    return None  # two: the route decides
                key = value
            elif name == b"authorization":
                return None
        if key is None:
            return None
        text = key.decode("latin-1").strip()  # as Starlette's Headers decode it; the route strips
        if not text.startswith(KEY_PREFIX):
            return None
        caller = self.store.scope_for_key(text)
        if caller is None:
            return None
        return self.store.jsonl(caller, evaluation_id)
