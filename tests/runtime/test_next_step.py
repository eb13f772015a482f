"""What the table waits for, typed: a step's kind, and the box and hand it goes
to as numbers (never a label parsed back), the wire's ``next.to`` and step id
unchanged, and one caption for the croupier, counting hands from 1."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest

from dealer_station import preconditions
from dealer_station.games import table
from dealer_station.games.cards import parse_card
from dealer_station.games.engine import NextStep
from dealer_station.games.events import (
    CardUnread,
    CloseBets,
    DealCard,
    Decision,
    Event,
    OpenRound,
    PlaceBet,
    SelectTable,
)
from dealer_station.round_view import place_text, table_view

PACKAGE = Path(preconditions.__file__).parent


def _fold(*events: Event) -> table.TableState:
    state = None
    for event in events:
        state, _ = table.apply(state, event)
    assert state is not None
    return state


def _split_eights_in_box_3(*more: Event) -> table.TableState:
    return _fold(
        SelectTable("blackjack", "standard-blackjack"),
        OpenRound("r1"),
        PlaceBet("ann", "main", Decimal(10), box=3),
        CloseBets(),
        *(DealCard(parse_card(c)) for c in ("8S", "6D", "8C")),
        *more,
    )


def test_a_hands_step_carries_its_box_and_hand_as_numbers() -> None:
    state = _split_eights_in_box_3(Decision(box=3, action="split"), DealCard(parse_card("3H")))
    step = state.next_step()
    assert (step.kind, step.box, step.hand) == ("decision", 3, 0)
    assert step.place == ""
    held = table.apply(_split_eights_in_box_3(Decision(box=3, action="split")), CardUnread())[0]
    assert held.next_step() == NextStep.at_hand("pit_boss", 3, 0)
    assert NextStep("card", "dealer").box is None


def test_the_wire_has_the_same_next_and_step_id() -> None:
    # The label of next.to counts hands from 0, as the engine's records do.
    state = _split_eights_in_box_3(Decision(box=3, action="split"))
    assert table_view(state)["next"] == {"kind": "card", "to": "box 3 hand 0"}
    assert preconditions.step_id(state) == "r1/card:box-3-hand-0/3"
    held = table.apply(state, CardUnread())[0]
    assert table_view(held)["next"] == {"kind": "pit_boss", "to": "box 3 hand 0"}
    assert preconditions.step_id(held) == "r1/pit_boss:box-3-hand-0/3"
    assert held.card_due_to() == "box 3 hand 0"


def test_the_caption_counts_hands_from_one() -> None:
    assert place_text(NextStep.at_hand("decision", 3, 1)) == "BOX 3 - HAND 2"
    assert place_text(NextStep("card", "banker")) == "BANKER"
    state = _split_eights_in_box_3(Decision(box=3, action="split"), DealCard(parse_card("3H")))
    assert table_view(state)["action"] == "DECISION: BOX 3 - HAND 1"


def test_a_step_goes_to_a_hand_or_to_a_place_never_both() -> None:
    with pytest.raises(ValueError):
        NextStep("card", "dealer", box=1, hand=0)
    with pytest.raises(ValueError):
        NextStep("card", box=1)


def test_no_module_parses_a_steps_label_back() -> None:
    # The label is for the wire; code reads step.box and step.hand. A split of
    # `<x>.to`, or of a name `to` or `label`, is a label parsed back.
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("split", "rsplit", "partition"):
                continue
            target = node.func.value
            if (isinstance(target, ast.Attribute) and target.attr == "to") or (
                isinstance(target, ast.Name) and target.id in ("to", "label")
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []
