"""The baccarat engine against docs/rules.md (Baccarat) and the texts it restates.

Expected values come from docs/rules.md and the texts in docs/sources/
(``live-baccarat.cs.txt``: "a 100 bet returns 195"), and from Wizard of Odds'
baccarat page for the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from dealer_station.games.baccarat import (
    BaccaratEngine,
    BaccaratRound,
    BaccaratRules,
    next_card_to,
    score,
    setup,
)
from dealer_station.games.cards import parse_card, parse_cards
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
from dealer_station.games.rulefile import RuleFileError
from dealer_station.games.stakes import SpotRules

ENGINE = BaccaratEngine(BaccaratRules())

# docs/rules.md, Baccarat: Banker's two-card total -> the values of Player's third card
# on which Banker draws ("0-2 always; 3 not 8; 4 2-7; 5 4-7; 6 6-7; 7 never").
BANKER_TABLEAU = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}

# One two-card hand for every total, with no pair among them and no natural
# below 8: totals are what the test is about.
TWO_CARDS = {
    0: "TC KD",
    1: "AC TD",
    2: "2C TD",
    3: "3C KD",
    4: "4C QD",
    5: "5C JD",
    6: "6C TD",
    7: "7C KD",
    8: "8C TD",
    9: "9C QD",
}
ONE_CARD = {
    0: "TH",
    1: "AH",
    2: "2H",
    3: "3H",
    4: "4H",
    5: "5H",
    6: "6H",
    7: "7H",
    8: "8H",
    9: "9H",
}


def first_four(player: str, banker: str) -> list[str]:
    """Two-card hands in dealing order: P1 B1 P2 B2."""
    p, b = player.split(), banker.split()
    return [p[0], b[0], p[1], b[1]]


def run(
    events: list[Event], engine: BaccaratEngine = ENGINE, round_id: str = "r1"
) -> BaccaratRound:
    state = engine.new_round(round_id)
    for event in events:
        state, _ = engine.apply(state, event)
    return state


def deal(
    cards: list[str] | str, bets: Sequence[PlaceBet] = (), engine: BaccaratEngine = ENGINE
) -> BaccaratRound:
    texts = cards.split() if isinstance(cards, str) else cards
    return run([*bets, CloseBets(), *(DealCard(parse_card(c)) for c in texts)], engine)


def bet(spot: str, amount: str, player: str = "ann") -> PlaceBet:
    return PlaceBet(player, spot, Decimal(amount))


def payouts(state: BaccaratRound, engine: BaccaratEngine = ENGINE) -> list[dict[str, object]]:
    result: list[dict[str, object]] = engine.outcome(state)["payouts"]
    return result


# --- the tableau ------------------------------------------------------------


def test_deal_order_is_player_banker_player_banker() -> None:
    state = run([CloseBets()])
    seen = []
    for card in ("2C", "3D", "4H", "TS"):
        seen.append(ENGINE.next_step(state).to)
        state, out = ENGINE.apply(state, DealCard(parse_card(card)))
        assert out[0]["to"] == seen[-1]
    assert seen == ["player", "banker", "player", "banker"]


@pytest.mark.parametrize("player_total", range(10))
@pytest.mark.parametrize("banker_total", [8, 9])
def test_banker_natural_ends_the_round(player_total: int, banker_total: int) -> None:
    state = deal(first_four(TWO_CARDS[player_total], TWO_CARDS[banker_total]))
    assert ENGINE.is_over(state)
    assert ENGINE.next_step(state).kind == "settled"
    assert ENGINE.outcome(state)["banker"]["natural"] is True


@pytest.mark.parametrize("player_total", [8, 9])
@pytest.mark.parametrize("banker_total", range(10))
def test_player_natural_ends_the_round(player_total: int, banker_total: int) -> None:
    state = deal(first_four(TWO_CARDS[player_total], TWO_CARDS[banker_total]))
    assert ENGINE.is_over(state)
    assert ENGINE.outcome(state)["player"]["natural"] is True


@pytest.mark.parametrize(
    ("player", "banker", "winner"), [("9", "8", "player"), ("8", "9", "banker")]
)
def test_natural_nine_beats_natural_eight(player: str, banker: str, winner: str) -> None:
    state = deal(first_four(TWO_CARDS[int(player)], TWO_CARDS[int(banker)]))
    assert ENGINE.outcome(state)["winner"] == winner


@pytest.mark.parametrize("player_total", range(8))
@pytest.mark.parametrize("banker_total", range(8))
def test_player_draws_on_0_to_5_and_stands_on_6_7(player_total: int, banker_total: int) -> None:
    state = deal(first_four(TWO_CARDS[player_total], TWO_CARDS[banker_total]))
    step = ENGINE.next_step(state)
    if player_total <= 5:
        assert (step.kind, step.to) == ("card", "player")
    elif banker_total <= 5:
        # docs/rules.md: "If Player stood, Banker draws on 0-5 and stands on 6-7."
        assert (step.kind, step.to) == ("card", "banker")
    else:
        assert step.kind == "settled"


@pytest.mark.parametrize("player_total", [6, 7])
@pytest.mark.parametrize("banker_total", range(8))
def test_player_stood_banker_draws_on_0_to_5(player_total: int, banker_total: int) -> None:
    cards = first_four(TWO_CARDS[player_total], TWO_CARDS[banker_total])
    state = deal(cards)
    if banker_total <= 5:
        state, out = ENGINE.apply(state, DealCard(parse_card("4S")))
        assert out[0]["to"] == "banker"
        assert out[0]["score"] == (banker_total + 4) % 10
    assert ENGINE.is_over(state)
    assert len(state.banker) == (3 if banker_total <= 5 else 2)
    assert len(state.player) == 2


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_banker_third_card_table(banker_total: int, third: int) -> None:
    """Every cell of docs/rules.md's Banker table: Player (5) drew ``third``."""
    cards = [*first_four(TWO_CARDS[5], TWO_CARDS[banker_total]), ONE_CARD[third]]
    state = deal(cards)
    draws = third in BANKER_TABLEAU[banker_total]
    step = ENGINE.next_step(state)
    assert step.kind == ("card" if draws else "settled")
    if draws:
        assert step.to == "banker"
        state, _ = ENGINE.apply(state, DealCard(parse_card("9S")))
        assert ENGINE.is_over(state)
        assert ENGINE.outcome(state)["banker"]["score"] == (banker_total + 9) % 10
    assert ENGINE.outcome(state)["player"]["score"] == (5 + third) % 10


