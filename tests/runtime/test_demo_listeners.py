"""What only the demo does, it does from listeners of its own on the tables:
its simulated shoe is refilled when the table's shoe is shuffled, and its
recorded wheel is told when the table waits for a spin."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from dealer_station.demo import launch_when_due, reshuffle_with_the_table
from dealer_station.games.cards import parse_card
from dealer_station.games.shoe import Shoe


def table(shoe: Shoe | None, step: str = "card") -> Any:
    next_step = SimpleNamespace(kind=step)
    state = SimpleNamespace(shoe=shoe, next_step=lambda: next_step)
    return SimpleNamespace(state=state, listeners=[])


def changed(actor: Any, **state: Any) -> None:
    for name, value in state.items():
        setattr(actor.state, name, value)
    for listener in actor.listeners:
        listener(actor)


def test_the_simulated_shoe_is_refilled_when_the_table_shuffles() -> None:
    shoe = Shoe.new(1, cut_card_at=40)
    actor = table(shoe)
    simulator = SimpleNamespace(cards_left=["AS"])
    reshuffle_with_the_table(actor, simulator, decks=1)  # type: ignore[arg-type]
    changed(actor, shoe=shoe.draw(parse_card("2S")))
    assert simulator.cards_left == ["AS"]  # a card dealt: nothing to do
    changed(actor, shoe=shoe)  # the table's shoe shuffled: no card out
    assert len(simulator.cards_left) == 52
    refilled = simulator.cards_left
    changed(actor, shoe=replace(shoe))  # another change with no card out yet
    assert simulator.cards_left is refilled


def test_the_wheel_is_told_on_the_next_turn_whether_a_spin_is_due() -> None:
    told: list[bool] = []
    actor = table(None, step="betting")
    wheel = SimpleNamespace(spin_due=told.append)

    async def play() -> None:
        launch_when_due(actor, wheel)  # type: ignore[arg-type]
        changed(actor, next_step=lambda: SimpleNamespace(kind="wheel"))
        assert told == []  # not while the publisher still sends the change
        await asyncio.sleep(0)
        changed(actor, next_step=lambda: SimpleNamespace(kind="settled"))
        await asyncio.sleep(0)

    asyncio.run(play())
    assert told == [True, False]
