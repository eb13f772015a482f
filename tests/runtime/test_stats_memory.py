"""A table's statistics keep its last 500 settled rounds (a roulette table's
are some two hours of play), so what they keep of a round must not grow with
its bets: the payouts stay in the journal and the published result
(issue 19 part 6, docs/memory.md). Counted in bytes of the kept rounds, never RSS."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from support.baccarat_actor import send_accepted

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics

NUMBERS = (17, 0, 32, 5, 17, 26)


def _roulette(path: Path) -> TableActor:
    actor = TableActor(
        TableConfig(id="rou", game="roulette", recovery="resume"),
        "test",
        Journal(path),
        Topics("p", "test", "rou"),
    )
    actor.recover()
    return actor


def _spins(actor: TableActor, players: int) -> None:
    for i, number in enumerate(NUMBERS):
        send_accepted(actor, "api", {"type": "round_open", "round": f"r{i}"})
        for p in range(players):
            bet = {"type": "bet", "player": f"p{p}", "spot": "straight", "numbers": [p % 37]}
            send_accepted(actor, "api", {**bet, "amount": "5"})
        send_accepted(
            actor, "api", {"type": "bets_closed"}, {"type": "wheel_result", "number": number}
        )


def _kept_bytes(actor: TableActor) -> int:
    return len(json.dumps(actor.stats.settled_json()))


def test_what_the_statistics_keep_of_a_round_does_not_grow_with_its_bets(tmp_path: Path) -> None:
    few, many = _roulette(tmp_path / "few.sqlite3"), _roulette(tmp_path / "many.sqlite3")
    _spins(few, players=1)
    _spins(many, players=40)
    assert len(few.stats.settled) == len(many.stats.settled) == len(NUMBERS)
    assert _kept_bytes(many) == _kept_bytes(few)
    # The statistics are the same: the numbers, most recent first.
    for actor in (few, many):
        stats = actor.stats.moment("roulette").stats
        assert stats is not None
        assert [n["number"] for n in stats.stats["last"]] == list(reversed(NUMBERS))
    # The payouts are still what the table published: every bet of the last round.
    result = json.loads(many.last_result or "{}")
    assert len(result["data"]["payouts"]) == 40


def test_a_snapshot_that_kept_the_payouts_restores_the_rounds_without_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    before = _roulette(path)
    _spins(before, players=3)
    slim = list(before.stats.settled)
    # As the code before this kept them: the whole settlement, as published.
    result = json.loads(before.last_result or "{}")
    before.stats.settled[-1] = replace(slim[-1], settlement=result["data"])
    before.save_snapshot()
    before.journal.close()
    after = _roulette(path)
    assert after.recovered_from > 0  # from the snapshot, not a replay
    assert after.stats.settled == slim
