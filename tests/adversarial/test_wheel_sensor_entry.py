"""A number by hand at a table whose wheel sensor reads the wheel (issue 16,
part 3), over real HTTP: the sensor a simulator on a real PTY, a real mosquitto.
While the sensor is online the croupier's number pad commits nothing
(``sensor_online``); a round held because two readings disagreed takes no
croupier's number either (``round_held``): a pit boss settles it."""

from __future__ import annotations

from pathlib import Path

from support.broker import Broker
from support.station_rig import SLOW, running, station_config

from dealer_station.games.events import HoldRound
from dealer_station.table_inputs import Command
from drivers.wheel import SENSORS

WHY = {"why": "video shows 24"}


def test_the_number_pad_commits_nothing_while_the_sensor_reads_or_the_round_holds(
    tmp_path: Path, broker: Broker
) -> None:
    with SENSORS[SENSORS.default].simulator(seed=4, status_interval=0.2) as sim:
        tables = [{"id": "rou", "game": "roulette", "timers": SLOW,
                   "wheel_sensor": {"port": sim.port}}]
        with running(station_config(tmp_path, broker.port, tables)) as rig:
            rig.wait_until(
                lambda: rig.actor("rou").devices.get("wheel_sensor", ("",))[0] == "online"
            )
            assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
            assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
            before = len(rig.records("rou"))
            tap = rig.post("/tables/rou/wheel/result", "croupier", {"number": 17})
            assert (tap.status_code, tap.json()["reason"]) == (409, "sensor_online")
            assert len(rig.records("rou")) == before

            # The sensor goes away; the round is held for a dispute (as the verdict does).
            sim.unplug()
            rig.wait_until(
                lambda: rig.actor("rou").devices.get("wheel_sensor", ("",))[0] == "offline"
            )
            rig.call(lambda: rig.actor("rou").submit(
                Command("station", HoldRound("wheel_disagree"))))
            rig.wait_until(lambda: rig.next_step("rou")[0] == "pit_boss")
            tap = rig.post("/tables/rou/wheel/result", "croupier", {"number": 17})
            assert (tap.status_code, tap.json()["reason"]) == (409, "round_held")
            pit = rig.post("/tables/rou/pit-boss/wheel-result", "pit_boss", {"number": 24, **WHY})
            assert pit.status_code == 200
            assert rig.next_step("rou")[0] == "settled"
