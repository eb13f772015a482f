"""Properties of baccarat over random shoes, through the table fold
(``dealer_station.games.table.apply``), as the station runs it."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.games import table
from dealer_station.games.cards import Card, standard_deck
from dealer_station.games.events import (
    CloseBets,
    DealCard,
    Event,
    OpenRound,
    PlaceBet,
    SelectTable,
    VoidRound,
)
from dealer_station.games.rejection import Rejected

SPOTS = ("player", "banker", "tie", "player_pair", "banker_pair")

# docs/rules.md: what a winning bet returns per unit staked, the stake included:
# Player 1:1, Banker 1:1 less 5%, Tie 8:1, pairs 11:1.
RETURN_PER_UNIT = {
    "player": Decimal(2),
    "banker": Decimal("1.95"),
    "tie": Decimal(9),
    "player_pair": Decimal(12),
    "banker_pair": Decimal(12),
}


def value(card: str) -> int:
    """docs/rules.md: tens and faces 0, ace 1, others face value."""
    rank = card[0]
    return 0 if rank in "TJQK" else 1 if rank == "A" else int(rank)


def expected_return(spot: str, stake: Decimal, settled: dict[str, Any]) -> Decimal:
    """From docs/rules.md and the cards alone. Stakes here are whole units, so 5% of
    a Banker win is exact and no rounding is involved."""
    winner = settled["winner"]
    if spot in ("player", "banker") and winner == "tie":
        return stake
    if spot.endswith("_pair"):
        first, second = settled[spot.removesuffix("_pair")]["cards"][:2]
        won = first[0] == second[0]
    else:
        won = winner == spot
    return stake * RETURN_PER_UNIT[spot] if won else Decimal(0)


bets = st.lists(
    st.builds(
        PlaceBet,
        player=st.sampled_from(["ann", "bob", "cy"]),
        spot=st.sampled_from(SPOTS),
        amount=st.integers(1, 600).map(Decimal),
    ),
    max_size=6,
)


# A shoe is shuffled from a drawn seed: drawing 415 swaps through Hypothesis
# would cost more than the whole shoe's play.
seeds = st.integers(0, 2**32 - 1)


def shuffled_shoe(seed: int, decks: int = 8) -> list[Card]:
    cards = list(standard_deck()) * decks
    random.Random(seed).shuffle(cards)
    return cards


class Session:
    """A table fold that keeps every accepted event, so it can be replayed."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.outputs: list[dict[str, Any]] = []
        self.state: table.TableState | None = None
        self.send(SelectTable("baccarat"))

    def send(self, event: Event) -> list[dict[str, Any]]:
        self.state, outputs = table.apply(self.state, event)
        self.events.append(event)
        self.outputs += outputs
        return outputs

    def try_bet(self, bet: PlaceBet) -> bool:
        try:
            self.send(bet)
        except Rejected as exc:
            # The only refusals random bets can meet at the shipped limits.
            assert exc.reason in ("one_pair_bet_only", "above_table_maximum")
            return False
        return True

    @property
    def table(self) -> table.TableState:
        assert self.state is not None
        return self.state


@settings(max_examples=25, deadline=None)
@given(seeds, st.lists(bets, min_size=1, max_size=10))
def test_rounds_end_and_cards_are_conserved_over_a_shoe(
    seed: int, round_bets: list[list[PlaceBet]]
) -> None:
    shoe = shuffled_shoe(seed)
    session = Session()
    dealt: list[Card] = []
    rounds = 0
    # Play the shoe out to the cut card, the rounds' bets cycling through the drawn lists.
    while session.table.next_step().kind != "shuffle":
        placed = round_bets[rounds % len(round_bets)]
        rounds += 1
        session.send(OpenRound())
        accepted = [b for b in placed if session.try_bet(b)]
        session.send(CloseBets())
        in_round: list[Card] = []
        while session.table.next_step().kind == "card":
            assert len(in_round) < 6, "a round takes at most six cards"
            card = shoe[len(dealt)]
            session.send(DealCard(card))
            dealt.append(card)
            in_round.append(card)
        assert session.table.round_over
        settled = next(o for o in reversed(session.outputs) if o["type"] == "round_settled")
        # The cards of the outcome are the cards dealt, P B P B then the draws.
        assert 4 <= len(in_round) <= 6
        player, banker = settled["player"]["cards"], settled["banker"]["cards"]
        assert player[:2] + banker[:2] == [
            str(c) for c in (in_round[0], in_round[2], in_round[1], in_round[3])
        ]
        assert Counter(player + banker) == Counter(str(c) for c in in_round)
        scores = [sum(value(c) for c in hand) % 10 for hand in (player, banker)]
        assert [settled["player"]["score"], settled["banker"]["score"]] == scores
        assert settled["winner"] == (
            "tie" if scores[0] == scores[1] else "player" if scores[0] > scores[1] else "banker"
        )
        staked: Counter[tuple[str, str]] = Counter()
        for bet in accepted:
            staked[(bet.player, bet.spot)] += bet.amount
        paid = {(p["player"], p["spot"]): p for p in settled["payouts"]}
        assert {key: Decimal(p["stake"]) for key, p in paid.items()} == dict(staked)
        for (_, spot), payout in paid.items():
            assert Decimal(payout["returns"]) == expected_return(
                spot, Decimal(payout["stake"]), settled
            )

    # The cut card sits 16 cards before the end; the round it came out in was finished.
    assert 400 <= len(dealt) < 406
    # Every card out of the shoe is in exactly one round, and the shoe knows it.
    shoe_state = session.table.shoe
    assert shoe_state is not None
    assert shoe_state.dealt == len(dealt)
    left = Counter(shoe[len(dealt) :])
    assert shoe_state.remaining == tuple(left[card] for card in standard_deck()), (
        "the shoe's composition is what was not dealt"
    )

    # Replaying the accepted events gives the same outputs and the same table.
    replayed: table.TableState | None = None
    outputs: list[dict[str, Any]] = []
    for event in session.events:
        replayed, out = table.apply(replayed, event)
        outputs += out
    assert outputs == session.outputs
    # A fresh setup holds a new engine object; everything else must be equal.
    assert replayed is not None
    assert replace(replayed, setup=session.table.setup) == session.state


@settings(max_examples=60, deadline=None)
@given(seeds, bets, st.integers(0, 6), st.booleans())
def test_a_voided_round_returns_every_stake_exactly(
    seed: int, placed: list[PlaceBet], cards: int, close: bool
) -> None:
    shoe = shuffled_shoe(seed, decks=1)
    session = Session()
    session.send(OpenRound())
    accepted = [b for b in placed if session.try_bet(b)]
    if close:
        session.send(CloseBets())
        for card in shoe[:cards]:
            if session.table.next_step().kind != "card":
                break
            session.send(DealCard(card))
    if session.table.round_over:
        return
    session.send(VoidRound("scanner fault"))
    settled = session.outputs[-1]
    assert settled["type"] == "round_settled"
    assert settled["voided"] is True
    staked: Counter[tuple[str, str]] = Counter()
    for bet in accepted:
        staked[(bet.player, bet.spot)] += bet.amount
    returned = {(p["player"], p["spot"]): Decimal(p["returns"]) for p in settled["payouts"]}
    assert returned == dict(staked)
    assert all(p["result"] == "void" for p in settled["payouts"])
