"""The croupier's buttons and the game server's calls.

Croupier (the console at the table): open bets, no more bets, deal, new shoe,
shuffle, burn, confirm the wheel's result. Game server: open and close betting,
bets and their cancellation, decisions, insurance and even money. A pit boss
may press every croupier button too.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse

from dealer_station.api.auth import Principal
from dealer_station.api.bodies import (
    Accepted,
    CancelBet,
    CardBody,
    OfferAnswer,
    OpenRound,
    PlaceBet,
    PlayerDecision,
    Refusal,
    WheelNumber,
)
from dealer_station.api.commands import (
    REFUSALS,
    Refused,
    WriteHeaders,
    answered_before,
    send,
    without_none,
)
from dealer_station.api.context import Context, Table, allow

router = APIRouter(tags=["table inputs"], responses=REFUSALS)

Dealer = Annotated[Principal, Depends(allow("croupier", "pit_boss"))]
Window = Annotated[Principal, Depends(allow("croupier", "pit_boss", "game_server"))]
GameServer = Annotated[Principal, Depends(allow("game_server"))]


@router.post("/tables/{table}/round/open", response_model=Accepted)
async def open_round(
    principal: Window,
    actor: Table,
    ctx: Context,
    write: WriteHeaders,
    body: Annotated[OpenRound | None, Body()] = None,
) -> JSONResponse:
    """Open a round and its betting window ("OPEN BETS"). If-Match names the
    step of the round that is over (or of a table that never had one)."""
    round_id = body.round if body else None
    if round_id is not None and re.fullmatch(rf"{re.escape(actor.id)}-[0-9]+", round_id):
        # The station's own shape: a given id of it could be a later round's.
        raise Refused(
            Refusal(
                reason="round_id_reserved",
                detail=f"ids {actor.id}-<number> are the station's own: choose another",
            )
        )
    if (
        round_id is not None
        and not answered_before(actor, principal, write)
        and await ctx.history.exists(actor.id, round_id)
    ):
        # Game recall finds a round by its id: one id, one round.
        raise Refused(Refusal(reason="round_id_taken", detail=f"round {round_id!r} exists"))
    # A table that requires a dealer says so in the event: the table refuses it,
    # in the same turn as it reads who is signed on (``no_dealer``).
    needs_dealer = True if actor.config.require_dealer else None
    event = without_none(type="round_open", round=round_id, needs_dealer=needs_dealer)
    return await send(actor, principal, event, write=write)


@router.post("/tables/{table}/round/close-bets", response_model=Accepted)
async def close_bets(principal: Window, actor: Table, write: WriteHeaders) -> JSONResponse:
    """ "No more bets"."""
    return await send(actor, principal, {"type": "bets_closed"}, write=write)


@router.post("/tables/{table}/round/deal", response_model=Accepted)
async def deal(principal: Dealer, actor: Table, write: WriteHeaders) -> JSONResponse:
    """Go on dealing: closes the betting window, or the insurance offer while one is
    open. Anything else is refused by the table (``betting_closed``, ``no_round``)."""
    step = actor.state.next_step().kind if actor.state else ""
    event = "insurance_closed" if step == "insurance" else "bets_closed"
    return await send(actor, principal, {"type": event}, write=write)


@router.post("/tables/{table}/shoe/new", response_model=Accepted)
async def new_shoe(principal: Dealer, actor: Table, write: WriteHeaders) -> JSONResponse:
    return await send(actor, principal, {"type": "new_shoe"}, write=write)


@router.post("/tables/{table}/shoe/shuffle", response_model=Accepted)
async def shuffle(principal: Dealer, actor: Table, write: WriteHeaders) -> JSONResponse:
    return await send(actor, principal, {"type": "shuffle"}, write=write)


@router.post("/tables/{table}/shoe/count_out", response_model=Accepted)
async def count_out(principal: Dealer, actor: Table, write: WriteHeaders) -> JSONResponse:
    """Count the shoe out: until the shuffle or the new shoe, every card the
    scanner reads is counted, dealt to no one, so the shoe's check at its end
    finds a missing card (docs/integrity.md, "The shoe")."""
    return await send(actor, principal, {"type": "count_out"}, write=write)


@router.post("/tables/{table}/shoe/burn", response_model=Accepted)
async def burn(
    principal: Dealer, actor: Table, write: WriteHeaders, body: CardBody
) -> JSONResponse:
    """A card burned by hand (the shoe reports its own burn cards)."""
    return await send(actor, principal, {"type": "burn", "card": body.card}, write=write)


@router.post("/tables/{table}/wheel/result", response_model=Accepted)
async def wheel_result(
    principal: Dealer, actor: Table, write: WriteHeaders, body: WheelNumber
) -> JSONResponse:
    """The croupier enters the winning number at a table whose camera and wheel
    sensor are offline or absent. While one reads the wheel the number is its: a
    number by hand is then a pit boss's override, with a reason
    (``/pit-boss/wheel-result``), and this is refused (``camera_online``,
    ``sensor_online``); so is a number for a held round (``round_held``: two
    readings disagreed, a pit boss settles it)."""
    for device, reason in (("camera", "camera_online"), ("wheel_sensor", "sensor_online")):
        known = actor.devices.get(device)
        if known is not None and known[0] == "online":
            raise Refused(
                Refusal(
                    reason=reason,
                    detail=f"the {device.replace('_', ' ')} reads the wheel: a number by hand "
                    "needs a pit boss",
                )
            )
    if actor.state is not None and actor.state.hold:
        raise Refused(
            Refusal(reason="round_held", detail="the round holds: a pit boss enters the number")
        )
    return await send(
        actor, principal, {"type": "wheel_result", "number": body.number}, write=write
    )


@router.post("/tables/{table}/bets", response_model=Accepted)
async def place_bet(
    principal: GameServer, actor: Table, write: WriteHeaders, body: PlaceBet
) -> JSONResponse:
    """A bet (adds to the player's stake on that spot). Bet Behind is spot
    ``bet_behind`` on a seated box."""
    event = without_none(type="bet", **body.model_dump())
    event["amount"] = str(body.amount)
    return await send(actor, principal, event, write=write)


@router.post("/tables/{table}/bets/cancel", response_model=Accepted)
async def cancel_bet(
    principal: GameServer, actor: Table, write: WriteHeaders, body: CancelBet
) -> JSONResponse:
    return await send(
        actor, principal, without_none(type="bet_cancel", **body.model_dump()), write=write
    )


@router.post("/tables/{table}/decisions", response_model=Accepted)
async def decide(
    principal: GameServer, actor: Table, write: WriteHeaders, body: PlayerDecision
) -> JSONResponse:
    """A blackjack decision for the hand due. The state's ``timer`` says when the
    decision times out and what the station does then (stand)."""
    return await send(
        actor, principal, without_none(type="decision", **body.model_dump()), write=write
    )


@router.post("/tables/{table}/offers", response_model=Accepted)
async def answer_offer(
    principal: GameServer, actor: Table, write: WriteHeaders, body: OfferAnswer
) -> JSONResponse:
    """Take or decline insurance or even money."""
    action = body.offer if body.take else f"no_{body.offer}"
    event = {"type": "decision", "box": body.box, "action": action, "player": body.player}
    return await send(actor, principal, event, write=write)
