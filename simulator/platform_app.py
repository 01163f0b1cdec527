"""One FastAPI app per simulated platform, put together the same way for all three: the
platform's routers under its prefix, its own error handlers, its background work run for the
app's lifetime, chaos on the prefix, and the request log outermost (it also sees the
statuses chaos and any inner fault middleware make up)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI
from starlette.types import ASGIApp

from simulator.chaos import ChaosMiddleware, ChaosState
from simulator.request_log import RequestLog, RequestLogMiddleware


class Background(Protocol):
    """Work a platform does on its own while it is served (live traffic, jobs)."""

    def start(self) -> None: ...

    async def stop(self) -> None: ...


def _run_during(work: Background) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: ``work`` started with the server, stopped (awaited) with it."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        work.start()
        try:
            yield
        finally:
            await work.stop()

    return lifespan


def platform_app(
    *,
    title: str,
    version: str,
    description: str,
    spec_url: str,
    prefix: str,
    routers: Iterable[APIRouter],
    install_error_handlers: Callable[[FastAPI], None],
    chaos: ChaosState,
    request_log: RequestLog | None,
    state: dict[str, Any],
    background: Background | None = None,
    inner_middleware: Sequence[tuple[Callable[..., ASGIApp], dict[str, Any]]] = (),
    key_headers: tuple[bytes, ...] = (b"authorization",),
) -> FastAPI:
    """The platform's app: OpenAPI at ``spec_url``, the routes under ``prefix``, each of
    ``state`` on ``app.state``; ``inner_middleware`` (class, options) sit inside chaos."""
    app = FastAPI(
        title=title,
        version=version,
        description=description,
        openapi_url=spec_url,
        docs_url="/docs",
        redoc_url=None,
        lifespan=None if background is None else _run_during(background),
    )
    for name, value in state.items():
        setattr(app.state, name, value)
    install_error_handlers(app)
    for router in routers:
        app.include_router(router, prefix=prefix)
    for middleware, options in inner_middleware:
        app.add_middleware(middleware, **options)
    app.add_middleware(ChaosMiddleware, state=chaos, prefix=prefix)
    if request_log is not None:  # outermost: it also sees the statuses chaos makes up
        app.add_middleware(RequestLogMiddleware, log=request_log, key_headers=key_headers)
    return app
