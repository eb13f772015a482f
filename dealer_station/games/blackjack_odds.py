"""The return to player of a blackjack variant, from the variant's own rules.

``analyse(rules)`` plays every dealt two-card hand against every up-card with
the exact values of ``blackjack_strategy`` and gives the main bet's return
under optimal (composition-dependent) play and under the basic strategy table
built from the same values, and the side bets' returns, all exact.

Returns are per unit of the initial bet (doubles and splits add to what is
won or lost, not to what was bet), as published figures count them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from dealer_station.games.blackjack import Hand
from dealer_station.games.blackjack_dealer import (
    ACE,
    TEN,
    Composition,
    dealer_probabilities,
    full_shoe,
)
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_settle import blackjack_factor
from dealer_station.games.blackjack_strategy import (
    DEALT,
    DOUBLE,
    HIT,
    SPLIT,
    Chooser,
    UpCardSolver,
    optimal,
    same_rank_share,
    up_card_solvers,
)
from dealer_station.games.blackjack_strategy_table import BasicStrategy, tabulate
from dealer_station.games.cards import Card
from dealer_station.games.rulefile import parse_ratio

SEVEN: Final = 6


@dataclass(frozen=True, slots=True)
class DealtHand:
    """One two-card hand against one up-card: how often it is dealt (up-card
    included), each action's value as the player faces it (conditional on no
    dealer blackjack where the dealer peeked), the best action and the basic
    strategy's, and the hand's whole expectation under each."""

    up: int
    hand: Composition
    probability: float
    evs: dict[str, float]
    best: str
    basic: str
    ev_optimal: float
    ev_basic: float


@dataclass(frozen=True, slots=True)
class UpCardOdds:
    up: int
    probability: float
    # The dealer's final totals, only the up-card out of the shoe (OUTCOMES).
    dealer: tuple[float, ...]
    ev_optimal: float
    ev_basic: float


@dataclass(frozen=True, slots=True)
class SideBetOdds:
    name: str
    # Each paying result: what it pays and its probability.
    pays: tuple[tuple[str, str, float], ...]
    rtp: float


@dataclass(frozen=True, slots=True)
class VariantOdds:
    rules: BlackjackRules
    ev_optimal: float
    ev_basic: float
    blackjack_probability: float
    # What a blackjack pays on average, its suits counted.
    blackjack_pays: float
    up_cards: tuple[UpCardOdds, ...]
    hands: tuple[DealtHand, ...]
    strategy: BasicStrategy
    side_bets: tuple[SideBetOdds, ...]

    @property
    def rtp_optimal(self) -> float:
        return 1 + self.ev_optimal

    @property
    def rtp_basic(self) -> float:
        return 1 + self.ev_basic


def suited_blackjack_pays(rules: BlackjackRules) -> float:
    """The average win of a blackjack, settled as the engine settles it. The
    ace's suit and the ten-value card (rank and suit) are uniform and
    independent whatever else is dealt, by the symmetry of the suits."""
    aces = [Card("A", suit) for suit in "CDHS"]
    tens = [Card(rank, suit) for rank in "TJQK" for suit in "CDHS"]
    factors = [blackjack_factor(rules, Hand((a, t))) for a in aces for t in tens]
    return float(sum(factors, Fraction(0)) / len(factors)) - 1


def _pair_of(hand: Composition) -> int:
    return next((r for r in range(10) if hand[r] == 2), -1)


def _played(
    solver: UpCardSolver, hand: Composition, evs: dict[str, float], share: float
) -> tuple[str, float]:
    """The chooser's action and the hand's value (``offset`` not included);
    a pair of tens splits only as often as it is of one rank (``share``)."""
    action = solver.choose(solver.up, hand, DEALT, False, evs)
    if share >= 1 or SPLIT not in evs:
        return action, evs[action]
    unsplit = {a: v for a, v in evs.items() if a != SPLIT}
    other = solver.choose(solver.up, hand, DEALT, False, unsplit)
    return action, share * evs[action] + (1 - share) * unsplit[other]


def _sevens(rules: BlackjackRules, shoe: Composition, draws_third: dict[int, float]) -> SideBetOdds:
    """The Sevens bet: the box's first card a 7, its first two, or its first
    three in one unsplit hand (``draws_third[up]``: the chance that a dealt
    7,7 against that up-card takes a third card under basic strategy)."""
    n = sum(shoe)
    sevens = shoe[SEVEN]
    first = sevens / n
    two = first * (sevens - 1) / (n - 1)
    three = 0.0
    for up, ups in enumerate(shoe):
        if not ups:
            continue
        left = [c - (r == up) for r, c in enumerate(shoe)]
        if left[SEVEN] < 2:
            continue
        dealt_77 = (ups / n) * left[SEVEN] * (left[SEVEN] - 1) / ((n - 1) * (n - 2))
        three += dealt_77 * draws_third.get(up, 0.0) * (left[SEVEN] - 2) / (n - 3)
    ratios = [parse_ratio(r) for r in rules.bonus_sevens_pays]
    chances = (first - two, two - three, three)
    rtp = sum(float(1 + ratio) * p for ratio, p in zip(ratios, chances, strict=True))
    names = ("7", "77", "777")
    return SideBetOdds(
        "bonus_sevens",
        tuple(
            (name, pays, p)
            for name, pays, p in zip(names, rules.bonus_sevens_pays, chances, strict=True)
        ),
        rtp,
    )


@dataclass(frozen=True, slots=True)
class _Row:
    """One dealt hand as a chooser played it: the values of its actions
    (``offset`` not included), the action taken and the hand's whole value."""

    up: int
    hand: Composition
    probability: float
    evs: dict[str, float]
    action: str
    ev: float


