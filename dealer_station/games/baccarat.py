"""Punto banco baccarat: the tableau as a state machine, and the settlement.

The croupier never chooses (docs/rules.md): after every card the tableau says whether
the round is over and, if not, which side the next card goes to. A card when none
is due is a ``misdeal``. Every payout, the commission and its rounding, and every
limit is a parameter of ``BaccaratRules``; the shipped values are in
``variants/live-baccarat.toml``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal
from typing import Final, Literal

from dealer_station.games.cards import Card
from dealer_station.games.engine import GameSetup, NextStep, Output, Payout, money
from dealer_station.games.events import (
    CancelBet,
    CloseBets,
    DealCard,
    Event,
    PlaceBet,
    VoidRound,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.rulefile import build_rules, read_variant_file
from dealer_station.games.stakes import SpotRules

Side = Literal["player", "banker"]
Phase = Literal["betting", "dealing", "settled", "void"]

SPOTS: Final = ("player", "banker", "tie", "player_pair", "banker_pair")
PAIR_SPOTS: Final = ("player_pair", "banker_pair")

# A two-card total from here up is a natural: nobody draws.
NATURAL_FROM: Final = 8
# Player draws on 0-5 and stands on 6-7; so does Banker when Player stood.
STANDS_FROM: Final = 6

_EVERY_VALUE = frozenset(range(10))
# Banker's two-card total -> the values of Player's third card on which Banker
# draws (docs/rules.md's table; totals 8-9 never get here, they are naturals).
BANKER_DRAWS_ON: Final[tuple[frozenset[int], ...]] = (
    _EVERY_VALUE,
    _EVERY_VALUE,
    _EVERY_VALUE,
    _EVERY_VALUE - {8},
    frozenset(range(2, 8)),
    frozenset(range(4, 8)),
    frozenset({6, 7}),
    frozenset(),
    frozenset(),
    frozenset(),
)

_ROUNDING: Final = {"down": ROUND_DOWN, "up": ROUND_UP, "half_up": ROUND_HALF_UP}


def card_value(card: Card) -> int:
    """Tens and faces 0, ace 1, the others their face value."""
    if card.is_ten_value:
        return 0
    return 1 if card.rank == "A" else int(card.rank)


def score(values: Iterable[int]) -> int:
    return sum(values) % 10


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether Banker takes a third card; ``player_third`` is the value of
    Player's third card, None when Player stood."""
    if player_third is None:
        return banker_total < STANDS_FROM
    return player_third in BANKER_DRAWS_ON[banker_total]


def next_card_to(player: tuple[int, ...], banker: tuple[int, ...]) -> Side | None:
    """Where the next card goes, given the values dealt so far; None: the round
    is over."""
    dealt = len(player) + len(banker)
    if dealt < 4:
        return "player" if dealt % 2 == 0 else "banker"
    player_total, banker_total = score(player[:2]), score(banker[:2])
    if player_total >= NATURAL_FROM or banker_total >= NATURAL_FROM:
        return None
    if len(player) == 2 and len(banker) == 2 and player_total < STANDS_FROM:
        return "player"
    if len(banker) == 3:
        return None
    player_third = player[2] if len(player) == 3 else None
    return "banker" if banker_draws(banker_total, player_third) else None


@dataclass(frozen=True, slots=True)
class BaccaratRules:
    title: str = "Baccarat"
    source: str = ""
    decks: int = 8
    # The cut card sits this many cards before the end of the shoe: the round in
    # which it comes out is finished, then the shoe is shuffled. A round takes at
    # most six cards, so at least six must lie behind it.
    cut_card_from_end: int = 16
    # Banker's winnings are paid less this share of them.
    commission: Decimal = Decimal("0.05")
    # The currency's smallest amount: every stake is a whole number of it, and
    # the commission is rounded to it as ``commission_rounding`` says ("down"
    # never charges more than the exact commission, "none" keeps fractions).
    minor_unit: Decimal = Decimal("0.01")
    commission_rounding: Literal["down", "up", "half_up", "none"] = "down"
    one_pair_bet_only: bool = True
    player: SpotRules = SpotRules("1:1")
    banker: SpotRules = SpotRules("1:1")
    tie: SpotRules = SpotRules("8:1")
    player_pair: SpotRules = SpotRules("11:1")
    banker_pair: SpotRules = SpotRules("11:1")

    def __post_init__(self) -> None:
        problems = []
        if not 1 <= self.decks <= 12:
            problems.append("decks must be 1 to 12")
        if not 6 <= self.cut_card_from_end < self.decks * 52:
            problems.append("cut_card_from_end must leave 6 cards to a whole shoe")
        if not 0 <= self.commission < 1:
            problems.append("commission must be at least 0 and below 1")
        if self.minor_unit <= 0:
            problems.append("minor_unit must be positive")
        if problems:
            raise ValueError("; ".join(problems))

    def spot(self, name: str) -> SpotRules:
        spot: SpotRules = getattr(self, name)
        return spot

    def win(self, spot: str, stake: Decimal) -> Decimal:
        """What a winning stake earns on top of itself; the commission is not
        taken here."""
        return self.spot(spot).winnings(stake, self.minor_unit)

    def commission_on(self, winnings: Decimal) -> Decimal:
        exact = winnings * self.commission
        if self.commission_rounding == "none":
            return exact
        return exact.quantize(self.minor_unit, rounding=_ROUNDING[self.commission_rounding])


