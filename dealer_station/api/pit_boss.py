"""What a pit boss does when something went wrong, each journaled with the pit
boss's name and the reason given: void a round (every stake returned), enter a
card by hand while the round holds for one, release a hold (the card held for
removed), burn a card drawn out of turn (a misdeal), confirm a wheel result
(also while the camera is online: the pit boss's override) or order a re-spin;
and close the table after the round in play, or open it again. No "close now":
a round in play is never voided by the table's state (void it for that)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.responses import JSONResponse

from dealer_station.api.auth import Principal
from dealer_station.api.bodies import (
    Accepted,
    PitCard,
    PitManualCard,
    PitRelease,
    PitRespin,
    PitTableState,
    PitVoid,
    PitWheelResult,
    Refusal,
)
from dealer_station.api.commands import REFUSALS, Refused, WriteHeaders, send
from dealer_station.api.context import Table, allow
from dealer_station.table_inputs import Alarm, Outcome

router = APIRouter(prefix="/tables/{table}/pit-boss", tags=["pit boss"], responses=REFUSALS)

PitBoss = Annotated[Principal, Depends(allow("pit_boss"))]


@router.post("/void", response_model=Accepted)
async def void(
    principal: PitBoss, actor: Table, body: PitVoid, write: WriteHeaders
) -> JSONResponse:
    return await send(
        actor, principal, {"type": "void", "reason": body.why}, why=body.why, write=write
    )


@router.post("/card", response_model=Accepted)
async def manual_card(
    principal: PitBoss, actor: Table, body: PitManualCard, write: WriteHeaders
) -> JSONResponse:
    """The card the round holds for (unread, or impossible as scanned), entered by
    hand as it really is. ``to`` is where the pit boss was told it goes: the table
    refuses a card when no round holds (``not_held``) or when the card would now
    go elsewhere (``destination_changed``)."""
    event = {"type": "manual_card", "card": body.card, "to": body.to}
    return await send(actor, principal, event, why=body.why, write=write)


@router.post("/release", response_model=Accepted)
async def release(
    principal: PitBoss, actor: Table, body: PitRelease, write: WriteHeaders
) -> JSONResponse:
    """The card the round held for is off the table (a foreign card): the deal goes
    on. An unread card is entered or the round voided (``not_releasable``)."""
    return await send(actor, principal, {"type": "hold_release"}, why=body.why, write=write)


@router.post("/burn", response_model=Accepted)
async def correct_misdeal(
    principal: PitBoss, actor: Table, body: PitCard, write: WriteHeaders
) -> JSONResponse:
    """A card drawn when none was due (the table refused it as a misdeal) leaves
    the shoe's composition as a burn card."""
    return await send(
        actor, principal, {"type": "burn", "card": body.card}, why=body.why, write=write
    )


@router.post("/wheel-result", response_model=Accepted)
async def confirm_wheel(
    principal: PitBoss, actor: Table, body: PitWheelResult, write: WriteHeaders
) -> JSONResponse:
    """The winning number as the pit boss confirms it (a result the camera was not
    sure of, the camera offline, or overriding the camera while it is online)."""
    event = {"type": "wheel_result", "number": body.number}
    return await send(actor, principal, event, why=body.why, write=write)


@router.post("/close", response_model=Accepted)
async def close_table(
    principal: PitBoss, actor: Table, body: PitTableState, write: WriteHeaders
) -> JSONResponse:
    """Close the table after the round in play (``closing``, then ``closed`` as
    it settles or is voided), or at once when no round is in play: it then opens
    no round (``table_closed``) until a pit boss opens it. Pressed again:
    ``table_closing`` or ``table_closed``, nothing changed."""
    event = {"type": "table_close", "pit_boss": principal.name, "reason": body.why}
    return await send(actor, principal, event, why=body.why, write=write)


@router.post("/open", response_model=Accepted)
async def open_table(
    principal: PitBoss, actor: Table, body: PitTableState, write: WriteHeaders
) -> JSONResponse:
    """Open a closed table, or call off a close that waits for the round in
    play; ``table_open`` when it is open already."""
    event = {"type": "table_open", "pit_boss": principal.name, "reason": body.why}
    return await send(actor, principal, event, why=body.why, write=write)


@router.post("/respin", status_code=status.HTTP_202_ACCEPTED)
async def respin(
    principal: PitBoss, actor: Table, body: PitRespin, write: WriteHeaders
) -> dict[str, str]:
    """Reject the wheel's result: the ball is spun again. The round keeps waiting
    for its result; the console shows the order as an alarm until the round ends.
    Like every write it names the step (a RE-SPIN meant for a spin that is over
    must not show in the next one); a repeated order shows one alarm."""
    message = f"RE-SPIN ordered by {principal.name}: {body.why}"
    reply: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
    actor.submit(Alarm("respin", message, "pit_boss", write.precondition({}), reply))
    outcome = await reply
    if not outcome.accepted:
        raise Refused(Refusal(reason=outcome.reason, detail=outcome.detail, seq=outcome.seq))
    return {"alarm": "respin", "message": message}