def test_banker_draws_even_when_standing_would_win() -> None:
    # live-baccarat.cs.txt: Banker always draws by the rules, "even if it would
    # win by standing on two cards". Player 0 draws a 4; Banker's 5 would win
    # standing but draws on a third card of 4.
    state = deal("TC 5D KC TD 4H")
    assert (ENGINE.next_step(state).kind, ENGINE.next_step(state).to) == ("card", "banker")


def test_totals_count_modulo_ten() -> None:
    # live-casino-rules.sk.txt: "9+7 = 16 - the hand counts as 6": Player stands.
    state = deal("9C 2D 7C TD")
    assert (ENGINE.next_step(state).kind, ENGINE.next_step(state).to) == ("card", "banker")
    # Player 9+5+8 = 22 counts 2; Banker 3 stands on a third card of 8 and wins.
    state = deal("9C 3D 5C KD 8H")
    outcome = ENGINE.outcome(state)
    assert (outcome["player"]["score"], outcome["banker"]["score"]) == (2, 3)
    assert outcome["winner"] == "banker"


def test_tableau_walk_reproduces_published_eight_deck_counts() -> None:
    """The engine's ``next_card_to``, walked over every ordered deal by value
    class, gives Wizard of Odds' 8-deck counts (wizardofodds.com, Baccarat:
    Banker 2,292,252,566,437,888; Player 2,230,518,282,592,256; Tie
    475,627,426,473,216)."""
    counts = [128] + [32] * 9
    shoe = 416
    tally = {"player": 0, "banker": 0, "tie": 0}

    def falling(n: int, k: int) -> int:
        out = 1
        for i in range(k):
            out *= n - i
        return out

    def walk(player: tuple[int, ...], banker: tuple[int, ...], weight: int) -> None:
        to = next_card_to(player, banker)
        used = len(player) + len(banker)
        if to is None:
            p, b = score(player), score(banker)
            key = "tie" if p == b else "player" if p > b else "banker"
            tally[key] += weight * falling(shoe - used, 6 - used)
            return
        for value in range(10):
            n = counts[value]
            counts[value] -= 1
            if to == "player":
                walk((*player, value), banker, weight * n)
            else:
                walk(player, (*banker, value), weight * n)
            counts[value] += 1

    walk((), (), 1)
    assert tally == {
        "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256,
        "tie": 475_627_426_473_216,
    }


