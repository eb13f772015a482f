"""A round event's ``data``, one model per ``type``, as the station publishes it
(after ``visibility``: a face-down card has no ``card``).

These models describe; the station does not build its events through them (a
card's event is written by the standard library's encoder, ``table_messages``).
tests/contracts/test_event_data.py plays every game through the real engine
and checks what it publishes against the schemas generated from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from dealer_station.games.table import GAMES

if TYPE_CHECKING:
    GameName = str
else:
    GameName = Literal[tuple(GAMES)]  # the games' own list (games/table.py)

from dealer_station.contracts.vocabulary import EventType, RefusalReason

Card = Annotated[
    str, Field(pattern=r"^[2-9TJQKA][SHDC]$", description="rank then suit: AS, TD, 7H")
]
Money = Annotated[
    str,
    Field(
        pattern=r"^-?[0-9]+(\.[0-9]+)?$",
        description="a decimal string in its shortest form (never a JSON float)",
    ),
]
Pocket = Annotated[int, Field(ge=0, le=36)]
Colour = Literal["red", "black", "green"]
Face = Literal["up", "down"]


# A dict, as the station writes it: a key absent is absent, never null; an
# unknown key is a change of the contract, and the schema says so.
@with_config(ConfigDict(extra="forbid"))
class Data(TypedDict):
    pass


class TableReady(Data):
    table: str
    game: GameName
    variant: str


class RoundOpened(Data):
    round: str
    dealt_by: Annotated[str | None, Field(description="the dealer's display name, or null")]


class BetPlaced(Data):
    player: str
    spot: Annotated[str, Field(description="the spot or bet type (docs/events.md, Spots)")]
    box: NotRequired[Annotated[int, Field(description="blackjack: the box")]]
    numbers: NotRequired[Annotated[list[int], Field(description="roulette: the numbers covered")]]
    dozen: NotRequired[Annotated[Literal[1, 2, 3], Field(description="roulette: which dozen")]]
    column: NotRequired[Annotated[Literal[1, 2, 3], Field(description="roulette: which column")]]
    amount: Annotated[Money, Field(description="this bet")]
    total: Annotated[Money, Field(description="the player's stake on the spot after it")]


class BetCancelled(Data):
    player: str
    spot: str
    box: NotRequired[int]
    numbers: NotRequired[list[int]]
    dozen: NotRequired[Literal[1, 2, 3]]
    column: NotRequired[Literal[1, 2, 3]]
    amount: Annotated[Money, Field(description="the stake removed")]


class BetsClosed(Data):
    bets: int
    reason: NotRequired[
        Annotated[
            Literal["timer", "wheel_sensor", "below_revs_per_s", "before_drop_s", "ball_dropped"],
            Field(description="roulette: what closed betting when no person did"),
        ]
    ]


class CardDealt(Data):
    card: NotRequired[Annotated[Card, Field(description="absent when the card lies face down")]]
    to: Annotated[str, Field(description="player, banker, box, dealer")]
    box: NotRequired[int]
    hand: NotRequired[int]
    face: Face
    total: NotRequired[Annotated[int, Field(description="blackjack: the hand's total (face up)")]]
    soft: NotRequired[bool]
    score: NotRequired[Annotated[int, Field(description="baccarat: the side's score")]]


class Decision(Data):
    box: int
    player: NotRequired[Annotated[str, Field(description="an answer to an offer: who answered")]]
    hand: NotRequired[Annotated[int, Field(description="a play: the hand")]]
    action: Literal[
        "hit",
        "stand",
        "double",
        "split",
        "surrender",
        "stand_all",
        "insurance",
        "no_insurance",
        "even_money",
        "no_even_money",
    ]
    warning: NotRequired[
        Annotated[str, Field(description="Diamond Blackjack: far from basic strategy")]
    ]


class Offer(Data):
    box: int
    player: str
    kind: Literal["insurance", "even_money"]


class InsuranceOffered(Data):
    offers: list[Offer]


class DealerPeeked(Data):
    blackjack: bool


class HoleCardRevealed(Data):
    card: Card
    cards: Annotated[list[Card], Field(description="the dealer's hand")]
    total: int
    soft: bool
    why: Literal["dealer_plays", "dealer_blackjack", "round_void"]


# A game adds where the bet lay (box, hand, numbers): open on purpose.
@with_config(ConfigDict(extra="allow"))
class Payout(TypedDict):
    player: str
    spot: str
    stake: Money
    returns: Annotated[Money, Field(description="what goes back to the player, stake included")]
    net: Money
    result: Annotated[str, Field(description="win, lose, push, blackjack, void, ...")]


class BlackjackPaid(Data):
    box: int
    payouts: list[Payout]


class HandBust(Data):
    box: int
    hand: int
    total: int


class DealerStands(Data):
    total: int
    cards: list[Card]


class WinningNumber(Data):
    number: Pocket
    colour: Colour


class Reason(Data):
    reason: str


@with_config(ConfigDict(extra="allow"))
class RoundSettled(TypedDict):
    """The game's settlement record (docs/events.md, "What replay writes"):
    the keys every game writes are typed; each game's own (blackjack's
    ``dealer`` and ``boxes``, baccarat's ``winner``, ``player``, ``banker``,
    roulette's ``number`` and ``colour``) are open."""

    round: str
    game: GameName
    payouts: list[Payout]
    dealt_by: str | None
    voided: NotRequired[Annotated[bool, Field(description="true for a void; absent otherwise")]]
    reason: NotRequired[Annotated[str, Field(description="a void's reason")]]
    number: NotRequired[Annotated[Pocket, Field(description="roulette")]]
    colour: NotRequired[Annotated[Colour, Field(description="roulette")]]
    winner: NotRequired[
        Annotated[Literal["player", "banker", "tie"], Field(description="baccarat")]
    ]


