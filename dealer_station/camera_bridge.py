"""From the wheel camera to a roulette table's actor.

The camera and the detector run in their own threads (OpenCV capture and the
per-frame vision are blocking, CPU-bound work); what the detector concludes is
posted to the table's loop: a number goes to the table's verdict between its
wheel sources (``wheel_readings``), which makes it a ``wheel_result`` input;
the ball's speed, with the table's ``no_more_bets`` rules, closes betting (a
``bets_closed`` input with the rule that fired and what was measured); a
no-result an alarm that tells the croupier to re-spin and why, a camera fault an
alarm and the camera's availability.

A live camera can stop delivering without an error (an unplugged USB camera, a
stalled stream: the capture's read just blocks), so the capture reads in a
thread of its own and the detector waits for frames with a timeout; each time
none came, the detector's health check runs, and a camera silent for
``offline_after_seconds`` goes offline until frames come again.

The frames come from the table's configured source (``CameraSource``), or
from a source the station is handed instead (the demo's recorded wheel,
``drivers/recorded_wheel.py``): the bridge reads both the same way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import queue
import threading
import time

from dealer_station.actor import TableActor
from dealer_station.config import CameraConfig, NoMoreBetsConfig
from dealer_station.games.events import CloseBets
from dealer_station.input_identity import BallReading, SpinReading
from dealer_station.table_inputs import Alarm, Command, DeviceChange
from dealer_station.wheel_readings import WheelReadings
from drivers.camera import CameraSource, CameraUnavailable, FrameSource, TimedFrame
from vision.calibration import Calibration
from vision.detector import WheelDetector
from vision.no_more_bets import BetRule, BetsClosed, NoMoreBets
from vision.observations import Alarm as CameraAlarm
from vision.observations import AlarmKind, NoResult, Observation, SpinResult
from vision.params import DetectorParams

log = logging.getLogger(__name__)

# Frames read ahead of the detector: enough to ride out one slow frame, few
# enough that what the detector sees is the wheel as it is now.
READ_AHEAD = 4
# How often, in parts of offline_after_seconds, a silent camera is looked at.
CHECKS_PER_TIMEOUT = 4

# From the capture's thread to the detector's: a frame, the error that ended
# the capture, or None for the end of a file.
Handed = TimedFrame | Exception | None

RESPIN_ADVICE = {
    "too_few_revolutions": "RE-SPIN: the ball made fewer than {min} revolutions",
    "ball_same_direction_as_rotor": "RE-SPIN: the ball turned the same way as the wheel",
    "direction_unclear": "RE-SPIN: the camera could not tell which way the wheel turned",
    "ball_left_wheel": "RE-SPIN: the ball left the wheel",
    "ball_lost": "RE-SPIN: the camera lost the ball",
    "ball_on_fret": "RE-SPIN or pit boss: the ball rests on a fret",
    "rotor_not_tracked": "Pit boss: the camera could not follow the wheel; confirm the number",
    "camera_fault": "Pit boss: the camera failed during the spin; confirm the number",
}


class CameraBridge:
    def __init__(
        self,
        actor: TableActor,
        config: CameraConfig,
        source: FrameSource | None = None,
        readings: WheelReadings | None = None,
    ) -> None:
        """``readings``: where the camera's numbers go, the table's verdict
        between its sources; absent, the camera is the table's only one."""
        self.actor = actor
        self.readings = readings or WheelReadings(actor, ("camera",), wait_seconds=0.0)
        rules = config.no_more_bets
        self.no_more_bets = (
            None if rules is None else NoMoreBets(rules.below_revs_per_s, rules.before_drop_s)
        )
        self.config = config
        self.source = source
        self.params = dataclasses.replace(
            DetectorParams(), no_frame_seconds=config.offline_after_seconds
        )
        self.calibration = (
            Calibration.load(config.calibration) if config.calibration is not None else None
        )
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stop_requested = threading.Event()
        self.thread: threading.Thread | None = None
        self.frames = 0

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.thread = threading.Thread(
            target=self._run, name=f"camera {self.actor.id}", daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.stop_requested.set()
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _close_bets(self, closed: BetsClosed) -> None:
        """On the loop: the ball says no more bets. Only while the table still
        takes bets: a croupier who closed first has said it already."""
        state = self.actor.state
        if state is None or state.next_step().kind != "bets":
            return
        reading = _ball(closed, self.config.no_more_bets)
        self.actor.submit(Command("camera", CloseBets(reason=closed.rule.value), identity=reading))

    # -- the camera's thread ------------------------------------------------------------

    def _post(self, item: DeviceChange | Alarm) -> None:
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self.actor.submit, item)

    def _run(self) -> None:
        try:
            self._watch()
        except CameraUnavailable as exc:
            self._post(DeviceChange("camera", False, str(exc)))
        except Exception:  # the camera must not take the station down with it
            log.exception(
                "table %s: camera thread failed", self.actor.id, extra=self.actor.log_fields()
            )
            self._post(DeviceChange("camera", False, "camera thread failed"))

    def _watch(self) -> None:
        source = self.source
        if source is None:
            name = self.config.source
            source = CameraSource(int(name) if name.isdigit() else name)
        detector = WheelDetector(self.calibration, self.params)
        frames: queue.Queue[Handed] = queue.Queue(READ_AHEAD)
        threading.Thread(
            target=self._read, args=(source, frames), name=f"capture {self.actor.id}", daemon=True
        ).start()
        wait = self.config.offline_after_seconds / CHECKS_PER_TIMEOUT
        online = False
        if source.live:
            detector.check(time.monotonic())  # silence counts from now
        while not self.stop_requested.is_set():
            try:
                item = frames.get(timeout=wait)
            except queue.Empty:
                if source.live:  # a file's frames carry its own times, not the clock's
                    self._observe(detector.check(time.monotonic()))
                continue
            if item is None:
                break
            if isinstance(item, Exception):
                raise item
            if not online:
                online = True
                self._post(DeviceChange("camera", True, source.name))
            self.frames += 1
            self._observe(detector.feed(item.image, item.time))
        source.stop()
        self._observe(detector.finish(time.monotonic()))
        ended = "the station stopped" if self.stop_requested.is_set() else "the video ended"
        self._post(DeviceChange("camera", False, ended))

    def _read(self, source: FrameSource, frames: queue.Queue[Handed]) -> None:
        """The capture's thread: it may block in a read for as long as the
        camera is silent, and is left behind (a daemon) if the station stops
        meanwhile."""
        try:
            for frame in source.frames():
                if not self._hand_over(frames, frame):
                    return
            self._hand_over(frames, None)
        except Exception as exc:  # the detector's thread says what it was
            self._hand_over(frames, exc)

    def _hand_over(self, frames: queue.Queue[Handed], item: Handed) -> bool:
        """Wait for room in the queue, unless the station stops meanwhile."""
        while not self.stop_requested.is_set():
            try:
                frames.put(item, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False

    def _observe(self, observations: list[Observation]) -> None:
        for obs in observations:
            closed = None if self.no_more_bets is None else self.no_more_bets.feed(obs)
            if closed is not None:
                assert self.loop is not None
                self.loop.call_soon_threadsafe(self._close_bets, closed)
            if isinstance(obs, SpinResult):
                assert self.loop is not None
                self.loop.call_soon_threadsafe(
                    self.readings.offer, "camera", obs.number, _reading(obs)
                )
            elif isinstance(obs, NoResult):
                advice = RESPIN_ADVICE[obs.reason.value].format(min=self.params.min_revolutions)
                self._post(
                    Alarm(f"respin_{obs.reason.value}", f"{advice} ({obs.detail})", "camera")
                )
            elif isinstance(obs, CameraAlarm):
                if obs.kind is AlarmKind.NO_FRAMES:
                    # The actor raises "camera offline" and clears it when frames return.
                    self._post(DeviceChange("camera", not obs.active, obs.detail))
                elif obs.active:
                    self._post(Alarm(f"camera_{obs.kind.value}", obs.detail, "camera"))


def _ball(closed: BetsClosed, rules: NoMoreBetsConfig | None) -> BallReading:
    threshold = None
    if rules is not None and closed.rule is BetRule.BELOW_REVS_PER_S:
        threshold = rules.below_revs_per_s
    elif rules is not None and closed.rule is BetRule.BEFORE_DROP_S:
        threshold = rules.before_drop_s
    return BallReading(closed.spin, closed.revs_per_s, closed.expected_drop_in_s, threshold)


def _reading(result: SpinResult) -> SpinReading:
    """The detector's result as the journal keeps it: its spin, its confidence
    and what it measured of the throw."""
    facts = result.facts
    return SpinReading(
        facts.spin,
        result.confidence,
        rotor_rpm=facts.rotor_rpm,
        rotor_direction=facts.rotor_direction,
        ball_direction=facts.ball_direction,
        ball_revolutions=facts.ball_revolutions,
        release_pocket=facts.release_pocket,
        landing_distance=result.landing_distance,
    )
