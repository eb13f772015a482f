"""Inputs from people and the game server, through the table's actor.

Every request becomes one event for the table (docs/events.md), journaled with
its source, who sent it and, for a pit boss, why. Sources: ``console`` for the
croupier's console, ``api`` for the game server, ``pit_boss`` for a pit boss.
A refusal is journaled like any input and answered 409 with the engine's reason.
"""

from __future__ import annotations

from typing import Any

from fastapi import status
from fastapi.responses import JSONResponse

from dealer_station.actor import TableActor
from dealer_station.api.auth import Principal
from dealer_station.api.bodies import Accepted, Problem, Refusal

SOURCE_OF_ROLE = {"croupier": "console", "game_server": "api", "pit_boss": "pit_boss"}

REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "no token, or one the station does not know"},
    403: {"model": Problem, "description": "the token's role may not do this"},
    404: {"model": Problem, "description": "no such table"},
    409: {"model": Refusal, "description": "the table refused: the engine's reason"},
}


class Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


def refused_response(exc: Refused) -> JSONResponse:
    return JSONResponse(exc.refusal.model_dump(), status_code=status.HTTP_409_CONFLICT)


async def send(
    actor: TableActor,
    principal: Principal,
    event: dict[str, Any],
    why: str | None = None,
) -> Accepted:
    source = SOURCE_OF_ROLE[principal.role]
    outcome = await actor.command(source, event, by=principal.name, why=why)
    if not outcome.accepted:
        raise Refused(Refusal(reason=outcome.reason, detail=outcome.detail, seq=outcome.seq))
    return Accepted(seq=outcome.seq, outputs=list(outcome.outputs), state=actor.round_state())


def without_none(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None and v != []}
