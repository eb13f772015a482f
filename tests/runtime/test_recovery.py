"""Restart = replay the journal (docs/recovery.md): the table comes back where
it was, and an unfinished round is resumed or voided as the config says."""

from __future__ import annotations

import json
from pathlib import Path

from support.baccarat_actor import baccarat_actor, send_accepted

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command


def _round_in_play(path: Path, **table: object) -> TableActor:
    actor = baccarat_actor(path, **table)
    send_accepted(
        actor,
        "api",
        {"type": "round_open", "round": "r1"},
        {"type": "bet", "player": "ann", "spot": "banker", "amount": "100"},
        {"type": "bets_closed"},
    )
    send_accepted(actor, "shoe", {"type": "card", "card": "2S"}, {"type": "card", "card": "KD"})
    assert actor.handle(Command("shoe", {"type": "card", "card": "ZZ"})).accepted is False
    return actor


def test_resume_continues_the_round_where_it_was(tmp_path: Path) -> None:
    before = _round_in_play(tmp_path / "j.sqlite3", recovery="resume")
    seq_before = before.msg_seq
    before.journal.close()

    after = baccarat_actor(tmp_path / "j.sqlite3", recovery="resume")
    assert after.last_result is None  # nothing settled yet: no retained result to restore
    assert after.state is not None and after.state.next_step().to == "player"
    assert after.msg_seq == seq_before  # nothing new was journaled or published
    send_accepted(after, "shoe", *({"type": "card", "card": c} for c in ("3H", "6C", "7D", "2C")))
    settled = [o.settlement for o in after.stats.settled if o.settlement["round"] == "r1"]
    assert settled[0]["winner"] == "banker"
    # The payouts are in what went out (the statistics keep none): a banker win pays
    # 0.95 to 1 (docs/rules.md), so the stake of 100 returns 195.
    result = json.loads(after.last_result or "{}")
    assert result["data"]["round"] == "r1"
    assert result["data"]["payouts"][0]["returns"] == "195"


def test_void_returns_every_stake_and_says_why(tmp_path: Path) -> None:
    _round_in_play(tmp_path / "j.sqlite3").journal.close()
    after = baccarat_actor(tmp_path / "j.sqlite3")  # recovery = "void" is the default
    assert after.state is not None and after.state.round_over
    records = list(after.journal.records("bac"))
    void = records[-1]
    assert void.source == "station" and void.body["type"] == "void"
    assert "restarted" in void.body["reason"]
    payload = after.journal.outbox("bac", 0, 1000)[-1].payload
    assert '"voided":true' in payload and '"returns":"100"' in payload
    after.journal.close()
    # The retained `result` topic reads the same after yet another restart.
    again = baccarat_actor(tmp_path / "j.sqlite3")
    assert again.last_result == payload


def test_a_new_variant_in_the_config_takes_effect_between_rounds(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first = TableActor(
        TableConfig(id="t", game="blackjack", variant="standard-blackjack"),
        "test",
        Journal(path),
        Topics("p", "test", "t"),
    )
    first.recover()
    first.journal.close()
    second = TableActor(
        TableConfig(id="t", game="blackjack", variant="diamond-blackjack"),
        "test",
        Journal(path),
        Topics("p", "test", "t"),
    )
    second.recover()
    assert second.state is not None and second.state.setup.variant == "diamond-blackjack"
    selections = [r.body for r in second.journal.records("t") if r.body["type"] == "table"]
    assert [s["variant"] for s in selections] == ["standard-blackjack", "diamond-blackjack"]


def test_the_retained_result_is_the_last_settlement_by_type_not_by_text(tmp_path: Path) -> None:
    actor = _round_in_play(tmp_path / "j.sqlite3")
    send_accepted(actor, "shoe", *({"type": "card", "card": c} for c in ("3H", "6C", "7D", "2C")))
    settlement = actor.last_result
    assert settlement is not None and '"type":"round_settled"' in settlement
    # A forged input whose body reads like a settlement: refused, and its
    # refusal (a `rejected` message) quotes that body.
    forged = {"type": "round_settled", "round": "r1", "winner": "player"}
    assert actor.handle(Command("api", forged)).accepted is False  # type: ignore[union-attr]
    rejected = actor.journal.outbox("bac", 0, 1000)[-1].payload
    assert '"type":"rejected"' in rejected and '"type":"round_settled"' in rejected
    actor.journal.close()
    after = baccarat_actor(tmp_path / "j.sqlite3")
    assert after.last_result == settlement
