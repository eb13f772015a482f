"""Two sources, one verdict (issue 16, part 3), at a real station: a roulette
table with the wheel's own sensor (a simulator on a real PTY, through the real
serial link and bridge) and a camera, a real mosquitto, the journal on disk.

The camera's pipeline (video to number) is tested on real video elsewhere
(tests/wheel, tests/runtime/test_input_identity.py). Here its frame source is
one that shows no spin (a recorded wheel between spins sends no frame), and the
test hands the camera's reading to the table's verdict as the camera bridge
does, on the loop: the two numbers must meet at a time the test chooses.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from dealer_station.input_identity import SpinReading
from dealer_station.station import Station
from dealer_station.wheel_readings import WheelReadings
from drivers.camera import TimedFrame
from drivers.wheel import SENSORS

TABLE = "rou"


class NoSpinCamera:
    """A camera that shows no spin: no frame until the station stops."""

    name = "no spin"
    live = False

    def __init__(self) -> None:
        self._stop = threading.Event()

    def frames(self) -> Iterator[TimedFrame]:
        self._stop.wait()
        return iter(())

    def stop(self) -> None:
        self._stop.set()


class QuietCameraStation(StationThread):
    def new_station(self) -> Station:
        return Station(self.config, cameras={TABLE: NoSpinCamera()})


@pytest.fixture
def wheel(tmp_path: Path, broker: Broker) -> Iterator[tuple[StationThread, Any]]:
    simulator = SENSORS[SENSORS.default].simulator(seed=3, status_interval=0.2)
    with simulator as sim:
        config = config_for(
            f'[[tables]]\nid = "{TABLE}"\ngame = "roulette"\n'
            f'camera = {{ source = "{tmp_path / "clip.mkv"}" }}\n'
            f'wheel_sensor = {{ port = "{sim.port}" }}\n'
            "wheel_readings = { primary = \"sensor\", wait_seconds = 0.5 }\n",
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        with QuietCameraStation(config) as st:
            st.wait_until(lambda: st.actor(TABLE).devices.get("wheel_sensor", ("",))[0] == "online")
            yield st, sim


def _at_the_wheel(st: StationThread, round_id: str) -> None:
    assert st.command(TABLE, {"type": "round_open", "round": round_id}).accepted
    assert st.command(TABLE, {"type": "bets_closed"}).accepted
    st.wait_for_step(TABLE, "wheel")


def _readings(st: StationThread) -> WheelReadings:
    assert st.station is not None
    return st.station.readings[TABLE]


def _camera_reads(st: StationThread, number: int, spin: int) -> None:
    readings = _readings(st)
    reading = SpinReading(spin, 0.97, rotor_rpm=24.0, rotor_direction="clockwise")
    st.call(lambda: readings.offer("camera", number, reading))


def _journal(st: StationThread, kind: str) -> list[dict[str, Any]]:
    assert st.station is not None
    journal = st.station.journal
    records = st.call(lambda: list(journal.records(TABLE, kind)))
    return [{"source": r.source, "status": r.status, **r.body} for r in records]


def _wheel_inputs(st: StationThread) -> list[dict[str, Any]]:
    return [r for r in _journal(st, "event") if r.get("verdict")]


def test_the_same_number_from_both_settles_with_both_readings_journaled(
    wheel: tuple[StationThread, Any],
) -> None:
    st, sim = wheel
    _at_the_wheel(st, "r1")
    sim.spin(17)
    (game, _), = sim.results
    st.wait_until(lambda: st.call(lambda: _readings(st).waiting))
    _camera_reads(st, 17, spin=1)
    st.wait_for_step(TABLE, "settled")
    (settled,) = _wheel_inputs(st)
    assert settled["type"] == "wheel_result" and settled["number"] == 17
    assert settled["source"] == "wheel_sensor"  # the primary names it
    assert settled["verdict"] == "agreed"
    assert settled["readings"]["sensor"]["number"] == 17
    assert settled["readings"]["sensor"]["id"] == f"game:{game}"
    assert settled["readings"]["camera"] == {
        "number": 17, "id": "spin:1", "confidence": 0.97, "rotor_rpm": 24.0,
        "rotor_direction": "clockwise",
    }


def test_two_numbers_hold_the_round_until_a_pit_boss_enters_one(
    wheel: tuple[StationThread, Any],
) -> None:
    st, sim = wheel
    _at_the_wheel(st, "r1")
    sim.spin(24)
    st.wait_until(lambda: st.call(lambda: _readings(st).waiting))
    _camera_reads(st, 5, spin=1)
    st.wait_for_step(TABLE, "pit_boss")
    state = st.actor(TABLE).state
    assert state is not None and state.hold == "wheel_disagree"
    (held,) = _wheel_inputs(st)
    assert held["type"] == "hold" and held["verdict"] == "disagree"
    assert {k: v["number"] for k, v in held["readings"].items()} == {"camera": 5, "sensor": 24}
    alarms = [a["message"] for a in _journal(st, "alarm") if a.get("code") == "wheel_disagree"]
    assert alarms and "WHEEL SENSOR READ 24" in alarms[0] and "CAMERA READ 5" in alarms[0]
    # Nothing but a pit boss settles it: not a croupier's entry, not a late reading.
    outcome = st.command(TABLE, {"type": "wheel_result", "number": 24},
                         source="pit_boss", by="pat", why="video shows 24")
    assert outcome.accepted
    st.wait_for_step(TABLE, "settled")


def test_one_reading_alone_settles_after_the_wait_flagged_with_an_alarm(
    wheel: tuple[StationThread, Any],
) -> None:
    st, sim = wheel
    _at_the_wheel(st, "r1")
    sim.spin(8)
    st.wait_until(lambda: st.call(lambda: _readings(st).waiting))
    st.wait_for_step(TABLE, "settled", timeout=10)
    (settled,) = _wheel_inputs(st)
    assert (settled["number"], settled["verdict"]) == (8, "sensor_only")
    assert list(settled["readings"]) == ["sensor"]
    codes = [a.get("code") for a in _journal(st, "alarm")]
    assert "camera_silent" in codes
    # The camera's reading, late and different, is an alarm: the round was paid on 8.
    _camera_reads(st, 9, spin=1)
    st.wait_until(lambda: "wheel_late_disagree" in [a.get("code") for a in _journal(st, "alarm")])
    assert json.dumps(settled)  # journaled as plain JSON


def test_lines_lost_and_a_restart_of_the_wheel_are_alarms_and_the_record_makes_them_good(
    wheel: tuple[StationThread, Any],
) -> None:
    st, sim = wheel
    _at_the_wheel(st, "r1")
    sim.start_game()
    sim.launch()
    sim.lose_next()
    sim.misfire()  # lost whole: the launch the station saw was void
    sim.launch()
    won = sim.result()  # the relaunch's: the wheel's record says so, and gives it
    sim.restart()

    def codes() -> list[Any]:
        return [a.get("code") for a in _journal(st, "alarm")]

    st.wait_until(lambda: "wheel_sensor_restarted" in codes())
    # The lost warning made good by the record: the void is an alarm as if read.
    assert {"wheel_sensor_lines_lost", "respin_wheel_void"} <= set(codes())
    lost = [a["message"] for a in _journal(st, "alarm")
            if a.get("code") == "wheel_sensor_lines_lost"]
    assert lost == ["Wheel sensor: 1 line(s) of the wheel lost: no number from the sensor "
                    "until the wheel's record makes them good or its next game starts"]
    st.wait_for_step(TABLE, "settled", timeout=10)
    (settled,) = _wheel_inputs(st)
    assert (settled["number"], settled["verdict"]) == (won, "sensor_only")


def test_a_game_the_wheel_gives_up_is_an_alarm(wheel: tuple[StationThread, Any]) -> None:
    """The wheel goes idle with its ball launched: its number never comes, and with
    the sensor primary a pit boss must know why the sensor says nothing."""
    st, sim = wheel
    _at_the_wheel(st, "r1")
    game = sim.start_game()
    sim.launch()
    sim.idle()
    st.wait_until(
        lambda: "wheel_game_abandoned" in [a.get("code") for a in _journal(st, "alarm")]
    )
    (abandoned,) = [
        a["message"] for a in _journal(st, "alarm") if a.get("code") == "wheel_game_abandoned"
    ]
    assert abandoned == (
        f"Wheel sensor: the wheel gave up game {game} without a number (it restarted, went "
        "idle or started another game): no number from the sensor for it"
    )
