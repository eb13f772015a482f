"""What the monitor is fed: one small typed value per fact it counts, built
from a journal record and the round events journaled with it (the outbox
payloads of the same transaction, or the engine's outputs a live table has in
hand: the same records, docs/events.md).

``observe`` is the one adapter, so a live station and a stored journal feed
the monitor the same way. It never applies the rules again: the winning
number, the payouts, the dealer's hand come from the engine's records, and
the cards from the journaled inputs, which hold every card's value (the
outbox does not: a face-down or burnt card goes out without it, docs/mqtt.md).

Fields the monitor reads that the station does not journal yet, and reads
where present (docs/integrity.md lists them for the vision side):

- the camera's reading of the throw, journaled with each camera result
  (docs/wheel.md): ``landing_distance``, the pockets from the rotor's pocket
  under the ball at its release to the one it landed in, the way the rotor
  turns, which the dealer signature counts; ``rotor_rpm`` and
  ``ball_revolutions``, kept with the spin. Who dealt a round is the
  ``dealt_by`` of its ``round_opened`` (a dealer change during a round applies
  from the next one, docs/decisions.md);

A shoe's cards never dealt are known when the croupier counted them out
through the scanner (a ``count_out`` before the shuffle: they come out as
cards, in the order read, and leave none) or the shoe said it was empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from dealer_station.games.roulette_layout import read_placement

ShoeEndReason = Literal["shuffle", "new_shoe", "table", "empty", "removed"]


@dataclass(frozen=True, slots=True)
class TableChosen:
    """The table's game and rules from now on (a ``table`` event)."""

    table: str
    game: str
    variant: str | None
    decks: int | None


@dataclass(frozen=True, slots=True)
class Spin:
    """A winning number, with what the camera saw of the throw where it says."""

    table: str
    number: int
    # The camera's: pockets from the release to the landing (docs/wheel.md).
    landing_distance: int | None = None
    rotor_rpm: float | None = None
    ball_revolutions: float | None = None


@dataclass(frozen=True, slots=True)
class CardOut:
    """A card out of the shoe in the shoe's order: dealt or burned; ``card``
    None when it passed the scanner unread; ``refused`` when the rules refused
    it as a card the shoe cannot hold (a foreign card or a misread)."""

    table: str
    card: str | None
    burned: bool = False
    refused: bool = False
    manual: bool = False  # entered by a pit boss for the unread card before it


@dataclass(frozen=True, slots=True)
class CountingOut:
    """The croupier began reading the rest of the shoe through the scanner
    (``count_out``): at the shoe's end no card is left unread."""

    table: str


@dataclass(frozen=True, slots=True)
class ShoeEnd:
    """The shoe is finished (or, ``removed``, checked): the cards never read
    are ``cards_left`` when someone counted them; an emptied shoe left none."""

    table: str
    why: ShoeEndReason
    cards_left: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Bet:
    spot: str
    stake: float
    returns: float
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Settled:
    """A settled round's money (a voided round returns every stake: not one)."""

    table: str
    day: str  # YYYY-MM-DD, UTC, of the settlement
    game: str
    bets: tuple[Bet, ...]
    number: int | None = None  # roulette


@dataclass(frozen=True, slots=True)
class BaccaratCoup:
    table: str
    winner: str  # banker, player, tie
    player_natural: bool
    banker_natural: bool


@dataclass(frozen=True, slots=True)
class DealerHand:
    """The blackjack dealer's up-card (rank class index: 0 ace, 9 ten-value)
    and whether the hand busted; only hands the dealer played out."""

    table: str
    up: int
    bust: bool


@dataclass(frozen=True, slots=True)
class DealerOn:
    """The dealer of the round that opened (its ``dealt_by``; None: nobody
    signed on)."""

    table: str
    dealer: str | None


Observation = (
    TableChosen
    | Spin
    | CardOut
    | CountingOut
    | ShoeEnd
    | Settled
    | BaccaratCoup
    | DealerHand
    | DealerOn
)

POCKETS_TOP: Final = 36
_SHOE_ENDS: Final[dict[str, ShoeEndReason]] = {
    "shuffle": "shuffle",
    "new_shoe": "new_shoe",
    "table": "table",
}
_TEN_VALUES: Final = frozenset("TJQK")
_RANK_CLASS: Final = {r: i for i, r in enumerate("A23456789")}


def event_of_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A round event of the outbox (``RoundEvent``: ``type`` and ``data``) as
    the engine's record it carries."""
    return {"type": payload["type"], **payload.get("data", {})}


