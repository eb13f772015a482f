"""Every cell of docs/rules.md's blackjack variant table that differs between variants.

Expected values come from docs/rules.md ("Blackjack variants" table and "Resolved
ambiguities"), which restates the operators' texts in docs/sources/. Each test names
the row it checks.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from support.blackjack_table import Table

from dealer_station.autoplay import Autoplay
from dealer_station.games import table as table_fold
from dealer_station.games.engine import NextStep
from dealer_station.games.events import Decision, OpenRound, PlaceBet, SelectTable, Shuffle
from dealer_station.games.rejection import Rejected

LIVE, THREE, STANDARD, DIAMOND = (
    "live-blackjack",
    "blackjack-3-position",
    "standard-blackjack",
    "diamond-blackjack",
)
ZERO_EDGE = "diamond-blackjack-zero-edge"


# -- decks -------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "decks"), [(LIVE, 8), (THREE, 6), (STANDARD, 6), (DIAMOND, 6)])
def test_decks(variant: str, decks: int) -> None:
    t = Table(variant)
    assert t.state.shoe is not None
    assert t.state.shoe.size == decks * 52


def test_a_card_beyond_the_shoes_composition_is_impossible() -> None:
    # 6 decks hold six aces of spades: the seventh is a foreign card or a misread.
    t = Table(STANDARD)
    for box in range(1, 8):
        t.bet(box, 10, player=f"p{box}")
    t.close()
    t.deal("AS", "AS", "AS", "AS", "AS", "AS")
    assert t.refuse(t.card("AS")) == "impossible_card"
    t.deal("2C")  # the shoe and the round are as they were: the next card is taken


# -- boxes and who may bet -----------------------------------------------------------


@pytest.mark.parametrize(("variant", "boxes"), [(LIVE, 7), (THREE, 3), (STANDARD, 7), (DIAMOND, 4)])
def test_boxes(variant: str, boxes: int) -> None:
    t = Table(variant)
    t.bet(boxes, 10)
    assert t.refuse(PlaceBet("p1", "main", Decimal(10), box=boxes + 1)) == "no_such_box"


@pytest.mark.parametrize("variant", [THREE, DIAMOND])
def test_one_player_owns_every_box(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10, player="ann")
    t.bet(2, 10, player="ann")
    assert t.refuse(PlaceBet("bob", "main", Decimal(10), box=3)) == "table_has_one_player"


def test_live_box_belongs_to_one_player_and_bet_behind_backs_it() -> None:
    t = Table(LIVE)
    t.bet(2, 10, player="ann")
    assert t.refuse(PlaceBet("bob", "main", Decimal(10), box=2)) == "box_taken"
    t.bet(2, 10, player="bob", spot="bet_behind")
    assert t.refuse(PlaceBet("cy", "bet_behind", Decimal(10), box=3)) == "no_seat_to_back"


def test_standard_has_no_bet_behind_but_shares_boxes_within_the_table_maximum() -> None:
    t = Table(STANDARD)  # limits 5-100 (the seed's first example range)
    t.bet(1, 60, player="ann")
    t.bet(1, 40, player="bob")
    assert t.refuse(PlaceBet("cy", "main", Decimal(5), box=1)) == "above_table_maximum"
    assert t.refuse(PlaceBet("cy", "bet_behind", Decimal(5), box=1)) == "bet_behind_not_offered"


def test_shared_box_is_decided_by_the_seated_player_and_settled_in_proportion() -> None:
    t = Table(STANDARD)
    t.bet(1, 20, player="ann")  # the first stake on the box is the seat
    t.bet(1, 40, player="bob")
    t.close()
    t.deal("9S", "6D", "2C")  # the box: 9+2 = 11 against a 6
    assert t.refuse(Decision(box=1, action="double", player="bob")) == "not_seated_player"
    t.do(1, "double", player="ann")
    t.deal("TH")  # 21 on the double
    t.deal("TC", "5S")  # the dealer: 6+10 = 16 draws, +5 = 21
    # 21 against 21: a push for both stakes, each on its doubled amount
    assert t.hand_result(1) == "push"
    assert t.returns("ann") == 40 and t.returns("bob") == 80


def test_bet_behind_follows_the_seat() -> None:
    t = Table(LIVE)
    t.bet(1, 10, player="ann")
    t.bet(1, 30, player="bob", spot="bet_behind")
    t.close()
    t.deal("6S", "9D", "5C")  # 11 against a 9
    t.do(1, "double")
    t.deal("KH", "8C")  # 21; dealer 9+8 = 17
    assert t.returns("ann") == 40  # 2 x 10 staked, even money
    assert t.returns("bob", "bet_behind") == 120  # the double is followed: 2 x 30, won


# -- shuffle -------------------------------------------------------------------------


def test_cut_card_stops_the_next_round_until_the_shoe_is_shuffled() -> None:
    # Standard: cut card about a third from the end, 200-220 cards dealt.
    state, _ = table_fold.apply(None, SelectTable("blackjack", STANDARD))
    assert state.shoe is not None and state.shoe.cut_card_at == 210
    auto = Autoplay("blackjack", STANDARD, seed=3)
    while not state.shoe.cut_card_reached or not state.round_over:
        state, _ = table_fold.apply(state, auto.next_event(state))
        assert state.shoe is not None
    assert 210 <= state.shoe.dealt + state.shoe.burned < 230
    with pytest.raises(Rejected) as refused:
        table_fold.apply(state, OpenRound())
    assert refused.value.reason == "shuffle_due"
    state, _ = table_fold.apply(state, Shuffle())
    state, _ = table_fold.apply(state, OpenRound())
    assert state.shoe.cards_left == 312


@pytest.mark.parametrize("variant", [THREE, DIAMOND])
def test_shuffle_after_every_round(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "9D", "TD")  # 20 against 9 (+ hole card in 3-position)
    if variant == THREE:
        t.deal("8C")
    t.do(1, "stand")
    if variant == DIAMOND:
        t.deal("8C")
    assert t.state.round_over
    t.send(OpenRound("r2"))
    assert t.state.shoe is not None and t.state.shoe.cards_left == 312


# -- the dealer's second card, peeking -----------------------------------------------


def test_three_position_deals_a_hole_card_before_the_players_act() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.bet(2, 10)
    t.close()
    t.deal("9S", "8S", "7D", "9C", "8C")
    assert t.next.kind == "card" and t.next.to == "dealer"
    t.deal("2H")  # the hole card
    assert t.next.kind == "decision" and t.next.to == "box 1 hand 0"


@pytest.mark.parametrize("variant", [LIVE, STANDARD, DIAMOND])
def test_no_hole_card_the_dealer_draws_after_the_players(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("9S", "7D", "9C")
    assert t.next.kind == "decision"
    t.do(1, "stand")
    assert t.next.to == "dealer"


def test_three_position_peeks_on_a_ten_and_ends_the_round_on_a_dealer_blackjack() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.close()
    t.deal("9S", "KD", "8C", "AH")  # dealer K + A hole card
    assert any(o["type"] == "dealer_peeked" and o["blackjack"] for o in t.outputs)
    assert t.hand_result(1) == "lose" and t.returns() == 0


def test_three_position_peeks_on_an_ace_after_insurance() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.close()
    t.deal("9S", "AD", "8C", "KH")
    assert t.next.kind == "insurance"
    t.do(1, "insurance")
    assert any(o["type"] == "dealer_peeked" for o in t.outputs)
    # 17 loses 10; insurance of 5 pays 2:1 and returns 15: the player breaks even
    assert t.returns() == 15 and t.staked() == 15


def test_no_hole_card_dealer_blackjack_comes_after_the_players_acted() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("6S", "TD", "5C")
    t.do(1, "double")
    t.deal("9H")  # 20 on a double
    t.deal("AC")  # the dealer's second card: blackjack
    assert t.settled["dealer"]["blackjack"]
    # ENHC, standard: all bets (docs/rules.md: standard and diamond lose all)
    assert t.returns() == 0 and t.staked() == 20


def test_live_dealer_blackjack_takes_only_the_original_bet() -> None:
    # docs/rules.md resolved ambiguity: live-blackjack loses original bets only.
    t = Table(LIVE)
    t.bet(1, 10)
    t.close()
    t.deal("6S", "TD", "5C")
    t.do(1, "double")
    t.deal("9H", "AC")
    assert t.staked() == 20 and t.returns() == 10


def test_live_dealer_blackjack_after_a_split_takes_one_hand_only() -> None:
    t = Table(LIVE)
    t.bet(1, 10)
    t.close()
    t.deal("8S", "TD", "8C")
    t.do(1, "split")
    t.deal("2H")
    t.do(1, "stand")
    t.deal("3H")
    t.do(1, "stand")
    t.deal("AC")
    assert t.staked() == 20 and t.returns() == 10


# -- blackjack against blackjack, payouts --------------------------------------------


@pytest.mark.parametrize(("variant", "returns"), [(LIVE, 10), (STANDARD, 10), (DIAMOND, 20)])
def test_player_blackjack_against_dealer_blackjack(variant: str, returns: int) -> None:
    # push in live/standard; "player blackjack always wins" in Diamond, at its
    # ordinary 1:1 (docs/rules.md, "Resolved ambiguities": Wizard of Odds' analysis)
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "KD", "KC")  # player blackjack, dealer K up
    if variant == DIAMOND:
        # A Diamond blackjack always wins: it is paid and the dealer need not draw.
        assert t.state.round_over
    else:
        t.deal("AH")  # the dealer's second card makes blackjack
        assert t.settled["dealer"]["blackjack"]
    assert t.returns() == returns


def test_three_position_player_blackjack_pushes_a_peeked_dealer_blackjack() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "KD", "KC", "AH")
    assert t.returns() == 10


def test_live_pays_blackjack_at_once_when_the_up_card_is_2_to_9() -> None:
    t = Table(LIVE)
    t.bet(1, 10)
    t.bet(2, 10, player="p2")
    t.close()
    t.deal("AS", "9D", "7H", "KC", "8D")
    paid = [o for o in t.outputs if o["type"] == "blackjack_paid"]
    assert paid and paid[0]["payouts"][0]["returns"] == "25"
    assert t.next.to == "box 2 hand 0"  # box 1 is done, play goes on


def test_live_does_not_pay_blackjack_at_once_against_a_ten() -> None:
    t = Table(LIVE)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "TD", "KC")
    assert not [o for o in t.outputs if o["type"] == "blackjack_paid"]


@pytest.mark.parametrize(
    ("variant", "cards", "returns"),
    [
        (DIAMOND, ("AD", "QD"), 30),  # both diamonds: 2:1
        (DIAMOND, ("AD", "QS"), 20),  # otherwise 1:1 (docs/rules.md, "Resolved ambiguities")
        (ZERO_EDGE, ("AD", "KD"), 85),  # K and A of diamonds: 15:2
        (ZERO_EDGE, ("AD", "QD"), 50),  # other all-diamond blackjacks: 4:1
        (ZERO_EDGE, ("AH", "KD"), 20),  # 1:1, as the Diamond it extends
        (STANDARD, ("AD", "QD"), 25),  # suits do not matter elsewhere
    ],
)
def test_blackjack_payouts(variant: str, cards: tuple[str, str], returns: int) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal(cards[0], "7C", cards[1])
    if not t.state.round_over:
        t.deal("TC")  # dealer 17
    assert t.returns() == returns


# -- splits -------------------------------------------------------------------------


def test_live_splits_same_rank_only() -> None:
    t = Table(LIVE)
    t.bet(1, 10)
    t.close()
    t.deal("KS", "6D", "TC")
    assert t.refuse(t.decision(1, "split")) == "split_not_allowed_same_rank_only"
    assert "split" not in t.next.options


@pytest.mark.parametrize("variant", [STANDARD, DIAMOND])
def test_same_value_splits(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("KS", "6D", "TC")
    t.do(1, "split")
    assert len(t.state.round.box(1).hands) == 2


def _split_eights(variant: str, times: int) -> Table:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("8S", "6D", "8C")
    if variant == THREE:
        t.deal("9H")  # the hole card
    t.do(1, "split")
    for _ in range(times - 1):
        t.deal("8D")  # each new hand gets another 8
        t.do(1, "split", hand=0)
    t.deal("8H")
    return t


def test_live_allows_two_hands_only() -> None:
    t = _split_eights(LIVE, 1)
    assert t.refuse(t.decision(1, "split", hand=0)) == "split_limit_reached"


@pytest.mark.parametrize("variant", [THREE, STANDARD, DIAMOND])
def test_resplit_to_four_hands(variant: str) -> None:
    t = _split_eights(variant, 3)
    assert len(t.state.round.box(1).hands) == 4
    assert t.refuse(t.decision(1, "split", hand=0)) == "split_limit_reached"


@pytest.mark.parametrize(
    ("variant", "allowed"), [(THREE, False), (STANDARD, True), (DIAMOND, True)]
)
def test_resplit_aces(variant: str, allowed: bool) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "6D", "AC")
    if variant == THREE:
        t.deal("7H")  # hole card
    t.do(1, "split")
    t.deal("AD")  # the first split ace draws another ace
    if allowed:
        assert "split" in t.next.options and "hit" not in t.next.options
        t.do(1, "split", hand=0)
        assert len(t.state.round.box(1).hands) == 3
    else:
        # the split ace has its one card: play moves to the second hand
        assert t.next == NextStep.at_hand("card", 1, 1)


def test_split_aces_take_one_card_and_a_ten_on_them_is_21_not_blackjack() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "9D", "AC")
    t.do(1, "split")
    t.deal("KD")  # 21 on a split ace
    assert t.next == NextStep.at_hand("card", 1, 1)
    t.deal("5H")  # soft 16, and it must stand: split aces get one card
    assert t.next.to == "dealer"
    t.deal("TH")  # dealer 19
    assert t.settled["boxes"][0]["hands"][0]["result"] == "win"
    assert t.returns() == 20  # 21 after a split pays even money, not 3:2


# -- doubles ------------------------------------------------------------------------


# docs/rules.md, "Resolved ambiguities": Live's double "after the first two cards are
# dealt" includes a split hand's first two.
@pytest.mark.parametrize("variant", [LIVE, THREE, STANDARD, DIAMOND])
def test_double_after_split(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("8S", "6D", "8C")
    if variant == THREE:
        t.deal("9H")
    t.do(1, "split")
    t.deal("3H")
    t.do(1, "double")
    assert t.state.round.box(1).hands[0].doubled


@pytest.mark.parametrize("variant", [STANDARD, DIAMOND])
def test_no_double_on_split_aces(variant: str) -> None:
    # Where aces may be re-split, a split ace that draws an ace waits for a
    # decision; doubling it is refused. (In 3-position a split ace stands on its
    # one card, so no decision is ever asked: see test_resplit_aces.)
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "6D", "AC")
    t.do(1, "split")
    t.deal("AD")
    assert t.refuse(t.decision(1, "double")) == "double_not_allowed_after_split_aces"


@pytest.mark.parametrize(
    ("variant", "allowed"), [(LIVE, False), (STANDARD, False), (DIAMOND, True)]
)
def test_double_on_three_cards(variant: str, allowed: bool) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("2S", "6D", "3C")
    t.do(1, "hit")
    t.deal("5H")  # 10 on three cards
    if allowed:
        t.do(1, "double")
        t.deal("TH")
        assert t.state.round.box(1).hands[0].doubled
    else:
        assert t.refuse(t.decision(1, "double")) == "double_only_on_first_two_cards"


# -- surrender ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", [LIVE, THREE])
def test_no_surrender(variant: str) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "9D", "6C")
    if variant == THREE:
        t.deal("5H")
    assert t.refuse(t.decision(1, "surrender")) == "surrender_not_offered"


def test_standard_late_surrender_first_two_cards_returns_half() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "6D", "6C")
    t.do(1, "surrender")
    assert t.state.round_over  # a 6 makes no blackjack: nothing left to play for
    assert t.returns() == 5


def test_standard_late_surrender_against_a_ten_waits_for_the_dealers_second_card() -> None:
    # docs/rules.md: Standard's surrender is "late": it stands only if the dealer has
    # no blackjack. With no hole card, that is known from the second card.
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "TD", "6C")
    t.do(1, "surrender")
    assert not t.state.round_over
    assert t.next.kind == "card"
    t.deal("7H")
    assert t.state.round_over
    assert t.returns() == 5


def test_standard_late_surrender_loses_the_whole_stake_to_a_dealer_blackjack() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "AD", "6C")
    t.close_insurance()
    t.do(1, "surrender")
    t.deal("KH")
    assert t.state.round_over
    assert t.returns() == 0


def test_diamond_surrender_is_final_even_against_a_dealer_blackjack() -> None:
    # The seed: "if the player surrenders, he loses half his bet and the game on
    # this box is over; the other half is returned".
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.bet(2, 10)
    t.close()
    t.deal("TS", "9S", "AD", "6C", "9C")
    t.close_insurance()
    t.do(1, "surrender")
    t.do(2, "stand")
    t.deal("KH")  # dealer blackjack
    assert t.state.round_over
    assert t.returns() == 5  # box 1's half; box 2's 18 loses


def test_standard_surrender_not_after_a_hit_nor_after_a_split() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.bet(2, 10)
    t.close()
    t.deal("2S", "8S", "TD", "3C", "8D")
    t.do(1, "hit")
    t.deal("TH")  # 15 on three cards
    assert t.refuse(t.decision(1, "surrender")) == "surrender_only_on_first_two_cards"
    t.do(1, "stand")
    t.do(2, "split")
    t.deal("8H")
    assert t.refuse(t.decision(2, "surrender", hand=0)) == "surrender_not_allowed_after_split"


def test_diamond_surrenders_any_cards_after_split_and_after_double() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.close()
    t.deal("8S", "TD", "8C")
    t.do(1, "split")
    t.deal("2H")
    t.do(1, "double")
    t.deal("3C")  # 13 on a doubled hand: Diamond still lets it surrender
    assert t.next.options == ("stand", "surrender", "stand_all")
    t.do(1, "surrender", hand=0)
    t.deal("5H")
    t.do(1, "hit", hand=1)
    t.deal("2D")  # 15 on three cards
    t.do(1, "surrender", hand=1)
    assert t.state.round_over
    # half of 20 on the doubled hand, half of 10 on the other
    assert t.returns() == 15


def test_diamond_no_surrender_on_split_aces() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "TD", "AC")
    t.do(1, "split")
    t.deal("AD")
    assert t.refuse(t.decision(1, "surrender")) == "surrender_not_allowed_on_split_aces"


# -- insurance and even money -------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "kind"),
    [(LIVE, "insurance"), (THREE, "even_money"), (STANDARD, "even_money"), (DIAMOND, None)],
)
def test_what_a_blackjack_is_offered_against_an_ace(variant: str, kind: str | None) -> None:
    t = Table(variant)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "AD", "KC")
    if variant == THREE:
        t.deal("7H")
    offers = [o for o in t.outputs if o["type"] == "insurance_offered"]
    if kind is None:
        assert not offers
    else:
        assert offers[0]["offers"] == [{"box": 1, "player": "p1", "kind": kind}]


def test_even_money_pays_one_to_one_at_once() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("AS", "AD", "KC")
    t.do(1, "even_money")
    # paid 1:1 at once: nothing waits on the dealer's second card
    assert t.state.round_over and t.settled["dealer"]["cards"] == ["AD"]
    assert t.returns() == 20


def test_insurance_pays_two_to_one_on_a_dealer_blackjack() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "AD", "9C")
    t.do(1, "insurance")
    t.do(1, "stand")
    t.deal("KH")
    # 19 loses 10; insurance 5 returns 15
    assert t.returns("p1", "insurance") == 15 and t.returns() == 15


def test_insurance_not_taken_when_the_offer_times_out() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "AD", "9C")
    t.close_insurance()
    assert t.next.kind == "decision"


# -- side bets (Diamond) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "hit", "sevens_returns"),
    [
        (("7S", "9D"), None, 5 * 9),  # first card 7: 8:1
        (("7S", "7D"), None, 5 * 41),  # first two 7s: 40:1
        (("7S", "7D"), "7C", 5 * 251),  # three 7s in one hand: 250:1
        (("6S", "7D"), None, 0),
    ],
)
def test_sevens(cards: tuple[str, str], hit: str | None, sevens_returns: int) -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.bet(1, 5, spot="bonus_sevens")
    t.close()
    t.deal(cards[0], "TC", cards[1])
    if hit:
        t.do(1, "hit")
        t.deal(hit)
    else:
        t.do(1, "stand")
    while not t.state.round_over:
        t.deal("8H")
    assert t.returns("p1", "bonus_sevens") == sevens_returns


def test_sevens_after_splitting_sevens_pays_two_sevens_only() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.bet(1, 5, spot="bonus_sevens")
    t.close()
    t.deal("7S", "TC", "7D")
    t.do(1, "split")
    t.deal("7C")  # a third seven, but in a split hand
    t.do(1, "stand")
    t.deal("TD")
    t.do(1, "stand")
    t.deal("8H")
    assert t.returns("p1", "bonus_sevens") == 5 * 41


def test_bonus_blackjack_pays_19_to_1_and_is_capped_at_20() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.bet(1, 20, spot="bonus_blackjack")
    assert t.refuse(PlaceBet("p1", "bonus_blackjack", Decimal(1), box=1)) == "above_table_maximum"
    t.close()
    t.deal("AS", "7C", "KD")  # a Diamond blackjack is paid at once
    assert t.returns("p1", "bonus_blackjack") == 20 * 20


def test_side_bets_are_not_offered_in_standard() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    assert t.refuse(PlaceBet("p1", "bonus_sevens", Decimal(5), box=1)) == "unknown_spot"


# -- the dealer with no live hands ------------------------------------------------------


def test_dealer_takes_no_card_when_every_box_is_bust() -> None:
    # standard-blackjack.cs.txt: "if all players bust, the dealer discards his one card"
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "6D", "5C")
    t.do(1, "hit")
    t.deal("KH")
    assert t.state.round_over
    assert t.settled["dealer"]["cards"] == ["6D"]


def test_dealer_takes_one_card_only_when_a_blackjack_waits_on_it() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.bet(2, 10)
    t.close()
    t.deal("AS", "TS", "KD", "KC", "6H")
    t.do(2, "hit")
    t.deal("9H")  # box 2 busts; box 1's blackjack waits on the dealer's second card
    assert t.next.to == "dealer"
    t.deal("5C")  # dealer K+5 = 15 would draw, but nothing live is left
    assert t.state.round_over
    assert t.returns() == 25


# -- stand all (Diamond) ------------------------------------------------------------------


def test_diamond_stand_all_stands_every_remaining_hand() -> None:
    t = Table(DIAMOND)
    t.bet(1, 10)
    t.bet(2, 10)
    t.bet(3, 10)
    t.close()
    t.deal("TS", "9S", "5S", "7D", "2C", "8C", "3C")
    t.do(1, "stand_all")
    assert t.next.to == "dealer"
    assert [h.stood for b in t.state.round.boxes for h in b.hands] == [True, True, True]


def test_stand_all_is_diamond_only() -> None:
    t = Table(STANDARD)
    t.bet(1, 10)
    t.close()
    t.deal("TS", "7D", "2C")
    assert t.refuse(t.decision(1, "stand_all")) == "stand_all_not_offered"
