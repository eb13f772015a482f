"""An idempotency key is kept for its retention window (24 h, docs/api.md) and
no longer: within it a retry gets the first answer, after it the same key is a
new request, and a start purges what has expired. The table's own clock is
moved, so no test waits a day."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.preconditions import RETENTION_SECONDS, IdempotencyKey
from dealer_station.table_inputs import Command

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BET = {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "40"}
KEY = IdempotencyKey("game-server-1", "k-1", "fingerprint-of-the-bet")


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _table(path: Path, clock: Clock) -> TableActor:
    config = TableConfig.model_validate({"id": "bj", "game": "blackjack"})
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", "bj"), clock=clock)
    actor.recover()
    return actor


def _stake(actor: TableActor) -> str:
    state = actor.round_state()
    assert state is not None and state.view is not None
    return str(state.view["boxes"][0]["stake"])


def _answers(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0])


def test_a_key_is_answered_for_24_hours_then_forgotten(tmp_path: Path) -> None:
    path, clock = tmp_path / "journal.sqlite3", Clock()
    actor = _table(path, clock)
    opened = actor.handle(Command("api", {"type": "round_open"}))
    assert opened is not None and opened.accepted
    first = actor.handle(Command("api", BET, key=KEY))
    assert first is not None and first.accepted and not first.replayed
    clock.now = START + timedelta(seconds=RETENTION_SECONDS - 1)
    retried = actor.handle(Command("api", BET, key=KEY))
    assert retried is not None and retried.replayed
    assert (retried.seq, retried.outputs, retried.state) == (first.seq, first.outputs, first.state)
    assert _stake(actor) == "40"
    clock.now = START + timedelta(seconds=RETENTION_SECONDS + 1)
    late = actor.handle(Command("api", BET, key=KEY))
    assert late is not None and late.accepted and not late.replayed
    assert _stake(actor) == "80"
    actor.journal.close()
    assert _answers(path) == 1  # the late request's, in place of the first
    clock.now += timedelta(seconds=RETENTION_SECONDS + 1)
    _table(path, clock).journal.close()  # a start purges it
    assert _answers(path) == 0