def observe(
    table: str,
    at: str,
    source: str,
    kind: str,
    status: str,
    reason: str | None,
    body: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
) -> list[Observation]:
    """What one journal record (its table, time, source, kind, status, refusal
    reason and body: the fields of ``journal.Record``) and the round events
    written with it tell the monitor."""
    out: list[Observation] = []
    if kind == "event":
        kind_of = body.get("type")
        if status == "accepted":
            out += _accepted(table, kind_of, body)
        elif source == "shoe" and kind_of in ("card", "burn"):
            out.append(_refused_card(table, kind_of == "burn", reason, body))
    elif kind == "alarm" and status == "note":
        code = body.get("code")
        if code == "shoe_empty":
            out.append(ShoeEnd(table, "empty", ()))
    return out + of_round_events(table, at, events)


def of_round_events(
    table: str, at: str, events: Iterable[Mapping[str, Any]]
) -> list[Observation]:
    """What the round events written with a record at ``at`` tell the monitor
    (who deals a round that opened, each settlement): a live table that has
    fed a record already feeds the events of the same change on their own
    (``integrity_watch``), so each is fed once."""
    out: list[Observation] = []
    for event in events:
        if event.get("type") == "round_opened":
            dealer = event.get("dealt_by")
            out.append(DealerOn(table, dealer if isinstance(dealer, str) else None))
        elif event.get("type") == "round_settled":
            out += _settled(table, at, event)
    return out


def _refused_card(table: str, burned: bool, reason: str | None, body: Mapping[str, Any]) -> CardOut:
    """A card the shoe read and the rules refused still left the shoe (one
    when none was due, one the composition cannot hold): it counts in the
    shoe's order. One the shoe could not name (``bad_card``) is a card of
    unknown value."""
    card = None if reason == "bad_card" else str(body.get("card"))
    return CardOut(table, card, burned, refused=True)


def _accepted(table: str, kind_of: object, body: Mapping[str, Any]) -> list[Observation]:
    if kind_of == "card":
        return [CardOut(table, str(body["card"]))]
    if kind_of == "manual_card":
        return [CardOut(table, str(body["card"]), manual=True)]
    if kind_of == "burn":
        return [CardOut(table, str(body["card"]), burned=True)]
    if kind_of == "card_unread":
        return [CardOut(table, None)]
    if kind_of == "count_out":
        return [CountingOut(table)]
    if kind_of == "wheel_result":
        number = body.get("number")
        if not _pocket(number):
            return []  # the rules accept none such: a journal edited by hand
        return [_spin(table, body)]
    if isinstance(kind_of, str) and kind_of in _SHOE_ENDS:
        end: list[Observation] = [ShoeEnd(table, _SHOE_ENDS[kind_of])]
        if kind_of == "table":
            decks = body.get("decks")
            variant = body.get("variant")
            end.append(
                TableChosen(
                    table,
                    str(body.get("game")),
                    variant if isinstance(variant, str) else None,
                    decks if isinstance(decks, int) else None,
                )
            )
        return end
    return []


def _pocket(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= POCKETS_TOP


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _spin(table: str, body: Mapping[str, Any]) -> Spin:
    distance = body.get("landing_distance")
    return Spin(
        table,
        int(body["number"]),
        distance if _pocket(distance) else None,
        _number(body.get("rotor_rpm")),
        _number(body.get("ball_revolutions")),
    )


def _settled(table: str, at: str, event: Mapping[str, Any]) -> list[Observation]:
    if event.get("voided"):
        return []
    game = str(event.get("game"))
    bets = tuple(
        Bet(
            str(p["spot"]),
            float(p["stake"]),
            float(p["returns"]),
            read_placement(str(p["spot"]), p) or (),
        )
        for p in event.get("payouts", ())
    )
    number = event.get("number") if game == "roulette" else None
    out: list[Observation] = [Settled(table, at[:10], game, bets, number)]
    if game == "baccarat":
        out.append(
            BaccaratCoup(
                table,
                str(event["winner"]),
                bool(event["player"]["natural"]),
                bool(event["banker"]["natural"]),
            )
        )
    elif game == "blackjack":
        hand = _dealer_hand(table, event)
        if hand is not None:
            out.append(hand)
    return out


def _dealer_hand(table: str, event: Mapping[str, Any]) -> DealerHand | None:
    """The dealer's hand when the dealer played it out: no blackjack, and a
    box hand still live against it (not bust, surrendered or a blackjack; the
    engine's rule for drawing at all). A hand that stopped short says nothing
    of the bust rate."""
    dealer = event.get("dealer") or {}
    cards = dealer.get("cards") or []
    if len(cards) < 2 or dealer.get("blackjack"):
        return None
    if not any(_live(box, hand) for box in event.get("boxes", ()) for hand in box["hands"]):
        return None
    rank = str(cards[0])[0]
    up = 9 if rank in _TEN_VALUES else _RANK_CLASS[rank]
    return DealerHand(table, up, int(dealer.get("total", 0)) > 21)


def _live(box: Mapping[str, Any], hand: Mapping[str, Any]) -> bool:
    total = int(hand.get("total", 0))
    blackjack = len(box["hands"]) == 1 and len(hand.get("cards", ())) == 2 and total == 21
    return total <= 21 and hand.get("result") not in ("surrender", "void") and not blackjack
