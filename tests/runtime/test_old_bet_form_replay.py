"""A journal written before dozen and column bets said which by name holds
``"numbers": [1]`` for the first dozen: a start replays it as that bet."""

from __future__ import annotations

import json
from pathlib import Path

from support.baccarat_actor import send_accepted

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal, Record
from dealer_station.payloads import Topics


def _roulette(path: Path) -> TableActor:
    actor = TableActor(
        TableConfig(id="rou", game="roulette", recovery="resume"),
        "test",
        Journal(path),
        Topics("p", "test", "rou"),
    )
    actor.recover()
    return actor


def test_an_old_journals_dozen_bet_is_replayed_as_the_first_dozen(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    before = _roulette(path)
    send_accepted(before, "api", {"type": "round_open", "round": "r1"})
    # The record as the journal held it then, written as the actor wrote it.
    old = {"v": 1, "type": "bet", "player": "ann", "spot": "dozen", "amount": "5", "numbers": [1]}
    at = "2026-11-30T07:00:00.000Z"
    before.journal.append(Record("rou", at, "api", "event", old, "accepted"), [])
    before.journal.close()

    after = _roulette(path)
    assert after.state is not None
    assert after.journal.refused_on_replay("rou") == set()
    send_accepted(after, "api", {"type": "bets_closed"}, {"type": "wheel_result", "number": 5})
    # What went out (the statistics keep no payouts) says which dozen by name.
    result = json.loads(after.last_result or "{}")
    (payout,) = result["data"]["payouts"]
    # 5 is in the first dozen (1-12), not the number 1: a win at 2 to 1.
    assert (payout["spot"], payout["dozen"], payout["returns"]) == ("dozen", 1, "15")
    assert "numbers" not in payout
