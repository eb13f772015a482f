"""What every route needs: the station, who is asking, which table.

``allow(*roles)`` is the one gate: no token or an unknown one is 401, a token
of another role is 403, before the body is read and before any table hears of
the request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from prometheus_client import CollectorRegistry

from dealer_station.actor import TableActor
from dealer_station.api.auth import Authority, Principal
from dealer_station.api.feed import TableFeed
from dealer_station.api.history import History
from dealer_station.config import Role

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

ALL_ROLES: tuple[Role, ...] = ("croupier", "pit_boss", "game_server", "viewer")


@dataclass
class StationContext:
    station: Station
    authority: Authority
    history: History
    feeds: dict[str, TableFeed]
    # /metrics: this app's own registry (api/metrics.py), never a global one.
    metrics: CollectorRegistry


# Coroutines though they never wait: FastAPI calls a plain function on one of
# AnyIO's worker threads, and a flood of requests starts more of them, each
# with a malloc arena that keeps its peak (docs/memory.md).
async def context(request: Request) -> StationContext:
    ctx: StationContext = request.app.state.context
    return ctx


Context = Annotated[StationContext, Depends(context)]

_bearer = HTTPBearer(auto_error=False, description="a token from the station's [auth] config")


def allow(*roles: Role) -> Callable[..., Awaitable[Principal]]:
    async def check(
        ctx: Context,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    ) -> Principal:
        principal = ctx.authority.principal(credentials.credentials) if credentials else None
        if principal is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                "a valid bearer token is required",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if principal.role not in roles:
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"role {principal.role} may not do this; allowed: {', '.join(roles)}",
            )
        return principal

    return check


async def table_actor(table: str, ctx: Context) -> TableActor:
    actor = ctx.station.actors.get(table)
    if actor is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table!r} on this station")
    return actor


Table = Annotated[TableActor, Depends(table_actor)]
