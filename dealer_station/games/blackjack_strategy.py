"""The expected value of every blackjack decision, from a variant's own rules.

Exact for a finite shoe in the way published combinatorial analysers are
(Wizard of Odds' appendix 9, Eric Farmer's, MGP's): each hand's values take
out of the shoe the up-card, every card of the hand, and for a hand that came
from a split the split cards of the box's other hands. The one approximation
is theirs too: for a split hand the shoe does not lose the cards the box's
other hands drew, and the chance of drawing another pair card while re-splitting
counts only the pair cards already out.

Money is counted per unit of the box's original bet. A dealer blackjack is
handled without conditioning: every value is an expectation over the dealer's
whole hand, blackjack included, and the blackjack column carries what the
variant's settlement gives when it shows:

- ``peek``: the dealer checked before anyone acted; a hand played on means no
  dealer blackjack, so the hand's values leave the blackjack case out and the
  round's one-unit loss to it is added once per box (``offset``).
- ``original_bets``: no peek, the dealer's blackjack takes one unit from the
  box (``offset``); as ``blackjack_settle`` settles it, a busted hand still loses
  its whole stake, the other split hands get theirs back, a surrendered hand
  keeps its half.
- ``all_bets``: no peek, the blackjack takes every stake except a surrendered
  hand's returned half.

Where the variant's surrender is late (``surrender_lost_to_dealer_blackjack``),
a surrendered hand keeps its half only against no blackjack; against one it
settles as a standing hand does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from typing import Final, Literal, NamedTuple, Protocol

import numpy as np

from dealer_station.games.blackjack import split_refusal
from dealer_station.games.blackjack_dealer import (
    ACE,
    BLACKJACK,
    BUST,
    TEN,
    Composition,
    composition,
    dealer_table,
    full_shoe,
    hand_value,
    outcome_probabilities,
    rank_class,
)
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.cards import Card

STAND: Final = "stand"
HIT: Final = "hit"
DOUBLE: Final = "double"
SPLIT: Final = "split"
SURRENDER: Final = "surrender"

DealerMode = Literal["none", "peek", "original_bets", "all_bets"]


class Spot(NamedTuple):
    """Where a hand stands in its box: the pair it was split from (-1: not
    split), how many of that pair's cards the box's other hands hold, and
    whether it is the box's first hand."""

    split_card: int = -1
    others: int = 0
    first: bool = True


DEALT: Final = Spot()

# Every two-card hand, as rank-class counts.
TWO_CARD: Final = tuple(composition([a, b]) for a in range(10) for b in range(a, 10))


class Chooser(Protocol):
    """Picks the action a player takes, given each legal action's value."""

    def __call__(
        self, up: int, hand: Composition, spot: Spot, doubled: bool, evs: dict[str, float]
    ) -> str: ...


def optimal(up: int, hand: Composition, spot: Spot, doubled: bool, evs: dict[str, float]) -> str:
    """The action of highest value: composition-dependent optimal play."""
    return max(evs, key=evs.__getitem__)


def add_card(hand: Composition, r: int) -> Composition:
    return hand[:r] + (hand[r] + 1,) + hand[r + 1 :]


def dealer_mode(rules: BlackjackRules, up: int) -> DealerMode:
    if up not in (ACE, TEN):
        return "none"
    if rules.peeks("A" if up == ACE else "T"):
        return "peek"
    return rules.dealer_blackjack_takes


def same_rank_share(rules: BlackjackRules, tens_left: int) -> float:
    """The chance that two ten-value cards are of one rank, where that
    matters (a ``same_rank`` table): about a quarter."""
    if rules.split != "same_rank" or tens_left < 2:
        return 1.0
    per_rank = tens_left / 4
    return (per_rank - 1) / (tens_left - 1)


# What a hand of ``units`` stakes settles for when the dealer's blackjack shows
# late, counted on top of the box's one-unit ``offset`` where there is one: for
# a stand, a bust and a surrender, by mode and by whether it is the box's first
# hand (see the module docstring).
def _blackjack_residual(mode: DealerMode, first: bool, kind: str, units: int) -> float:
    if mode in ("none", "peek"):
        return 0.0
    if mode == "all_bets":
        return -units / 2 if kind == SURRENDER else -float(units)
    base = 1.0 if first else 0.0
    if kind == STAND:
        return 0.0
    if kind == SURRENDER:
        return base - units / 2
    return base - units


