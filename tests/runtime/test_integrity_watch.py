"""The integrity monitor live in the station (docs/integrity.md "Live"): a real
station in a thread playing roulette with results entered by hand, its journal
on disk, a real mosquitto. A wheel whose pocket 17 comes up about ten times as
often as a fair one (a quarter of the spins, and the rest fair) must raise the
alarm at a checkpoint, once; the retained topic must carry it; a restart must
keep the counts and not raise it again."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

from support.broker import Broker, Received, Subscriber
from support.dealing import dealt_baccarat
from support.station import StationThread, config_for
from support.station_rig import biased_wheel

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.integrity_watch import IntegrityWatch
from dealer_station.journal import Journal, Record
from dealer_station.payloads import Integrity, Topics
from dealer_station.table_inputs import Command

TABLE = "rou"
EVERY = 100
CONFIG = (
    f'[integrity]\nspins_between_reports = {EVERY}\n[[tables]]\nid = "{TABLE}"\ngame = "roulette"\n'
)
ARC1 = "integrity_wheel_arc1"


def spin(st: StationThread, i: int, number: int) -> int:
    """One round; the seq of its wheel result's record."""
    seq = 0
    for event, source in (
        ({"type": "round_open", "round": f"r{i}"}, "api"),
        ({"type": "bets_closed"}, "api"),
        ({"type": "wheel_result", "number": number}, "console"),
    ):
        outcome = st.command(TABLE, event, source=source)
        assert outcome.accepted, outcome
        seq = outcome.seq
    return seq


def integrity_alarms(st: StationThread) -> list[Record]:
    assert st.station is not None
    journal = st.station.journal
    records: list[Record] = st.call(lambda: list(journal.records(TABLE, "alarm")))
    return [r for r in records if r.source == "integrity"]


def spins_counted(st: StationThread) -> int:
    assert st.station is not None
    watch = st.station.watches[TABLE]
    spins: int = st.call(lambda: watch.monitor.pictures(TABLE)["wheel"]["spins"])
    return spins


def test_a_biased_wheel_raises_its_alarm_at_a_checkpoint_once_and_retained(
    tmp_path: Path, broker: Broker
) -> None:
    numbers = biased_wheel(3 * EVERY, 7)
    with StationThread(config_for(CONFIG, tmp_path / "j.sqlite3", broker.port)) as st:
        assert st.station is not None
        watch = st.station.watches[TABLE]
        st.wait_until(lambda: watch.checkpoint == "start")
        for i, n in enumerate(numbers[:EVERY]):
            spin(st, i, n)
        # The first look (100 spins): the wider arcs alarm already; a single
        # pocket's test waits for its minimum of 185 spins.
        assert watch.checkpoint == "spins"
        first = integrity_alarms(st)
        assert "integrity_wheel_arc3" in [r.body["code"] for r in first]
        assert ARC1 not in [r.body["code"] for r in first]
        for i, n in enumerate(numbers[EVERY : EVERY + 99], EVERY):
            spin(st, i, n)
        # Past the minimum and far past significance, but no look yet: no alarm.
        assert integrity_alarms(st) == first
        for i, n in enumerate(numbers[EVERY + 99 :], EVERY + 99):
            last_spin = spin(st, i, n)
        # Looked at 200 and at 300 spins: in alarm at both, raised once.
        arc1 = [r for r in integrity_alarms(st) if r.body["code"] == ARC1]
        assert len(arc1) == 1
        assert arc1[0].body["message"].startswith(f"{TABLE}: Pocket 17 came up")
        assert "ALARM" in arc1[0].body["message"]
        codes = [r.body["code"] for r in integrity_alarms(st)]
        assert len(codes) == len(set(codes))  # no finding raised twice

        def last_look(got: list[Received]) -> bool:
            reports = [Integrity.model_validate_json(m.payload) for m in got]
            return any(r.records >= last_spin for r in reports)

        live = Subscriber(broker.port, f"+/+/{TABLE}/integrity")
        try:
            live.wait_for(last_look)
        finally:
            live.close()
        # A client that comes later finds the last report retained.
        late = Subscriber(broker.port, f"+/+/{TABLE}/integrity")
        try:
            [message] = late.wait_for(lambda got: len(got) >= 1)
            assert message.retain
            report = Integrity.model_validate_json(message.payload)
            assert report.checkpoint == "spins"
            [found] = [f for f in report.findings if f.test == "wheel.arc1"]
            assert found.alarm
            assert found.sample == 3 * EVERY
            assert report.alarms == sum(f.alarm for f in report.findings)
        finally:
            late.close()


def test_a_restart_keeps_the_counts_and_does_not_raise_the_alarm_again(
    tmp_path: Path, broker: Broker
) -> None:
    numbers = biased_wheel(3 * EVERY, 7)
    config = config_for(CONFIG, tmp_path / "j.sqlite3", broker.port)
    with StationThread(config) as st:
        for i, n in enumerate(numbers[:250]):
            spin(st, i, n)
        assert [r.body["code"] for r in integrity_alarms(st)].count(ARC1) == 1
    with StationThread(config) as st:
        assert st.station is not None
        watch = st.station.watches[TABLE]
        st.wait_until(lambda: watch.checkpoint == "start")
        assert spins_counted(st) == 250
        # The start's look sees the alarm the journal says was raised.
        assert [r.body["code"] for r in integrity_alarms(st)].count(ARC1) == 1
        for i, n in enumerate(numbers[250:], 250):
            spin(st, i, n)
        # The 300th spin is a checkpoint whatever the restart did to the rhythm.
        assert watch.checkpoint == "spins"
        assert spins_counted(st) == 300
        assert [r.body["code"] for r in integrity_alarms(st)].count(ARC1) == 1


