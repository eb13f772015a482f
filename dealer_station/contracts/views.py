"""The retained views typed: ``round/state``'s ``next``, ``shoe``, ``view`` and
``alarms`` (``round_view.table_view``, ``table_messages.round_state``) and
``stats``' ``stats`` (``games/baccarat_roads.py``, ``games/roulette_stats.py``).

Like ``event_data`` these describe what the station writes as dicts; the tests
check real tables' payloads against the schemas built from here.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field

from dealer_station.contracts.event_data import Card, Colour, Data, Money, Pocket
from dealer_station.games.engine import StepKind

Stamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


class Next(Data):
    kind: StepKind
    to: NotRequired[Annotated[str, Field(description="where: box 3 hand 0, dealer, banker")]]
    options: NotRequired[Annotated[list[str], Field(description="the decisions allowed")]]
    step: Annotated[str, Field(description="what a command for this moment sends as If-Match")]
    ends_at: NotRequired[Annotated[Stamp, Field(description="when the step's timer ends")]]


class Shoe(Data):
    cards_left: int
    cut_card_out: bool
    counted_out: Annotated[
        int | None, Field(description="the cards read since a count-out began, or null")
    ]


class ActiveAlarm(Data):
    code: str
    message: str
    source: str
    at: Stamp


class DealerHand(Data):
    cards: Annotated[list[Card], Field(description="the face-up cards")]
    face_down: Annotated[int, Field(description="how many lie face down")]
    total: Annotated[int, Field(description="of the face-up cards")]
    soft: bool
    total_of: Literal["face_up", "all"]


class Hand(Data):
    cards: list[Card]
    total: int
    soft: bool
    doubled: bool
    status: Literal["blackjack", "bust", "surrendered", "standing", "playing"]


class Box(Data):
    box: int
    seated: str | None
    stake: Money
    behind: Money
    hands: list[Hand]


class OfferState(Data):
    box: int
    player: str
    kind: Literal["insurance", "even_money"]
    taken: bool | None


class BlackjackView(Data):
    dealer: DealerHand
    boxes: list[Box]
    offers: list[OfferState]


class BaccaratSide(Data):
    cards: list[Card]
    score: int


class BaccaratView(Data):
    player: BaccaratSide
    banker: BaccaratSide
    bets: int


class RouletteView(Data):
    bets: int
    closed_by: str | None
    number: NotRequired[Pocket]
    colour: NotRequired[Colour]


TableView = BlackjackView | BaccaratView | RouletteView


# -- stats --------------------------------------------------------------------------------------


class BeadCell(Data):
    col: int
    row: int
    winner: Literal["B", "P", "T"]
    player_score: int
    banker_score: int
    player_pair: bool
    banker_pair: bool
    natural: bool


class BigRoadCell(Data):
    col: int
    row: int
    winner: Literal["B", "P"]
    ties: int
    player_pair: bool
    banker_pair: bool
    natural: bool


RoadColour = Literal["red", "blue"]


class DerivedCell(Data):
    col: int
    row: int
    colour: RoadColour


class BeadPlate(Data):
    rows: int
    columns: list[list[BeadCell]]


class BigRoad(Data):
    rows: int
    pending_ties: int
    columns: list[list[BigRoadCell]]


class DerivedRoad(Data):
    rows: int
    columns: list[list[DerivedCell]]


class AskAfter(Data):
    big_eye_boy: RoadColour | None
    small_road: RoadColour | None
    cockroach_pig: RoadColour | None


class Ask(Data):
    banker: AskAfter
    player: AskAfter


class BaccaratRoads(Data):
    """The roads of the shoe in play (docs/mqtt.md, ``Stats``)."""

    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad
    ask: Annotated[Ask, Field(description="what each derived road would show after a win")]


class NumberColour(Data):
    number: Pocket
    colour: Colour


class NumberCount(Data):
    number: Pocket
    count: int


class Share(Data):
    count: int
    percent: float


class ColourSplit(Data):
    red: Share
    black: Share
    green: Share


class ParitySplit(Data):
    odd: Share
    even: Share
    zero: Share


class RangeSplit(Data):
    low: Share
    high: Share
    zero: Share


class ThirdsSplit(Data):
    first: Share
    second: Share
    third: Share
    zero: Share


class RouletteStats(Data):
    """Over the last ``window`` spins (docs/mqtt.md, ``Stats``)."""

    spins: int
    window: int
    last: list[NumberColour]
    hot: list[NumberCount]
    cold: list[NumberCount]
    counts: Annotated[list[int], Field(min_length=37, max_length=37)]
    colour: ColourSplit
    parity: ParitySplit
    range: RangeSplit
    dozen: ThirdsSplit
    column: ThirdsSplit
