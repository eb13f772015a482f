"""Diamond Blackjack warns a player who makes a very bad decision (the seed's
example: standing on 11); a variant may let the decision timer play basic
strategy. Basic strategy for 11 against a 9 is to double (every published
multi-deck chart, e.g. Wizard of Odds' 4-8 deck, dealer stands on soft 17)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig, TimersConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def _actor(tmp_path: Path, variant: str, decision_seconds: float = 60) -> TableActor:
    config = TableConfig(
        id="bj",
        game="blackjack",
        variant=variant,
        timers=TimersConfig(decision_seconds=decision_seconds),
    )
    actor = TableActor(config, "test", Journal(tmp_path / "j.sqlite3"), Topics("p", "t", "bj"))
    actor.recover()
    return actor


def _eleven_against_a_nine(actor: TableActor) -> None:
    for source, event in [
        ("api", {"type": "round_open", "round": "r1"}),
        ("api", {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "10"}),
        ("api", {"type": "bets_closed"}),
        ("shoe", {"type": "card", "card": "6S"}),
        ("shoe", {"type": "card", "card": "9C"}),
        ("shoe", {"type": "card", "card": "5D"}),
    ]:
        outcome = actor.handle(Command(source, event))
        assert outcome is not None and outcome.accepted


def test_standing_on_eleven_is_flagged_in_the_journal_and_the_event(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "diamond-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "stand"}))
    assert outcome is not None and outcome.accepted  # a warning, not a refusal
    decision = next(o for o in outcome.outputs_json() if o["type"] == "decision")
    assert decision["warning"].startswith("deviates from basic strategy, EV -0.")
    record = list(actor.journal.records("bj"))[-1]
    assert record.detail == decision["warning"]
    message = json.loads(actor.journal.outbox("bj", 0, 100)[-1].payload)
    assert message["type"] == "decision" and message["data"]["warning"] == decision["warning"]


def test_the_best_decision_is_not_flagged(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "diamond-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "double"}))
    assert outcome is not None
    assert "warning" not in next(o for o in outcome.outputs_json() if o["type"] == "decision")


def test_variants_without_warnings_say_nothing(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "standard-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "stand"}))
    assert outcome is not None
    assert "warning" not in next(o for o in outcome.outputs_json() if o["type"] == "decision")


def test_the_decision_timer_can_play_basic_strategy(tmp_path: Path) -> None:
    variant = tmp_path / "patient.toml"
    variant.write_text(
        'game = "blackjack"\nextends = "standard-blackjack"\ntitle = "Basic strategy on timeout"\n'
        'default_decision = "basic_strategy"\n'
    )

    async def play() -> str:
        actor = _actor(tmp_path, str(variant), decision_seconds=0.05)
        task = asyncio.create_task(actor.run())
        _eleven_against_a_nine(actor)
        for _ in range(200):
            await asyncio.sleep(0.01)
            records = [r for r in actor.journal.records("bj") if r.source == "timer"]
            if records:
                task.cancel()
                action: str = records[0].body["action"]
                return action
        task.cancel()
        raise AssertionError("the decision timer never fired")

    assert asyncio.run(play()) == "double"
