"""The station's HTTP face: the API, the live feed, the console and the overlay.

``create_app(station)`` builds it for a station that runs (or is about to run) in
the same event loop: routes reach the tables through their actors' queues, so
the tables keep one writer each. The OpenAPI document FastAPI publishes at
``/openapi.json`` is the API's contract (docs/api.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST

from dealer_station import __version__
from dealer_station.api import (
    dealers,
    docs_page,
    integrity,
    live,
    pages,
    pit_boss,
    sessions,
    table_commands,
    tables,
)
from dealer_station.api.auth import Authority
from dealer_station.api.commands import Refused, refused_response
from dealer_station.api.context import Context, StationContext
from dealer_station.api.feed import TableFeed
from dealer_station.api.guard import Guard
from dealer_station.api.history import History
from dealer_station.api.metrics import exposition, registry_for
from dealer_station.api.readiness import Readiness, readiness, table_links

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station


def describe() -> FastAPI:
    """The API as ``/openapi.json`` publishes it: every route, no station
    behind them (``create_app`` adds one; ``contracts/openapi.json`` is this
    app's document)."""
    app = FastAPI(
        title="dealer station",
        version=__version__,
        description="One live-studio table's station: the croupier's console, the game "
        "server's inputs, game recall. Roles and tokens: docs/api.md.",
        # Swagger UI from the package (api/docs_page.py); no page that loads a CDN.
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        # An operation's id is its function's name: stable across FastAPI
        # releases and path changes, so generated clients keep their names.
        generate_unique_id_function=lambda route: route.name,
    )

    @app.get("/healthz", tags=["station"])
    async def healthz(ctx: Context) -> dict[str, Any]:
        """Alive, and how its links are: ``degraded`` when a broker link or a device is down."""
        report: dict[str, Any] = {}
        healthy = True
        for table, links in table_links(ctx.station).items():
            healthy &= links.broker and all(s == "online" for s in links.devices.values())
            report[table] = {"broker": "online" if links.broker else "offline", **links.devices}
        return {"status": "ok" if healthy else "degraded", "tables": report}

    @app.get(
        "/readyz",
        tags=["station"],
        response_model=Readiness,
        responses={503: {"model": Readiness, "description": "Not ready, and why"}},
    )
    async def readyz(ctx: Context) -> JSONResponse:
        """Ready to deal: 200, or 503 while a table replays its journal, its
        broker link is down or one of its devices is offline (``reasons`` say which)."""
        ready = readiness(table_links(ctx.station))
        return JSONResponse(ready.model_dump(), status_code=200 if ready.ready else 503)

    @app.get(
        "/metrics",
        tags=["station"],
        response_class=Response,
        responses={200: {"content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}}}},
    )
    async def metrics(ctx: Context) -> Response:
        """Prometheus text format (docs/api.md, "Metrics"): rounds, cards,
        refusals, alarms, the MQTT link, its backlog and a card's time to PUBACK,
        devices, the shoe link, the journal, the process. Any token of the
        station (a viewer's for a Prometheus), unless ``[http] metrics_open``."""
        return exposition(ctx.metrics)

    for module in (
        tables,
        table_commands,
        pit_boss,
        dealers,
        integrity,
        sessions,
        live,
        pages,
        docs_page,
    ):
        app.include_router(module.router)
    return app


def create_app(station: Station) -> FastAPI:
    app = describe()
    feeds = {
        table: TableFeed(actor, station.journal, station.publishers)
        for table, actor in station.actors.items()
    }
    for feed in feeds.values():
        feed.start()
    authority = Authority(station.config.auth)
    station.on_reload.append(lambda config: authority.reconfigure(config.auth))
    app.state.context = StationContext(
        station, authority, History(station.journal.path), feeds, registry_for(station, feeds)
    )
    # Outermost of the app's own layers: nothing reads a body before it.
    app.add_middleware(Guard, authority=authority, http=station.config.http)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return refused_response(exc)

    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    app.mount(docs_page.ASSETS, docs_page.assets, name="docs-assets")
    return app