class _Node:
    """What one hand at one spot needs, worked out once."""

    __slots__ = (
        "blackjack",
        "bust",
        "bust_then_blackjack",
        "cards",
        "children",
        "removal",
        "total",
        "win",
        "win_blackjack",
    )

    def __init__(
        self,
        total: int,
        cards: int,
        children: tuple[tuple[Composition, float], ...],
        bust: float,
        bust_then_blackjack: float,
        blackjack: float,
        removal: Composition,
    ) -> None:
        self.total = total
        self.cards = cards
        # (hand after the card, chance of the card) for each card that does
        # not bust the hand; none once the hand is at 21 or more.
        self.children = children
        # The chance that the next card busts the hand, and the chance that it
        # does and the dealer's card after it makes blackjack.
        self.bust = bust
        self.bust_then_blackjack = bust_then_blackjack
        # The chance that the dealer's next card makes blackjack.
        self.blackjack = blackjack
        # The cards out of the shoe besides the up-card.
        self.removal = removal
        # Standing: the chance of winning less that of losing (no dealer
        # blackjack), and the dealer's blackjack chance; worked out on demand.
        self.win: float | None = None
        self.win_blackjack = 0.0


class UpCardSolver:
    """Every decision's value against one up-card, from one shoe."""

    def __init__(
        self,
        rules: BlackjackRules,
        shoe: Composition,
        up: int,
        choose: Chooser = optimal,
    ) -> None:
        if shoe[up] < 1:
            raise ValueError("the shoe holds no card of the up-card's class")
        self.rules = rules
        self.up = up
        self.choose = choose
        self.shoe: Composition = shoe[:up] + (shoe[up] - 1,) + shoe[up + 1 :]
        self.cards = sum(self.shoe)
        self.mode = dealer_mode(rules, up)
        self.bj_card = TEN if up == ACE else ACE if up == TEN else -1
        self._table = dealer_table(up, rules.dealer_hits_soft_17)
        self._dealer: dict[Composition, tuple[float, ...]] = {}
        self._values: dict[tuple[Composition, Spot, bool], float] = {}
        self._split_cache: dict[tuple[int, int, bool], tuple[float, float]] = {}
        self._rests: dict[int, Callable[[int, int, int, bool], float]] = {}
        self._nodes: dict[tuple[Composition, Spot], _Node] = {}
        self._walked: set[tuple[Composition, Spot]] = set()

    def fork(self, choose: Chooser) -> UpCardSolver:
        """The same shoe and up-card played by another chooser: the dealer's
        probabilities and the hands' draws are shared, the values are not."""
        twin = copy.copy(self)
        twin.choose = choose
        twin._values = {}
        twin._split_cache = {}
        twin._rests = {}
        return twin

    # -- the shoe ------------------------------------------------------------------

    def _left(self, hand: Composition, spot: Spot) -> list[int]:
        left = [n - h for n, h in zip(self.shoe, hand, strict=True)]
        if spot.split_card >= 0:
            left[spot.split_card] -= spot.others
        return left

    def possible(self, hand: Composition, spot: Spot = DEALT) -> bool:
        return min(self._left(hand, spot)) >= 0

    def _node(self, hand: Composition, spot: Spot) -> _Node:
        key = (hand, spot)
        node = self._nodes.get(key)
        if node is None:
            node = self._nodes[key] = self._new_node(hand, spot)
        return node

    def _new_node(self, hand: Composition, spot: Spot) -> _Node:
        total, soft = hand_value(hand)
        split, others = spot.split_card, spot.others
        shoe, bj = self.shoe, self.bj_card
        cards = self.cards - sum(hand) - (others if split >= 0 else 0)
        bj_left = shoe[bj] - hand[bj] - (others if bj == split else 0) if bj >= 0 else 0
        children = []
        bust = bust_then_blackjack = 0.0
        if total < 21:
            # A card of class r (worth r + 1) busts the hand from class ``limit`` up.
            limit = 21 - (total - 10 if soft else total)
            for r in range(10):
                n = shoe[r] - hand[r] - (others if r == split else 0)
                if n <= 0:
                    continue
                p = n / cards
                if r >= limit:
                    bust += p
                    if bj >= 0:
                        bust_then_blackjack += p * (bj_left - (r == bj)) / (cards - 1)
                else:
                    children.append((hand[:r] + (hand[r] + 1,) + hand[r + 1 :], p))
        removal = hand
        if split >= 0 and others:
            removal = hand[:split] + (hand[split] + others,) + hand[split + 1 :]
        blackjack = bj_left / cards if bj >= 0 else 0.0
        return _Node(
            total, sum(hand), tuple(children), bust, bust_then_blackjack, blackjack, removal
        )

    def prefetch(self, hands: Iterable[tuple[Composition, Spot]]) -> None:
        """Compute the dealer's probabilities for every hand reachable from
        these by drawing, in one batch."""
        wanted: set[Composition] = set()
        stack = [h for h in hands if self.possible(*h) and h not in self._walked]
        while stack:
            hand, spot = stack.pop()
            if (hand, spot) in self._walked:
                continue
            self._walked.add((hand, spot))
            node = self._node(hand, spot)
            if node.total > 21:
                continue
            if node.removal not in self._dealer:
                wanted.add(node.removal)
            stack.extend((child, spot) for child, _ in node.children)
        if wanted:
            self._fetch(sorted(wanted))

    def _fetch(self, removals: list[Composition]) -> None:
        shoes = np.array(self.shoe) - np.array(removals)
        rows = outcome_probabilities(self._table, shoes)
        for removal, row in zip(removals, rows, strict=True):
            self._dealer[removal] = tuple(float(p) for p in row)

    def draws(self, hand: Composition, spot: Spot) -> list[tuple[int, float]]:
        left = self._left(hand, spot)
        total = sum(left)
        return [(r, n / total) for r, n in enumerate(left) if n > 0]

    def blackjack_chance(self, hand: Composition, spot: Spot = DEALT) -> float:
        """The chance the dealer's next card makes blackjack, the hand's cards
        out of the shoe."""
        return self._node(hand, spot).blackjack

    # -- values at the end of a hand -----------------------------------------------

    def stand_value(self, hand: Composition, spot: Spot, units: int = 1) -> float:
        return self._stand(self._node(hand, spot), spot, units)

    def _stand(self, node: _Node, spot: Spot, units: int) -> float:
        if node.win is None:
            row = self._dealer.get(node.removal)
            if row is None:
                self._fetch([node.removal])
                row = self._dealer[node.removal]
            total = node.total
            win = row[BUST]
            for i, dealer in enumerate(range(17, 22)):
                if total > dealer:
                    win += row[i]
                elif total < dealer:
                    win -= row[i]
            node.win, node.win_blackjack = win, row[BLACKJACK]
        residual = _blackjack_residual(self.mode, spot.first, STAND, units)
        return units * node.win + node.win_blackjack * residual

    def _lost_for_sure(self, node: _Node, spot: Spot, kind: str, units: int) -> float:
        """A bust or a surrender: the stake (or half of it) goes whatever the
        dealer holds, except where a late blackjack settles it differently."""
        chance = node.blackjack
        loss = units / 2 if kind == SURRENDER else float(units)
        if kind == SURRENDER and self.rules.surrender_lost_to_dealer_blackjack:
            # Late surrender: against the blackjack the hand fares as a standing one.
            residual = _blackjack_residual(self.mode, spot.first, STAND, units)
        else:
            residual = _blackjack_residual(self.mode, spot.first, kind, units)
        return -loss * (1 - chance) + chance * residual

    # -- which actions a hand has ---------------------------------------------------

    def _may_double(self, node: _Node, spot: Spot) -> bool:
        r = self.rules
        if spot.split_card == ACE and not r.double_split_aces:
            return False
        if spot.split_card >= 0 and not r.double_after_split:
            return False
        return r.double == "any" or node.cards == 2

    def _may_surrender(self, node: _Node, spot: Spot, doubled: bool) -> bool:
        r = self.rules
        if r.surrender == "none" or spot.split_card == ACE:
            return False
        if spot.split_card >= 0 and not r.surrender_after_split:
            return False
        if doubled:
            return r.surrender_after_double and r.surrender == "any"
        return r.surrender == "any" or node.cards == 2

    def action_evs(self, hand: Composition, spot: Spot, doubled: bool = False) -> dict[str, float]:
        """The value of each legal action but splitting, for a hand that still
        has a decision (not bust, not 21)."""
        return self._evs(self._node(hand, spot), spot, doubled)

    def _evs(self, node: _Node, spot: Spot, doubled: bool) -> dict[str, float]:
        units = 2 if doubled else 1
        evs = {STAND: self._stand(node, spot, units)}
        if self._may_surrender(node, spot, doubled):
            evs[SURRENDER] = self._lost_for_sure(node, spot, SURRENDER, units)
        if doubled or (spot.split_card == ACE and not self.rules.hit_split_aces):
            return evs
        value = self.value
        evs[HIT] = self._busts(node, spot, 1) + sum(
            [p * value(child, spot, False) for child, p in node.children]
        )
        if self._may_double(node, spot):
            evs[DOUBLE] = self._busts(node, spot, 2) + sum(
                [p * value(child, spot, True) for child, p in node.children]
            )
        return evs

    def _busts(self, node: _Node, spot: Spot, units: int) -> float:
        """What the cards that bust the hand contribute to drawing one."""
        residual = _blackjack_residual(self.mode, spot.first, "bust", units)
        return -units * node.bust + (units + residual) * node.bust_then_blackjack

    def value(self, hand: Composition, spot: Spot, doubled: bool) -> float:
        """The hand's value from here, played by the chooser (no splitting)."""
        key = (hand, spot, doubled)
        known = self._values.get(key)
        if known is not None:
            return known
        node = self._node(hand, spot)
        units = 2 if doubled else 1
        if node.total > 21:
            result = self._lost_for_sure(node, spot, "bust", units)
        elif node.total == 21 or (doubled and not self._may_surrender(node, spot, True)):
            result = self._stand(node, spot, units)
        else:
            evs = self._evs(node, spot, doubled)
            result = evs[self.choose(self.up, hand, spot, doubled, evs)]
        self._values[key] = result
        return result

    # -- splitting -------------------------------------------------------------------

    def split_spot(self, pair: int, hands: int, first: bool) -> Spot:
        # Only a late original-bets blackjack tells the first hand apart.
        return Spot(pair, hands - 1, first and self.mode == "original_bets")

    def _split_parts(self, pair: int, hands: int, first: bool) -> tuple[float, float]:
        """A split hand's value when its second card is not of the pair, and
        when it is but the hand is played as a pair (no more splitting)."""
        key = (pair, hands, first)
        known = self._split_cache.get(key)
        if known is None:
            spot = self.split_spot(pair, hands, first)
            start = tuple(1 if r == pair else 0 for r in range(10))
            other, other_chance = 0.0, 0.0
            for r, p in self.draws(start, spot):
                if r != pair:
                    other += p * self.value(add_card(start, r), spot, False)
                    other_chance += p
            pair_hand = add_card(start, pair)
            as_pair = self.value(pair_hand, spot, False) if self.possible(pair_hand, spot) else 0.0
            known = (other / other_chance if other_chance else 0.0, as_pair)
            self._split_cache[key] = known
        return known

    def split_value(self, pair: int, hands: int = 1, first: bool = True) -> float:
        """The value of splitting a pair of ``pair`` in a box of ``hands``
        hands: the sum over the hands the pair ends as, re-splitting as the
        chooser decides, up to the variant's limit on hands."""
        rest = self._rests.get(pair)
        if rest is None:
            rest = self._rests[pair] = self._splitting(pair)
        # The pair cards out of the shoe beyond the two first dealt: one per
        # split so far and this pair's second card.
        return rest(hands + 1, 2, hands - 1, first)

    def _splitting(self, pair: int) -> Callable[[int, int, int, bool], float]:
        rules = self.rules
        self.prefetch(
            (tuple(1 if r == pair else 0 for r in range(10)), self.split_spot(pair, count, first))
            for count in range(2, rules.max_hands + 1)
            for first in (True, False)
        )
        resplit = rules.max_hands > 2 and (pair != ACE or rules.resplit_aces)
        share = same_rank_share(rules, self.shoe[TEN] - 2) if pair == TEN else 1.0
        pair_left, cards_left = self.shoe[pair] - 2, self.cards - 2
        pair_hand = tuple(2 if r == pair else 0 for r in range(10))

        @cache
        def rest(hands: int, waiting: int, drawn: int, first: bool) -> float:
            """The value of the ``waiting`` hands still to get a second card;
            ``drawn`` pair cards have come as second cards so far."""
            if waiting == 0:
                return 0.0
            chance = max(pair_left - drawn, 0) / (cards_left - drawn)
            other, as_pair = self._split_parts(pair, hands, first)
            may_split = resplit and hands < rules.max_hands
            again = chance * share if may_split else 0.0
            total = (1 - chance) * (other + rest(hands, waiting - 1, drawn, False))
            played = as_pair + rest(hands, waiting - 1, drawn + 1, False)
            total += (chance - again) * played
            if again:
                split_more = rest(hands + 1, waiting + 1, drawn + 1, first)
                # The pair's own actions, on the scale of the whole rest.
                spot = self.split_spot(pair, hands, first)
                evs = {a: v + played - as_pair for a, v in self.action_evs(pair_hand, spot).items()}
                evs[SPLIT] = split_more
                total += again * evs[self.choose(self.up, pair_hand, spot, False, evs)]
            return total

        return rest

    # -- the dealt hand ---------------------------------------------------------------

    def offset(self, hand: Composition) -> float:
        """The one unit a dealer blackjack takes from the box where the hands'
        values leave it out (peek, original bets only)."""
        if self.mode in ("peek", "original_bets"):
            return -self.blackjack_chance(hand)
        return 0.0

    def dealt(self) -> Iterator[tuple[Composition, float]]:
        """Every two-card hand this shoe can deal with the up-card, and the
        chance of the up-card and that hand (among all deals)."""
        left, cards = self.shoe, self.cards
        up_chance = (left[self.up] + 1) / (cards + 1)
        for hand in TWO_CARD:
            a, b = (r for r in range(10) for _ in range(hand[r]))
            ways = left[a] * (left[b] - 1) if a == b else 2 * left[a] * left[b]
            if ways > 0:
                yield hand, up_chance * ways / (cards * (cards - 1))

    def dealt_evs(self, hand: Composition, pair_splits: bool = True) -> dict[str, float]:
        """Each legal action's value for the dealt two-card hand (not a
        blackjack), ``offset`` not included."""
        self.prefetch([(hand, DEALT)])
        evs = self.action_evs(hand, DEALT)
        pair = next((r for r in range(10) if hand[r] == 2), -1)
        if pair_splits and pair >= 0 and self.rules.max_hands >= 2:
            evs[SPLIT] = self.split_value(pair)
        return evs

    def as_seen(self, hand: Composition, spot: Spot, value: float) -> float:
        """A value as the player faces it at the decision: in a peek game the
        dealer has shown no blackjack, so it is conditional on that (as
        published tables give it); without a peek it is the whole expectation,
        the box's blackjack loss included on its first hand."""
        if self.mode == "peek":
            return value / (1 - self.blackjack_chance(hand, spot))
        if self.mode == "original_bets" and spot.first:
            return value - self.blackjack_chance(hand, spot)
        return value


