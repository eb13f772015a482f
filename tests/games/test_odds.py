"""Exact odds against published figures.

Sources:
- Wizard of Odds, baccarat page (wizardofodds.com/games/baccarat/): 8-deck counts
  Banker 2,292,252,566,437,888; Player 2,230,518,282,592,256; Tie
  475,627,426,473,216; total 4,998,398,275,503,360; house edges Banker 1.0579%,
  Player 1.2351%, Tie 8:1 14.3596%, Player/Banker Pair 11:1 10.3614%.
- casinoexploit.com/baccarat.html, "Probabilities in 6-deck Baccarat" (Wizard of
  Odds' tables): Banker 403,095,751,234,560; Player 392,220,492,728,832; Tie
  83,552,962,932,288.
- multiplayerbaccarat.com/odds.html (after Thorp, "The Mathematics of Gambling"):
  6 decks Banker 1.0558%, Banker at 4% 0.5972%, Player 1.2374%, Tie 9:1 4.9313%,
  Tie 8:1 14.4382%; 8 decks Banker at 4% 0.5993%, Tie 9:1 4.8440%.
- Wizard of Odds, roulette page: every single-zero bet has a 2.70% house edge (1/37).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from dealer_station.cli import main
from dealer_station.games.baccarat import BaccaratRules
from dealer_station.games.baccarat_odds import count_outcomes, odds
from dealer_station.games.roulette import RouletteRules, house_edges
from dealer_station.games.roulette_layout import BET_TYPES
from dealer_station.games.stakes import SpotRules


def percent(edge: Fraction) -> float:
    return float(edge) * 100


def test_eight_deck_counts_to_the_last_digit() -> None:
    counts = count_outcomes(8)
    assert counts.banker == 2_292_252_566_437_888
    assert counts.player == 2_230_518_282_592_256
    assert counts.tie == 475_627_426_473_216
    assert counts.total == 4_998_398_275_503_360 == 416 * 415 * 414 * 413 * 412 * 411


def test_six_deck_counts_to_the_last_digit() -> None:
    counts = count_outcomes(6)
    assert (counts.banker, counts.player, counts.tie) == (
        403_095_751_234_560,
        392_220_492_728_832,
        83_552_962_932_288,
    )


@pytest.mark.parametrize("decks", range(1, 9))
def test_total_counts_every_ordered_six_card_sequence(decks: int) -> None:
    n = 52 * decks
    assert count_outcomes(decks).total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)


def test_eight_deck_house_edges() -> None:
    edge = odds(BaccaratRules(decks=8)).house_edge
    assert percent(edge["banker"]) == pytest.approx(1.0579, abs=5e-5)
    assert percent(edge["player"]) == pytest.approx(1.2351, abs=5e-5)
    assert percent(edge["tie"]) == pytest.approx(14.3596, abs=5e-5)
    assert percent(edge["player_pair"]) == pytest.approx(10.3614, abs=5e-5)
    assert percent(edge["banker_pair"]) == pytest.approx(10.3614, abs=5e-5)


def test_pair_probability_is_the_chance_the_second_card_matches_the_first_rank() -> None:
    # 8 decks: after any first card, 31 of the other 415 cards share its rank.
    result = odds(BaccaratRules(decks=8))
    assert (
        result.probability["player_pair"] == result.probability["banker_pair"] == Fraction(31, 415)
    )


def test_six_deck_house_edges() -> None:
    edge = odds(BaccaratRules(decks=6)).house_edge
    assert percent(edge["banker"]) == pytest.approx(1.0558, abs=5e-5)
    assert percent(edge["player"]) == pytest.approx(1.2374, abs=5e-5)
    assert percent(edge["tie"]) == pytest.approx(14.4382, abs=5e-5)


@pytest.mark.parametrize(
    ("decks", "banker_4_percent", "tie_9_to_1"), [(8, 0.5993, 4.8440), (6, 0.5972, 4.9313)]
)
def test_house_edges_follow_the_variants_payouts(
    decks: int, banker_4_percent: float, tie_9_to_1: float
) -> None:
    rules = BaccaratRules(decks=decks, commission=Decimal("0.04"), tie=SpotRules("9:1"))
    edge = odds(rules).house_edge
    assert percent(edge["banker"]) == pytest.approx(banker_4_percent, abs=5e-5)
    assert percent(edge["tie"]) == pytest.approx(tie_9_to_1, abs=5e-5)


def test_every_roulette_bet_has_the_single_zero_edge() -> None:
    edges = house_edges(RouletteRules())
    assert set(edges) == set(BET_TYPES)
    for bet_type, bet in edges.items():
        assert bet.house_edge == Fraction(1, 37), bet_type
        assert percent(bet.house_edge) == pytest.approx(2.7027, abs=5e-5)


def test_roulette_edge_follows_the_payout() -> None:
    # A straight up paying 34:1 returns 35 of every 37 units: an edge of 2/37.
    rules = RouletteRules(straight=SpotRules("34:1"))
    assert house_edges(rules)["straight"].house_edge == Fraction(2, 37)


# --- the command ------------------------------------------------------------


def test_odds_baccarat_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "baccarat", "--decks", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    counts = report["counts"]
    assert (counts["banker"], counts["player"], counts["tie"], counts["total"]) == (
        2_292_252_566_437_888,
        2_230_518_282_592_256,
        475_627_426_473_216,
        4_998_398_275_503_360,
    )
    assert counts["player_pair"] * 415 == counts["banker_pair"] * 415 == 31 * counts["total"]
    assert report["decks"] == 8
    assert report["probability"]["tie"] == pytest.approx(
        475_627_426_473_216 / 4_998_398_275_503_360
    )
    assert report["house_edge"]["banker"] == pytest.approx(0.010579, abs=5e-7)
    assert report["house_edge"]["player_pair"] == pytest.approx(0.103614, abs=5e-7)


def test_odds_baccarat_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "baccarat"]) == 0
    text = capsys.readouterr().out
    for figure in ("2,292,252,566,437,888", "1.0579%", "1.2351%", "14.3596%", "10.3614%"):
        assert figure in text


def test_odds_baccarat_other_decks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "baccarat", "--decks", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["tie"] == 83_552_962_932_288


def test_odds_baccarat_refuses_an_impossible_shoe(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "baccarat", "--decks", "0"]) == 2
    assert "decks" in capsys.readouterr().err


def test_odds_roulette(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "roulette", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["bets"]) == set(BET_TYPES)
    assert {bet["house_edge_exact"] for bet in report["bets"].values()} == {"1/37"}
    assert main(["odds", "roulette"]) == 0
    assert capsys.readouterr().out.count("2.7027%") == len(BET_TYPES)