def test_records_in_both_the_history_and_the_live_changes_count_once(tmp_path: Path) -> None:
    """The changes a table makes while its history is read reach the watch
    too, and the history holds them: fed by seq, each counts once, its
    settlement too (the day's rounds)."""
    path = tmp_path / "j.sqlite3"
    config = TableConfig(id=TABLE, game="roulette")
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", TABLE))
    actor.recover()

    def play(rounds: range) -> None:
        for i in rounds:
            for event in (
                {"type": "round_open", "round": f"r{i}"},
                {"type": "bets_closed"},
                {"type": "wheel_result", "number": i % 37},
            ):
                outcome = actor.handle(Command("console", event))
                assert outcome is not None and outcome.accepted, outcome

    play(range(50))
    watch = IntegrityWatch(actor, path, 0.01, 1000)
    watch.subscribe()
    play(range(50, 60))  # journaled before the history is read, and heard live
    asyncio.run(watch.catch_up())
    play(range(60, 65))
    pictures = watch.monitor.pictures(TABLE)
    assert pictures["wheel"]["spins"] == 65
    assert [day["rounds"] for day in pictures["hold"]] == [65]
    assert watch.checkpoint == "start"
    actor.journal.close()


def test_a_new_utc_day_is_a_look(tmp_path: Path) -> None:
    """The first record of a new UTC day: the day before's hold is complete.
    The table's own clock (the actor's), set by the test, says when."""
    path = tmp_path / "j.sqlite3"
    now = [datetime(2026, 12, 1, 23, 59, 0, tzinfo=UTC)]
    actor = TableActor(
        TableConfig(id=TABLE, game="roulette"),
        "test",
        Journal(path),
        Topics("p", "test", TABLE),
        clock=lambda: now[0],
    )
    actor.recover()
    watch = IntegrityWatch(actor, path, 0.01, 1000)
    watch.subscribe()
    asyncio.run(watch.catch_up())

    def play(i: int) -> None:
        for event in (
            {"type": "round_open", "round": f"r{i}"},
            {"type": "bets_closed"},
            {"type": "wheel_result", "number": i % 37},
        ):
            outcome = actor.handle(Command("console", event))
            assert outcome is not None and outcome.accepted, outcome

    for i in range(3):
        play(i)
    assert watch.checkpoint == "start"
    now[0] = datetime(2026, 12, 2, 0, 0, 1, tzinfo=UTC)
    play(3)
    assert watch.checkpoint == "day"
    hold = watch.monitor.pictures(TABLE)["hold"]
    assert [(d["day"], d["rounds"]) for d in hold] == [("2026-12-01", 3), ("2026-12-02", 1)]
    actor.journal.close()


def test_a_shuffle_of_a_dealt_shoe_is_a_look_and_goes_out_retained(
    tmp_path: Path, broker: Broker
) -> None:
    """A self-driving baccarat table dealt from a shoe simulator on a real PTY:
    the croupier's SHUFFLE between rounds ends the shoe, and that is a look."""
    with dealt_baccarat(tmp_path / "j.sqlite3", broker.port) as config, StationThread(config) as st:
        assert st.station is not None
        watch = st.station.watches["bac"]
        st.wait_until(lambda: watch.checkpoint == "start")
        st.wait_until(lambda: st.actor("bac").stats.moment("baccarat").stats != {}, 30)
        taken = None
        for _ in range(200):
            taken = st.command("bac", {"type": "shuffle"}, source="console")
            if taken.accepted:
                break
        assert taken is not None and taken.accepted
        st.wait_until(lambda: watch.checkpoint == "shoe")
        assert watch.seq >= taken.seq

        def shoe_look(got: list[Received]) -> bool:
            return any(Integrity.model_validate_json(m.payload).checkpoint == "shoe" for m in got)

        topic = Subscriber(broker.port, "+/+/bac/integrity")
        try:
            topic.wait_for(shoe_look)
        finally:
            topic.close()
        late = Subscriber(broker.port, "+/+/bac/integrity")
        try:
            [kept] = late.wait_for(lambda got: len(got) >= 1)
            assert kept.retain and shoe_look([kept])
        finally:
            late.close()


def test_a_stop_that_meets_a_report_falling_due_still_stops_the_watch(tmp_path: Path) -> None:
    """Python 3.11's wait_for swallows a cancel that comes in the same turn as
    the event it waits for: the watch's loop then ran on, and a station told to
    stop never ended (seen: a station alive minutes after SIGTERM). The publisher
    is a stand-in that is never connected: only the loop's stop is tested."""
    path = tmp_path / "j.sqlite3"
    actor = TableActor(
        TableConfig(id=TABLE, game="roulette"), "test", Journal(path), Topics("p", "test", TABLE)
    )
    actor.recover()
    watch = IntegrityWatch(actor, path, 0.01, 1000)
    publisher = SimpleNamespace(connected=False, connects=0)

    async def stop_as_a_report_falls_due() -> bool:
        task = asyncio.create_task(watch.keep_published(publisher))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # it waits for a report
        watch._due.set()  # a look, in the same turn as the stop
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=2.0)
        if not done:
            task.cancel()
        return task in done and task.cancelled()

    assert asyncio.run(stop_as_a_report_falls_due())
    actor.journal.close()