def _play(rules: BlackjackRules, solvers: dict[int, UpCardSolver], splits: bool) -> list[_Row]:
    """Every dealt hand against every up-card, played by the solvers'
    chooser."""
    pays = suited_blackjack_pays(rules)
    player_bj_wins = rules.blackjack_vs_dealer_blackjack == "player_wins"
    rows = []
    for up, solver in solvers.items():
        for hand, p in solver.dealt():
            if hand[ACE] == hand[TEN] == 1:
                dealer_bj = solver.blackjack_chance(hand)
                value = pays * (1 if player_bj_wins else 1 - dealer_bj)
                rows.append(_Row(up, hand, p, {}, "blackjack", value))
                continue
            evs = solver.dealt_evs(hand, pair_splits=splits)
            share = same_rank_share(rules, solver.shoe[TEN]) if hand[TEN] == 2 else 1.0
            action, value = _played(solver, hand, evs, share)
            rows.append(_Row(up, hand, p, evs, action, value + solver.offset(hand)))
    return rows


def main_bet_ev(
    rules: BlackjackRules,
    shoe: Composition | None = None,
    choose: Chooser = optimal,
    *,
    splits: bool = True,
) -> float:
    """The main bet's expected value per unit of the initial bet, played by
    ``choose`` (optimal play by default; ``splits=False``: pairs never split)."""
    shoe = shoe or full_shoe(rules.decks)
    return sum(
        row.probability * row.ev
        for row in _play(rules, up_card_solvers(rules, shoe, choose), splits)
    )


def analyse(rules: BlackjackRules, shoe: Composition | None = None) -> VariantOdds:
    """The variant's returns from a full shoe (``shoe``: another composition
    of the ten rank classes, for tests and small cases)."""
    shoe = shoe or full_shoe(rules.decks)
    n = sum(shoe)
    solvers = up_card_solvers(rules, shoe)
    best_rows = _play(rules, solvers, True)
    strategy = tabulate(rules, ((r.up, r.hand, r.probability, r.evs) for r in best_rows if r.evs))
    basic_rows = _play(rules, {u: s.fork(strategy.choose) for u, s in solvers.items()}, True)
    hands: list[DealtHand] = []
    ev_opt = dict.fromkeys(solvers, 0.0)
    ev_bas = dict.fromkeys(solvers, 0.0)
    draws_third: dict[int, float] = {}
    for best, basic in zip(best_rows, basic_rows, strict=True):
        up, hand, p = best.up, best.hand, best.probability
        ev_opt[up] += p * best.ev
        ev_bas[up] += p * basic.ev
        solver = solvers[up]
        if _pair_of(hand) == SEVEN:
            takes = 1.0 if basic.action in (HIT, DOUBLE) else 0.0
            # After a peek, a 7,7 gets its third card only without a dealer blackjack.
            draws_third[up] = takes * (1 - solver.blackjack_chance(hand) * (solver.mode == "peek"))
        seen = {a: solver.as_seen(hand, DEALT, v) for a, v in best.evs.items()}
        hands.append(DealtHand(up, hand, p, seen, best.action, basic.action, best.ev, basic.ev))

    up_cards = tuple(
        UpCardOdds(
            up,
            shoe[up] / n,
            dealer_probabilities(solvers[up].shoe, up, rules.dealer_hits_soft_17),
            ev_opt[up] / (shoe[up] / n),
            ev_bas[up] / (shoe[up] / n),
        )
        for up in sorted(solvers)
    )
    side_bets: list[SideBetOdds] = []
    bj_chance = 2 * shoe[ACE] * shoe[TEN] / (n * (n - 1))
    if rules.bonus_blackjack_pays:
        ratio = parse_ratio(rules.bonus_blackjack_pays)
        side_bets.append(
            SideBetOdds(
                "bonus_blackjack",
                (("blackjack", rules.bonus_blackjack_pays, bj_chance),),
                float(1 + ratio) * bj_chance,
            )
        )
    if rules.bonus_sevens_pays:
        side_bets.append(_sevens(rules, shoe, draws_third))
    return VariantOdds(
        rules,
        sum(ev_opt.values()),
        sum(ev_bas.values()),
        bj_chance,
        suited_blackjack_pays(rules),
        up_cards,
        tuple(hands),
        strategy,
        tuple(side_bets),
    )
