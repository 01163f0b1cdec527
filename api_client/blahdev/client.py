"""``BlahClient``: one typed async method for every blah.dev endpoint.

The request machinery (deadline, retries, auth, error mapping) is in :mod:`.http`; the
tolerant parsers in :mod:`._parse`; log tailing and history in :mod:`.tail`. Endpoints
are grouped: logs, runs, models and evals here; chat, chatroom, webhooks and games in
:mod:`._community`; training sets and the lens in :mod:`._assets`.
No Textual import here: the TUI calls this from its workers.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Unpack
from urllib.parse import urlencode

from api_client.blahdev import _parse as P
from api_client.blahdev._assets import AssetEndpoints
from api_client.blahdev._base import id_list
from api_client.blahdev._community import CommunityEndpoints
from api_client.blahdev.log_history import LogHistory
from api_client.blahdev.records import CallPage, call_from_log_entry
from api_client.blahdev.shapes import (
    Comparison,
    Diagnosis,
    Eval,
    FailureClusters,
    Health,
    InferResult,
    LeaderboardEntry,
    LogEntry,
    Model,
    Result,
    Run,
    RunStarted,
    SearchResults,
)
from api_client.blahdev.tail import LogTail, TailOptions
from api_client.transport.http import Sleep
from api_client.transport.platform_client import ConnectionOptions, PlatformClient, platform_core
from api_client.transport.request_members import given, whole
from api_client.transport.url_paths import api_path, segment
from common.constants import DEFAULT_BASE_URL
from common.records import Call

if TYPE_CHECKING:
    from api_client.blahdev.wire_history import WireLogHistory
    from api_client.blahdev.wire_logs import WirePage
    from api_client.transport.bulk_get import BulkGet

USER_AGENT = "blah-tui/0.1"


def _logs_query(
    source: str | None, since: int | None, before: int | None, errors_only: bool, limit: int | None, stats: bool
) -> dict[str, Any]:
    """The query of ``GET /models/{id}/logs``: the bounds given, flags as ``"true"`` when set."""
    return given(
        source=source,
        since=whole(since),
        before=whole(before),
        errors_only="true" if errors_only else None,
        limit=whole(limit),
        stats="true" if stats else None,
    )


class BlahClient(CommunityEndpoints, AssetEndpoints, PlatformClient):
    """Async client of the blah.dev API (``/api/v1``).

    Use as ``async with BlahClient(url, key) as client:`` (or call :meth:`aclose`). It
    holds one ``httpx.AsyncClient`` for its whole life. ``deadline`` bounds every call
    end to end (all attempts, waits and the body); ``max_attempts`` bounds the tries of a
    safe (GET) call (it overrides ``retry.max_attempts``). ``sleep`` and ``retry`` (its
    backoff and random source) are injectable so tests never wait.
    """

    platform = "blah.dev"

    def __init__(
        self, base_url: str = DEFAULT_BASE_URL, api_key: str | None = None, **options: Unpack[ConnectionOptions]
    ) -> None:
        """``options``: :class:`ConnectionOptions` (``deadline`` 30 s by default)."""
        self._sleep: Sleep = options.get("sleep") or asyncio.sleep
        options["sleep"] = self._sleep
        options.setdefault("deadline", 30.0)
        super().__init__(platform_core(base_url, api_key, user_agent=USER_AGENT, **options))

    # ------------------------------------------------------------------ lifecycle

    def __repr__(self) -> str:
        return f"BlahClient(base_url={self.base_url!r}, has_key={self.has_key})"

    # ------------------------------------------------------------------ logs

    async def get_logs(
        self,
        model_id: str,
        *,
        source: str | None = None,
        since: int | None = None,
        before: int | None = None,
        errors_only: bool = False,
        limit: int | None = None,
        stats: bool = False,
    ) -> CallPage:
        """One page of a model's calls, newest first, as ``Call``s (see CONTRACT.md for the bounds)."""
        params = _logs_query(source, since, before, errors_only, limit, stats)
        path = api_path("models", segment(model_id, what="model id"), "logs")
        return await self._get(path, P.log_page, params)

    async def get_logs_wire(
        self,
        model_id: str,
        *,
        source: str | None = None,
        before: int | None = None,
        errors_only: bool = False,
        limit: int | None = None,
        bulk: BulkGet | None = None,
    ) -> WirePage:
        """As ``get_logs``, the calls as the platform sent them, each with its JSONL line
        (``export``'s path: no validated model per call; see ``wire_logs``).

        ``bulk`` (from ``wire_bulk_getter``): the page is asked on its light connection
        (~1 ms less client CPU per page than httpx); an answer it cannot take (another
        status, a broken connection) or a body that is not a page is asked again here,
        through the normal path, which retries and raises the platform's error."""
        params = _logs_query(source, None, before, errors_only, limit, False)
        from api_client.blahdev.wire_logs import wire_page_parser  # export only: not at start-up

        path = api_path("models", segment(model_id, what="model id"), "logs")
        if bulk is not None and bulk.usable:
            from api_client.transport.bulk_get import BulkFallback

            try:
                body = await bulk.get(self._http.target_for(path, urlencode(params)))
                return wire_page_parser.from_json(body)
            except BulkFallback:
                pass
            except ValueError:  # pydantic's ValidationError: a shape the general path reads
                bulk.fallbacks += 1  # (or refuses); after a few, pages stop coming this way
        return await self._get(path, wire_page_parser, params)

    def wire_bulk_getter(self) -> BulkGet | None:
        """A ``BulkGet`` of one connection for ``get_logs_wire`` (None where it does not
        apply: a test transport, a proxy). The caller closes it."""
        return self._http.bulk_getter(1, self._http.deadline)

    async def get_log(self, log_id: str) -> Call:
        """One call, validated as blah.dev's ``LogEntry`` and read as a ``Call``."""
        entry = await self._get(api_path("logs", segment(log_id, what="log id")), P.one(LogEntry, "log"))
        return call_from_log_entry(entry)

    def tail_logs(self, model_id: str, **options: Unpack[TailOptions]) -> LogTail:
        """Follow new calls: an async iterator of batches (oldest first), each entry once
        (``options``: :class:`LogTail`'s, with its defaults; the client's sleep unless given).

        ``since=None`` starts at the server's newest entry (never the local clock);
        otherwise entries with ``created_at > since`` are delivered.
        """
        segment(model_id, what="model id")
        options["sleep"] = options.get("sleep") or self._sleep
        return LogTail(self, model_id, **options)

    def iter_logs(
        self,
        model_id: str,
        *,
        before: int | None = None,
        source: str | None = None,
        errors_only: bool = False,
        page_size: int = 500,
        read_ahead: bool = False,
    ) -> LogHistory:
        """History, newest first, each entry once (``created_at < before`` when given).
        ``read_ahead``: request each next page while the caller consumes the last one."""
        segment(model_id, what="model id")
        return LogHistory(
            self,
            model_id,
            before=before,
            source=source,
            errors_only=errors_only,
            page_size=page_size,
            read_ahead=read_ahead,
        )

    def iter_logs_wire(
        self,
        model_id: str,
        *,
        source: str | None = None,
        errors_only: bool = False,
        page_size: int = 500,
        read_ahead: bool = False,
    ) -> WireLogHistory:
        """As ``iter_logs``, its ``pages()`` holding ``WireEntry`` calls (``export``)."""
        from api_client.blahdev.wire_history import WireLogHistory  # export only: not at start-up

        segment(model_id, what="model id")
        return WireLogHistory(
            self, model_id, source=source, errors_only=errors_only, page_size=page_size, read_ahead=read_ahead
        )

    # ------------------------------------------------------------------ diagnosis

    async def diagnose(self, model_id: str) -> Diagnosis:
        path = api_path("models", segment(model_id, what="model id"), "diagnose")
        return await self._get(path, P.one(Diagnosis))

    async def failure_clusters(self, model_id: str, *, deadline: float | None = None) -> FailureClusters:
        """Council tier; spends a judge call, so it is never retried."""
        path = api_path("models", segment(model_id, what="model id"), "failure-clusters")
        return await self._post(path, P.one(FailureClusters), deadline=deadline)

    # ------------------------------------------------------------------ results / runs

    async def list_results(self, model_id: str) -> list[Result]:
        path = api_path("models", segment(model_id, what="model id"), "results")
        return await self._get(path, P.list_of(Result, "results"))

    async def get_result(self, result_id: str) -> Result:
        path = api_path("results", segment(result_id, what="result id"))
        return await self._get(path, P.one(Result, "result"))

    async def leaderboard(self) -> list[LeaderboardEntry]:
        return await self._get(api_path("leaderboard"), P.list_of(LeaderboardEntry, "leaderboard", "entries"))

    async def list_runs(self) -> list[Run]:
        return await self._get(api_path("runs"), P.list_of(Run, "runs"))

    async def get_run(self, run_id: str) -> Run:
        return await self._get(api_path("runs", segment(run_id, what="run id")), P.one(Run, "run"))

    async def run_results(self, run_id: str) -> list[Result]:
        path = api_path("runs", segment(run_id, what="run id"), "results")
        return await self._get(path, P.list_of(Result, "results"))

    async def start_run(self, model_ids: list[str]) -> RunStarted:
        """Council tier. 201 Run, or the older ``{"message"}`` answer."""
        body = {"model_ids": id_list(model_ids, "model_ids")}
        return await self._post(api_path("runs"), P.run_started, body)

    async def resume_run(self, run_id: str) -> Run:
        path = api_path("runs", segment(run_id, what="run id"), "resume")
        return await self._post(path, P.one(Run, "run"))

    async def cancel_run(self, run_id: str) -> Run:
        path = api_path("runs", segment(run_id, what="run id"), "cancel")
        return await self._post(path, P.one(Run, "run"))

    # ------------------------------------------------------------------ models / evals

    async def list_models(self) -> list[Model]:
        return await self._get(api_path("models"), P.list_of(Model, "models"))

    async def get_model(self, model_id: str) -> Model:
        path = api_path("models", segment(model_id, what="model id"))
        return await self._get(path, P.one(Model, "model"))

    async def register_model(
        self,
        name: str,
        inference_uri: str,
        *,
        description: str | None = None,
        api_key: str | None = None,
    ) -> Model:
        """``api_key`` is the model host's key (stored by the platform), not ours."""
        body = {"name": name, "inference_uri": inference_uri, **given(description=description, api_key=api_key)}
        return await self._post(api_path("models"), P.one(Model, "model"), body)

    async def list_evals(self) -> list[Eval]:
        return await self._get(api_path("evals"), P.list_of(Eval, "evals"))

    async def get_eval(self, eval_id: str) -> Eval:
        path = api_path("evals", segment(eval_id, what="eval id"))
        return await self._get(path, P.one(Eval, "eval"))

    async def search(self, q: str) -> SearchResults:
        return await self._get(api_path("search"), P.one(SearchResults), {"q": q})

    # ------------------------------------------------------------------ calling models

    async def infer(
        self,
        model_id: str,
        prompt: str,
        *,
        max_tokens: int | None = None,
        deadline: float | None = None,
    ) -> InferResult:
        """Call the model through the platform (which records a log). Never retried."""
        body = {"prompt": prompt, **given(max_tokens=whole(max_tokens))}
        path = api_path("models", segment(model_id, what="model id"), "infer")
        return await self._post(path, P.one(InferResult), body, deadline=deadline)

    # ------------------------------------------------------------------ health / compare

    async def health(self, model_id: str) -> Health:
        path = api_path("models", segment(model_id, what="model id"), "health")
        return await self._get(path, P.one(Health))

    async def compare(self, model_ids: list[str]) -> Comparison:
        params = [("model", m) for m in id_list(model_ids, "model_ids")]
        return await self._get(api_path("compare"), P.one(Comparison), params)
