"""One decision at the table: each action's value, the best action, what a
decision gives up, and the `strategy` command."""

from __future__ import annotations

import json

import pytest

from dealer_station.cli import main
from dealer_station.games.blackjack_rules import load_variant
from dealer_station.games.blackjack_strategy import decision_evs
from dealer_station.games.blackjack_strategy_table import (
    basic_action,
    build,
    deviation_warning,
    ev_loss,
)
from dealer_station.games.cards import parse_card, parse_cards


def evs(variant: str, hand: str, up: str, **spot: object) -> dict[str, float]:
    return decision_evs(load_variant(variant), parse_cards(hand), parse_card(up), **spot)  # type: ignore[arg-type]


def test_standing_on_hard_11_is_a_very_bad_decision() -> None:
    # Diamond Blackjack's own example of a decision worth a warning.
    rules = load_variant("diamond-blackjack")
    loss = ev_loss(rules, build(rules), parse_cards("5C 6D"), parse_card("7H"), "stand")
    assert loss > 0.5
    assert (
        basic_action(
            rules, parse_cards("5C 6D"), parse_card("7H"), ["hit", "stand", "double"], False
        )
        == "double"
    )
    assert ev_loss(rules, build(rules), parse_cards("5C 6D"), parse_card("7H"), "double") == 0.0


def test_a_deviation_beyond_the_threshold_is_worded_for_the_journal() -> None:
    rules = load_variant("diamond-blackjack")
    hand, up = parse_cards("5C 6D"), parse_card("7H")
    loss = ev_loss(rules, build(rules), hand, up, "stand")
    assert deviation_warning(rules, build(rules), hand, up, "stand", 0.1) == (
        f"deviates from basic strategy, EV -{loss:.2f}"
    )
    assert deviation_warning(rules, build(rules), hand, up, "stand", loss) is None
    assert deviation_warning(rules, build(rules), hand, up, "double", 0.0) is None
    # Stand All is standing this hand.
    assert ev_loss(rules, build(rules), hand, up, "stand_all") == loss


def test_the_basic_strategy_action_is_a_legal_one() -> None:
    rules = load_variant("standard-blackjack")
    hand, up = parse_cards("5C 6D"), parse_card("7H")
    assert basic_action(rules, hand, up, ["hit", "stand", "double"], False) == "double"
    assert basic_action(rules, hand, up, ["hit", "stand"], False) == "hit"


def test_actions_follow_the_variant() -> None:
    # Surrender only where the variant has it; first two cards unless "any".
    assert "surrender" not in evs("blackjack-3-position", "TD 6S", "TH")
    assert "surrender" in evs("standard-blackjack", "TD 6S", "TH")
    assert "surrender" not in evs("standard-blackjack", "TD 2S 4H", "TH")
    assert "surrender" in evs("diamond-blackjack", "TD 2S 4H", "TH")
    # Doubling on three cards only in Diamond.
    assert "double" not in evs("standard-blackjack", "2D 3S 4H", "6H")
    assert "double" in evs("diamond-blackjack", "2D 3S 4H", "6H")
    # A doubled Diamond hand may still surrender; nothing else.
    assert set(evs("diamond-blackjack", "5D 6S 4H", "AH", doubled=True)) == {"stand", "surrender"}
    # Live Blackjack splits only the same rank, once.
    assert "split" in evs("live-blackjack", "KD KS", "6H")
    assert "split" not in evs("live-blackjack", "KD QS", "6H")
    assert "split" not in evs("live-blackjack", "8D 8S", "6H", hands_in_box=2)
    # No re-splitting aces in 3-position, re-splitting them in Standard.
    assert "split" not in evs("blackjack-3-position", "AD AS", "6H", hands_in_box=2)
    assert "split" in evs("standard-blackjack", "AD AS", "6H", hands_in_box=2)
    assert "split" not in evs("standard-blackjack", "8D 8S", "6H", hands_in_box=4)


def test_a_hand_without_a_decision_is_refused() -> None:
    rules = load_variant("standard-blackjack")
    with pytest.raises(ValueError, match="no decision"):
        decision_evs(rules, parse_cards("TD 6S 8H"), parse_card("6H"))
    with pytest.raises(ValueError, match="not an action"):
        ev_loss(rules, build(rules), parse_cards("TD 6S"), parse_card("6H"), "split")


def test_peek_values_are_given_no_dealer_blackjack() -> None:
    # After the peek the player knows the ace hides no ten: standing on 20
    # against it wins more than without a peek (where a blackjack can follow).
    peek = evs("blackjack-3-position", "TD TS", "AH")["stand"]
    late = evs("standard-blackjack", "TD TS", "AH")["stand"]
    assert peek > 0.5 > late


def test_strategy_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["strategy", "--variant", "diamond-blackjack", "--hand", "TD 6S", "--up", "AH"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best"] == "surrender"
    assert out["basic_strategy"] == "surrender"
    assert out["evs"]["surrender"] == pytest.approx(-0.5)
    assert set(out["evs"]) == {"stand", "hit", "double", "surrender"}
    assert main(args) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "TD 6S against AH (Diamond Blackjack): surrender"
    assert text.splitlines()[-1] == "basic strategy: surrender"
    assert main(["strategy", "--hand", "TD XS", "--up", "AH"]) == 2
