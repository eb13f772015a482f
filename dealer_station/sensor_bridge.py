"""From the wheel's own sensor to a roulette table (docs/wheel_sensor.md).

The sensor's link runs in its own thread and hands each event to the loop. A
winning number goes to the table's `WheelReadings` (which settles it, alone or
with the camera's); the wheel's "no more bets" closes betting when the table
still takes bets; its warnings, a void launch, a refused result line, lines
lost whole and the wheel's restart are alarms a croupier or pit boss acts on;
its availability is the table's ``wheel_sensor`` device. A line that failed its
check is noise on the cable: counted by the link, never an input.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from dealer_station.actor import TableActor
from dealer_station.config import WheelSensorConfig
from dealer_station.games.events import CloseBets
from dealer_station.input_identity import SensorReading
from dealer_station.table_inputs import Alarm, Command, DeviceChange
from dealer_station.wheel_readings import SOURCE_NAMES, WheelReadings
from drivers.wheel import (
    SENSORS,
    GameAbandoned,
    LaunchVoid,
    LinesLost,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRestarted,
    WheelResult,
    WheelSensorLink,
    WheelState,
    WheelWarning,
)

log = logging.getLogger(__name__)

SOURCE = SOURCE_NAMES["sensor"]
FLAG_WORDS = {
    "ball_not_detected": "the ball was not detected",
    "same_direction": "the ball turned the same way as the rotor",
    "sensor_fault": "a sensor of the wheel failed",
    "misfire": "the ball launcher misfired",
}


class SensorBridge:
    def __init__(
        self, actor: TableActor, config: WheelSensorConfig, readings: WheelReadings
    ) -> None:
        self.actor = actor
        self.config = config
        self.readings = readings
        self.link: WheelSensorLink | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def post(event: WheelEvent) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the station stops
                loop.call_soon_threadsafe(self.take, event)

        self.link = SENSORS[self.config.protocol].open(
            port=self.config.port, on_event=post, **self.config.link_options()
        )
        self.link.start()

    def close(self) -> None:
        if self.link is not None:
            self.link.close()

    def take(self, event: WheelEvent) -> None:
        """One of the sensor's events, on the table's loop."""
        if isinstance(event, WheelResult):
            reading = SensorReading(event.game, event.rotor_rpm, event.direction)
            self.readings.offer("sensor", event.number, reading)
        elif isinstance(event, WheelOnline):
            self.actor.submit(DeviceChange("wheel_sensor", True, event.protocol))
        elif isinstance(event, WheelOffline):
            self.actor.submit(DeviceChange("wheel_sensor", False, event.reason))
        elif isinstance(event, WheelState) and event.phase == "no_more_bets":
            state = self.actor.state
            if state is not None and state.next_step().kind == "bets":
                self.actor.submit(Command(SOURCE, CloseBets(reason="wheel_sensor")))
        elif isinstance(event, LaunchVoid):
            self.actor.submit(
                Alarm("respin_wheel_void", f"RE-SPIN: the wheel voided game {event.game}'s "
                      f"launch ({_flags(event.flags)})", SOURCE)
            )
        elif isinstance(event, WheelWarning):
            self.actor.submit(Alarm("wheel_sensor_warning", f"Wheel sensor: {_flags(event.flags)}",
                                    SOURCE))
        elif isinstance(event, WheelRefused):
            self.actor.submit(
                Alarm("wheel_sensor_refused", f"Wheel sensor line not believed ({event.reason}, "
                      f"game {event.game}): no number from the sensor for it", SOURCE)
            )
        elif isinstance(event, LinesLost):
            self.actor.submit(
                Alarm("wheel_sensor_lines_lost", f"Wheel sensor: {event.count} line(s) of the "
                      "wheel lost: no number from the sensor until the wheel's record makes "
                      "them good or its next game starts", SOURCE)
            )
        elif isinstance(event, GameAbandoned):
            # Its number will never come: a pit boss must know why the sensor is silent.
            self.actor.submit(
                Alarm(
                    "wheel_game_abandoned",
                    f"Wheel sensor: the wheel gave up game {event.game} without a number "
                    "(it restarted, went idle or started another game): no number from "
                    "the sensor for it",
                    SOURCE,
                )
            )
        elif isinstance(event, WheelRestarted):
            self.actor.submit(
                Alarm("wheel_sensor_restarted", "Wheel sensor: the wheel restarted (a power "
                      "cut?); the game it was playing is given up", SOURCE)
            )


def _flags(flags: tuple[str, ...]) -> str:
    return ", ".join(FLAG_WORDS.get(f, f) for f in flags) or "no flag"
