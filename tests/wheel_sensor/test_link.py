"""The simulated wheel over a real pseudo-terminal, through the real serial link."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from drivers.line_faults import LineFaults
from drivers.wheel import (
    EventRefused,
    EventSink,
    GameAbandoned,
    LinesLost,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRestarted,
    WheelResult,
    WheelSensorLink,
    open_wheel_sensor,
)
from drivers.wheel.simulator import WheelSensorSimulator

WAIT_S = 10.0  # a guard against hanging, never a measurement
STATUS_S = 0.05


@dataclass
class Rig:
    sim: WheelSensorSimulator
    link: WheelSensorLink
    events: queue.Queue[WheelEvent]

    def until(self, kind: type) -> list[WheelEvent]:
        """The events up to and with the first of `kind`, without the link's
        online and offline news unless asked for."""
        got: list[WheelEvent] = []
        while True:
            event = self.events.get(timeout=WAIT_S)
            if isinstance(event, kind):
                return [*got, event]
            if not isinstance(event, WheelOnline | WheelOffline):
                got.append(event)

    def settle(self) -> list[WheelEvent]:
        """Every event of the lines written so far: a status line written after
        them has been read once `statuses` grew by two."""
        seen = self.link.counters()["statuses"]
        deadline = time.monotonic() + WAIT_S
        while self.link.counters()["statuses"] < seen + 2:
            assert time.monotonic() < deadline, "the link stopped reading"
            time.sleep(STATUS_S / 2)
        got: list[WheelEvent] = []
        while not self.events.empty():
            event = self.events.get_nowait()
            if not isinstance(event, WheelOnline | WheelOffline):
                got.append(event)
        return got


@contextmanager
def rig(*, faults: LineFaults | None = None, sink: EventSink | None = None,
        status_timeout: float = 3.0, first_seq: int = 0) -> Iterator[Rig]:
    events: queue.Queue[WheelEvent] = queue.Queue()
    with WheelSensorSimulator(seed=11, status_interval=STATUS_S, faults=faults,
                              first_seq=first_seq) as sim, \
            open_wheel_sensor(port=sim.port, on_event=sink or events, reconnect_max=0.2,
                              status_timeout=status_timeout) as link:
        r = Rig(sim, link, events)
        if sink is None:
            # On a noisy line the first status lines may be rejected before one is read.
            while not isinstance(events.get(timeout=WAIT_S), WheelOnline):
                pass
            sim.sent.clear()  # status lines only, so far
        yield r


def test_games_arrive_in_order_as_the_wheel_meant_them() -> None:
    with rig() as r:
        for _ in range(5):
            r.sim.spin()
        r.sim.start_game()
        r.sim.launch()
        r.sim.misfire()
        r.sim.launch()
        r.sim.result()
        r.sim.repeat_last()
        r.sim.idle()
        assert r.settle() == r.sim.sent
        assert sum(isinstance(e, WheelResult) for e in r.sim.sent) == 6


def test_each_fault_of_the_simulator_gives_what_the_protocol_says() -> None:
    with rig() as r:
        r.sim.spin()
        r.sim.start_game()
        r.sim.launch()
        r.sim.inject(b"\xff\x00garbage")  # between lines: discarded
        r.sim.cut_line()
        r.sim.bad_checksum_result(5)  # made good by the record after it
        r.sim.idle()
        r.sim.start_game()
        r.sim.launch()
        r.sim.old_game_result(6)
        r.sim.result_without_game_start(7)
        r.sim.flagged_result(8, "misfire")
        r.sim.launch()
        r.sim.sensor_fault()
        r.sim.idle()
        r.sim.old_game_result(9)
        got = r.settle()
        assert got == r.sim.sent
        assert [(e.game, e.number) for e in got if isinstance(e, WheelResult)] == [
            r.sim.results[0], (2, 5)]
        assert r.link.counters()["bytes_discarded"] == len(b"\xff\x00garbage")
        assert r.link.counters()["made_good"] == 1


def test_unplugged_mid_game_the_result_of_that_game_still_counts() -> None:
    with rig() as r:
        r.sim.start_game()
        r.sim.launch()
        assert r.settle() == r.sim.sent
        r.sim.unplug()
        offline = r.until(WheelOffline)[-1]
        assert isinstance(offline, WheelOffline) and "failed" in offline.reason
        r.sim.replug()
        assert isinstance(r.events.get(timeout=WAIT_S), WheelOnline)
        r.sim.no_more_bets()
        won = r.sim.result()
        r.sim.idle()
        assert r.settle() == r.sim.sent[2:]
        assert r.sim.sent[3] == WheelResult(r.sim.game, won, r.sim.rotor_rpm, r.sim.direction)
        assert r.link.counters()["port_failures"] == 1


def test_unplugged_while_the_wheel_played_a_line_the_record_gives_the_result() -> None:
    with rig() as r:
        r.sim.start_game()
        r.sim.launch()
        assert r.settle() == r.sim.sent
        r.sim.unplug()
        r.until(WheelOffline)
        r.sim.no_more_bets()  # sent while unplugged: never heard, but counted
        r.sim.replug()
        assert isinstance(r.events.get(timeout=WAIT_S), WheelOnline)
        r.sim.result()
        r.sim.idle()
        r.sim.spin()
        got = r.settle()
        assert got == r.sim.sent[2:]
        # The first line heard shows the gap: a record (which makes the lost
        # line good), or the result line (refused; the record after it gives
        # the result), as the status lines fall.
        assert got[0] == LinesLost(1)
        assert [(e.game, e.number) for e in got if isinstance(e, WheelResult)] == r.sim.results
        assert not any(isinstance(e, GameAbandoned) for e in got)


def test_lines_lost_whole_leave_the_stale_result_refused() -> None:
    """Issue 16's hole on a live link: the warning that voided a launch and the
    next game's start are lost; the wheel then sends a result line for the voided
    game. It is refused (for the lines lost, or as another game's once a record
    made the start good), and the next games give the wheel's results."""
    with rig() as r:
        r.sim.start_game()
        r.sim.launch()
        r.sim.lose_next(2)
        r.sim.misfire()
        r.sim.start_game()
        r.sim.old_game_result(31)  # the voided game's: the station still has it in play
        r.sim.launch()
        r.sim.result()
        r.sim.idle()
        r.sim.spin()
        got = r.settle()
    lost = [e for e in got if isinstance(e, LinesLost)]
    assert lost == [e for e in r.sim.sent if isinstance(e, LinesLost)]
    assert sum(e.count for e in lost) == 2
    assert [(e.game, e.number) for e in got if isinstance(e, WheelResult)] == r.sim.results
    assert any(isinstance(e, WheelRefused) and e.reason in ("lines_lost", "wrong_game")
               and e.line.startswith("$RWWIN,") and ",31," in e.line for e in got)


