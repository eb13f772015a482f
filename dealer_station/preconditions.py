"""What a write must say it means: the table's step, and the answer it already had.

A command from a person or the game server is meant for the table as its sender
saw it. ``step_id(state)`` names that moment: the round, what the table waits
for and how many cards have left the shoe, e.g. ``bac-000012/card:banker/5``.
It stays the same while nothing changes what the table waits for (bets and
insurance answers from other players do not), and changes with every card,
decision, hold and round. The HTTP API sends it back as ``If-Match``; the
table's single writer compares it with the step it is at, in the same turn as
it applies the command, so a command sent for a moment that has passed is
refused as ``stale`` and changes nothing (docs/api.md, "Preconditions").

Bets, their cancellation and insurance answers arrive while other players bet
and answer: they need only the round (the engine refuses them outside their
window with its own reason). Every other command needs the step.

An ``Idempotency-Key`` names one request of one client: the table keeps the
first answer to it (in the journal, in the same transaction as the input's
record) and gives it again, without a second effect, to a retry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal

from dealer_station.games.table import TableState

Scope = Literal["step", "round"]

# Kinds whose ``to`` names the destination the command is about. The insurance
# step's ``to`` lists who has not answered yet: other players' answers must not
# make a croupier's DEAL stale.
_TO_MATTERS = frozenset({"card", "decision", "pit_boss"})

# Events that need only the round: they arrive while others bet and answer,
# or, a pit boss's close or open, are meant for the round as a whole ("after
# this round"), whichever card it is at.
_ROUND_ONLY_EVENTS = frozenset({"bet", "bet_cancel", "table_close", "table_open"})
_OFFER_ANSWERS = frozenset({"insurance", "no_insurance", "even_money", "no_even_money"})

# How long a client's keys and their answers are kept (docs/api.md): a game
# server that retries later than this makes a new request.
RETENTION_SECONDS = 24 * 3600


def step_id(state: TableState) -> str:
    step = state.next_step()
    round_id = state.round.round_id if state.round is not None else "-"
    where: str = step.kind
    if step.kind in _TO_MATTERS and step.to:
        where += ":" + step.to.replace(" ", "-")
    out = 0 if state.shoe is None else state.shoe.dealt + state.shoe.burned
    return f"{round_id}/{where}/{out}"


def round_of(step: str) -> str:
    """The round part of a step id (round ids never hold a ``/``)."""
    return step.split("/", 1)[0]


def scope_of(event: dict[str, Any]) -> Scope:
    if event.get("type") in _ROUND_ONLY_EVENTS:
        return "round"
    if event.get("type") == "decision" and event.get("action") in _OFFER_ANSWERS:
        return "round"
    return "step"


@dataclass(frozen=True, slots=True)
class Precondition:
    """The step the sender saw (``If-Match``) and how much of it must still hold."""

    step: str
    scope: Scope = "step"

    def stale(self, state: TableState | None) -> str | None:
        """Why the table is no longer where the sender saw it, or None."""
        now = "-/none/0" if state is None else step_id(state)
        if self.scope == "round":
            sent, at = round_of(self.step), round_of(now)
            return None if sent == at else f"sent for round {sent!r}; the table is at round {at!r}"
        if self.step == now:
            return None
        return f"sent for step {self.step!r}; the table is at step {now!r}"


@dataclass(frozen=True, slots=True)
class IdempotencyKey:
    """One client's name for one request, and what that request was."""

    principal: str
    key: str
    fingerprint: str


def fingerprint(method: str, path: str, body: bytes) -> str:
    """The request as the key's first use sent it: a retry with other content is
    another request under the same key (422). JSON is compared by content, not
    by spacing."""
    try:
        content: Any = json.loads(body) if body else None
    except ValueError:
        content = body.decode("utf-8", "replace")
    canonical = json.dumps(
        [method, path, content], sort_keys=True, separators=(",", ":"), ensure_ascii=True
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()
