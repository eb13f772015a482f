"""A shoe card is named for ever: re-inserts, power cycles, station restarts.

The issue's fault: the shoe re-inserted (its card index starts again) and the
station restarted afterwards, and real cards were dropped as "already
journaled" (275 cards, the table stuck), because the station compared each card
with the last one journaled under ``<boot id>:<card index>``. Here the framed
simulator on a real PTY is the shoe, real stations (one after another, on one
journal) its readers, a real mosquitto their broker. The shoe's replies are cut
(every byte from the station dropped) around each stop, so the journal holds
cards the shoe never heard acknowledged and sends again to the next station:
those, and only those, must be dropped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from drivers.line_faults import LineFaults
from drivers.shoe.events import CardDrawn
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import ShoeCondition

pytestmark = pytest.mark.adversarial

TABLE = "bac"


@dataclass
class Studio:
    broker: Broker
    tmp_path: Path
    sim: FramedShoeSimulator
    rounds: int = 0
    # The boot id of each card the shoe drew, by its place in `sim.sent`.
    boots: list[int] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)

    def station(self) -> StationThread:
        config = config_for(
            f'[[tables]]\nid = "{TABLE}"\ngame = "baccarat"\nrecovery = "resume"\n'
            f'shoe = {{ port = "{self.sim.port}" }}\n'
            "timers = { betting_seconds = 60 }\n",
            self.tmp_path / "journal.sqlite3",
            self.broker.port,
        )
        st = StationThread(config).__enter__()
        st.wait_until(lambda: shoe_state(st) == "online")
        return st

    def stop(self, st: StationThread) -> None:
        bridge = st.station.shoes[TABLE] if st.station is not None else None
        st.stop()
        assert st.error is None
        assert bridge is not None
        self.dropped.append(bridge.duplicates_dropped)

    def draw(self, st: StationThread) -> None:
        journaled = len(shoe_events(st))
        self.sim.draw()
        self.boots.append(self.sim.boot_id)
        st.wait_until(lambda: len(shoe_events(st)) > journaled)

    def open_round(self, st: StationThread) -> None:
        self.rounds += 1
        assert st.command(TABLE, {"type": "round_open", "round": f"r{self.rounds}"}).accepted
        assert st.command(TABLE, {"type": "bets_closed"}).accepted

    def finish_round(self, st: StationThread) -> None:
        while st.next_step(TABLE)[0] == "card":
            self.draw(st)
        assert st.next_step(TABLE)[0] == "settled"

    def play(self, st: StationThread, rounds: int) -> None:
        for _ in range(rounds):
            self.open_round(st)
            self.finish_round(st)
        assert self.sim.wait_until_acknowledged(10)

    def cut_replies(self) -> None:
        self.sim.station_faults = LineFaults(drop=1.0)

    def restore_replies(self) -> None:
        self.sim.station_faults = LineFaults()


def shoe_state(st: StationThread) -> str:
    state: str = st.call(lambda: st.actor(TABLE).devices.get("shoe", ("",))[0])
    return state


def shoe_events(st: StationThread) -> list[Any]:
    def read() -> list[Any]:
        actor = st.actor(TABLE)
        return [r for r in actor.journal.records(TABLE, kind="event") if r.source == "shoe"]

    records: list[Any] = st.call(read)
    return records


def test_reinserts_power_cycles_and_restarts_lose_and_repeat_no_card(
    broker: Broker, tmp_path: Path
) -> None:
    # No retransmission on a timer: the shoe sends again what it holds at each new
    # handshake, as it must, and a station whose replies are cut sees no repeats
    # to take for a stalled link while the cards it journals are counted.
    with FramedShoeSimulator(decks=8, seed=13, link_path=tmp_path / "shoe",
                             retransmit_after=30.0) as sim:
        studio = Studio(broker, tmp_path, sim)

        # 1. Cards acknowledged, then a round whose cards straddle a re-insert
        #    and whose acknowledgements never reach the shoe; the station stops.
        st = studio.station()
        studio.play(st, 3)
        studio.open_round(st)
        studio.cut_replies()
        studio.draw(st)
        studio.draw(st)
        sim.report_state(ShoeCondition.INSERTED)  # the index starts again at 1
        studio.draw(st)
        studio.draw(st)
        studio.stop(st)

        # 2. The next station hears the four again (and the re-insert): all are
        #    journaled already. The round goes on; then the shoe is re-inserted
        #    (acknowledged) and the station stops before another card.
        studio.restore_replies()
        st = studio.station()
        assert sim.wait_until_acknowledged(10)
        studio.finish_round(st)
        studio.play(st, 2)
        sim.report_state(ShoeCondition.INSERTED)
        assert sim.wait_until_acknowledged(10)
        studio.stop(st)

        # 3. The third shoe's cards carry indices the second shoe used already.
        st = studio.station()
        studio.play(st, 3)
        # 4. The shoe loses power: a new boot id, the index from 1 again.
        old_boot = sim.boot_id
        sim.power_cycle()
        assert sim.boot_id != old_boot
        st.wait_until(lambda: sim.indicator_log[-1][1] == "station")  # handshake done
        studio.open_round(st)
        studio.cut_replies()
        studio.draw(st)
        studio.draw(st)
        studio.stop(st)

        studio.restore_replies()
        st = studio.station()
        assert sim.wait_until_acknowledged(10)
        studio.finish_round(st)
        studio.play(st, 1)
        journal = shoe_events(st)
        studio.stop(st)

    drawn = [e for e in sim.sent if isinstance(e, CardDrawn)]
    names = [f"{boot}:{e.insertion}:{e.shoe_index}" for boot, e in zip(studio.boots, drawn,
                                                                     strict=True)]
    # Every card the shoe drew is journaled once, in order, under its whole name,
    # and the table took each one: none lost, none repeated, nothing stuck.
    assert [r.body["id"] for r in journal] == names
    assert [r.body["card"] for r in journal] == [e.card for e in drawn]
    assert all(r.status == "accepted" for r in journal)
    assert len(set(names)) == len(names)
    # Only the cards the shoe really sent twice were dropped: four after the
    # first stop, two after the power cycle's stop.
    assert studio.dropped == [0, 4, 0, 2]
    # The reuse of indices that broke the old naming did happen.
    reused = Counter((boot, e.shoe_index) for boot, e in zip(studio.boots, drawn, strict=True))
    assert max(reused.values()) >= 2
