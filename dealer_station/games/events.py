"""The event contract: every input the station journals and ``replay`` reads.

One event is one JSON object with a ``type`` and the schema version ``v``. The
format is documented in ``docs/events.md``; this module is its single definition:
``parse_event`` turns a JSON object into a typed event or refuses it with
``bad_event`` naming the field, and ``event_to_json`` writes the canonical form.
Money is a decimal string (``"12.50"``) or an integer, never a float: a float
cannot hold 0.10 exactly.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any, Final, get_args

from dealer_station.games.cards import Card, CardError, parse_card
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_layout import (
    CHOOSE_ONE_OF_THREE,
    read_placement,
    written_placement,
)

SCHEMA_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class SelectTable:
    """Start (or restart) a table: which game, which variant, a fresh shoe."""

    game: str
    variant: str | None = None
    table: str = "table-1"
    decks: int | None = None
    type = "table"


@dataclass(frozen=True, slots=True)
class NewShoe:
    type = "new_shoe"


@dataclass(frozen=True, slots=True)
class Shuffle:
    type = "shuffle"


@dataclass(frozen=True, slots=True)
class CountOut:
    """The croupier feeds the cards the shoe still holds through the scanner
    before it is shuffled or changed, so that the cards seen and the cards
    counted can be checked against the shoe's composition (docs/integrity.md,
    "The shoe"). Between rounds; until the shuffle or the new shoe, every card
    the scanner reads is counted, none is dealt."""

    type = "count_out"


@dataclass(frozen=True, slots=True)
class OpenRound:
    """Open a round. ``needs_dealer``: refused (``no_dealer``) while no dealer
    is signed on, for a table whose config requires one (``require_dealer``)."""

    round: str | None = None
    needs_dealer: bool = False
    type = "round_open"


@dataclass(frozen=True, slots=True)
class PlaceBet:
    player: str
    spot: str
    amount: Decimal
    box: int | None = None
    numbers: tuple[int, ...] = ()
    type = "bet"


@dataclass(frozen=True, slots=True)
class CancelBet:
    player: str
    spot: str
    box: int | None = None
    numbers: tuple[int, ...] = ()
    type = "bet_cancel"


@dataclass(frozen=True, slots=True)
class CloseBets:
    """"No more bets". ``reason``: what closed them when it was not a person:
    ``timer`` (the betting window ran out), ``wheel_sensor`` (the wheel said
    so), or the camera's rule that fired on the ball's speed
    (``below_revs_per_s``, ``before_drop_s``, ``ball_dropped``: docs/wheel.md);
    absent, the croupier or the game server did."""

    reason: str | None = None
    type = "bets_closed"


@dataclass(frozen=True, slots=True)
class DealCard:
    card: Card
    type = "card"


@dataclass(frozen=True, slots=True)
class CardUnread:
    """A card passed the scanner unread. The round holds: no scanned card is
    taken until a pit boss enters this one by hand or voids the round."""

    type = "card_unread"


@dataclass(frozen=True, slots=True)
class ManualCard:
    """A card entered by a pit boss while the round holds (an unread card, an
    impossible one); it is dealt exactly as a scanned card and releases the hold.
    ``to`` is where the pit boss was told it goes (``NextStep.to``: ``banker``,
    ``box 2 hand 0``): the card is refused if it would go anywhere else."""

    card: Card
    to: str | None = None
    type = "manual_card"


@dataclass(frozen=True, slots=True)
class HoldRound:
    """The station holds the round for a pit boss (``reason``: why, e.g.
    ``impossible_card`` right after the table refused such a card from the shoe).
    Journaled, so the hold survives a restart."""

    reason: str
    type = "hold"


@dataclass(frozen=True, slots=True)
class ReleaseHold:
    """A pit boss removed the card the round held for and lets the deal go on."""

    type = "hold_release"


@dataclass(frozen=True, slots=True)
class BurnCard:
    card: Card
    type = "burn"


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's decision. ``hand`` counts from 0 inside the box; ``player`` is
    who answers an insurance or even-money offer (each stake owner answers for
    their own stake)."""

    box: int
    action: str
    hand: int | None = None
    player: str | None = None
    type = "decision"


@dataclass(frozen=True, slots=True)
class CloseInsurance:
    """The insurance offer's time is up: whoever has not answered declined."""

    type = "insurance_closed"


@dataclass(frozen=True, slots=True)
class WheelResult:
    number: int
    type = "wheel_result"


@dataclass(frozen=True, slots=True)
class VoidRound:
    reason: str
    type = "void"


