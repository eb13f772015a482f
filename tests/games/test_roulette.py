"""The roulette engine and layout against docs/rules.md (European roulette).

Payouts, wheel order, colours and the valid trio/first-four/zero bets are docs/rules.md's;
the counts of placements are worked out from the layout in each test.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import pytest

from dealer_station.games.cards import parse_card
from dealer_station.games.events import (
    CancelBet,
    CloseBets,
    DealCard,
    Decision,
    Event,
    PlaceBet,
    VoidRound,
    WheelResult,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette import (
    RouletteEngine,
    RouletteRound,
    RouletteRules,
    setup,
)
from dealer_station.games.roulette_layout import BET_TYPES, WHEEL_ORDER, colour_of, placements
from dealer_station.games.rulefile import RuleFileError
from dealer_station.games.stakes import SpotRules

ENGINE = RouletteEngine(RouletteRules())

# docs/rules.md, European roulette.
RULES_WHEEL = (
    "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 "
    "28 12 35 3 26"
)
RULES_RED = "1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36"


def bet(
    spot: str, numbers: Sequence[int] = (), amount: str = "10", player: str = "ann"
) -> PlaceBet:
    return PlaceBet(player, spot, Decimal(amount), numbers=tuple(numbers))


def run(events: Sequence[Event], engine: RouletteEngine = ENGINE) -> RouletteRound:
    state = engine.new_round("r1")
    for event in events:
        state, _ = engine.apply(state, event)
    return state


def spin(number: int, *bets: PlaceBet, engine: RouletteEngine = ENGINE) -> list[dict[str, object]]:
    state = run([*bets, CloseBets(), WheelResult(number)], engine)
    result: list[dict[str, object]] = engine.outcome(state)["payouts"]
    return result


def test_wheel_order_and_colours() -> None:
    assert tuple(int(n) for n in RULES_WHEEL.split()) == WHEEL_ORDER
    red = {int(n) for n in RULES_RED.split()}
    assert colour_of(0) == "green"
    for n in range(1, 37):
        assert colour_of(n) == ("red" if n in red else "black")


# Stake 10 on each bet; a win returns the stake and the docs/rules.md payout.
WINS = [
    ("straight", [17], 17, "360"),  # 35:1
    ("straight", [0], 0, "360"),
    ("split", [17, 20], 20, "180"),  # 17:1, vertical
    ("split", [17, 18], 17, "180"),  # horizontal
    ("split", [0, 2], 0, "180"),
    ("street", [13, 14, 15], 14, "120"),  # 11:1
    ("trio", [0, 1, 2], 1, "120"),  # 11:1
    ("trio", [0, 2, 3], 0, "120"),
    ("corner", [17, 18, 20, 21], 21, "90"),  # 8:1
    ("first_four", [0, 1, 2, 3], 3, "90"),  # 8:1
    ("six_line", [31, 32, 33, 34, 35, 36], 33, "60"),  # 5:1
    ("column", [1], 34, "30"),  # 2:1; column 1 is 1, 4, ... 34
    ("column", [3], 3, "30"),
    ("dozen", [3], 25, "30"),  # 2:1; dozen 3 is 25-36
    ("red", [], 1, "20"),  # 1:1
    ("black", [], 2, "20"),
    ("odd", [], 35, "20"),
    ("even", [], 36, "20"),
    ("low", [], 18, "20"),  # 1-18
    ("high", [], 19, "20"),  # 19-36
]


@pytest.mark.parametrize(("spot", "numbers", "number", "returns"), WINS)
def test_every_bet_type_pays_per_rules(
    spot: str, numbers: list[int], number: int, returns: str
) -> None:
    [payout] = spin(number, bet(spot, numbers))
    assert (payout["result"], payout["returns"], payout["stake"]) == ("win", returns, "10")


def test_every_bet_type_is_covered_by_the_payout_table() -> None:
    assert {spot for spot, *_ in WINS} == set(BET_TYPES)


LOSSES = [
    ("straight", [17], 18),
    ("split", [17, 20], 19),
    ("street", [13, 14, 15], 16),
    ("trio", [0, 1, 2], 3),
    ("corner", [17, 18, 20, 21], 19),
    ("first_four", [0, 1, 2, 3], 4),
    ("six_line", [31, 32, 33, 34, 35, 36], 30),
    ("column", [1], 2),
    ("dozen", [3], 24),
    ("red", [], 2),
    ("black", [], 1),
    ("odd", [], 2),
    ("even", [], 1),
    ("low", [], 19),
    ("high", [], 18),
]


@pytest.mark.parametrize(("spot", "numbers", "number"), LOSSES)
def test_a_losing_bet_returns_nothing(spot: str, numbers: list[int], number: int) -> None:
    [payout] = spin(number, bet(spot, numbers))
    assert (payout["result"], payout["returns"], payout["net"]) == ("lose", "0", "-10")


@pytest.mark.parametrize("spot", ["column", "dozen", "red", "black", "odd", "even", "low", "high"])
def test_outside_bets_lose_on_zero(spot: str) -> None:
    numbers = [1] if spot in ("column", "dozen") else []
    [payout] = spin(0, bet(spot, numbers))
    assert payout["result"] == "lose"


def test_every_placement_returns_36_over_the_37_pockets() -> None:
    """Every bet on a single-zero wheel returns 36 units for each 37 staked over
    the 37 pockets: the 2.70% house edge of every bet (Wizard of Odds, roulette)."""
    for spot in BET_TYPES:
        for numbers in placements(spot):
            returned = sum(
                Decimal(str(spin(n, bet(spot, numbers, "1"))[0]["returns"])) for n in range(37)
            )
            assert returned == 36, (spot, numbers)


def test_placements_on_the_layout() -> None:
    counts = {spot: len(placements(spot)) for spot in BET_TYPES}
    assert counts == {
        "straight": 37,
        # 12 rows x 2 across, 11 x 3 down, and 0-1, 0-2, 0-3.
        "split": 12 * 2 + 11 * 3 + 3,
        "street": 12,
        "trio": 2,
        # 11 row pairs x 2.
        "corner": 22,
        "first_four": 1,
        "six_line": 11,
        "column": 3,
        "dozen": 3,
        "red": 1,
        "black": 1,
        "odd": 1,
        "even": 1,
        "low": 1,
        "high": 1,
    }
    assert set(placements("trio")) == {(0, 1, 2), (0, 2, 3)}
    assert set(placements("first_four")) == {(0, 1, 2, 3)}
    assert {n for n in placements("split") if 0 in n} == {(0, 1), (0, 2), (0, 3)}


def test_numbers_may_come_in_any_order() -> None:
    [payout] = spin(20, bet("corner", [21, 17, 20, 18]))
    assert (payout["result"], payout["numbers"]) == ("win", [17, 18, 20, 21])


NOT_ON_LAYOUT = [
    ("straight", [37]),
    ("straight", [-1]),
    ("straight", []),
    ("split", [1, 5]),  # not adjacent
    ("split", [3, 4]),  # ends of two rows
    ("split", [0, 4]),  # zero touches only 1, 2, 3
    ("split", [17, 17]),
    ("split", [17]),
    ("street", [2, 3, 4]),
    ("street", [1, 4, 7]),  # a column piece, not a row
    ("trio", [0, 3, 4]),  # live-casino-rules.sk.txt's misprint (docs/rules.md)
    ("trio", [0, 1, 3]),
    ("trio", [1, 2, 3]),
    ("corner", [3, 4, 6, 7]),  # wraps across the layout
    ("corner", [1, 2, 3, 4]),
    ("first_four", [0, 1, 2, 4]),
    ("first_four", []),
    ("six_line", [1, 2, 3, 7, 8, 9]),  # streets not adjacent
    ("six_line", [34, 35, 36, 1, 2, 3]),
    ("column", [4]),
    ("column", [0]),
    ("column", []),
    ("dozen", [1, 2]),
    ("red", [1]),
    ("low", [1, 2, 3]),
]


@pytest.mark.parametrize(("spot", "numbers"), NOT_ON_LAYOUT)
def test_bets_the_layout_does_not_allow_are_refused(spot: str, numbers: list[int]) -> None:
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(ENGINE.new_round("r1"), bet(spot, numbers))
    assert exc.value.reason == "bet_not_on_layout"


LIMITED = RouletteRules(
    straight=SpotRules("35:1", Decimal("0.50"), Decimal(100)),
    red=SpotRules("1:1", Decimal(5), Decimal(1000)),
)


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        ([bet("straight", [7], "0.49")], "below_table_minimum"),
        ([bet("straight", [7], "100.50")], "above_table_maximum"),
        ([bet("straight", [7], "60"), bet("straight", [7], "41")], "above_table_maximum"),
        ([bet("red", [], "4.99")], "below_table_minimum"),
        ([bet("red", [], "1000.01")], "above_table_maximum"),
        ([bet("basket", [0, 1, 2])], "unknown_spot"),
        ([bet("straight", [7], "0.505")], "bad_amount"),
        ([PlaceBet("ann", "straight", Decimal(1), box=2, numbers=(7,))], "bad_bet"),
        ([CancelBet("ann", "straight", numbers=(8,))], "no_such_bet"),
        ([bet("straight", [7]), CancelBet("bob", "straight", numbers=(7,))], "no_such_bet"),
        ([WheelResult(7)], "bets_open"),
        ([CloseBets(), bet("red")], "betting_closed"),
        ([CloseBets(), CloseBets()], "betting_closed"),
        ([CloseBets(), CancelBet("ann", "red")], "betting_closed"),
        ([CloseBets(), WheelResult(37)], "not_a_pocket"),
        ([CloseBets(), WheelResult(-1)], "not_a_pocket"),
        ([CloseBets(), WheelResult(7), WheelResult(8)], "round_over"),
        ([VoidRound("camera"), CloseBets()], "round_over"),
        ([DealCard(parse_card("AS"))], "not_in_this_game"),
        ([Decision(box=1, action="hit")], "not_in_this_game"),
    ],
)
def test_rejections(events: list[Event], reason: str) -> None:
    engine = RouletteEngine(LIMITED)
    *before, last = events
    state = run(before, engine)
    with pytest.raises(Rejected) as exc:
        engine.apply(state, last)
    assert exc.value.reason == reason
    assert run(before, engine) == state


def test_limits_are_per_bet_type_and_per_placement() -> None:
    engine = RouletteEngine(LIMITED)
    # 100 on 7 and 100 on 8 are two placements, each within the straight maximum;
    # a player's chips on one placement add up.
    state = run(
        [
            bet("straight", [7], "60"),
            bet("straight", [7], "40"),
            bet("straight", [8], "100"),
            bet("red", [], "1000"),
        ],
        engine,
    )
    assert [(b.numbers, b.amount) for b in state.bets] == [((7,), 100), ((8,), 100), ((), 1000)]


def test_cancel_takes_the_whole_placement_back() -> None:
    state = run([bet("split", [17, 20], "5"), bet("split", [20, 17], "5")])
    state, out = ENGINE.apply(state, CancelBet("ann", "split", numbers=(20, 17)))
    assert out == [
        {
            "type": "bet_cancelled",
            "player": "ann",
            "spot": "split",
            "numbers": [17, 20],
            "amount": "10",
        }
    ]
    assert state.bets == ()


def test_round_phases_and_outputs() -> None:
    state = ENGINE.new_round("r7")
    assert ENGINE.next_step(state).to_json() == {"kind": "bets"}
    state, out = ENGINE.apply(state, bet("dozen", [2], "5"))
    assert out == [
        {
            "type": "bet_placed",
            "player": "ann",
            "spot": "dozen",
            "dozen": 2,
            "amount": "5",
            "total": "5",
        }
    ]
    state, out = ENGINE.apply(state, CloseBets())
    assert out == [{"type": "bets_closed", "bets": 1}]
    assert ENGINE.next_step(state).to_json() == {"kind": "wheel"}
    state, out = ENGINE.apply(state, WheelResult(14))
    assert out == [{"type": "winning_number", "number": 14, "colour": "red"}]
    assert ENGINE.is_over(state)
    assert ENGINE.next_step(state).to_json() == {"kind": "settled"}
    assert ENGINE.outcome(state) == {
        "round": "r7",
        "game": "roulette",
        "number": 14,
        "colour": "red",
        "payouts": [
            {
                "player": "ann",
                "spot": "dozen",
                "stake": "5",
                "returns": "15",
                "net": "10",
                "result": "win",
                "dozen": 2,
            }
        ],
    }


def test_a_spin_without_bets_is_settled() -> None:
    state = run([CloseBets(), WheelResult(0)])
    assert ENGINE.outcome(state)["payouts"] == []


@pytest.mark.parametrize("closed", [False, True])
def test_void_returns_every_stake(closed: bool) -> None:
    bets = [bet("straight", [0], "2.50"), bet("red", [], "10", "bob")]
    state = run([*bets, *([CloseBets()] if closed else []), VoidRound("ball left the wheel")])
    outcome = ENGINE.outcome(state)
    assert outcome["voided"] is True
    assert outcome["reason"] == "ball left the wheel"
    assert "number" not in outcome
    assert [(p["stake"], p["returns"], p["result"]) for p in outcome["payouts"]] == [
        ("2.5", "2.5", "void"),
        ("10", "10", "void"),
    ]


def test_outcome_before_the_end_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        ENGINE.outcome(ENGINE.new_round("r1"))


def test_shipped_variant_follows_rules_md() -> None:
    game = setup(None, None)
    assert (game.variant, game.decks) == ("european-roulette", None)
    rules = game.engine.rules
    assert {spot: rules.bet_type(spot).pays for spot in BET_TYPES} == {
        "straight": "35:1",
        "split": "17:1",
        "street": "11:1",
        "trio": "11:1",
        "corner": "8:1",
        "first_four": "8:1",
        "six_line": "5:1",
        "column": "2:1",
        "dozen": "2:1",
        "red": "1:1",
        "black": "1:1",
        "odd": "1:1",
        "even": "1:1",
        "low": "1:1",
        "high": "1:1",
    }
    # "Each bet type has its own table minimum and maximum": the file states them.
    assert all(rules.bet_type(spot).min_bet <= rules.bet_type(spot).max_bet for spot in BET_TYPES)


def test_roulette_has_no_shoe() -> None:
    with pytest.raises(Rejected) as exc:
        setup(None, 8)
    assert exc.value.reason == "no_shoe"


def test_unknown_bet_type_in_a_variant_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('game = "roulette"\nextends = "european-roulette"\n[basket]\npays = "6:1"\n')
    with pytest.raises(RuleFileError) as exc:
        setup(str(path), None)
    assert exc.value.key == "basket"


def test_a_studio_variant_changes_one_limit(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'game = "roulette"\nextends = "european-roulette"\n'
        '[straight]\npays = "35:1"\nmin_bet = "1"\nmax_bet = "50"\n'
    )
    engine = setup(str(path), None).engine
    with pytest.raises(Rejected) as exc:
        engine.apply(engine.new_round("r1"), bet("straight", [7], "51"))
    assert exc.value.reason == "above_table_maximum"


def test_winnings_below_the_minor_unit_are_not_paid() -> None:
    # A studio's 17:2 six line on 0.05 wins 0.425: the house pays whole cents, 0.42.
    rules = RouletteRules(six_line=SpotRules("17:2", Decimal("0.01"), Decimal(10)))
    [payout] = spin(1, bet("six_line", [1, 2, 3, 4, 5, 6], "0.05"), engine=RouletteEngine(rules))
    assert payout["returns"] == "0.47"
