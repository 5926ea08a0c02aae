"""``create_app``: the page, its static files and every ``api_*`` module's routes, behind the guard.

Each page's server side is one module ``pi_memory.ui.api_<name>`` with ``routes(config) ->
list[BaseRoute]``, mounted under ``/api``; a module that is not there is simply not mounted (its
page says it is not available). Everything goes through :class:`~pi_memory.ui.security.UiGuard`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pi_memory import __version__
from pi_memory.ui.config import UiConfig
from pi_memory.ui.security import UiGuard

__all__ = ["API_MODULES", "STATIC_DIR", "create_app"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
#: The page modules, in the navigation's order; each may or may not be installed.
API_MODULES = ("memory", "drift", "recall", "sessions", "dreaming")


def _api_routes(config: UiConfig) -> tuple[list[BaseRoute], list[str]]:
    routes: list[BaseRoute] = []
    found: list[str] = []
    for name in API_MODULES:
        module_name = f"{__package__}.api_{name}"
        if importlib.util.find_spec(module_name) is None:
            continue
        routes.extend(importlib.import_module(module_name).routes(config))
        found.append(name)
    return routes, found


def create_app(config: UiConfig, token: str) -> Starlette:
    """The UI as an ASGI app over ``config``; every request must carry ``token`` (see ``security``)."""
    api, pages = _api_routes(config)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html; charset=utf-8")

    async def info(request: Request) -> Response:
        from pi_memory.backends import describe_store

        store = config.store()
        return JSONResponse({"version": __version__, "pages": pages, "cwd": str(config.cwd),
                             "home": str(Path.home()),
                             "backend": "file" if store.dir is not None else "postgres",
                             "where": describe_store(store), "warnings": config.warnings})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)  # the browser asks for one; none is shipped

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            config.close()

    routes: list[BaseRoute] = [
        Route("/", index, methods=["GET"]),
        Route("/favicon.ico", favicon, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        Mount("/api", routes=[Route("/info", info, methods=["GET"]), *api]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(UiGuard, token=token)], lifespan=lifespan)
