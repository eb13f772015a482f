"""A croupier signs on at the table's console with name and PIN, and off again.

The sign-on gives the console no other role: it keeps its croupier token. It
tells the table who deals there from now on: an input of the table like any
command (``{"type": "dealer", "dealer": <display name>}``, docs/events.md),
journaled and ordered with the cards, so every round records its dealer and a
restart keeps the shift. The PIN is checked first, rationed as a pit boss's
(``Authority.dealer_sign_on``); the journal keeps neither the PIN nor anything
computed from it, not even in the request's idempotency fingerprint. A console
whose token names its table signs dealers on and off only there.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, status
from fastapi.responses import JSONResponse

from dealer_station.actor import TableActor
from dealer_station.api.auth import Principal
from dealer_station.api.bodies import Accepted, PinLogin, Problem
from dealer_station.api.commands import REFUSALS, SOURCE_OF_ROLE, Write, WriteHeaders, answer
from dealer_station.api.context import Context, Table, allow
from dealer_station.api.sessions import pin_checked
from dealer_station.preconditions import fingerprint

router = APIRouter(tags=["dealers"], responses=REFUSALS)

Console = Annotated[Principal, Depends(allow("croupier"))]

_PIN_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "wrong name or PIN"},
    429: {"model": Problem, "description": "too many wrong PINs: wait"},
}


def _at_its_table(principal: Principal, actor: TableActor) -> None:
    if principal.table is not None and principal.table != actor.id:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"the console of table {principal.table} may not change the dealer of {actor.id}",
        )


async def _change(
    actor: TableActor, principal: Principal, event: dict[str, Any], write: Write
) -> JSONResponse:
    """Send the change like any write (``commands.send``), but meant for the
    round rather than the step: a card dealt while the PIN is typed does not
    make the sign-on stale, a round opened meanwhile does (it then applies from
    the next round, which the sender did not see)."""
    expect = replace(write.precondition(event), scope="round")
    key = write.key_of(principal)
    source = SOURCE_OF_ROLE[principal.role]
    outcome = await actor.command(source, event, by=principal.name, expect=expect, key=key)
    return answer(outcome)


@router.get("/auth/dealers", response_model=list[str], tags=["auth"])
async def dealers(
    principal: Annotated[Principal, Depends(allow("croupier", "pit_boss"))], ctx: Context
) -> list[str]:
    """The names the console offers for a dealer's sign-on."""
    return ctx.authority.dealer_names()


@router.post(
    "/tables/{table}/dealer",
    response_model=Accepted,
    responses=_PIN_ANSWERS,
)
async def sign_on(
    principal: Console,
    actor: Table,
    ctx: Context,
    body: PinLogin,
    write: WriteHeaders,
    request: Request,
) -> JSONResponse:
    """A dealer's name and PIN, entered at the table's console: from now on
    (from the next round, during one) this dealer deals here. The previous
    dealer's shift at the table ends."""
    _at_its_table(principal, actor)
    dealer = await pin_checked(ctx.authority.dealer_sign_on(body.name, body.pin, principal))
    # The fingerprint kept with the key is the request without its PIN: a hash
    # over four digits would fall to ten thousand guesses.
    named = json.dumps({"name": body.name}).encode()
    write = replace(write, fingerprint=fingerprint(request.method, request.url.path, named))
    return await _change(actor, principal, {"type": "dealer", "dealer": dealer.shown}, write)


@router.post("/tables/{table}/dealer/sign-off", response_model=Accepted)
async def sign_off(
    principal: Annotated[Principal, Depends(allow("croupier", "pit_boss"))],
    actor: Table,
    write: WriteHeaders,
) -> JSONResponse:
    """The dealer's shift at the table ends (from the next round, during one);
    nobody deals until a dealer signs on. The console, or a pit boss."""
    _at_its_table(principal, actor)
    return await _change(actor, principal, {"type": "dealer"}, write)
