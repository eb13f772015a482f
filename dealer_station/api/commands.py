"""Inputs from people and the game server, through the table's actor.

Every request becomes one event for the table (docs/events.md), journaled with
its source, who sent it and, for a pit boss, why. Sources: ``console`` for the
croupier's console, ``api`` for the game server, ``pit_boss`` for a pit boss.
A refusal is journaled like any input and answered 409 with the engine's reason.

Every write goes through ``send``, the one place that asks what a write must
say (docs/api.md, "Preconditions"): ``If-Match`` with the step the sender saw
(the state's ``next.step``; 428 without it), checked by the table's actor as it
applies the input (409 ``stale`` when the table has moved on), and an
``Idempotency-Key`` (required from the game server, 400 without it; accepted
from everyone), whose first answer the actor keeps and gives again to a retry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request, status
from fastapi.responses import JSONResponse

from dealer_station.actor import TableActor
from dealer_station.api.auth import Principal
from dealer_station.api.bodies import Problem, Refusal
from dealer_station.preconditions import IdempotencyKey, Precondition, fingerprint, scope_of
from dealer_station.table_inputs import Outcome

SOURCE_OF_ROLE = {"croupier": "console", "game_server": "api", "pit_boss": "pit_boss"}

# Roles that must name every write with an Idempotency-Key: the game server
# retries after a timeout. A console's person presses again instead.
KEY_REQUIRED = frozenset({"game_server"})

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": Refusal,
        "description": "a malformed If-Match, or a missing or malformed "
        "Idempotency-Key (required from the game server)",
    },
    401: {"model": Problem, "description": "no token, or one the station does not know"},
    403: {"model": Problem, "description": "the token's role may not do this"},
    404: {"model": Problem, "description": "no such table"},
    409: {
        "model": Refusal,
        "description": "the table refused: the engine's reason, or "
        "`stale` when the step in If-Match has passed",
    },
    428: {"model": Refusal, "description": "no If-Match: every write names the step it means"},
}

# An entity tag (RFC 9110): a quoted string of visible characters, no quote.
_ETAG = re.compile(r'^"([!#-~]{1,200})"$')
# The key as the IETF draft writes it (an sf-string), or bare: visible ASCII.
_KEY = re.compile(r'^"?([ !#-~]{1,255}?)"?$')


class Refused(Exception):
    def __init__(self, refusal: Refusal, status_code: int = status.HTTP_409_CONFLICT) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal
        self.status_code = status_code


def refused_response(exc: Refused) -> JSONResponse:
    return JSONResponse(exc.refusal.model_dump(exclude_none=True), status_code=exc.status_code)


@dataclass(frozen=True, slots=True)
class Write:
    """What a write request says beside its body: the step it means, its key."""

    if_match: str | None
    idempotency_key: str | None
    fingerprint: str

    def precondition(self, event: dict[str, Any]) -> Precondition:
        if self.if_match is None or self.if_match.strip() == "*":
            raise Refused(
                Refusal(
                    reason="precondition_required",
                    detail='send If-Match: "<next.step>" of the state this command is for',
                ),
                status.HTTP_428_PRECONDITION_REQUIRED,
            )
        tag = self.if_match.strip()
        match = _ETAG.match(tag) or _ETAG.match(f'"{tag}"')
        if match is None:
            raise Refused(
                Refusal(reason="bad_precondition", detail="If-Match must be one step id, quoted"),
                status.HTTP_400_BAD_REQUEST,
            )
        return Precondition(match.group(1), scope_of(event))

    def key_of(self, principal: Principal) -> IdempotencyKey | None:
        if self.idempotency_key is None:
            if principal.role in KEY_REQUIRED:
                raise Refused(
                    Refusal(
                        reason="idempotency_key_required",
                        detail="the game server names every write with an Idempotency-Key",
                    ),
                    status.HTTP_400_BAD_REQUEST,
                )
            return None
        match = _KEY.match(self.idempotency_key.strip())
        if match is None:
            raise Refused(
                Refusal(
                    reason="bad_idempotency_key",
                    detail="an Idempotency-Key is 1 to 255 visible ASCII characters",
                ),
                status.HTTP_400_BAD_REQUEST,
            )
        return IdempotencyKey(principal.name, match.group(1), self.fingerprint)


async def write_of(
    request: Request,
    if_match: Annotated[
        str | None,
        Header(description="the step this command means: the state's `next.step`, quoted"),
    ] = None,
    idempotency_key: Annotated[
        str | None,
        Header(description="one name per request (a UUID): a retry gets the first answer"),
    ] = None,
) -> Write:
    body = await request.body()  # read already, and checked, by the route's body model
    return Write(if_match, idempotency_key, fingerprint(request.method, request.url.path, body))


WriteHeaders = Annotated[Write, Depends(write_of)]


def answered_before(actor: TableActor, principal: Principal, write: Write) -> bool:
    """Whether the table already answered this key: its retry must get that
    answer, not a check that the first request's own effect now fails."""
    key = write.key_of(principal)
    return key is not None and actor.known_answer(key) is not None


async def send(
    actor: TableActor,
    principal: Principal,
    event: dict[str, Any],
    why: str | None = None,
    *,
    write: Write,
) -> JSONResponse:
    source = SOURCE_OF_ROLE[principal.role]
    key = write.key_of(principal)
    expect = write.precondition(event)
    outcome = await actor.command(source, event, by=principal.name, why=why, expect=expect, key=key)
    return answer(outcome)


def answer(outcome: Outcome) -> JSONResponse:
    """The HTTP answer to an outcome: the same for the first request and for
    every retry with its key."""
    headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
    step = (outcome.state or {}).get("next", {}).get("step")
    if outcome.reason == "idempotency_key_reused":
        # Shaped like every other 422: the field that is wrong, named.
        problem = {
            "loc": ["header", "idempotency-key"],
            "msg": outcome.detail,
            "type": outcome.reason,
        }
        return JSONResponse({"detail": [problem]}, 422)
    if outcome.accepted:
        if step is not None:
            headers["ETag"] = f'"{step}"'
        body = {"seq": outcome.seq, "outputs": outcome.outputs_json(), "state": outcome.state}
        return JSONResponse(body, headers=headers)
    refusal = Refusal(reason=outcome.reason, detail=outcome.detail, seq=outcome.seq, step=step)
    return JSONResponse(
        refusal.model_dump(exclude_none=True), status.HTTP_409_CONFLICT, headers=headers
    )


def without_none(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None and v != []}