# --- misdeals and the phases ------------------------------------------------


def test_card_while_bets_are_open_is_a_misdeal() -> None:
    state = run([bet("player", "10")])
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, DealCard(parse_card("AS")))
    assert exc.value.reason == "misdeal"


@pytest.mark.parametrize(
    "cards",
    [
        "8C 2D TC 3D",  # Player natural after four cards
        "TC 9D KC 2D 5H 4S",  # both drew: six cards
        "6C 6D TC KD",  # both stand on 6
    ],
)
def test_card_when_none_is_due_is_a_misdeal(cards: str) -> None:
    state = deal(cards)
    assert ENGINE.is_over(state)
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, DealCard(parse_card("AS")))
    assert exc.value.reason == "misdeal"


def test_card_in_a_voided_round_is_a_misdeal() -> None:
    state = run([CloseBets(), VoidRound("shoe jammed")])
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, DealCard(parse_card("AS")))
    assert exc.value.reason == "misdeal"


@pytest.mark.parametrize("event", [bet("player", "5"), CancelBet("ann", "player"), CloseBets()])
def test_betting_ends_at_close(event: Event) -> None:
    state = run([bet("player", "5"), CloseBets()])
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, event)
    assert exc.value.reason == "betting_closed"


@pytest.mark.parametrize("event", [Decision(box=1, action="hit"), WheelResult(7)])
def test_events_of_other_games_are_refused(event: Event) -> None:
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(ENGINE.new_round("r1"), event)
    assert exc.value.reason == "not_in_this_game"


def test_settled_round_refuses_more_events() -> None:
    state = deal("8C 2D TC 3D")
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, VoidRound("late"))
    assert exc.value.reason == "round_over"


def test_a_round_without_bets_is_dealt_and_settled() -> None:
    state = deal("8C 2D TC 3D")
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == "player"
    assert outcome["payouts"] == []


def test_next_step_kinds() -> None:
    state = ENGINE.new_round("r1")
    assert ENGINE.next_step(state).to_json() == {"kind": "bets"}
    state, _ = ENGINE.apply(state, CloseBets())
    assert ENGINE.next_step(state).to_json() == {"kind": "card", "to": "player"}


def test_rejection_leaves_the_state_as_it_was() -> None:
    state = run([bet("player_pair", "5")])
    before = state
    with pytest.raises(Rejected):
        ENGINE.apply(state, bet("banker_pair", "5"))
    assert state == before
    assert state.bets == before.bets


# --- bets -------------------------------------------------------------------


def test_a_player_holds_only_one_of_the_pair_bets() -> None:
    # docs/rules.md: "a player may take only one of the two pair bets in a round".
    state = run([bet("player_pair", "5")])
    with pytest.raises(Rejected) as exc:
        ENGINE.apply(state, bet("banker_pair", "5"))
    assert exc.value.reason == "one_pair_bet_only"
    # Another player may take the other pair bet, and the same one may add chips.
    state, _ = ENGINE.apply(state, bet("banker_pair", "5", player="bob"))
    state, out = ENGINE.apply(state, bet("player_pair", "5"))
    assert out[0]["total"] == "10"


