"""The station: every table's actor, its MQTT link, its shoe, in one event loop.

``Station.run()`` is what ``dealer-station run`` and the demo execute. Blocking
drivers (the serial shoe, the camera) run in their own threads and post to the
tables' queues; everything else runs on the loop. systemd is told READY once
every table is rebuilt from the journal and its broker link started (a long
replay tells it the start goes on, `start_progress`), and the watchdog is pinged
from the loop itself, so a blocked loop gets the station restarted. SIGHUP
re-reads the config file (`reload`). SIGTERM (or SIGINT) first lets the rounds
in play finish (`stop_drain`), a second one stops at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_station import config_reload, sdnotify, stop_drain, strategy_advice
from dealer_station.actor import TableActor
from dealer_station.api.server import serve_http
from dealer_station.boot import Boot
from dealer_station.config import ConfigError, StationConfig, load_config
from dealer_station.croupier import SelfDrivingCroupier
from dealer_station.integrity_watch import IntegrityWatch
from dealer_station.journal import Journal
from dealer_station.journal_digest import publish_daily
from dealer_station.mqtt_publisher import TablePublisher
from dealer_station.operator_advice import reload_refused
from dealer_station.payloads import Topics
from dealer_station.sensor_bridge import SensorBridge
from dealer_station.shoe_bridge import ShoeBridge
from dealer_station.start_progress import StartProgress
from dealer_station.station_info import info_topic, station_info
from dealer_station.table_inputs import Alarm
from dealer_station.wheel_readings import WheelReadings

if TYPE_CHECKING:
    from dealer_station.camera_bridge import CameraBridge
    from drivers.camera import FrameSource

log = logging.getLogger(__name__)


class Station:
    def __init__(
        self,
        config: StationConfig,
        cameras: Mapping[str, FrameSource] | None = None,
        config_file: Path | None = None,
    ) -> None:
        """``cameras``: frame sources that stand in for some tables' configured
        camera source (the demo's recorded wheel), by table id. ``config_file``:
        the file ``config`` was read from, which a reload reads again (none: a
        config built in code, which a reload cannot change)."""
        self.config = config
        self.config_file = config_file
        # Told each config a reload took (the API's authority).
        self.on_reload: list[Callable[[StationConfig], None]] = []
        self.camera_sources = dict(cameras or {})
        self.journal = Journal(config.journal)
        self.boot = Boot()
        self.actors = {
            t.id: TableActor(
                t,
                config.studio,
                self.journal,
                Topics(config.mqtt.prefix, config.studio, t.id),
                snapshot_every=config.snapshot_every,
                burn_cards=config.publish.burn_cards,
                boot=self.boot.id,
            )
            for t in config.tables
        }
        self.watches = {
            tid: IntegrityWatch(
                actor,
                config.journal,
                config.integrity.level,
                config.integrity.spins_between_reports,
            )
            for tid, actor in self.actors.items()
        }
        self.publishers: dict[str, TablePublisher] = {}
        self.shoes: dict[str, ShoeBridge] = {}
        self.cameras: dict[str, CameraBridge] = {}
        self.sensors: dict[str, SensorBridge] = {}
        self.readings: dict[str, WheelReadings] = {}
        # Set: stop now (a second signal, the drain over, or a test's own stop).
        self.stopped = asyncio.Event()
        # The drain a first stop signal began, once the tables run.
        self._draining: asyncio.Task[None] | None = None
        self._serving = False

    def stop(self) -> None:
        """A stop signal: the first lets the rounds in play finish, every table
        closing after its round, for up to ``drain_seconds``; a second, or one
        before the tables run, stops at once."""
        if self._draining is not None or not self._serving or self.config.drain_seconds == 0:
            self.stopped.set()
            return
        self._draining = asyncio.get_running_loop().create_task(self._drain(), name="drain")

    async def _drain(self) -> None:
        await stop_drain.drain(self.actors.values(), self.config.drain_seconds)
        self.stopped.set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            # Not in the main thread (tests run the station in a thread): no signals.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop)
        if self.config_file is not None:
            # Only then: the demo still ends when its terminal hangs up.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signal.SIGHUP, self.reload)
        progress = StartProgress(self.config.start_report_seconds)
        working_out = "working out a basic strategy table"
        # Before any table runs: a variant without a packaged basic strategy
        # has it worked out now, in child processes, never at a decision on the loop.
        async with progress.meanwhile(working_out):
            await strategy_advice.prepare(self.config.tables)
        for tid, actor in self.actors.items():
            actor.recover(progress.replaying(tid))
        async with progress.meanwhile(working_out):
            await strategy_advice.prepare((), (actor.state for actor in self.actors.values()))
        for watch in self.watches.values():
            # After the start's own records: the history it reads holds them.
            watch.subscribe()
        tasks = [
            asyncio.create_task(actor.run(), name=f"table {tid}")
            for tid, actor in self.actors.items()
        ]
        info = (info_topic(self.config), station_info(self.config, self.boot, self.actors.values()))
        try:
            for tid, actor in self.actors.items():
                publisher = TablePublisher(
                    actor,
                    self.config.mqtt,
                    self.journal,
                    client_id=f"{self.config.studio}-{self.config.station}-{tid}",
                    station_info=info,
                )
                publisher.start()
                self.publishers[tid] = publisher
                watching = self.watches[tid].run(publisher)
                tasks.append(asyncio.create_task(watching, name=f"integrity {tid}"))
                table_config = actor.config
                if table_config.shoe is not None:
                    bridge = ShoeBridge(actor, table_config.shoe)
                    bridge.start()
                    self.shoes[tid] = bridge
                readings = WheelReadings(
                    actor, table_config.wheel_sources, table_config.wheel_readings.wait_seconds
                )
                self.readings[tid] = readings
                if table_config.camera is not None:
                    # Imported here: OpenCV costs memory a card-only station need not pay.
                    from dealer_station.camera_bridge import CameraBridge

                    camera = CameraBridge(
                        actor, table_config.camera, self.camera_sources.get(tid), readings
                    )
                    camera.start()
                    self.cameras[tid] = camera
                if table_config.wheel_sensor is not None:
                    sensor = SensorBridge(actor, table_config.wheel_sensor, readings)
                    sensor.start()
                    self.sensors[tid] = sensor
                robot = table_config.self_driving
                if robot is not None:
                    croupier = SelfDrivingCroupier(
                        actor,
                        seed=robot.seed,
                        pause_seconds=robot.pause_seconds,
                        think_seconds=robot.think_seconds,
                    )
                    tasks.append(asyncio.create_task(croupier.run(), name=f"croupier {tid}"))
            listening = asyncio.Event()
            http = asyncio.create_task(serve_http(self, listening=listening), name="http")
            tasks.append(http)
            digests = publish_daily(
                self.journal, self.publishers, self.config.studio, self.config.station
            )
            tasks.append(asyncio.create_task(digests, name="journal digest"))
            # Ready is ready to be asked: a probe that follows READY=1 finds the API.
            heard = asyncio.create_task(listening.wait())
            await asyncio.wait([heard, http], return_when=asyncio.FIRST_COMPLETED)
            heard.cancel()
            if http.done():
                http.result()  # it could not listen: no READY=1, the start fails
            sdnotify.ready()
            tasks.append(asyncio.create_task(sdnotify.run_watchdog(), name="watchdog"))
            sdnotify.status(f"{len(self.actors)} tables running")
            log.info("station %s running %s", self.config.station, ", ".join(self.actors))
            self._serving = True
            stop = asyncio.create_task(self.stopped.wait())
            done, _ = await asyncio.wait([stop, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not stop:
                    task.result()  # a table or the watchdog ended: say why
        finally:
            await self._shut_down(tasks)

    def reload(self) -> bool:
        """Read the config file again and take what may change while the tables
        run (`config_reload`); refuse the whole file otherwise, with a log line
        and an alarm at every table, and keep the running config. Whether it
        was taken."""
        sdnotify.reloading()
        try:
            problem = self._reload()
        finally:
            sdnotify.ready()
        if problem is None:
            log.info("config reloaded from %s", self.config_file)
            sdnotify.status(f"{len(self.actors)} tables running; config reloaded")
            return True
        log.error("config reload refused: %s", problem)
        sdnotify.status(f"{len(self.actors)} tables running; config reload refused")
        for actor in self.actors.values():
            actor.submit(Alarm("config_reload_refused", reload_refused(problem), "station"))
        return False

    def _reload(self) -> str | None:
        """Why the config file cannot be taken, or None once it is."""
        if self.config_file is None:
            return "this station's config was not read from a file"
        try:
            read = load_config(self.config_file)
        except ConfigError as exc:
            return " ".join(str(exc).splitlines())
        fixed = config_reload.unreloadable(self.config, read)
        if fixed:
            return f"it changes {', '.join(fixed)}, which only a restart can"
        self.config = read
        for table in read.tables:
            self.actors[table.id].reconfigure(table)
        for listener in self.on_reload:
            listener(read)
        return None

    async def _shut_down(self, tasks: list[asyncio.Task[None]]) -> None:
        """Devices first, while the tables still run, so that a card in flight is
        journaled (and only then acknowledged); then the tables; then a clean
        ``offline`` to the broker."""
        sdnotify.stopping()
        if self._draining is not None:
            self._draining.cancel()  # a second signal: no more waiting
        for bridge in self.shoes.values():
            await asyncio.to_thread(bridge.close)
        for camera in self.cameras.values():
            await asyncio.to_thread(camera.close)
        for sensor in self.sensors.values():
            await asyncio.to_thread(sensor.close)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for publisher in self.publishers.values():
            await publisher.close()
        self.journal.close()