def test_a_power_cut_mid_game_abandons_it_and_the_counter_starts_again() -> None:
    with rig() as r:
        r.sim.spin()
        r.sim.start_game()
        r.sim.launch()
        r.sim.restart()
        r.sim.spin()
        got = r.settle()
        assert got == r.sim.sent
    assert [e for e in got if isinstance(e, WheelRestarted | GameAbandoned)] == [
        WheelRestarted(7), GameAbandoned(r.sim.game - 1)]
    assert [e.game for e in got if isinstance(e, WheelResult)] == [r.sim.game - 2, r.sim.game]


def test_the_counter_wraps_from_9999_to_1_without_a_gap() -> None:
    with rig(first_seq=9997) as r:
        r.sim.spin()  # lines 9998, 9999, 1, 2, 3
        r.sim.spin()
        got = r.settle()
        assert got == r.sim.sent
    assert r.sim.seq == 8
    assert [e.game for e in got if isinstance(e, WheelResult)] == [1, 2]
    assert not any(isinstance(e, LinesLost) for e in got)


def test_a_silent_wheel_goes_offline_and_comes_back() -> None:
    with rig(status_timeout=0.3) as r:
        r.sim.silence()
        assert isinstance(r.events.get(timeout=WAIT_S), WheelOffline)
        r.sim.silence(False)
        assert isinstance(r.events.get(timeout=WAIT_S), WheelOnline)


def test_a_port_that_does_not_open_is_reported_offline_once() -> None:
    events: queue.Queue[WheelEvent] = queue.Queue()
    with open_wheel_sensor(port="/nonexistent/dealer-wheel", on_event=events,
                           reconnect_first=0.01, reconnect_max=0.02):
        first = events.get(timeout=WAIT_S)
        time.sleep(0.2)  # several attempts
    rest = [events.get_nowait() for _ in range(events.qsize())]
    assert isinstance(first, WheelOffline) and "cannot open" in first.reason
    assert rest == []  # "link closed" is the same outage: not said again


def test_a_noisy_line_never_gives_a_result_the_wheel_did_not_give() -> None:
    """1 % of the bytes flipped, dropped or doubled: a result is lost only with
    its result line and the records after it up to its idle line (a few in a
    hundred here, where the wheel idles at once), none is invented."""
    with rig(faults=LineFaults.mixed(0.01, seed=5)) as r:
        for _ in range(60):
            r.sim.spin()
        got = [e for e in r.settle() if isinstance(e, WheelResult)]
        counters = r.link.counters()
    truth = [e for e in r.sim.sent if isinstance(e, WheelResult)]
    assert set(got) <= set(truth)
    assert len({e.game for e in got}) == len(got)  # once per game
    assert counters["rejected_lines"] > 0 and len(got) > 45
    assert counters["made_good"] > 0


def test_a_consumer_that_refuses_loses_that_event_only(caplog: pytest.LogCaptureFixture) -> None:
    taken: queue.Queue[WheelEvent] = queue.Queue()

    def sink(event: WheelEvent) -> None:
        if isinstance(event, WheelResult) and event.number == 13:
            raise EventRefused("the journal is stuck")
        taken.put(event)

    with caplog.at_level(logging.WARNING), rig(sink=sink) as r:
        r.events = taken
        r.until(WheelOnline)
        r.sim.spin(13)
        r.sim.spin(14)
        got = r.settle()
        counters = r.link.counters()
    # The wheel never sends a line again: the refused result is gone, the rest came.
    assert got == [e for e in r.sim.sent if not (isinstance(e, WheelResult) and e.number == 13)]
    assert [e for e in got if isinstance(e, WheelResult)] == [r.sim.sent[-2]]
    assert counters["not_taken"] == 1
    assert "wheel sensor event consumer did not take a WheelResult" in caplog.text
