"""European roulette: bets validated against the layout and the limits, one spin,
the settlement.

A round: bets open, ``CloseBets`` ("no more bets"), one ``WheelResult``, settled.
A bet is a type (``spot``: straight, split, ..., high) and its ``numbers`` as
``roulette_layout`` encodes them. Payouts and each bet type's minimum and maximum
are parameters of ``RouletteRules``; the shipped values are in
``variants/european-roulette.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Final, Literal

from dealer_station.games.engine import GameSetup, NextStep, Output, Payout, money
from dealer_station.games.events import (
    CancelBet,
    CloseBets,
    Event,
    PlaceBet,
    VoidRound,
    WheelResult,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_layout import (
    BET_TYPES,
    POCKETS,
    WHEEL_ORDER,
    colour_of,
    covered,
    placements,
    written_placement,
)
from dealer_station.games.rulefile import build_rules, parse_ratio, read_variant_file
from dealer_station.games.stakes import SpotRules

Phase = Literal["betting", "spinning", "settled", "void"]


@dataclass(frozen=True, slots=True)
class RouletteRules:
    title: str = "European Roulette"
    source: str = ""
    # The currency's smallest amount: every stake is a whole number of it.
    minor_unit: Decimal = Decimal("0.01")
    straight: SpotRules = SpotRules("35:1")
    split: SpotRules = SpotRules("17:1")
    street: SpotRules = SpotRules("11:1")
    trio: SpotRules = SpotRules("11:1")
    corner: SpotRules = SpotRules("8:1")
    first_four: SpotRules = SpotRules("8:1")
    six_line: SpotRules = SpotRules("5:1")
    column: SpotRules = SpotRules("2:1")
    dozen: SpotRules = SpotRules("2:1")
    red: SpotRules = SpotRules("1:1")
    black: SpotRules = SpotRules("1:1")
    odd: SpotRules = SpotRules("1:1")
    even: SpotRules = SpotRules("1:1")
    low: SpotRules = SpotRules("1:1")
    high: SpotRules = SpotRules("1:1")

    def __post_init__(self) -> None:
        if self.minor_unit <= 0:
            raise ValueError("minor_unit must be positive")

    def bet_type(self, name: str) -> SpotRules:
        rules: SpotRules = getattr(self, name)
        return rules

    def win(self, bet_type: str, stake: Decimal) -> Decimal:
        """What a winning stake earns on top of itself."""
        return self.bet_type(bet_type).winnings(stake, self.minor_unit)


@dataclass(frozen=True, slots=True)
class RouletteBet:
    player: str
    spot: str
    numbers: tuple[int, ...]
    covers: frozenset[int]
    amount: Decimal

    def same_placement(self, player: str, spot: str, numbers: tuple[int, ...]) -> bool:
        return (self.player, self.spot, self.numbers) == (player, spot, numbers)


@dataclass(frozen=True, slots=True)
class RouletteRound:
    round_id: str
    phase: Phase = "betting"
    bets: tuple[RouletteBet, ...] = ()
    number: int | None = None
    void_reason: str = ""
    # What closed betting when no person did (``CloseBets.reason``), or None.
    closed_by: str | None = None


def settle(rules: RouletteRules, bets: tuple[RouletteBet, ...], number: int) -> tuple[Payout, ...]:
    payouts = []
    for bet in bets:
        detail: Output | None = written_placement(bet.spot, bet.numbers) or None
        if number in bet.covers:
            returns = bet.amount + rules.win(bet.spot, bet.amount)
            payouts.append(Payout(bet.player, bet.spot, bet.amount, returns, "win", detail))
        else:
            payouts.append(Payout(bet.player, bet.spot, bet.amount, Decimal(0), "lose", detail))
    return tuple(payouts)


class RouletteEngine:
    """The ``RoundEngine`` of roulette."""

    game = "roulette"

    def __init__(self, rules: RouletteRules) -> None:
        self.rules = rules

    def new_round(self, round_id: str) -> RouletteRound:
        return RouletteRound(round_id)

    def is_over(self, state: RouletteRound) -> bool:
        return state.phase in ("settled", "void")

    def next_step(self, state: RouletteRound) -> NextStep:
        if state.phase == "betting":
            return NextStep("bets")
        if state.phase == "spinning":
            return NextStep("wheel")
        return NextStep("settled")

    def apply(self, state: RouletteRound, event: Event) -> tuple[RouletteRound, list[Output]]:
        if self.is_over(state):
            raise Rejected("round_over", f"round {state.round_id} is already {state.phase}")
        if isinstance(event, VoidRound):
            return replace(state, phase="void", void_reason=event.reason), [
                {"type": "round_void", "reason": event.reason}
            ]
        if isinstance(event, WheelResult):
            return self._result(state, event.number)
        if isinstance(event, PlaceBet | CancelBet | CloseBets) and state.phase != "betting":
            raise Rejected("betting_closed", "no more bets: the ball is spinning")
        if isinstance(event, PlaceBet):
            return self._place(state, event)
        if isinstance(event, CancelBet):
            return self._cancel(state, event)
        if isinstance(event, CloseBets):
            closed: Output = {"type": "bets_closed", "bets": len(state.bets)}
            if event.reason is not None:
                closed["reason"] = event.reason
            return replace(state, phase="spinning", closed_by=event.reason), [closed]
        raise Rejected("not_in_this_game", f"a {event.type!r} event has no place in roulette")

    def _place(self, state: RouletteRound, event: PlaceBet) -> tuple[RouletteRound, list[Output]]:
        rules = self.rules
        numbers, covers = covered(event.spot, event.numbers)
        if event.box is not None:
            raise Rejected("bad_bet", "a roulette bet names a bet type and numbers, not a box")
        if event.amount <= 0 or event.amount % rules.minor_unit != 0:
            raise Rejected(
                "bad_amount", f"{event.amount} is not a whole number of {rules.minor_unit}"
            )
        held = next(
            (b for b in state.bets if b.same_placement(event.player, event.spot, numbers)), None
        )
        total = event.amount + (held.amount if held else 0)
        limits = rules.bet_type(event.spot)
        if total < limits.min_bet:
            raise Rejected(
                "below_table_minimum", f"a {event.spot} takes at least {money(limits.min_bet)}"
            )
        if total > limits.max_bet:
            raise Rejected(
                "above_table_maximum", f"a {event.spot} takes at most {money(limits.max_bet)}"
            )
        bet = RouletteBet(event.player, event.spot, numbers, covers, total)
        bets = tuple(bet if b is held else b for b in state.bets) if held else (*state.bets, bet)
        out: Output = {"type": "bet_placed", "player": event.player, "spot": event.spot}
        out.update(written_placement(event.spot, numbers))
        out.update(amount=money(event.amount), total=money(total))
        return replace(state, bets=bets), [out]

    def _cancel(self, state: RouletteRound, event: CancelBet) -> tuple[RouletteRound, list[Output]]:
        key = tuple(sorted(event.numbers))
        held = next(
            (b for b in state.bets if b.same_placement(event.player, event.spot, key)), None
        )
        if held is None:
            raise Rejected(
                "no_such_bet", f"{event.player} has no {event.spot} bet on {list(event.numbers)}"
            )
        out: Output = {"type": "bet_cancelled", "player": held.player, "spot": held.spot}
        out.update(written_placement(held.spot, held.numbers))
        out["amount"] = money(held.amount)
        return replace(state, bets=tuple(b for b in state.bets if b is not held)), [out]

    def _result(self, state: RouletteRound, number: int) -> tuple[RouletteRound, list[Output]]:
        if state.phase == "betting":
            raise Rejected("bets_open", "close the bets before the winning number")
        if number not in POCKETS:
            raise Rejected("not_a_pocket", f"{number} is not a pocket of a 0-36 wheel")
        return replace(state, phase="settled", number=number), [
            {"type": "winning_number", "number": number, "colour": colour_of(number)}
        ]

    def outcome(self, state: RouletteRound) -> Output:
        if not self.is_over(state):
            raise ValueError(f"round {state.round_id} is not over")
        out: Output = {"round": state.round_id, "game": self.game}
        if state.phase == "void" or state.number is None:
            out.update(
                voided=True,
                reason=state.void_reason,
                payouts=[
                    Payout(
                        b.player,
                        b.spot,
                        b.amount,
                        b.amount,
                        "void",
                        written_placement(b.spot, b.numbers) or None,
                    ).to_json()
                    for b in state.bets
                ],
            )
            return out
        out.update(
            number=state.number,
            colour=colour_of(state.number),
            payouts=[p.to_json() for p in settle(self.rules, state.bets, state.number)],
        )
        return out


@dataclass(frozen=True, slots=True)
class BetTypeOdds:
    covers: int
    pays: Fraction
    placements: int
    house_edge: Fraction


def house_edges(rules: RouletteRules) -> dict[str, BetTypeOdds]:
    """Each bet type's house edge, from the placements the layout allows and the
    rules' payouts: a win returns the stake and ``pays`` times it."""
    out = {}
    for bet_type in BET_TYPES:
        pays = parse_ratio(rules.bet_type(bet_type).pays)
        on_layout = placements(bet_type)
        # Every placement of a type covers as many numbers; unpacking says so.
        (covers,) = {len(numbers) for numbers in on_layout.values()}
        edge = 1 - Fraction(covers, len(WHEEL_ORDER)) * (1 + pays)
        out[bet_type] = BetTypeOdds(covers, pays, len(on_layout), edge)
    return out


DEFAULT_VARIANT: Final = "european-roulette"


def load_variant(name_or_path: str) -> RouletteRules:
    """A shipped variant by name, or a variant file by path; ``RuleFileError``
    names the offending key."""
    mapping, source = read_variant_file(name_or_path, "roulette")
    return build_rules(RouletteRules, mapping, source)


def setup(variant: str | None, decks: int | None) -> GameSetup:
    """``decks`` must be None: roulette is played without cards."""
    if decks is not None:
        raise Rejected("no_shoe", "roulette is played without cards: no decks")
    name = variant or DEFAULT_VARIANT
    return GameSetup(engine=RouletteEngine(load_variant(name)), variant=name)
