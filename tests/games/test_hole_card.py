"""The hole card in the rules: dealt face down, revealed by the rules, and
never published before (dealer_station/visibility.py, round_view.py).

Expected values come from docs/rules.md's 3-position rows (hole card, peek on a ten
and on an ace after insurance) and from docs/mqtt.md's visibility section.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
from support.blackjack_table import Table

from dealer_station import visibility
from dealer_station.autoplay import Autoplay
from dealer_station.config import BurnCards
from dealer_station.games import table as table_fold
from dealer_station.games.blackjack_rules import load_variant
from dealer_station.games.cards import parse_card
from dealer_station.games.events import BurnCard, DealCard, VoidRound
from dealer_station.round_outputs import parse_outputs, to_json
from dealer_station.round_view import table_view

THREE = "blackjack-3-position"


def hole_card_variants() -> list[str]:
    """Every shipped blackjack variant with a hole card: a new one is covered
    as soon as its file ships."""
    names = []
    for item in (resources.files("dealer_station.games") / "variants").iterdir():
        name = item.name.removesuffix(".toml")
        text = item.read_text()
        if 'game = "blackjack"' in text and load_variant(name).hole_card:
            names.append(name)
    return sorted(names)


def test_the_three_position_variant_is_found() -> None:
    assert THREE in hole_card_variants()


def types(outputs: list[dict[str, Any]]) -> list[str]:
    return [o["type"] for o in outputs]


def public(outputs: list[dict[str, Any]], burn_cards: BurnCards) -> list[dict[str, Any]]:
    """The engine's outputs as the station publishes them."""
    return [to_json(o) for o in visibility.public_outputs(parse_outputs(outputs), burn_cards)]


def two_boxes_dealt(up: str, hole: str) -> Table:
    t = Table(THREE)
    t.bet(1, 10)
    t.bet(2, 10)
    t.close()
    t.deal("9S", "8S", up, "7C", "8C")
    assert (t.next.kind, t.next.to) == ("card", "dealer")
    t.deal(hole)
    return t


def test_the_hole_card_is_dealt_face_down_and_the_round_knows() -> None:
    t = two_boxes_dealt("9D", "QH")
    dealt = [o for o in t.outputs if o["type"] == "card_dealt"]
    assert [o["face"] for o in dealt] == ["up"] * 5 + ["down"]
    assert t.state.round.hole_card == "face_down"
    assert "hole_card_revealed" not in types(t.outputs)


def test_the_dealer_turns_the_hole_card_over_when_the_dealer_plays() -> None:
    t = two_boxes_dealt("9D", "QH")
    t.do(1, "stand")
    before = len(t.outputs)
    t.do(2, "stand")
    after = t.outputs[before:]
    assert types(after) == [
        "decision",
        "hole_card_revealed",
        "dealer_stands",
        "round_settled",
    ]
    assert after[1] == {
        "type": "hole_card_revealed",
        "card": "QH",
        "cards": ["9D", "QH"],
        "total": 19,
        "soft": False,
        "why": "dealer_plays",
    }
    assert t.state.round.hole_card == "revealed"


def test_a_peek_without_blackjack_says_so_and_keeps_the_card_down() -> None:
    t = two_boxes_dealt("TD", "7H")
    peeked = [o for o in t.outputs if o["type"] == "dealer_peeked"]
    assert peeked == [{"type": "dealer_peeked", "blackjack": False}]
    assert t.state.round.hole_card == "face_down"
    assert t.next.kind == "decision"


def test_a_peek_that_finds_blackjack_reveals_it_and_ends_the_round() -> None:
    t = two_boxes_dealt("TD", "AH")
    tail = types(t.outputs)[-4:]
    assert tail == ["card_dealt", "dealer_peeked", "hole_card_revealed", "round_settled"]
    revealed = t.outputs[-2]
    assert (revealed["card"], revealed["total"], revealed["why"]) == ("AH", 21, "dealer_blackjack")