def test_both_pair_bets_when_the_variant_allows_them() -> None:
    engine = BaccaratEngine(BaccaratRules(one_pair_bet_only=False))
    state = run([bet("player_pair", "5"), bet("banker_pair", "5")], engine)
    assert len(state.bets) == 2


def test_cancelling_a_pair_bet_frees_the_other() -> None:
    state = run([bet("player_pair", "5"), CancelBet("ann", "player_pair"), bet("banker_pair", "5")])
    assert [b.spot for b in state.bets] == ["banker_pair"]


LIMITS = BaccaratRules(
    player=SpotRules("1:1", Decimal(5), Decimal(100)),
    tie=SpotRules("8:1", Decimal(1), Decimal(20)),
)


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        ([bet("player", "4.99")], "below_table_minimum"),
        ([bet("player", "100.01")], "above_table_maximum"),
        ([bet("player", "60"), bet("player", "41")], "above_table_maximum"),
        ([bet("tie", "21")], "above_table_maximum"),
        ([bet("dragon", "5")], "unknown_spot"),
        ([bet("player", "5.001")], "bad_amount"),
        ([PlaceBet("ann", "player", Decimal(10), box=1)], "bad_bet"),
        ([PlaceBet("ann", "player", Decimal(10), numbers=(1,))], "bad_bet"),
        ([CancelBet("ann", "banker")], "no_such_bet"),
    ],
)
def test_bet_rejections(events: list[Event], reason: str) -> None:
    engine = BaccaratEngine(LIMITS)
    *before, last = events
    state = run(before, engine)
    with pytest.raises(Rejected) as exc:
        engine.apply(state, last)
    assert exc.value.reason == reason


def test_limits_hold_for_a_players_total_on_a_spot() -> None:
    engine = BaccaratEngine(LIMITS)
    state = run(
        [bet("player", "60"), bet("player", "40"), bet("player", "100", player="bob")], engine
    )
    assert [(b.player, b.amount) for b in state.bets] == [("ann", 100), ("bob", 100)]


def test_cancel_returns_the_whole_stake_on_the_spot() -> None:
    state = run([bet("player", "10"), bet("player", "15")])
    state, out = ENGINE.apply(state, CancelBet("ann", "player"))
    assert out == [{"type": "bet_cancelled", "player": "ann", "spot": "player", "amount": "25"}]
    assert state.bets == ()


# --- settlement -------------------------------------------------------------

PLAYER_WINS = "8C 2D TC 3D"  # Player natural 8, Banker 5
BANKER_NATURAL = "2C 9D 3C KD"  # Banker natural 9, Player 5
TIE = "6C 6D TC KD"  # both 6, both stand
PLAYER_PAIR = "4C 8D 4H TD"  # Player 4-4 (a pair, natural 8), Banker natural 8: tie
BANKER_PAIR = "3C 7D 6H 7S"  # Player natural 9, Banker 7-7 (pair)


def settle(
    cards: str, *bets: PlaceBet, engine: BaccaratEngine = ENGINE
) -> list[tuple[object, object, object]]:
    state = deal(cards, bets, engine)
    return [(p["spot"], p["returns"], p["result"]) for p in payouts(state, engine)]


def test_banker_win_returns_195_for_100() -> None:
    # live-baccarat.cs.txt: "při sázce 100 vrátíme čistých 195".
    state = deal(BANKER_NATURAL, [bet("banker", "100"), bet("player", "100", player="bob")])
    assert payouts(state) == [
        {
            "player": "ann",
            "spot": "banker",
            "stake": "100",
            "returns": "195",
            "net": "95",
            "result": "win",
            "commission": "5",
        },
        {
            "player": "bob",
            "spot": "player",
            "stake": "100",
            "returns": "0",
            "net": "-100",
            "result": "lose",
        },
    ]


def test_player_win_pays_1_to_1() -> None:
    assert settle(
        PLAYER_WINS, bet("player", "100"), bet("banker", "50", "bob"), bet("tie", "5", "cy")
    ) == [
        ("player", "200", "win"),
        ("banker", "0", "lose"),
        ("tie", "0", "lose"),
    ]


