"""The common blackjack rules (docs/rules.md, "Blackjack: common rules (all variants)"),
the engine's refusals, and variant files."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from support.blackjack_table import Table

from dealer_station.games.blackjack_hand import hand_total
from dealer_station.games.blackjack_rules import load_variant
from dealer_station.games.cards import parse_cards
from dealer_station.games.engine import NextStep
from dealer_station.games.events import Decision, PlaceBet, VoidRound
from dealer_station.games.rulefile import RuleFileError


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("AS 6D", 17, True),  # an ace counts 11 when it fits: soft
        ("AS 6D TC", 17, False),  # ... and 1 when it does not
        ("AS AD", 12, True),
        ("AS AD 4C 6H", 12, False),  # the seed's example: A-A-4-6 is hard 12
        ("AS 3D AC", 15, True),  # the seed's example: A-3 then A is 15 or 5
        ("KS QD", 20, False),  # faces count 10
        ("TS 9D 5C", 24, False),
    ],
)
def test_hand_totals(cards: str, total: int, soft: bool) -> None:
    assert hand_total(parse_cards(cards)) == (total, soft)


def test_dealing_order_box_by_box_then_dealer_then_second_cards() -> None:
    t = Table("standard-blackjack")
    t.bet(5, 10, player="e")
    t.bet(2, 10, player="b")
    t.close()
    order = []
    for card in ("2S", "3S", "4S", "5S", "6S"):
        order.append(t.next.to)
        t.deal(card)
    assert order == ["box 2 hand 0", "box 5 hand 0", "dealer", "box 2 hand 0", "box 5 hand 0"]
    assert t.next == NextStep.at_hand("decision", 2, 0, ("hit", "stand", "double", "surrender"))


def test_decisions_go_box_by_box() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10, player="a")
    t.bet(2, 10, player="b")
    t.close()
    t.deal("9S", "9D", "7C", "5S", "5D")
    assert t.refuse(Decision(box=2, action="hit")) == "not_your_turn"
    t.do(1, "stand")
    t.do(2, "hit")
    assert t.refuse(Decision(box=2, action="stand")) == "card_due"


@pytest.mark.parametrize(
    ("dealer", "final"),
    [
        (("6D", "TC", "AH"), 17),  # 16 draws; hard 17 stands
        (("AD", "6C"), 17),  # soft 17 stands (all four seeds)
        (("TD", "6C", "5H"), 21),
        (("5D", "AC", "AH"), 17),  # soft 16 draws, soft 17 stands
    ],
)
def test_dealer_draws_to_16_and_stands_on_every_17(dealer: tuple[str, ...], final: int) -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.close()
    t.deal("TS", dealer[0], "8S")
    if dealer[0].startswith("A"):
        t.close_insurance()  # nobody insures
    t.do(1, "stand")
    for card in dealer[1:]:
        assert t.next == NextStep("card", "dealer")
        t.deal(card)
    assert t.state.round_over
    assert t.settled["dealer"]["total"] == final


def test_a_card_the_dealer_may_not_take_is_a_misdeal() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.close()
    t.deal("TS", "TD", "8S")
    t.do(1, "stand")
    t.deal("7C")  # dealer 17 stands
    assert t.state.round_over
    assert t.refuse(t.card("2C")) == "misdeal"


def test_a_hand_reaching_21_stands_automatically() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.bet(2, 10, player="b")
    t.close()
    t.deal("5S", "9D", "7C", "6S", "9H")
    t.do(1, "hit")
    t.deal("9C")  # 5+6+9 = 20
    t.do(1, "hit")
    t.deal("AC")  # 21: no decision is asked
    assert t.next.to == "box 2 hand 0"


def test_bust_loses_at_once_whatever_the_dealer_does() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.bet(2, 10, player="b")
    t.close()
    t.deal("TS", "TD", "6C", "6S", "7D")
    t.do(1, "hit")
    t.deal("9C")  # box 1 busts with 25
    assert {"type": "hand_bust", "box": 1, "hand": 0, "total": 25} in t.outputs
    t.do(2, "stand")
    t.deal("6H", "TH")  # dealer 6+6+10 = 22: busts too
    assert t.hand_result(1) == "lose" and t.returns("p1") == 0
    assert t.hand_result(2) == "win" and t.returns("b") == 20


def test_equal_totals_push_and_higher_total_wins() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.bet(2, 10, player="b")
    t.bet(3, 10, player="c")
    t.close()
    t.deal("TS", "TD", "9S", "8C", "8D", "9D", "8S")  # 18, 19, 17 against an 8
    t.do(1, "stand")
    t.do(2, "stand")
    t.do(3, "stand")
    t.deal("TH")  # dealer 18: 18 pushes, 19 wins, 17 loses
    assert [t.hand_result(b) for b in (1, 2, 3)] == ["push", "win", "lose"]
    assert [t.returns(p) for p in ("p1", "b", "c")] == [10, 20, 0]


def test_blackjack_beats_a_three_card_21() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    t.bet(2, 10, player="b")  # a live hand, so the dealer plays out
    t.close()
    t.deal("AS", "TH", "7D", "KS", "8H")
    t.do(2, "stand")
    t.deal("4C", "TC")  # dealer 7+4+10 = 21 in three cards
    assert t.settled["dealer"]["total"] == 21
    assert t.returns() == 25 and t.returns("b") == 0


def test_void_returns_every_stake() -> None:
    t = Table("diamond-blackjack")
    t.bet(1, 10)
    t.bet(1, 5, spot="bonus_sevens")
    t.close()
    t.deal("5S", "AD", "6C")
    t.do(1, "insurance")
    t.do(1, "double")
    t.send(VoidRound("camera fault"))
    settled = t.settled
    assert settled["voided"] and settled["reason"] == "camera fault"
    assert all(p["result"] == "void" and p["returns"] == p["stake"] for p in settled["payouts"])
    assert t.returns() == 20 + 5 + 5  # the doubled main, the insurance, the side bet


def test_bets_are_refused_once_betting_closed_and_need_whole_minor_units() -> None:
    t = Table("standard-blackjack")
    assert t.refuse(PlaceBet("p1", "main", Decimal("10.005"), box=1)) == "bad_amount"
    assert t.refuse(PlaceBet("p1", "main", Decimal(4), box=1)) == "below_table_minimum"
    t.bet(1, 10)
    t.close()
    assert t.refuse(PlaceBet("p2", "main", Decimal(10), box=2)) == "betting_closed"


def test_three_to_two_on_an_odd_cent_is_rounded_down() -> None:
    t = Table("standard-blackjack")
    t.bet(1, "10.01")
    t.close()
    t.deal("AS", "7D", "KS", "TC")
    assert t.returns() == Decimal("25.02")  # 10.01 + 15.015, the half cent kept by the house


def test_unknown_action_and_decision_with_no_hand_due() -> None:
    t = Table("standard-blackjack")
    t.bet(1, 10)
    assert t.refuse(Decision(box=1, action="hit")) == "no_decision_due"
    t.close()
    t.deal("9S", "7D", "5C")
    assert t.refuse(Decision(box=1, action="fold")) == "unknown_action"


# -- variant files ------------------------------------------------------------------------


def test_a_fifth_variant_is_a_file(tmp_path: Path) -> None:
    path = tmp_path / "single-deck.toml"
    path.write_text(
        'game = "blackjack"\nextends = "standard-blackjack"\ntitle = "Single deck"\n'
        "decks = 1\ncut_card_at = 30\ndealer_hits_soft_17 = true\n"
    )
    rules = load_variant(str(path))
    assert rules.decks == 1 and rules.dealer_hits_soft_17 and rules.resplit_aces  # inherited
    t = Table(str(path))
    t.bet(1, 10)
    t.close()
    t.deal("TS", "6H", "9C")
    t.do(1, "stand")
    t.deal("AD")  # soft 17: this variant hits it
    assert not t.state.round_over


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            'game = "blackjack"\ntitle = "x"\ncut_card_at = 200\ndouble_afterr_split = true\n',
            "double_afterr_split",
        ),
        ('game = "blackjack"\ntitle = "x"\ncut_card_at = 200\ndecks = "six"\n', "decks"),
        ('game = "blackjack"\ntitle = "x"\ncut_card_at = 200\nsurrender = "early"\n', "surrender"),
        ('game = "blackjack"\ntitle = "x"\ncut_card_at = 200\nmin_bet = 1.5\n', "min_bet"),
        (
            'game = "blackjack"\ntitle = "x"\ncut_card_at = 200\n'
            'suited_blackjacks = [{ suit = "D", pais = "2:1" }]\n',
            "suited_blackjacks[0].pais",
        ),
        ('game = "baccarat"\ntitle = "x"\n', "game"),
    ],
)
def test_an_invalid_variant_file_names_the_offending_key(
    tmp_path: Path, text: str, key: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError) as error:
        load_variant(str(path))
    assert error.value.key == key


def test_rules_that_contradict_each_other_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "blackjack"\ntitle = "x"\ncut_card_at = 200\npeek_up_cards = ["T"]\n')
    with pytest.raises(RuleFileError, match="peek_up_cards needs hole_card"):
        load_variant(str(path))