def test_an_ace_up_peeks_after_insurance_and_a_void_reveals_the_card() -> None:
    t = two_boxes_dealt("AD", "6H")
    assert t.next.kind == "insurance"
    t.close_insurance()
    assert {"type": "dealer_peeked", "blackjack": False} in t.outputs
    outputs = t.send(VoidRound("dealer error"))
    assert types(outputs) == ["hole_card_revealed", "round_void", "round_settled"]
    assert (outputs[0]["card"], outputs[0]["why"]) == ("6H", "round_void")


def test_a_void_before_the_hole_card_reveals_nothing() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.close()
    t.deal("9S", "5D")
    assert types(t.send(VoidRound("shoe fault"))) == ["round_void", "round_settled"]


def test_the_published_view_and_outputs_show_a_face_down_card_without_its_value() -> None:
    t = two_boxes_dealt("AD", "KH")
    dealer = table_view(t.state)["table"]["dealer"]
    assert dealer == {
        "cards": ["AD"],
        "face_down": 1,
        "total": 11,
        "soft": True,
        "total_of": "face_up",
    }
    hole = next(o for o in t.outputs if o.get("face") == "down")
    assert public([hole], "hidden") == [
        {
            "type": "card_dealt",
            "to": "dealer",
            "face": "down",
        }
    ]
    t.close_insurance()  # the peek finds AD KH: blackjack, the card is turned over
    dealer = table_view(t.state)["table"]["dealer"]
    assert (dealer["cards"], dealer["face_down"], dealer["total"]) == (["AD", "KH"], 0, 21)


def test_burns_follow_the_studio_setting() -> None:
    t = Table(THREE)
    burned = next(o for o in t.send(BurnCard(parse_card("5C"))) if o["type"] == "burned")
    assert public([burned], "hidden") == [{"type": "burned", "face": "burnt"}]
    assert public([burned], "shown") == [
        {
            "type": "burned",
            "card": "5C",
            "face": "burnt",
        }
    ]


def test_no_refused_card_is_echoed_while_the_hole_card_is_due_or_face_down() -> None:
    t = Table(THREE)
    t.bet(1, 10)
    t.close()
    raw = {"type": "manual_card", "card": "QS"}
    before_hole = t.state
    t.deal("9S", "8D", "7C")
    due = t.state
    t.deal("QH")
    face_down = t.state
    t.do(1, "stand")
    revealed = t.state
    assert [visibility.withheld_face(raw, s, "hidden") for s in (before_hole, due, face_down)] == [
        None,
        "down",
        "down",
    ]
    assert visibility.withheld_face(raw, revealed, "hidden") is None
    assert visibility.public_refusal(raw, "QS cannot come from this shoe", "down") == (
        {"type": "manual_card", "face": "down"},
        "(face down) cannot come from this shoe",
    )
    burn = {"type": "burn", "card": "QS"}
    assert visibility.withheld_face(burn, before_hole, "hidden") == "burnt"
    assert visibility.withheld_face(burn, before_hole, "shown") is None


@pytest.mark.parametrize("variant", hole_card_variants())
def test_every_round_turns_its_hole_card_over_before_it_settles(variant: str) -> None:
    """Many rounds played by the autoplay: a hole card dealt face down is
    revealed exactly once, before the settlement; until then the public
    outputs and the view hold no value of it."""
    play = Autoplay("blackjack", variant, seed=13)
    state = None
    hole: str | None = None
    revealed: list[dict[str, Any]] = []
    rounds = 0
    while rounds < 150:
        event = play.next_event(state)
        state, outputs = table_fold.apply(state, event)
        for out in public(outputs, "hidden"):
            if out.get("face") == "down":
                assert set(out) == {"type", "to", "face"}
                assert isinstance(event, DealCard)
                hole = str(event.card)
        revealed += [o for o in outputs if o["type"] == "hole_card_revealed"]
        if state.round is not None and state.round.hole_card == "face_down":
            dealer = table_view(state)["table"]["dealer"]
            assert len(dealer["cards"]) == 1 and dealer["face_down"] == 1
            assert dealer["total_of"] == "face_up"
        if "round_settled" in types(outputs):
            rounds += 1
            assert [o["card"] for o in revealed] == ([hole] if hole else []), f"round {rounds}"
            if "hole_card_revealed" in types(outputs):
                order = types(outputs)
                assert order.index("hole_card_revealed") < order.index("round_settled")
            hole, revealed = None, []
