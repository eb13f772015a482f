"""A blackjack table for tests: events in, state and outputs kept."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from dealer_station.games import table
from dealer_station.games.cards import parse_card
from dealer_station.games.engine import NextStep
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    DealCard,
    Decision,
    Event,
    OpenRound,
    PlaceBet,
    SelectTable,
)
from dealer_station.games.rejection import Rejected


class Table:
    def __init__(self, variant: str) -> None:
        self.state, _ = table.apply(None, SelectTable("blackjack", variant))
        self.outputs: list[dict[str, Any]] = []
        self.send(OpenRound("r1"))

    def send(self, event: Event) -> list[dict[str, Any]]:
        self.state, outputs = table.apply(self.state, event)
        self.outputs += outputs
        return outputs

    def refuse(self, event: Event) -> str:
        """Send an event that must be refused; return the reason and check the
        state did not move."""
        before = self.state
        try:
            table.apply(self.state, event)
        except Rejected as rejected:
            assert self.state is before
            return rejected.reason
        raise AssertionError(f"{event} was accepted")

    def bet(self, box: int, amount: str | int = 10, player: str = "p1", spot: str = "main") -> None:
        self.send(PlaceBet(player, spot, Decimal(amount), box=box))

    def close(self) -> None:
        self.send(CloseBets())

    def deal(self, *cards: str) -> None:
        for text in cards:
            self.send(DealCard(parse_card(text)))

    def card(self, text: str) -> DealCard:
        return DealCard(parse_card(text))

    def do(self, box: int, action: str, hand: int | None = None, player: str | None = None) -> None:
        self.send(Decision(box=box, action=action, hand=hand, player=player))

    def decision(self, box: int, action: str, hand: int | None = None) -> Decision:
        return Decision(box=box, action=action, hand=hand)

    def close_insurance(self) -> None:
        self.send(CloseInsurance())

    @property
    def next(self) -> NextStep:
        return self.state.next_step()

    @property
    def settled(self) -> dict[str, Any]:
        done = [o for o in self.outputs if o["type"] == "round_settled"]
        assert done, f"the round is not settled; next step: {self.next}"
        return done[-1]

    def returns(self, player: str = "p1", spot: str | None = None) -> Decimal:
        """Everything the round hands back to ``player`` (on ``spot``)."""
        return sum(
            (
                Decimal(p["returns"])
                for p in self.settled["payouts"]
                if p["player"] == player and (spot is None or p["spot"] == spot)
            ),
            Decimal(0),
        )

    def staked(self, player: str = "p1", spot: str | None = None) -> Decimal:
        return sum(
            (
                Decimal(p["stake"])
                for p in self.settled["payouts"]
                if p["player"] == player and (spot is None or p["spot"] == spot)
            ),
            Decimal(0),
        )

    def hand_result(self, box: int, hand: int = 0) -> str:
        for b in self.settled["boxes"]:
            if b["box"] == box:
                result: str = b["hands"][hand]["result"]
                return result
        raise KeyError(box)
