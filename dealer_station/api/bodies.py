"""The HTTP API's request and response bodies.

Requests are checked here, field by field, before anything reaches a table: a
malformed body is a 422 naming the field and is never journaled. What is left
for the table to refuse (a bet above the limit, a hit on 21) is a game refusal:
journaled, and answered 409 with the engine's reason.

Money is a decimal string (``"12.50"``) or an integer, never a JSON float, as in
the event contract (docs/events.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from dealer_station.config import PersonName, Role
from dealer_station.contracts.vocabulary import RefusalReason
from dealer_station.payloads import RoundEvent, RoundState, Stats


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


def example(value: dict[str, Any], *, extra: Literal["forbid", "ignore"] = "forbid") -> ConfigDict:
    """A model's config with an example of it, shown in the OpenAPI document."""
    return ConfigDict(extra=extra, json_schema_extra={"examples": [value]})


CardCode = Annotated[
    str,
    Field(
        pattern=r"^(?:10|[2-9TJQKAtjqka])[CDHScdhs]$",
        description="rank then suit: AS, TD, 7H (10D is accepted)",
        examples=["AS"],
    ),
]
Money = (
    Annotated[
        str,
        Field(pattern=r"^[0-9]{1,9}(?:\.[0-9]{1,4})?$", examples=["12.50"]),
    ]
    | Annotated[StrictInt, Field(ge=1, le=999_999_999)]
)
PlayerId = Annotated[
    str,
    Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@-]*$"),
]
Spot = Annotated[
    str,
    Field(
        pattern=r"^[a-z][a-z_]{0,31}$",
        description="blackjack main, bet_behind, bonus_*; baccarat player, banker, tie, "
        "player_pair, banker_pair; roulette bet types (docs/events.md)",
    ),
]
BoxNumber = Annotated[StrictInt, Field(ge=1, le=16)]
HandIndex = Annotated[StrictInt, Field(ge=0, le=7, description="counts from 0 inside the box")]
Pocket = Annotated[StrictInt, Field(ge=0, le=36)]
Why = Annotated[
    str,
    Field(min_length=3, max_length=500, description="the reason, as the pit boss gives it"),
]
RoundId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")]


class OpenRound(Body):
    model_config = example({"round": "bac-1-000042"})

    round: RoundId | None = Field(
        None,
        description="the round's id; default <table>-<number>, a shape kept for the station's own",
    )


# Which of the three columns or dozens a roulette bet is on.
Which = Literal[1, 2, 3]


class PlaceBet(Body):
    model_config = example({"player": "p-1001", "spot": "banker", "amount": "25"})

    player: PlayerId
    spot: Spot
    amount: Money
    box: BoxNumber | None = Field(None, description="blackjack: the box")
    numbers: list[Pocket] = Field(
        default_factory=list,
        max_length=6,
        description="roulette: the numbers an inside bet covers (a column or dozen as [1|2|3] "
        "is the old form, still read)",
    )
    column: Which | None = Field(None, description="roulette column bet: which (1: 1, 4 ... 34)")
    dozen: Which | None = Field(None, description="roulette dozen bet: which (1: 1-12)")


class CancelBet(Body):
    model_config = example({"player": "p-1001", "spot": "banker"})

    player: PlayerId
    spot: Spot
    box: BoxNumber | None = None
    numbers: list[Pocket] = Field(default_factory=list, max_length=6)
    column: Which | None = None
    dozen: Which | None = None


class PlayerDecision(Body):
    model_config = example({"box": 3, "action": "hit", "hand": 0})

    box: BoxNumber
    action: Literal["hit", "stand", "double", "split", "surrender", "stand_all"]
    hand: HandIndex | None = Field(None, description="the hand due; default: whichever is due")
    player: PlayerId | None = Field(None, description="who answers, when a box is shared")


class OfferAnswer(Body):
    model_config = example({"box": 3, "player": "p-1001", "offer": "insurance", "take": False})

    box: BoxNumber
    player: PlayerId
    offer: Literal["insurance", "even_money"]
    take: bool


class CardBody(Body):
    model_config = example({"card": "QH"})

    card: CardCode


class WheelNumber(Body):
    model_config = example({"number": 17})

    number: Pocket


class PitVoid(Body):
    model_config = example({"why": "the shoe jammed"})

    why: Why