@dataclass(frozen=True, slots=True)
class ChangeDealer:
    """Who deals at the table from now on: a croupier signed on at the console
    (``dealer``: the display name, what the table shows and every round records),
    or nobody (a sign-off). During a round it applies from the next round: the
    round keeps the dealer who opened it (docs/decisions.md, "Dealer sign-on")."""

    dealer: str | None = None
    type = "dealer"


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close the table after the round in play (at once when none is): it then
    opens no round until it is opened again. ``pit_boss``: who closed it, or
    None for the station itself (a stop's drain, docs/decisions.md, "Table
    state and drain"). A round in play is never voided by it."""

    pit_boss: str | None = None
    reason: str | None = None
    type = "table_close"


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Open a closed table, or call off a close that waits for the round in
    play. ``pit_boss`` as for `CloseTable`."""

    pit_boss: str | None = None
    reason: str | None = None
    type = "table_open"


Event = (
    SelectTable
    | NewShoe
    | Shuffle
    | CountOut
    | OpenRound
    | PlaceBet
    | CancelBet
    | CloseBets
    | DealCard
    | CardUnread
    | ManualCard
    | HoldRound
    | ReleaseHold
    | BurnCard
    | Decision
    | CloseInsurance
    | WheelResult
    | VoidRound
    | ChangeDealer
    | CloseTable
    | OpenTable
)

# Every kind of the Event union by its ``type``: the union is the one list of events.
EVENT_TYPES: Final[dict[str, type[Any]]] = {cls.type: cls for cls in get_args(Event)}

# Keys the journal adds around an event (who sent it, when); replay ignores them.
ENVELOPE_KEYS: Final = frozenset({"v", "type", "source", "at", "id", "confidence", "by", "why"})
# What the camera measured of a spin, journaled around its wheel_result beside its
# confidence (docs/journal.md); facts of the reading, not rules input: replay
# ignores them, and refuses them on any other event as any unknown key.
WHEEL_READING_KEYS: Final = (
    "rotor_rpm",
    "rotor_direction",
    "ball_direction",
    "ball_revolutions",
    "release_pocket",
    "landing_distance",
)


# How a table with two sources of the winning number settled or held a spin:
# the verdict and each source's reading (docs/wheel_sensor.md), journaled
# around its wheel_result or hold; replay ignores them.
VERDICT_KEYS: Final = ("verdict", "readings")
# What the camera measured of the ball when it closed betting itself, journaled
# around the bets_closed it sent (docs/wheel.md); replay ignores them.
BALL_SPEED_KEYS: Final = ("revs_per_s", "drop_in_s", "threshold")


def parse_amount(value: object, name: str = "amount") -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Rejected("bad_event", f"{name} must be a decimal string or an integer")
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise Rejected("bad_event", f"{name} {value!r} is not a number") from None
    if not amount.is_finite() or amount <= 0:
        raise Rejected("bad_event", f"{name} must be a positive amount")
    return amount


def _field(obj: dict[str, Any], name: str, kind: type[Any], required: bool) -> Any:
    if name not in obj or obj[name] is None:
        if required:
            raise Rejected("bad_event", f"missing field {name!r}")
        return None
    value = obj[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Rejected("bad_event", f"field {name!r} must be an integer")
    if kind is str and not isinstance(value, str):
        raise Rejected("bad_event", f"field {name!r} must be a string")
    return value


def parse_event(obj: object) -> Event:
    """A JSON object to a typed event, or ``Rejected('bad_event', ...)``."""
    if not isinstance(obj, dict):
        raise Rejected("bad_event", "an event is a JSON object")
    version = obj.get("v", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise Rejected("bad_event", f"schema version {version!r} is not {SCHEMA_VERSION}")
    kind = obj.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise Rejected("bad_event", f"unknown event type {kind!r}")
    known = {f.name for f in fields(cls)}
    unknown = set(obj) - known - ENVELOPE_KEYS
    if cls is WheelResult:
        unknown -= set(WHEEL_READING_KEYS)
    if cls is WheelResult or cls is HoldRound:
        unknown -= set(VERDICT_KEYS)
    if cls is CloseBets:
        unknown -= set(BALL_SPEED_KEYS)
    if (cls is PlaceBet or cls is CancelBet) and obj.get("spot") in CHOOSE_ONE_OF_THREE:
        unknown.discard(obj["spot"])  # which column or dozen (roulette_layout)
    if unknown:
        raise Rejected("bad_event", f"unknown field {sorted(unknown)[0]!r} in {kind}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        required = f.default is MISSING
        if f.name in ("card",):
            text = _field(obj, f.name, str, True)
            try:
                values[f.name] = parse_card(text)
            except CardError as exc:
                raise Rejected("bad_card", str(exc)) from None
        elif f.name == "amount":
            values[f.name] = parse_amount(obj.get("amount"))
        elif f.name == "numbers":
            numbers = read_placement(str(obj.get("spot")), obj)
            if numbers is None:
                raise Rejected(
                    "bad_event",
                    "field 'numbers' must be a list of integers; a column or dozen bet "
                    'says which as "column" or "dozen": 1, 2 or 3, not both',
                )
            values[f.name] = numbers
        elif f.name == "needs_dealer":
            flag = obj.get(f.name, False)
            if not isinstance(flag, bool):
                raise Rejected("bad_event", f"field {f.name!r} must be true or false")
            values[f.name] = flag
        elif f.name in ("box", "hand", "decks", "number"):
            value = _field(obj, f.name, int, required)
            if value is not None:
                values[f.name] = value
        else:
            value = _field(obj, f.name, str, required)
            if value is not None:
                values[f.name] = value
    event: Event = cls(**values)
    return event


def event_to_json(event: Event) -> dict[str, Any]:
    """The canonical JSON form: ``v`` and ``type`` first, then the fields that
    differ from their defaults."""
    out: dict[str, Any] = {"v": SCHEMA_VERSION, "type": event.type}
    for f in fields(event):
        value = getattr(event, f.name)
        if value == f.default or (f.name == "numbers" and value == ()):
            continue
        if isinstance(event, PlaceBet | CancelBet) and f.name == "numbers":
            out.update(written_placement(event.spot, value))
            continue
        if isinstance(value, (Card, Decimal)):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out