@dataclass(frozen=True, slots=True)
class Bet:
    player: str
    spot: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class BaccaratRound:
    round_id: str
    phase: Phase = "betting"
    bets: tuple[Bet, ...] = ()
    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()
    void_reason: str = ""

    def values(self, side: Side) -> tuple[int, ...]:
        return tuple(card_value(c) for c in (self.player if side == "player" else self.banker))

    def due(self) -> Side | None:
        return next_card_to(self.values("player"), self.values("banker"))


def winner(state: BaccaratRound) -> str:
    player, banker = score(state.values("player")), score(state.values("banker"))
    if player == banker:
        return "tie"
    return "player" if player > banker else "banker"


def is_pair(cards: tuple[Card, ...]) -> bool:
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def settle(rules: BaccaratRules, state: BaccaratRound) -> tuple[Payout, ...]:
    result = winner(state)
    payouts = []
    for bet in state.bets:
        stake = bet.amount
        if bet.spot in ("player", "banker"):
            if result == "tie":
                payouts.append(Payout(bet.player, bet.spot, stake, stake, "push"))
                continue
            won = result == bet.spot
        elif bet.spot == "tie":
            won = result == "tie"
        else:
            won = is_pair(state.player if bet.spot == "player_pair" else state.banker)
        if not won:
            payouts.append(Payout(bet.player, bet.spot, stake, Decimal(0), "lose"))
            continue
        winnings = rules.win(bet.spot, stake)
        detail: Output | None = None
        if bet.spot == "banker":
            commission = rules.commission_on(winnings)
            winnings -= commission
            detail = {"commission": money(commission)}
        payouts.append(Payout(bet.player, bet.spot, stake, stake + winnings, "win", detail))
    return tuple(payouts)


def _hand_json(cards: tuple[Card, ...]) -> Output:
    values = [card_value(c) for c in cards]
    return {
        "cards": [str(c) for c in cards],
        "score": score(values),
        "natural": score(values[:2]) >= NATURAL_FROM,
        "pair": is_pair(cards),
    }


