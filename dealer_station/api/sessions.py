"""Who am I, and a pit boss stepping in at the console with name and PIN."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, HTTPException, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from dealer_station.api.auth import PinLocked, Principal
from dealer_station.api.bodies import PinLogin, Problem, Session, WhoAmI
from dealer_station.api.commands import REFUSALS
from dealer_station.api.context import ALL_ROLES, Context, allow

router = APIRouter(prefix="/auth", tags=["auth"], responses={k: REFUSALS[k] for k in (401, 403)})

_bearer = HTTPBearer(auto_error=False)

T = TypeVar("T")


async def pin_checked(check: Awaitable[T | None]) -> T:
    """What a name and PIN grant (a pit boss's session, a dealer's sign-on), or
    the HTTP refusal: 429 with Retry-After while rationed, 401 for a wrong one
    (the same answer for an unknown name)."""
    try:
        granted = await check
    except PinLocked as locked:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            str(locked),
            headers={"Retry-After": str(int(locked.seconds) + 1)},
        ) from None
    if granted is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "wrong name or PIN")
    return granted


@router.get("/me", response_model=WhoAmI)
async def who_am_i(principal: Annotated[Principal, Depends(allow(*ALL_ROLES))]) -> WhoAmI:
    return WhoAmI(name=principal.name, role=principal.role)


@router.get("/pit-bosses", response_model=list[str])
async def pit_bosses(
    principal: Annotated[Principal, Depends(allow("croupier", "pit_boss"))], ctx: Context
) -> list[str]:
    """The names the console offers when a pit boss steps in."""
    return ctx.authority.pit_boss_names()


@router.post(
    "/pit-boss",
    response_model=Session,
    responses={429: {"model": Problem, "description": "too many wrong PINs: wait"}},
)
async def pit_boss_login(
    principal: Annotated[Principal, Depends(allow("croupier"))], ctx: Context, body: PinLogin
) -> Session:
    """A pit boss's name and PIN, entered at the console (whose croupier token
    this request carries), for a short session token of role ``pit_boss``."""
    token, boss, seconds = await pin_checked(
        ctx.authority.pin_login(body.name, body.pin, principal)
    )
    return Session(token=token, name=boss.name, role=boss.role, expires_in=seconds)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(
    principal: Annotated[Principal, Depends(allow(*ALL_ROLES))],
    ctx: Context,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """End a pit boss's PIN session early (the console's LOCK button). A token
    from the config is not ended by this."""
    if credentials is not None:
        ctx.authority.end_session(credentials.credentials)