def test_tie_pays_8_to_1_and_player_banker_push() -> None:
    assert settle(TIE, bet("tie", "10"), bet("player", "20", "bob"), bet("banker", "30", "cy")) == [
        ("tie", "90", "win"),
        ("player", "20", "push"),
        ("banker", "30", "push"),
    ]


def test_pair_bets_pay_11_to_1_on_their_own_side() -> None:
    assert settle(PLAYER_PAIR, bet("player_pair", "10"), bet("banker_pair", "10", "bob")) == [
        ("player_pair", "120", "win"),
        ("banker_pair", "0", "lose"),
    ]
    assert settle(BANKER_PAIR, bet("player_pair", "10"), bet("banker_pair", "10", "bob")) == [
        ("player_pair", "0", "lose"),
        ("banker_pair", "120", "win"),
    ]


def test_a_pair_is_same_rank_not_same_value() -> None:
    # docs/rules.md: a pair is "same rank"; a ten and a king both count 0 but are no pair.
    state = deal("TC 8D KC TD", [bet("player_pair", "10")])
    assert ENGINE.outcome(state)["player"]["pair"] is False
    assert payouts(state)[0]["result"] == "lose"


@pytest.mark.parametrize(
    ("rounding", "stake", "returns", "commission"),
    [
        # 5% of 1.10 is 0.055: rounded to the cent by the variant's rule.
        ("down", "1.10", "2.15", "0.05"),
        ("half_up", "1.10", "2.14", "0.06"),
        ("up", "1.10", "2.14", "0.06"),
        ("none", "1.10", "2.145", "0.055"),
        # 5% of 0.30 is 0.015.
        ("down", "0.30", "0.59", "0.01"),
        ("half_up", "0.30", "0.58", "0.02"),
        # 5% of 0.21 is 0.0105: half_up still rounds down.
        ("half_up", "0.21", "0.41", "0.01"),
        ("up", "0.21", "0.40", "0.02"),
        # Exact commissions are not rounded at all.
        ("down", "100", "195", "5"),
        ("up", "20", "39", "1"),
    ],
)
def test_commission_rounding(rounding: str, stake: str, returns: str, commission: str) -> None:
    engine = BaccaratEngine(
        BaccaratRules(
            commission_rounding=rounding,  # type: ignore[arg-type]
            banker=SpotRules("1:1", Decimal("0.01"), Decimal(1000)),
        )
    )
    state = deal(BANKER_NATURAL, [bet("banker", stake)], engine)
    [payout] = payouts(state, engine)
    assert (Decimal(str(payout["returns"])), Decimal(str(payout["commission"]))) == (
        Decimal(returns),
        Decimal(commission),
    )


def test_commission_rate_is_a_parameter() -> None:
    engine = BaccaratEngine(BaccaratRules(commission=Decimal("0.04")))
    assert settle(BANKER_NATURAL, bet("banker", "100"), engine=engine) == [("banker", "196", "win")]


# --- void -------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["", "TC", "TC 9D KC"])
def test_void_returns_every_stake(cards: str) -> None:
    bets = [bet("banker", "100"), bet("player_pair", "7.50", "bob"), bet("tie", "3", "cy")]
    state = run(
        [*bets, CloseBets(), *(DealCard(c) for c in parse_cards(cards)), VoidRound("scanner")]
    )
    assert ENGINE.is_over(state)
    outcome = ENGINE.outcome(state)
    assert outcome["voided"] is True
    assert outcome["reason"] == "scanner"
    dealt = cards.split()
    assert outcome["player"]["cards"] == dealt[0::2]
    assert outcome["banker"]["cards"] == dealt[1::2]
    assert [(p["stake"], p["returns"], p["result"]) for p in outcome["payouts"]] == [
        ("100", "100", "void"),
        ("7.5", "7.5", "void"),
        ("3", "3", "void"),
    ]


