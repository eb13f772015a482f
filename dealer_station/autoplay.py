"""A self-driving table: a croupier, a shuffled shoe and players who bet and decide.

``Autoplay.next_event(state)`` looks at what the table waits for and returns the
event a croupier, shoe or player would send: a card off the top of a really
shuffled shoe, a bet, a decision by the variant's basic strategy (the table
``strategy_advice`` keeps; on a station's loop, once ``strategy_advice.ready``
has it), a wheel result. It drives ``simulate``
and the demo station. Seeded: the same seed plays the same session.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal

from dealer_station import strategy_advice
from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.cards import Card, standard_deck
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    CountOut,
    DealCard,
    Decision,
    Event,
    NewShoe,
    OpenRound,
    PlaceBet,
    SelectTable,
    Shuffle,
    WheelResult,
)
from dealer_station.games.roulette_layout import BET_TYPES, placements
from dealer_station.games.table import TableState


@dataclass
class PhysicalShoe:
    """The cards as they lie in the shoe after a real shuffle."""

    decks: int
    rng: random.Random
    cards: list[Card] = field(default_factory=list)

    def shuffle(self) -> None:
        self.cards = list(standard_deck()) * self.decks
        self.rng.shuffle(self.cards)

    def draw(self) -> Card:
        if not self.cards:
            self.shuffle()
        return self.cards.pop()


@dataclass
class Autoplay:
    game: str
    variant: str | None = None
    seed: int = 0
    table: str = "table-1"
    players: int = 3
    # False when a real (or simulated) shoe deals: the autoplay then answers
    # every step but the cards.
    deals_cards: bool = True
    # True: at the cut card the croupier counts the rest of the shoe out
    # through the scanner before the shuffle (docs/integrity.md, "The shoe").
    count_out: bool = False
    rng: random.Random = field(init=False)
    shoe: PhysicalShoe | None = field(init=False, default=None)
    _bets: list[PlaceBet] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def next_event(self, state: TableState | None) -> Event:
        if state is None:
            return SelectTable(self.game, self.variant, self.table)
        if self.deals_cards and self.shoe is None and state.shoe is not None:
            self.shoe = PhysicalShoe(state.shoe.decks, self.rng)
            self.shoe.shuffle()
            return NewShoe()
        step = state.next_step()
        if step.kind == "shuffle" and self.count_out:
            return CountOut()
        if step.kind == "count_out":
            if self.shoe is not None and self.shoe.cards:
                return DealCard(self.shoe.cards.pop())
            if self.shoe is None and state.shoe is not None and state.shoe.cards_left:
                raise LookupError("the shoe reads the cards counted out")
        if step.kind in ("shuffle", "count_out"):
            if self.shoe is not None:
                self.shoe.shuffle()
            return Shuffle()
        if step.kind in ("round_open", "settled"):
            if state.setup.shuffle_every_round and self.shoe is not None:
                self.shoe.shuffle()
            self._bets = self._plan_bets(state)
            return OpenRound()
        if step.kind == "bets":
            return self._bets.pop() if self._bets else CloseBets()
        if step.kind == "card" and self.shoe is not None:
            return DealCard(self.shoe.draw())
        if step.kind == "insurance":
            return CloseInsurance()
        if step.kind == "decision":
            return self._decide(state)
        if step.kind == "wheel":
            return WheelResult(self.rng.randrange(37))
        raise LookupError(f"autoplay does not answer {step.kind} {step.to}".strip())

    def _decide(self, state: TableState) -> Decision:
        engine = state.setup.engine
        rnd = state.round
        assert isinstance(engine, BlackjackEngine) and isinstance(rnd, BlackjackRound)
        step = engine.next_step(rnd)
        assert step.box is not None and step.hand is not None  # a decision is a hand's
        played = rnd.box(step.box).hands[step.hand]
        assert rnd.up_card is not None
        # The variant's own basic strategy, as the timer and the warnings have it.
        strategy = strategy_advice.work_out(engine.rules)
        action = strategy.play(played.cards, rnd.up_card, step.options, played.doubled)
        return Decision(box=step.box, hand=step.hand, action=action)

    def _amount(self, low: int, high: int) -> Decimal:
        return Decimal(self.rng.choice([v for v in (5, 10, 20, 25, 50, 100) if low <= v <= high]))

    def _plan_bets(self, state: TableState) -> list[PlaceBet]:
        names = [f"player-{i}" for i in range(1, self.players + 1)]
        bets: list[PlaceBet] = []
        if state.game == "blackjack":
            engine = state.setup.engine
            assert isinstance(engine, BlackjackEngine)
            rules = engine.rules
            boxes = self.rng.sample(range(1, rules.boxes + 1), k=min(self.players, rules.boxes))
            for i, box in enumerate(sorted(boxes)):
                player = names[0] if rules.one_player else names[i % len(names)]
                amount = self._amount(int(rules.min_bet), int(rules.max_bet))
                bets.append(PlaceBet(player, "main", amount, box=box))
                for spot in rules.bonus_spots():
                    if self.rng.random() < 0.3:
                        bets.append(PlaceBet(player, spot, Decimal(5), box=box))
        elif state.game == "baccarat":
            for player in names:
                bets.append(
                    PlaceBet(player, self.rng.choice(["player", "banker"]), self._amount(5, 100))
                )
                if self.rng.random() < 0.2:
                    bets.append(PlaceBet(player, "tie", Decimal(5)))
                if self.rng.random() < 0.2:
                    pair = self.rng.choice(["player_pair", "banker_pair"])
                    bets.append(PlaceBet(player, pair, Decimal(5)))
        elif state.game == "roulette":
            for player in names:
                for _ in range(self.rng.randint(1, 3)):
                    bet_type = self.rng.choice(BET_TYPES)
                    numbers = self.rng.choice(sorted(placements(bet_type)))
                    bets.append(PlaceBet(player, bet_type, self._amount(5, 25), numbers=numbers))
        bets.reverse()
        return bets
