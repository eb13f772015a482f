"""The pages: the console, the overlay, the pit boss's integrity page and floor,
an index linking them, and the station's icon.

Plain HTML, CSS and JavaScript from ``dealer_station/web`` (package data), served
as they are: no build step, nothing fetched from elsewhere.
"""

from __future__ import annotations

import html
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException, status
from fastapi.responses import FileResponse, HTMLResponse

from dealer_station.api.context import Context

WEB = Path(str(resources.files("dealer_station") / "web"))

router = APIRouter(include_in_schema=False)


def _page(name: str, table: str, ctx: Context) -> FileResponse:
    if table not in ctx.station.actors:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table!r} on this station")
    return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})


@router.get("/console/{table}")
async def console(table: str, ctx: Context) -> FileResponse:
    return _page("console.html", table, ctx)


@router.get("/overlay/{table}")
async def overlay(table: str, ctx: Context) -> FileResponse:
    return _page("overlay.html", table, ctx)


@router.get("/integrity/{table}")
async def integrity(table: str, ctx: Context) -> FileResponse:
    """The pit boss's integrity page: its data needs a pit boss's token."""
    return _page("integrity.html", table, ctx)


@router.get("/floor")
async def floor() -> FileResponse:
    """The pit boss's floor: every table of the station; its data needs a token."""
    return FileResponse(WEB / "floor.html", headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    # Where every browser looks for a page's icon, the overlay's (which names none) too.
    return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")


@router.get("/", response_class=HTMLResponse)
async def index(ctx: Context) -> str:
    rows = "".join(
        f"<li><b>{html.escape(t)}</b> ({html.escape(a.config.game)}): "
        f'<a href="/console/{html.escape(t)}">console</a> · '
        f'<a href="/overlay/{html.escape(t)}">overlay</a> · '
        f'<a href="/integrity/{html.escape(t)}">integrity</a></li>'
        for t, a in ctx.station.actors.items()
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(ctx.station.config.station)}</title>"
        '<link rel="icon" href="/favicon.ico" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/console.css"></head>'
        f'<body class="index"><h1>Station {html.escape(ctx.station.config.station)}</h1>'
        f'<p><a href="/floor">floor</a></p><ul>{rows}</ul>'
        '<p><a href="/docs">API</a></p></body></html>'
    )