def up_card_solvers(
    rules: BlackjackRules, shoe: Composition, choose: Chooser = optimal
) -> dict[int, UpCardSolver]:
    """A solver for every up-card the shoe holds, the dealer's probabilities
    for every dealt hand fetched in one batch each."""
    solvers = {}
    for up in range(10):
        if shoe[up]:
            solver = solvers[up] = UpCardSolver(rules, shoe, up, choose)
            solver.prefetch((h, DEALT) for h in TWO_CARD if solver.possible(h))
    return solvers


# -- one decision at the table ---------------------------------------------------------


@lru_cache(maxsize=40)
def solver_for(rules: BlackjackRules, up: int) -> UpCardSolver:
    """One solver per variant and up-card, kept: its values only grow as
    decisions are asked about, so the table's questions get cheaper."""
    return UpCardSolver(rules, full_shoe(rules.decks), up)


def decision_evs(
    rules: BlackjackRules,
    cards: Sequence[Card],
    up: Card,
    *,
    hands_in_box: int = 1,
    first_hand: bool = True,
    doubled: bool = False,
) -> dict[str, float]:
    """Each legal action's expected value, per unit of the box's original
    bet, for a hand facing a decision: from a full shoe with the up-card and
    the hand's cards out (and, for a hand from a split, the box's other split
    cards). ``hands_in_box`` above 1 means the hand came from splitting its
    first card's pair; ``doubled`` asks what a doubled hand may still do
    (surrender, where allowed). In a peek game the values are conditional on
    the dealer having no blackjack, as the player knows at that moment."""
    hand = composition([rank_class(c) for c in cards])
    total, _ = hand_value(hand)
    if len(cards) < 2 or total >= 21:
        raise ValueError("the hand has no decision to make")
    solver = solver_for(rules, rank_class(up))
    spot = DEALT
    if hands_in_box > 1:
        spot = solver.split_spot(rank_class(cards[0]), hands_in_box, first_hand)
    if not solver.possible(hand, spot):
        raise ValueError("the shoe cannot hold these cards")
    solver.prefetch([(hand, spot)])
    evs = solver.action_evs(hand, spot, doubled)
    # A hand from a split has its pair's first card: split aces are a pair of aces.
    split_aces = hands_in_box > 1 and cards[0].rank == "A"
    if not split_refusal(rules, cards, hands_in_box, split_aces=split_aces, doubled=doubled):
        evs[SPLIT] = solver.split_value(rank_class(cards[0]), hands_in_box, first_hand)
    return {a: solver.as_seen(hand, spot, v) for a, v in evs.items()}
