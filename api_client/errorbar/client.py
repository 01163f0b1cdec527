"""``ErrorbarClient``: every ``/v1/evals`` and ``/v1/criteria`` route of the eval-run queue.

    async with ErrorbarClient("https://queue.example", api_key="sk_...") as client:
        run = await client.create_run({...})
        verdict = await client.gate(run.id, {"min_win_rate": 0.5})

- the key goes in ``Authorization: Bearer`` only to the configured origin; a key shaped like
  another platform's is refused at construction;
- ``create_run`` is checked here first (``RefusedLocally``, nothing sent), is sent ONCE (it
  spends money), and when its answer is lost the run list is read to find it (``settled``);
  nothing found: ``CreateOutcomeUnknown``, never a second POST. Two identical creates in
  flight at once (a double key press) share one request;
- the gate's 412 is a verdict (``GateVerdict``, ``http_status`` 412), not an error;
- 402/403/412/422 are :mod:`api_client.errorbar.errors` with their own sentences.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, Unpack

import httpx
from pydantic import ValidationError

from api_client.errorbar import shapes_fixed as wire
from api_client.errorbar.checks import check_create, gate_params
from api_client.errorbar.errors import CreateOutcomeUnknown, PreconditionError, translate
from api_client.errorbar.gate_verdict import GateVerdict
from api_client.errorbar.keys import check_key
from api_client.errorbar.shapes_fixed import origin_base_url
from api_client.errors import BlahError, InvalidResponseError, OutcomeUnknownError
from api_client.transport.origin import BEARER
from api_client.transport.platform_client import ConnectionOptions, PlatformClient, platform_core
from api_client.transport.request_members import given
from api_client.transport.responses import safe_excerpt
from api_client.transport.url_paths import segment
from common.iso_time import parse_iso

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

USER_AGENT = "blah-tui (errorbar client)"
SETTLE_WINDOW_S = 300.0
"""A run in the list counts as the lost create's only if created this close to the send."""
T = TypeVar("T")


@dataclass(frozen=True)
class EvidenceBundle:
    """``raw``: the body's exact bytes; ``evidence``: the same, parsed."""

    raw: bytes
    evidence: assumed.Evidence


@dataclass(frozen=True)
class Created:
    """A queued run; ``settled`` when the answer was lost and the run was found in the list."""

    run: assumed.Run
    settled: bool = False


def _shapes() -> Any:
    """:mod:`api_client.errorbar.shapes`, imported on first use: its pydantic models cost a
    CI gate's start-up and the gate does not read them."""
    from api_client.errorbar import shapes as assumed

    return assumed


