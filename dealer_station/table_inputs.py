"""What a table's actor takes (a command, a device's change, an alarm) and
what it answers (an outcome): the types its queue carries between the drivers'
threads, the API and the actor."""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass
from typing import Any

from dealer_station.games.events import Event
from dealer_station.input_identity import InputIdentity
from dealer_station.journal import Answer
from dealer_station.payloads import Device
from dealer_station.preconditions import IdempotencyKey, Precondition
from dealer_station.round_outputs import RoundOutput, parse_outputs, to_json


@dataclass
class Command:
    """An input for the table: a typed event, or the raw JSON of one (checked
    here, so a malformed request is journaled as refused like any other)."""

    source: str
    event: Event | dict[str, Any]
    by: str | None = None
    why: str | None = None
    # Told the outcome once the change is journaled and the listeners (the
    # publisher first) have seen it. A device's thread waits on a concurrent
    # future, set without a turn of the loop.
    reply: asyncio.Future[Outcome] | concurrent.futures.Future[Outcome] | None = None
    # What the device says this input is (a framed shoe's card, the camera's
    # reading), journaled with the event (input_identity.journal_keys).
    identity: InputIdentity | None = None
    # The step the sender saw: checked in the same turn as the input is applied.
    expect: Precondition | None = None
    # The client's idempotency key: a retry gets the first answer, nothing more.
    key: IdempotencyKey | None = None
    # When the device's thread had the input (``time.perf_counter()``): a card's
    # time from the shoe to the broker's PUBACK starts here (/metrics).
    read_at: float | None = None


@dataclass
class DeviceChange:
    device: Device
    online: bool
    detail: str = ""


@dataclass
class Alarm:
    code: str
    message: str
    source: str
    # A person's order shown as an alarm (a pit boss's RE-SPIN) names the step
    # it is for, like any command, and is told whether it was taken.
    expect: Precondition | None = None
    reply: asyncio.Future[Outcome] | None = None
    # How many identical refusals this one record stands for (a noisy line).
    count: int = 1


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    seq: int
    reason: str = ""
    detail: str = ""
    # What the input did, in its public form (``visibility``).
    outputs: tuple[RoundOutput, ...] = ()
    # The table right after the input (the round/state JSON), for a command that
    # gets an answer: kept with its idempotency key, so a retry sees the same.
    state: dict[str, Any] | None = None
    # The first answer to this idempotency key, given again: nothing was applied.
    replayed: bool = False

    def outputs_json(self) -> list[dict[str, Any]]:
        """The outputs as an HTTP answer and a kept answer carry them."""
        return [to_json(o) for o in self.outputs]

    def to_answer(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "reason": self.reason,
            "detail": self.detail,
            "outputs": self.outputs_json(),
            "state": self.state,
        }

    @classmethod
    def from_answer(cls, answer: Answer) -> Outcome:
        data = answer.answer
        return cls(
            data["accepted"],
            answer.journal_seq,
            data["reason"],
            data["detail"],
            parse_outputs(data["outputs"]),
            data["state"],
            replayed=True,
        )