class PitCard(Body):
    model_config = example({"card": "9D", "why": "the card left the shoe and was dealt by hand"})

    card: CardCode
    why: Why


Destination = Annotated[
    str,
    Field(
        pattern=r"^[a-z][a-z0-9 ]{0,31}$",
        description="where the card goes, as the state's next.to shows it: "
        "player, banker, dealer, box 2 hand 0",
        examples=["banker"],
    ),
]


class PitManualCard(Body):
    model_config = example({"card": "7S", "to": "banker", "why": "the scanner did not read it"})

    card: CardCode
    to: Destination
    why: Why


class PitRelease(Body):
    model_config = example({"why": "the foreign card was taken off the table"})

    why: Why


class PitWheelResult(Body):
    model_config = example({"number": 26, "why": "the camera read 3, the ball is in 26"})

    number: Pocket
    why: Why


class PitRespin(Body):
    model_config = example({"why": "the ball left the wheel"})

    why: Why


class PitTableState(Body):
    """Close the table after this round, or open it; the reason is optional (the
    state topic and the console show it)."""

    model_config = example({"why": "end of shift"})

    why: Why | None = None


class PinLogin(Body):
    model_config = example({"name": "Dana Pit", "pin": "4821"})

    name: PersonName
    pin: Annotated[str, Field(pattern=r"^[0-9]{4,12}$")]


# -- responses --------------------------------------------------------------------------------


class Accepted(BaseModel):
    model_config = example(
        {
            "seq": 4182,
            "outputs": [
                {"type": "card_dealt", "card": "QH", "to": "banker", "face": "up", "score": 0}
            ],
            "state": None,
        },
        extra="ignore",
    )

    seq: int = Field(description="the journal's sequence number of this input")
    outputs: list[dict[str, Any]] = Field(description="what the input did (docs/events.md)")
    state: RoundState | None


class Refusal(BaseModel):
    model_config = example(
        {
            "reason": "above_table_maximum",
            "detail": "player p-1001's stake on banker would be 6000, above the maximum 5000",
            "seq": 4183,
            "step": "bac-1-000042/bets/0",
        },
        extra="ignore",
    )

    # A str at run time, so a reason the enum lacks is still answered (and
    # fails tests/contracts/test_vocabulary.py), never a 500; an enum in the schema.
    reason: str = Field(
        description="the engine's machine-readable reason (docs/events.md)",
        json_schema_extra={"enum": [r.value for r in RefusalReason]},
    )
    detail: str
    seq: int | None = Field(None, description="the journal's sequence number of the refused input")
    step: str | None = Field(
        None, description="the table's step now (`next.step`): look again, then send it as If-Match"
    )


class Problem(BaseModel):
    detail: str


class Session(BaseModel):
    token: str
    name: str
    role: Role
    expires_in: float


class WhoAmI(BaseModel):
    name: str
    role: Role


class Device(BaseModel):
    state: Literal["online", "offline"]
    since: str


class Broker(BaseModel):
    connected: bool
    backlog: int = Field(description="round events journaled, not yet acknowledged by the broker")


class Timer(BaseModel):
    ends_at: str
    on_expiry: str = Field(description="what the station does when the time is up")


class TableSummary(BaseModel):
    table: str
    game: str
    variant: str | None
    round: str | None
    action: str | None


class TableNow(BaseModel):
    table: str
    game: str
    state: RoundState | None
    timer: Timer | None
    devices: dict[str, Device]
    broker: Broker | None
    stats: Stats | None


class JournalEntry(BaseModel):
    seq: int
    at: str
    source: str
    kind: str
    body: dict[str, Any]
    status: str
    reason: str | None
    detail: str | None
    by: str | None
    why: str | None


class RoundSummary(BaseModel):
    round: str
    opened_at: str
    status: Literal["open", "settled", "void"]
    settled_at: str | None
    settlement: dict[str, Any] | None


class RoundHistory(RoundSummary):
    table: str
    inputs: list[JournalEntry] = Field(description="every input journaled in the round")
    events: list[RoundEvent] = Field(description="every round event published for it")


class RoundList(BaseModel):
    rounds: list[RoundSummary]
    before: int | None = Field(None, description="pass as ?before= for the next, older page")


class EventPage(BaseModel):
    events: list[RoundEvent] = Field(
        description="the table's round events after ?after=, in seq order, as MQTT carries them"
    )
    after: int | None = Field(None, description="pass as ?after= for the next page; null: none")