def _fingerprint(body: Mapping[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _same_run(run: assumed.Run, body: Mapping[str, Any], sent_at: dt.datetime) -> bool:
    created = parse_iso(run.created_at)
    if created is None or abs((created - sent_at).total_seconds()) > SETTLE_WINDOW_S:
        return False
    if body.get("screening") is True:
        return bool((run.sample_filters or {}).get("screening"))
    keys = (
        [c.get("label") or c.get("model") for c in body["candidates"]]
        if body.get("candidates") is not None
        else list(body.get("candidate_models") or [])
    )
    return (
        run.name == str(body.get("name", "")).strip()
        and run.baseline_model == body.get("baseline_model")
        and run.candidate_models == keys
        and run.eval_kind == body.get("eval_kind", "comparison")
        and (body.get("sample_count") is None or run.sample_count == body.get("sample_count"))
    )


def plain_http_transport(limits: httpx.Limits | None) -> httpx.AsyncHTTPTransport:
    """The transport for an ``http://`` origin (a loopback queue: a key is refused over plain
    http anywhere else). This client only ever addresses its own origin and follows no
    redirect, so no TLS handshake can happen: httpx's default transport would still load the
    CA bundle into an SSL context first (about 0.25 s of a CI gate's start-up), so none is
    made. An ``https://`` origin gets httpx's default, verified transport."""
    return httpx.AsyncHTTPTransport(verify=False, limits=limits or httpx.Limits(), trust_env=True)


class ErrorbarClient(PlatformClient):
    platform = "errorbar"

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        key_source: str | None = None,
        **options: Unpack[ConnectionOptions],
    ) -> None:
        """``key_source``: where the key came from, in words ("$ERRORBAR_API_KEY", "the demo
        simulator's admin key"); a 403 names it (never the key itself). ``options``:
        :class:`ConnectionOptions` (``deadline`` 60 s by default)."""
        key = check_key(api_key) if api_key is not None else None
        self.key_source = key_source
        origin = origin_base_url(base_url)
        if options.get("transport") is None and httpx.URL(origin).scheme == "http":
            options["transport"] = plain_http_transport(options.get("limits"))
        options.setdefault("deadline", 60.0)
        super().__init__(
            platform_core(
                origin,
                key,
                user_agent=USER_AGENT,
                key_header=BEARER,
                missing_key_hint="set ERRORBAR_API_KEY to an sk_... key",
                **options,
            )
        )
        self._creating: dict[str, asyncio.Future[Created]] = {}

    # ------------------------------------------------------------------ plumbing

    async def _call(
        self, method: str, path: str, parse: Callable[[Any], T], *, precondition: str | None = None, **kw: Any
    ) -> T:
        try:
            return await self._http.request_json(method, path, parse, needs_key=True, **kw)
        except BlahError as error:
            raise translate(error, precondition=precondition, key_source=self.key_source) from None

    @staticmethod
    def _run_path(run_id: str, *rest: str) -> str:
        return "/".join([wire.EVALS_PATH, segment(run_id, what="run id"), *rest])

    # ------------------------------------------------------------------ runs

    async def list_runs(self) -> list[assumed.Run]:
        """The 50 newest runs, newest first (the queue has no paging)."""
        listing = await self._call("GET", wire.EVALS_PATH, _shapes().RunList.model_validate)
        return listing.data

    async def get_run(self, run_id: str) -> assumed.Run:
        return await self._call("GET", self._run_path(run_id), _shapes().Run.model_validate)

    async def create_run(self, body: Mapping[str, Any]) -> Created:
        """Queue a run: checked here, sent once (see the module docstring)."""
        check_create(body)
        self._http.require_key("POST", wire.EVALS_PATH)
        fingerprint = _fingerprint(body)
        pending = self._creating.get(fingerprint)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Created] = asyncio.get_running_loop().create_future()
        self._creating[fingerprint] = future
        try:
            created = await self._create_once(body)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a lone caller does not leave it unobserved
            raise
        else:
            future.set_result(created)
            return created
        finally:
            del self._creating[fingerprint]

    async def _create_once(self, body: Mapping[str, Any]) -> Created:
        sent_at = dt.datetime.now(dt.UTC)
        try:
            run = await self._call("POST", wire.EVALS_PATH, _shapes().Run.model_validate, json=dict(body))
            return Created(run)
        except OutcomeUnknownError as lost:
            try:
                runs = await self.list_runs()
            except BlahError:
                runs = []
            found = [run for run in runs if _same_run(run, body, sent_at)]
            if found:
                return Created(found[0], settled=True)
            raise CreateOutcomeUnknown(
                f"the answer to the create was lost ({lost.message}) and the run list shows no run like it yet; "
                "it may still have been queued: check the list before creating it again (it was not resent)",
                method="POST",
                path=wire.EVALS_PATH,
            ) from None

    async def cancel_run(self, run_id: str) -> assumed.Run:
        """Cancel a PENDING or RUNNING run (a 400 for a terminal one). Re-read it after: a
        slice in flight can still land it DONE."""
        return await self._call("POST", self._run_path(run_id, "cancel"), _shapes().Run.model_validate)

    async def delete_run(self, run_id: str) -> str:
        """Delete a terminal run and its samples (irreversible); its id."""
        answer = await self._call("DELETE", self._run_path(run_id), _shapes().Document.model_validate)
        return str((answer.model_extra or {}).get("id", run_id))

    async def samples(self, run_id: str) -> list[assumed.Sample]:
        return await self._call("GET", self._run_path(run_id, "samples"), _shapes().parse_samples)

    async def pairwise(self, run_id: str) -> assumed.Pairwise:
        """Spec sheets, the judge's calibration against the labelled pairs, corrected win rates."""
        return await self._call("GET", self._run_path(run_id, "pairwise"), _shapes().Pairwise.model_validate)

    async def pair_labels(self, run_id: str) -> list[assumed.PairLabel]:
        return await self._call("GET", self._run_path(run_id, "pair_labels"), _shapes().parse_pair_labels)

    async def add_pair_label(
        self, run_id: str, sample_index: int, candidate: str, verdict: str, critique: str | None = None
    ) -> assumed.PairLabel:
        """Relay a verdict a human gave (never made up); a repeat overwrites."""
        if verdict not in ("candidate", "baseline", "tie"):
            raise ValueError("verdict must be candidate, baseline or tie")
        body = {"sample_index": sample_index, "candidate": candidate, "verdict": verdict, **given(critique=critique)}
        return await self._call(
            "POST", self._run_path(run_id, "pair_labels"), _shapes().PairLabel.model_validate, json=body
        )

    async def delete_pair_label(self, run_id: str, sample_index: int, candidate: str) -> None:
        await self._call(
            "DELETE",
            self._run_path(run_id, "pair_labels"),
            _shapes().Document.model_validate,
            params={"sample_index": sample_index, "candidate": candidate},
        )

    async def evidence(
        self,
        run_id: str,
        thresholds: Mapping[str, float | None] | None = None,
        *,
        with_content: bool = False,
        model: str | None = None,
    ) -> EvidenceBundle:
        """The run's evidence bundle: its exact bytes (to write as they came: a signature covers
        them) and the same parsed. A 412 is :class:`PreconditionError` (the run is not DONE)."""
        params = (
            gate_params(thresholds, model=model)
            if thresholds and any(v is not None for v in thresholds.values())
            else ({"model": model} if model else {})
        )
        if with_content:
            params["with_content"] = "true"
        path = self._run_path(run_id, "evidence")
        self._http.require_key("GET", path)
        chunks: list[bytes] = []
        try:
            async for chunk in self._http.stream_bytes(path, params=params):
                chunks.append(chunk)
        except BlahError as error:
            raise translate(error, precondition=PreconditionError.EVIDENCE) from None
        raw = b"".join(chunks)
        try:
            parsed = _shapes().Evidence.model_validate(json.loads(raw))
        except (ValueError, ValidationError) as exc:
            raise InvalidResponseError(
                f"the evidence bundle is not a JSON object of the contract's shape ({safe_excerpt(str(exc), 200)})",
                method="GET",
                path=path,
            ) from None
        return EvidenceBundle(raw, parsed)

    async def compare(self, before_id: str, after_id: str) -> assumed.Comparison:
        """``a`` = before, ``b`` = after; ``delta`` is after − before."""
        return await self._call(
            "GET",
            f"{wire.EVALS_PATH}/compare",
            _shapes().Comparison.model_validate,
            params={"a": before_id, "b": after_id},
            precondition=PreconditionError.COMPARE,
        )

    async def failure_clusters(self, window_days: int = 7, *, force: bool = False) -> assumed.FailureClusters:
        """May spend (a fresh clustering is metered): ``force`` skips the hour's cache; never loop it."""
        if not 1 <= window_days <= 90:
            raise ValueError("window_days must be 1..90")
        params = {"window_days": window_days, **({"force": "true"} if force else {})}
        return await self._call(
            "GET", f"{wire.EVALS_PATH}/failure_clusters", _shapes().FailureClusters.model_validate, params=params
        )

    async def gate(
        self, run_id: str, thresholds: Mapping[str, float | None], *, ties: str | None = None, model: str | None = None
    ) -> tuple[int, GateVerdict]:
        """(HTTP status, verdict): 200 only when it passed, 412 for everything else (not DONE,
        ERROR, a failed check). Thresholds are checked here first (0..1, at least one)."""
        params = gate_params(thresholds, ties=ties, model=model)
        path = self._run_path(run_id, "gate")
        try:
            reply = await self._http.request(
                "GET",
                path,
                GateVerdict.model_validate,
                params=params,
                needs_key=True,
                verdict_statuses=frozenset({412}),
            )
        except BlahError as error:
            raise translate(error) from None
        verdict: GateVerdict = reply.data
        return reply.status, verdict

    # ------------------------------------------------------------------ criteria

    async def criteria(self) -> list[assumed.Criterion]:
        listing = await self._call("GET", wire.CRITERIA_PATH, _shapes().CriterionList.model_validate)
        return listing.data

    async def criterion(self, criterion_id: str) -> assumed.Criterion:
        return await self._call(
            "GET",
            f"{wire.CRITERIA_PATH}/{segment(criterion_id, what='criterion id')}",
            _shapes().Criterion.model_validate,
        )

    async def alignment(self, criterion_id: str) -> assumed.Alignment:
        """The criterion's last alignment (free, never re-judges). While an align is running
        the queue answers 400 "Alignment run in progress — N labels judged so far"."""
        return await self._call(
            "GET",
            f"{wire.CRITERIA_PATH}/{segment(criterion_id, what='criterion id')}/alignment",
            _shapes().Alignment.model_validate,
        )

    async def align(self, criterion_id: str) -> assumed.AlignAnswer:
        """Re-measure the criterion's judge against its human labels. SPENDS one judge call per
        label: sent once, never resent (a lost answer is looked up with :meth:`alignment`)."""
        path = f"{wire.CRITERIA_PATH}/{segment(criterion_id, what='criterion id')}/align"
        self._http.require_key("POST", path)
        return await self._call("POST", path, _shapes().AlignAnswer.model_validate)


async def wait_until_terminal(
    client: ErrorbarClient,
    run_id: str,
    *,
    sleep: Callable[[float], Awaitable[None]],
    interval: float = 2.0,
    on_poll: Callable[[assumed.Run], None] | None = None,
) -> assumed.Run:
    """Poll a run until DONE, ERROR or CANCELLED."""
    while True:
        run = await client.get_run(run_id)
        if on_poll is not None:
            on_poll(run)
        if run.terminal:
            return run
        await sleep(interval)
