"""Properties of roulette rounds through the table fold, against an oracle
written from docs/rules.md alone (which numbers each bet covers, what it pays)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.games import table
from dealer_station.games.events import (
    CloseBets,
    Event,
    OpenRound,
    PlaceBet,
    SelectTable,
    VoidRound,
    WheelResult,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_layout import BET_TYPES, placements

# docs/rules.md, European roulette.
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
PAYS = {
    "straight": 35,
    "split": 17,
    "street": 11,
    "trio": 11,
    "corner": 8,
    "first_four": 8,
    "six_line": 5,
    "column": 2,
    "dozen": 2,
    "red": 1,
    "black": 1,
    "odd": 1,
    "even": 1,
    "low": 1,
    "high": 1,
}


def wins(spot: str, numbers: tuple[int, ...], n: int) -> bool:
    if spot in ("column", "dozen"):
        (which,) = numbers
        if n == 0:
            return False
        return (n - 1) % 3 + 1 == which if spot == "column" else (n - 1) // 12 + 1 == which
    outside = {
        "red": n in RED,
        "black": n != 0 and n not in RED,
        "odd": n % 2 == 1,
        "even": n != 0 and n % 2 == 0,
        "low": 1 <= n <= 18,
        "high": 19 <= n <= 36,
    }
    return outside.get(spot, n in numbers)


@st.composite
def layout_bets(draw: st.DrawFn) -> PlaceBet:
    spot = draw(st.sampled_from(BET_TYPES))
    numbers = draw(st.sampled_from(sorted(placements(spot))))
    shuffled = draw(st.permutations(numbers))
    return PlaceBet(
        draw(st.sampled_from(["ann", "bob"])),
        spot,
        Decimal(draw(st.integers(1, 25))),
        numbers=tuple(shuffled),
    )


def fold(events: list[Event]) -> list[dict[str, Any]]:
    state = None
    outputs: list[dict[str, Any]] = []
    for event in events:
        state, out = table.apply(state, event)
        outputs += out
    return outputs


def accepted_events(bets: list[PlaceBet]) -> list[Event]:
    """The bets the table takes (over-limit top-ups are refused), in a round."""
    state, _ = table.apply(None, SelectTable("roulette"))
    state, _ = table.apply(state, OpenRound("r1"))
    events: list[Event] = [SelectTable("roulette"), OpenRound("r1")]
    for bet in bets:
        try:
            state, _ = table.apply(state, bet)
        except Rejected as exc:
            assert exc.reason == "above_table_maximum"
            continue
        events.append(bet)
    return events


@settings(max_examples=100, deadline=None)
@given(st.lists(layout_bets(), max_size=12), st.integers(0, 36))
def test_settlement_matches_rules_and_replays_alike(bets: list[PlaceBet], number: int) -> None:
    events = [*accepted_events(bets), CloseBets(), WheelResult(number)]
    outputs = fold(events)
    [settled] = [o for o in outputs if o["type"] == "round_settled"]
    assert settled["number"] == number
    staked: Counter[tuple[str, str, tuple[int, ...]]] = Counter()
    for bet in events:
        if isinstance(bet, PlaceBet):
            staked[(bet.player, bet.spot, tuple(sorted(bet.numbers)))] += bet.amount
    assert len(settled["payouts"]) == len(staked)
    for payout in settled["payouts"]:
        # A column or a dozen says which under its own name (docs/rules.md).
        which = payout.get(payout["spot"]) if payout["spot"] in ("column", "dozen") else None
        numbers = (which,) if which is not None else tuple(payout.get("numbers", ()))
        key = (payout["player"], payout["spot"], numbers)
        stake = staked[key]
        assert Decimal(payout["stake"]) == stake
        expected = stake * (1 + PAYS[payout["spot"]]) if wins(*key[1:], number) else 0
        assert Decimal(payout["returns"]) == expected
    # Replaying the journal's events gives the same records.
    assert fold(events) == outputs


@settings(max_examples=60, deadline=None)
@given(st.lists(layout_bets(), max_size=12), st.booleans())
def test_a_voided_round_returns_every_stake_exactly(bets: list[PlaceBet], closed: bool) -> None:
    events = [*accepted_events(bets), *([CloseBets()] if closed else []), VoidRound("camera")]
    [settled] = [o for o in fold(events) if o["type"] == "round_settled"]
    assert settled["voided"] is True
    staked = sum(b.amount for b in events if isinstance(b, PlaceBet))
    assert sum(Decimal(p["returns"]) for p in settled["payouts"]) == staked
    assert all(p["returns"] == p["stake"] and p["result"] == "void" for p in settled["payouts"])
