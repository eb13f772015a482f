"""A table change is built once: the input's records and round events, as the
journal holds them, handed to every listener in the order of the ordering
contract (dealer_station/table_change.py), and no channel reads them back from
SQLite while the table plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.baccarat_actor import baccarat_actor
from support.broker import Broker, Subscriber
from support.dealing import dealt_baccarat
from support.station import StationThread, config_for

from dealer_station import mqtt_publisher
from dealer_station.api.app import create_app
from dealer_station.api.feed import TableFeed
from dealer_station.journal import Journal
from dealer_station.table_change import TableChange
from dealer_station.table_inputs import Command


def test_the_publisher_hears_a_change_first_whoever_subscribed_first(tmp_path: Path) -> None:
    actor = baccarat_actor(tmp_path / "journal.sqlite3")
    heard: list[tuple[str, TableChange]] = []
    for stage in ("follow", "relay", "publish"):
        actor.listeners.subscribe(stage, lambda change, s=stage: heard.append((s, change)))
    actor.handle(Command("console", {"type": "round_open"}))
    assert [stage for stage, _ in heard] == ["publish", "relay", "follow"]
    assert len({id(change) for _, change in heard}) == 1  # one change, not three
    with pytest.raises(ValueError, match="one publisher"):
        actor.listeners.subscribe("publish", lambda change: None)


def test_a_change_holds_what_the_journal_committed(tmp_path: Path) -> None:
    actor = baccarat_actor(tmp_path / "journal.sqlite3")
    changes: list[TableChange] = []
    actor.listeners.subscribe("follow", changes.append)
    actor.handle(Command("console", {"type": "round_open"}))
    actor.handle(Command("api", {"type": "bet", "player": "p1", "spot": "banker", "amount": 10}))
    actor.handle(Command("console", {"type": "bets_closed"}))
    actor.handle(Command("shoe", {"type": "card", "card": "9H"}))
    card = changes[-1]
    records = list(actor.journal.records("bac", kind="event"))
    assert [r.seq for r in card.records] == [records[-1].seq]
    assert card.records[0].body == records[-1].body
    assert card.records[0].body["card"] == "9H"
    outbox = actor.journal.outbox("bac", card.messages[0].msg_seq - 1, 100)
    assert [m.payload for m in card.messages] == [m.payload for m in outbox]
    assert json.loads(card.messages[0].payload)["data"]["card"] == "9H"
    # The change is the table after the input: its state says the next card is due.
    assert card.state is actor.state and card.msg_seq == actor.msg_seq
    assert card.round_state is not None and card.round_state.next["kind"] == "card"


def _settled(st: StationThread) -> int:
    result: int = st.call(lambda: len(st.actor("bac").stats.settled))
    return result


def test_cards_are_written_once_and_read_back_by_no_channel(broker: Broker, tmp_path: Path) -> None:
    """Every statement the journal's connection runs while a self-driving table
    plays three rounds from a real shoe, with the broker connected and a live
    WebSocket client: each input's commit and, now and then, the PUBACKs'
    cursor; never a SELECT. (On the code before the table change, the publisher
    and the feed each read every change's events back from the outbox, and the
    cursor was written on every PUBACK.)"""
    sub = Subscriber(broker.port, "dealer-station/test/bac/round/event")
    statements: list[str] = []
    with dealt_baccarat(tmp_path / "journal.sqlite3", broker.port) as config:
        # A snapshot, taken a second after the record that makes it due and off
        # any card's path, reads the journal: none falls due in this test.
        config = config.model_copy(update={"snapshot_every": 100_000})
        with StationThread(config) as st:
            assert st.station is not None
            station = st.station
            publisher = station.publishers["bac"]
            st.wait_until(lambda: _settled(st) >= 1, timeout=60)
            st.wait_until(
                lambda: st.call(lambda: publisher.connected and not publisher.backlog)
            )
            feed: TableFeed = st.call(lambda: create_app(station).state.context.feeds["bac"])
            client = st.call(feed.subscribe)
            # The journal's own connection (no public hook: this is a probe).
            db = station.journal._db
            st.call(lambda: db.set_trace_callback(statements.append))
            before = _settled(st)
            st.wait_until(lambda: _settled(st) >= before + 3, timeout=60)
            st.call(lambda: db.set_trace_callback(None))
            last = st.call(lambda: st.actor("bac").msg_seq)
            st.wait_until(lambda: st.call(lambda: publisher.backlog) == 0)
            frames = st.call(
                lambda: [client.queue.get_nowait() for _ in range(client.queue.qsize())]
            )
    commits = sum(s.startswith("INSERT INTO journal") for s in statements)
    cursor_moves = sum(s.startswith("INSERT INTO acked") for s in statements)
    assert commits > 20
    assert [s for s in statements if s.lstrip().upper().startswith("SELECT")] == []
    # The PUBACKs' cursor is written a quarter of a second late, for all of them:
    # far fewer writes than inputs (on the code before, one per PUBACK).
    assert cursor_moves < commits / 2
    assert Journal(tmp_path / "journal.sqlite3").acked("bac") >= last
    # And every event still reached the studio and the WebSocket client.
    got = sub.wait_for(lambda ms: {json.loads(m.payload)["seq"] for m in ms} >= {last})
    assert {json.loads(m.payload)["seq"] for m in got} >= set(range(1, last + 1))
    relayed = [json.loads(f)["payload"]["seq"] for f in frames if '"round/event"' in f[:30]]
    assert relayed and relayed == sorted(relayed) and relayed[-1] == last


def test_a_clean_stop_writes_the_cursor_the_pubacks_moved(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However long the cursor waits to be written, a clean stop writes it: the
    next start sends nothing again."""
    monkeypatch.setattr(mqtt_publisher, "CURSOR_DELAY_S", 3600.0)
    config = config_for(
        '[[tables]]\nid = "rou"\ngame = "roulette"\n', tmp_path / "journal.sqlite3", broker.port
    )
    with StationThread(config) as st:
        assert st.station is not None
        publisher = st.station.publishers["rou"]
        st.wait_until(lambda: st.call(lambda: publisher.connected))
        assert st.command("rou", {"type": "round_open"}).accepted
        last = st.call(lambda: st.actor("rou").msg_seq)
        st.wait_until(lambda: st.call(lambda: publisher.acked) == last)
        assert Journal(tmp_path / "journal.sqlite3", read_only=True).acked("rou") < last
    assert Journal(tmp_path / "journal.sqlite3").acked("rou") == last