def test_void_while_betting() -> None:
    state, out = ENGINE.apply(run([bet("player", "10")]), VoidRound("studio power"))
    assert out == [{"type": "round_void", "reason": "studio power"}]
    assert ENGINE.outcome(state)["payouts"][0]["result"] == "void"


# --- outcome shape ----------------------------------------------------------


def test_outcome_shape() -> None:
    state = deal(PLAYER_PAIR, [bet("player_pair", "10")])
    assert ENGINE.outcome(state) == {
        "round": "r1",
        "game": "baccarat",
        "winner": "tie",
        "player": {"cards": ["4C", "4H"], "score": 8, "natural": True, "pair": True},
        "banker": {"cards": ["8D", "TD"], "score": 8, "natural": True, "pair": False},
        "payouts": [
            {
                "player": "ann",
                "spot": "player_pair",
                "stake": "10",
                "returns": "120",
                "net": "110",
                "result": "win",
            }
        ],
    }


# --- variant files ----------------------------------------------------------


def test_shipped_variant_is_the_default_and_follows_rules_md() -> None:
    game = setup(None, None)
    assert game.variant == "live-baccarat"
    assert game.decks == 8
    rules = game.engine.rules
    assert rules.commission == Decimal("0.05")
    assert [
        rules.spot(s).pays for s in ("player", "banker", "tie", "player_pair", "banker_pair")
    ] == [
        "1:1",
        "1:1",
        "8:1",
        "11:1",
        "11:1",
    ]
    assert rules.one_pair_bet_only is True
    # The cut card 16 cards before the end of the 416-card shoe.
    assert game.cut_card_at == 400


def test_decks_override_moves_the_cut_card() -> None:
    game = setup(None, 6)
    assert (game.decks, game.cut_card_at) == (6, 6 * 52 - 16)


def test_unknown_key_in_a_variant_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('game = "baccarat"\nextends = "live-baccarat"\ncomission = "0.04"\n')
    with pytest.raises(RuleFileError) as exc:
        setup(str(path), None)
    assert exc.value.key == "comission"


def test_a_studio_variant_extends_the_shipped_one(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('game = "baccarat"\nextends = "live-baccarat"\n[tie]\npays = "9:1"\n')
    rules = setup(str(path), None).engine.rules
    assert rules.tie.pays == "9:1"
    assert rules.banker.max_bet == Decimal(5000)


@pytest.mark.parametrize(
    "mapping",
    [
        {"decks": 0},
        {"cut_card_from_end": 5},
        {"commission": "1"},
        {"minor_unit": "0"},
        {"commission_rounding": "sideways"},
        {"tie": {"pays": "8 to 1"}},
        {"player": {"pays": "1:1", "min_bet": "10", "max_bet": "5"}},
    ],
)
def test_impossible_rules_are_refused(tmp_path: Path, mapping: dict[str, object]) -> None:
    key, value = next(iter(mapping.items()))
    if isinstance(value, dict):
        body = f"[{key}]\n" + "".join(f'{k} = "{v}"\n' for k, v in value.items())
    elif isinstance(value, int):
        body = f"{key} = {value}\n"
    else:
        body = f'{key} = "{value}"\n'
    path = tmp_path / "bad.toml"
    path.write_text('game = "baccarat"\n' + body)
    with pytest.raises(RuleFileError):
        setup(str(path), None)


def test_round_state_is_immutable() -> None:
    state = ENGINE.new_round("r1")
    with pytest.raises(AttributeError):
        state.phase = "dealing"  # type: ignore[misc]
    assert replace(state, phase="dealing").phase == "dealing"


def test_winnings_below_the_minor_unit_are_not_paid() -> None:
    # A studio's 17:2 tie on 0.05 wins 0.425: the house pays whole cents, 0.42.
    engine = BaccaratEngine(BaccaratRules(tie=SpotRules("17:2", Decimal("0.01"), Decimal(10))))
    assert settle(TIE, bet("tie", "0.05"), engine=engine) == [("tie", "0.47", "win")]
