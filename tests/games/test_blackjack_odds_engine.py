"""The analyser against the engine itself, exactly, on a small shoe.

Every card sequence a round can take is walked through the real engine
(``BlackjackEngine.apply``), each branch weighted by its exact probability,
with a fixed playing rule that uses doubles, surrenders and their variants'
extensions wherever they are legal. The analyser, given the same playing rule,
must give the same expected value to rounding: the rules it honours are the
rules the engine settles by. Pairs are never split here, because the
analyser's split values count only the pair cards out of the shoe (as
published analysers do), which is exact only for large shoes; splits are
checked against published figures instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal

import pytest

from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_dealer import ACE, TEN, Composition, hand_value, rank_class
from dealer_station.games.blackjack_odds import main_bet_ev
from dealer_station.games.blackjack_rules import BlackjackRules, load_variant
from dealer_station.games.blackjack_strategy import DOUBLE, HIT, STAND, SURRENDER, Spot
from dealer_station.games.cards import Card
from dealer_station.games.events import CloseBets, CloseInsurance, DealCard, Decision, PlaceBet

# 11 cards of six classes: two aces, a 4, two 5s, a 6, a 9 and four tens.
# Enough for soft hands, doubles on 10 and 11, stiff hands to surrender,
# blackjacks for player and dealer; few enough to walk every sequence.
SHOE: Composition = (2, 0, 0, 1, 2, 1, 0, 0, 1, 4)
CLASS_RANK = "A23456789T"


def rule_of_thumb(
    total: int, soft: bool, cards: int, up: int, doubled: bool, legal: set[str]
) -> str:
    """A fixed way of playing that takes every kind of action somewhere."""
    strong_up = up in (ACE, TEN) or up >= 6
    if doubled:
        return SURRENDER if SURRENDER in legal and 12 <= total <= 16 and strong_up else STAND
    if SURRENDER in legal and not soft and total in (15, 16) and strong_up:
        return SURRENDER
    if DOUBLE in legal and (total in (10, 11) or (soft and 15 <= total <= 17 and not strong_up)):
        return DOUBLE
    if HIT in legal and (total < 17 or (soft and total < 18)):
        return HIT
    return STAND


def analyser_chooser(
    up: int, hand: Composition, spot: Spot, doubled: bool, evs: dict[str, float]
) -> str:
    total, soft = hand_value(hand)
    return rule_of_thumb(total, soft, sum(hand), up, doubled, set(evs))


def engine_ev(rules: BlackjackRules, shoe: Composition) -> float:
    """The exact expected net of one unit on one box, walked through the
    engine over every sequence of cards."""
    engine = BlackjackEngine(rules)
    state = engine.new_round("r")
    state, _ = engine.apply(state, PlaceBet("p", "main", Decimal(10), box=1))
    state, _ = engine.apply(state, CloseBets())

    def walk(state: BlackjackRound, left: tuple[int, ...]) -> float:
        step = engine.next_step(state)
        if step.kind == "settled":
            payouts = engine.outcome(state)["payouts"]
            return sum(float(p["net"]) for p in payouts) / 10
        if step.kind == "insurance":
            return walk(engine.apply(state, CloseInsurance())[0], left)
        if step.kind == "decision":
            _, box, _, index = step.to.split()
            hand = state.box(int(box)).hands[int(index)]
            total, soft = hand_value(
                tuple(sum(rank_class(c) == r for c in hand.cards) for r in range(10))
            )
            assert state.up_card is not None
            legal = set(step.options) - {"stand_all", "split"}
            action = rule_of_thumb(
                total, soft, len(hand.cards), rank_class(state.up_card), hand.doubled, legal
            )
            decision = Decision(box=int(box), hand=int(index), action=action)
            return walk(engine.apply(state, decision)[0], left)
        assert step.kind == "card"
        cards = sum(left)
        assert cards, "the small shoe ran out: the comparison would not be exact"
        ev = 0.0
        for r, n in enumerate(left):
            if n:
                card = Card(CLASS_RANK[r], "C")
                after = left[:r] + (n - 1,) + left[r + 1 :]
                ev += n / cards * walk(engine.apply(state, DealCard(card))[0], after)
        return ev

    return walk(state, shoe)


def _variants() -> Iterable[tuple[str, BlackjackRules]]:
    for name in (
        "live-blackjack",
        "blackjack-3-position",
        "standard-blackjack",
        "diamond-blackjack",
    ):
        rules = load_variant(name)
        # Suits are not dealt here (every card a club); suited payouts have their own test.
        yield name, replace(rules, suited_blackjacks=())
    three = load_variant("blackjack-3-position")
    yield "3-position, peek on ten only", replace(three, peek_up_cards=("T",))
    yield (
        "3-position, peek on ten only, original bets",
        replace(three, peek_up_cards=("T",), dealer_blackjack_takes="original_bets"),
    )


@pytest.mark.parametrize(("name", "rules"), list(_variants()), ids=[n for n, _ in _variants()])
def test_analyser_matches_the_engine_exactly(name: str, rules: BlackjackRules) -> None:
    expected = engine_ev(rules, SHOE)
    assert main_bet_ev(rules, SHOE, analyser_chooser, splits=False) == pytest.approx(
        expected, abs=1e-12
    )