class Burned(Data):
    card: NotRequired[
        Annotated[Card, Field(description='only with [publish] burn_cards = "shown"')]
    ]
    face: Literal["burnt"]


class ShoeChanged(Data):
    cards: Annotated[int, Field(description="the cards in the whole shoe")]
    counted_out: NotRequired[
        Annotated[int, Field(description="the old shoe's cards read in its count-out")]
    ]


class ShuffleDue(Data):
    cards_out: int


class CountOutStarted(Data):
    cards_left: int


class Counted(Data):
    cards: Annotated[int, Field(description="how many read so far, never which")]
    cards_left: int


class DealerChanged(Data):
    dealer: Annotated[str | None, Field(description="the display name; null: a sign-off")]
    applies: Literal["now", "next_round"]


class TableStateChanged(Data):
    state: Literal["open", "closing", "closed"]
    by: Annotated[str | None, Field(description="the pit boss; null: the station (a stop)")]
    reason: str | None


class Refused(Data):
    reason: RefusalReason
    detail: str
    event: Annotated[
        dict[str, Any],
        Field(description="the input as received (a card that could be the hole card withheld)"),
    ]


class Alarm(Data):
    code: Annotated[
        str,
        Field(
            description="misdeal, impossible_card, card_unread, shoe_offline, camera_offline, "
            "respin_<reason>, shoe_cut_card, ..."
        ),
    ]
    message: Annotated[str, Field(description="what a person must do, in words they can act on")]
    count: NotRequired[
        Annotated[int, Field(description="how many identical alarms this one stands for")]
    ]


class DeviceNote(Data):
    device: Literal["shoe", "camera", "wheel_sensor"]
    state: Literal["online", "offline"]
    detail: str


EVENT_DATA: dict[EventType, type[Any]] = {
    EventType.table_ready: TableReady,
    EventType.round_opened: RoundOpened,
    EventType.bet_placed: BetPlaced,
    EventType.bet_cancelled: BetCancelled,
    EventType.bets_closed: BetsClosed,
    EventType.card_dealt: CardDealt,
    EventType.decision: Decision,
    EventType.insurance_offered: InsuranceOffered,
    EventType.dealer_peeked: DealerPeeked,
    EventType.hole_card_revealed: HoleCardRevealed,
    EventType.blackjack_paid: BlackjackPaid,
    EventType.hand_bust: HandBust,
    EventType.dealer_stands: DealerStands,
    EventType.winning_number: WinningNumber,
    EventType.round_held: Reason,
    EventType.hold_released: Reason,
    EventType.round_void: Reason,
    EventType.round_settled: RoundSettled,
    EventType.burned: Burned,
    EventType.shuffle: ShoeChanged,
    EventType.new_shoe: ShoeChanged,
    EventType.shuffle_due: ShuffleDue,
    EventType.count_out_started: CountOutStarted,
    EventType.counted: Counted,
    EventType.dealer_changed: DealerChanged,
    EventType.table_state: TableStateChanged,
    EventType.rejected: Refused,
    EventType.alarm: Alarm,
    EventType.device: DeviceNote,
}
