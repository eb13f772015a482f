"""Reading a table: what it looks like now, its rounds, one round's whole story, its
round events by seq."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, status

from dealer_station.actor import TableActor
from dealer_station.api.auth import Principal
from dealer_station.api.bodies import (
    Broker,
    Device,
    EventPage,
    RoundHistory,
    RoundList,
    TableNow,
    TableSummary,
    Timer,
)
from dealer_station.api.commands import REFUSALS
from dealer_station.api.context import ALL_ROLES, Context, Table, allow

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

router = APIRouter(tags=["tables"], responses={k: REFUSALS[k] for k in (401, 403, 404)})

Reader = Annotated[Principal, Depends(allow(*ALL_ROLES))]
Recall = Annotated[Principal, Depends(allow("pit_boss", "game_server"))]

# What the station does when the table's timer runs out (dealer_station/actor.py).
ON_EXPIRY = {
    "bets": "bets_closed: no more bets",
    "insurance": "insurance_closed: whoever has not answered declined",
    "decision": "stand",
}


def table_now(station: Station, actor: TableActor) -> TableNow:
    state = actor.latest.round_state
    timer = None
    if state is not None and "ends_at" in state.next:
        timer = Timer(ends_at=state.next["ends_at"], on_expiry=ON_EXPIRY[state.next["kind"]])
    publisher = station.publishers.get(actor.id)
    return TableNow(
        table=actor.id,
        game=actor.config.game,
        state=state,
        timer=timer,
        devices={d: Device(state=s, since=at) for d, (s, at) in actor.devices.items()},
        broker=Broker(connected=publisher.connected, backlog=publisher.backlog)
        if publisher
        else None,
        stats=actor.latest.stats.stats,
    )


@router.get("/tables", response_model=list[TableSummary])
async def list_tables(principal: Reader, ctx: Context) -> list[TableSummary]:
    out = []
    for actor in ctx.station.actors.values():
        state = actor.latest.round_state
        out.append(
            TableSummary(
                table=actor.id,
                game=actor.config.game,
                variant=state.variant if state else actor.config.variant,
                round=state.round if state else None,
                action=state.action if state else None,
            )
        )
    return out


@router.get("/tables/{table}/state", response_model=TableNow)
async def get_state(principal: Reader, actor: Table, ctx: Context) -> TableNow:
    """The table now: phase, next action, cards and totals, timer, devices, broker, stats."""
    return table_now(ctx.station, actor)


@router.get("/tables/{table}/rounds", response_model=RoundList)
async def list_rounds(
    principal: Recall,
    actor: Table,
    ctx: Context,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    # A journal sequence number: SQLite's 64-bit integers bound it.
    before: Annotated[
        int | None, Query(ge=1, le=2**63 - 1, description="a page's `before`")
    ] = None,
) -> RoundList:
    """The table's rounds, newest first."""
    return await ctx.history.rounds(actor.id, limit, before)


@router.get("/tables/{table}/events", response_model=EventPage)
async def list_events(
    principal: Recall,
    actor: Table,
    ctx: Context,
    after: Annotated[
        int, Query(ge=0, le=2**63 - 1, description="the last seq the client holds")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> EventPage:
    """Recall by seq: the round events after ``after``, oldest first, for a consumer
    that found a gap in ``round/event`` (docs/consumers.md)."""
    return await ctx.history.events(actor.id, after, limit)


@router.get("/tables/{table}/rounds/{round_id}", response_model=RoundHistory)
async def get_round(principal: Recall, actor: Table, ctx: Context, round_id: str) -> RoundHistory:
    """Game recall: every input, card and decision of the round, and its settlement."""
    found = await ctx.history.round(actor.id, round_id)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no round {round_id!r} at {actor.id}")
    return found