class BaccaratEngine:
    """The ``RoundEngine`` of baccarat. Spots: ``player``, ``banker``, ``tie``,
    ``player_pair``, ``banker_pair``; a bet carries no box and no numbers."""

    game = "baccarat"

    def __init__(self, rules: BaccaratRules) -> None:
        self.rules = rules

    def new_round(self, round_id: str) -> BaccaratRound:
        return BaccaratRound(round_id)

    def is_over(self, state: BaccaratRound) -> bool:
        return state.phase in ("settled", "void")

    def next_step(self, state: BaccaratRound) -> NextStep:
        if state.phase == "betting":
            return NextStep("bets")
        due = state.due() if state.phase == "dealing" else None
        return NextStep("settled") if due is None else NextStep("card", due)

    def apply(self, state: BaccaratRound, event: Event) -> tuple[BaccaratRound, list[Output]]:
        # Any card the tableau does not call for is a misdeal, even after the round.
        if isinstance(event, DealCard):
            return self._deal(state, event.card)
        if self.is_over(state):
            raise Rejected("round_over", f"round {state.round_id} is already {state.phase}")
        if isinstance(event, VoidRound):
            return replace(state, phase="void", void_reason=event.reason), [
                {"type": "round_void", "reason": event.reason}
            ]
        if isinstance(event, PlaceBet | CancelBet | CloseBets) and state.phase != "betting":
            raise Rejected("betting_closed", "no more bets: the cards are being dealt")
        if isinstance(event, PlaceBet):
            return self._place(state, event)
        if isinstance(event, CancelBet):
            return self._cancel(state, event)
        if isinstance(event, CloseBets):
            return replace(state, phase="dealing"), [
                {"type": "bets_closed", "bets": len(state.bets)}
            ]
        raise Rejected("not_in_this_game", f"a {event.type!r} event has no place in baccarat")

    def _place(self, state: BaccaratRound, event: PlaceBet) -> tuple[BaccaratRound, list[Output]]:
        rules = self.rules
        if event.spot not in SPOTS:
            raise Rejected("unknown_spot", f"no spot {event.spot!r}; spots: {', '.join(SPOTS)}")
        if event.box is not None or event.numbers:
            raise Rejected("bad_bet", "a baccarat bet names a spot, not a box or numbers")
        if event.amount <= 0 or event.amount % rules.minor_unit != 0:
            raise Rejected(
                "bad_amount", f"{event.amount} is not a whole number of {rules.minor_unit}"
            )
        if rules.one_pair_bet_only and event.spot in PAIR_SPOTS:
            other = PAIR_SPOTS[1 - PAIR_SPOTS.index(event.spot)]
            if any(b.player == event.player and b.spot == other for b in state.bets):
                raise Rejected(
                    "one_pair_bet_only", f"{event.player} already holds {other}: one pair bet only"
                )
        held = next(
            (b for b in state.bets if b.player == event.player and b.spot == event.spot), None
        )
        total = event.amount + (held.amount if held else 0)
        limits = rules.spot(event.spot)
        if total < limits.min_bet:
            raise Rejected(
                "below_table_minimum", f"{event.spot} takes at least {money(limits.min_bet)}"
            )
        if total > limits.max_bet:
            raise Rejected(
                "above_table_maximum", f"{event.spot} takes at most {money(limits.max_bet)}"
            )
        bet = Bet(event.player, event.spot, total)
        bets = tuple(bet if b is held else b for b in state.bets) if held else (*state.bets, bet)
        return replace(state, bets=bets), [
            {
                "type": "bet_placed",
                "player": event.player,
                "spot": event.spot,
                "amount": money(event.amount),
                "total": money(total),
            }
        ]

    def _cancel(self, state: BaccaratRound, event: CancelBet) -> tuple[BaccaratRound, list[Output]]:
        held = next(
            (b for b in state.bets if b.player == event.player and b.spot == event.spot), None
        )
        if held is None:
            raise Rejected("no_such_bet", f"{event.player} has no bet on {event.spot!r}")
        return replace(state, bets=tuple(b for b in state.bets if b is not held)), [
            {
                "type": "bet_cancelled",
                "player": held.player,
                "spot": held.spot,
                "amount": money(held.amount),
            }
        ]

    def _deal(self, state: BaccaratRound, card: Card) -> tuple[BaccaratRound, list[Output]]:
        if state.phase == "betting":
            raise Rejected("misdeal", f"{card} drawn while bets are still open")
        if state.phase == "void":
            raise Rejected("misdeal", f"{card} drawn in a voided round")
        due = state.due()
        if due is None:
            raise Rejected("misdeal", f"{card} drawn but the tableau calls for no card")
        if due == "player":
            new = replace(state, player=(*state.player, card))
        else:
            new = replace(state, banker=(*state.banker, card))
        if new.due() is None:
            new = replace(new, phase="settled")
        return new, [
            {
                "type": "card_dealt",
                "card": str(card),
                "to": due,
                "face": "up",  # every baccarat card (dealer_station/visibility.py)
                "score": score(new.values(due)),
            }
        ]

    def outcome(self, state: BaccaratRound) -> Output:
        if not self.is_over(state):
            raise ValueError(f"round {state.round_id} is not over")
        out: Output = {"round": state.round_id, "game": self.game}
        if state.phase == "void":
            out.update(
                voided=True,
                reason=state.void_reason,
                player={"cards": [str(c) for c in state.player]},
                banker={"cards": [str(c) for c in state.banker]},
                payouts=[
                    Payout(b.player, b.spot, b.amount, b.amount, "void").to_json()
                    for b in state.bets
                ],
            )
            return out
        out.update(
            winner=winner(state),
            player=_hand_json(state.player),
            banker=_hand_json(state.banker),
            payouts=[p.to_json() for p in settle(self.rules, state)],
        )
        return out


DEFAULT_VARIANT: Final = "live-baccarat"


def load_variant(name_or_path: str, decks: int | None = None) -> BaccaratRules:
    """A shipped variant by name, or a variant file by path; ``decks`` overrides
    the file's. ``RuleFileError`` names the offending key."""
    mapping, source = read_variant_file(name_or_path, "baccarat")
    if decks is not None:
        mapping["decks"] = decks
    return build_rules(BaccaratRules, mapping, source)


def setup(variant: str | None, decks: int | None) -> GameSetup:
    name = variant or DEFAULT_VARIANT
    rules = load_variant(name, decks)
    return GameSetup(
        engine=BaccaratEngine(rules),
        variant=name,
        decks=rules.decks,
        cut_card_at=rules.decks * 52 - rules.cut_card_from_end,
    )
