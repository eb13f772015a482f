"""A device's input taken at once by an idle table (``submit(..., at_once=True)``),
without waiting a turn of the loop for the table's task, and never ahead of an
input the table already has: the order stays the one writer's queue order."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from support.baccarat_actor import baccarat_actor, send_accepted

from dealer_station.actor import TableActor
from dealer_station.table_change import TableChange
from dealer_station.table_inputs import Command


def _dealing(path: Path) -> TableActor:
    actor = baccarat_actor(path)
    send_accepted(
        actor,
        "console",
        {"type": "round_open"},
        {"type": "bet", "player": "p1", "spot": "banker", "amount": 10},
        {"type": "bets_closed"},
    )
    return actor


def _cards(actor: TableActor) -> list[str]:
    return [r.body["card"] for r in actor.journal.records("bac", kind="event") if "card" in r.body]


def test_an_idle_table_takes_a_card_in_the_senders_turn(tmp_path: Path) -> None:
    actor = _dealing(tmp_path / "journal.sqlite3")

    async def main() -> bool:
        task = asyncio.create_task(actor.run())
        await asyncio.sleep(0.01)  # the task waits on its empty queue
        actor.submit(Command("shoe", {"type": "card", "card": "9H"}), at_once=True)
        taken = _cards(actor) == ["9H"]  # journaled before submit returned
        task.cancel()
        return taken

    assert asyncio.run(main())


def test_a_card_never_overtakes_an_input_already_queued(tmp_path: Path) -> None:
    actor = _dealing(tmp_path / "journal.sqlite3")

    async def main() -> list[str]:
        task = asyncio.create_task(actor.run())
        await asyncio.sleep(0.01)
        actor.submit(Command("shoe", {"type": "card", "card": "2C"}))  # queued: its task wakes
        actor.submit(Command("shoe", {"type": "card", "card": "3D"}), at_once=True)
        await asyncio.sleep(0.01)
        task.cancel()
        return _cards(actor)

    assert asyncio.run(main()) == ["2C", "3D"]


def test_an_input_sent_while_a_card_is_handled_comes_after_it(tmp_path: Path) -> None:
    """A listener that sends an input (at once, too) while the table handles a
    card: the table finishes the card first, and its listeners hear it before
    the second input's change."""
    actor = _dealing(tmp_path / "journal.sqlite3")
    heard: list[str] = []

    def follow(change: TableChange) -> None:
        for message in change.messages:
            heard.append(json.loads(message.payload)["data"].get("card", ""))
        if _cards(actor) == ["4S"]:
            actor.submit(Command("shoe", {"type": "card", "card": "5H"}), at_once=True)

    actor.listeners.subscribe("follow", follow)

    async def main() -> list[str]:
        task = asyncio.create_task(actor.run())
        await asyncio.sleep(0.01)
        heard.clear()
        actor.submit(Command("shoe", {"type": "card", "card": "4S"}), at_once=True)
        assert _cards(actor) == ["4S"]  # the second is queued, not handled inside the first
        await asyncio.sleep(0.01)
        task.cancel()
        return _cards(actor)

    assert asyncio.run(main()) == ["4S", "5H"]
    assert [card for card in heard if card] == ["4S", "5H"]


def test_a_table_not_yet_taking_inputs_queues_them(tmp_path: Path) -> None:
    """Before its task runs its loop (a start still rebuilding the table), a
    card waits in the queue like any input."""
    actor = _dealing(tmp_path / "journal.sqlite3")
    actor.submit(Command("shoe", {"type": "card", "card": "6C"}), at_once=True)
    assert _cards(actor) == [] and actor.queue.qsize() == 1


def test_an_input_sent_while_another_caller_handles_one_waits_for_it(tmp_path: Path) -> None:
    """An input handled by a direct call while the table's task idles (the
    start's own inputs, a tool): a card sent at once meanwhile is queued, not
    handled inside it."""
    actor = _dealing(tmp_path / "journal.sqlite3")
    during: list[list[str]] = []

    def follow(change: TableChange) -> None:
        if _cards(actor) == ["7D"]:
            actor.submit(Command("shoe", {"type": "card", "card": "8S"}), at_once=True)
            during.append(_cards(actor))

    actor.listeners.subscribe("follow", follow)

    async def main() -> list[str]:
        task = asyncio.create_task(actor.run())
        await asyncio.sleep(0.01)
        actor.handle(Command("shoe", {"type": "card", "card": "7D"}))
        await asyncio.sleep(0.01)
        task.cancel()
        return _cards(actor)

    assert asyncio.run(main()) == ["7D", "8S"]
    assert during == [["7D"]]  # the second card was not journaled inside the first
