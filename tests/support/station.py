"""A real Station running in a thread with its own event loop, driven from a
synchronous test as the console or the game server would drive it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from dealer_station.actor import TableActor
from dealer_station.config import StationConfig, parse_config
from dealer_station.demo import launch_when_due
from dealer_station.station import Station
from dealer_station.table_inputs import Outcome
from drivers.recorded_wheel import RecordedWheel


def config_text(text: str, journal: Path, broker_port: int, mqtt: str = "") -> str:
    """A station's config file: ``text`` (its tables) after the test's studio,
    journal, broker and an HTTP port of the system's choosing; ``mqtt``, if
    given, is the ``[mqtt]`` section's body instead of the broker's port."""
    mqtt = mqtt or f'host = "127.0.0.1"\nport = {broker_port}\n'
    return (
        f'studio = "test"\nstation = "st"\njournal = "{journal}"\n'
        f"[mqtt]\n{mqtt}[http]\nport = 0\n" + text
    )


def config_for(text: str, journal: Path, broker_port: int, mqtt: str = "") -> StationConfig:
    return parse_config(config_text(text, journal, broker_port, mqtt))


class StationThread:
    def __init__(
        self,
        config: StationConfig,
        wheels: Mapping[str, Path] | None = None,
        start_timeout: float = 15.0,
    ) -> None:
        self.config = config
        self.start_timeout = start_timeout
        self.wheels = dict(wheels or {})
        self.loop = asyncio.new_event_loop()
        self.station: Station | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="station", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.station = self.new_station()
            self.loop.run_until_complete(self.station.run())
        except BaseException as exc:  # the test should see why the station died
            self.error = exc
        finally:
            self.loop.close()

    def new_station(self) -> Station:
        """The station, with the demo's recorded wheel for each table in
        ``wheels``: its clip plays each time the table waits for a spin."""
        cameras = {table: RecordedWheel(clip) for table, clip in self.wheels.items()}
        station = Station(self.config, cameras=cameras)
        for table, wheel in cameras.items():
            launch_when_due(station.actors[table], wheel)
        return station

    def __enter__(self) -> Self:
        self.thread.start()
        self.wait_until(
            lambda: (
                self.station is not None and len(self.station.publishers) == len(self.config.tables)
            ),
            self.start_timeout,
        )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        if self.thread.is_alive() and self.station is not None:
            self.loop.call_soon_threadsafe(self.station.stopped.set)
        self.thread.join(timeout=30)

    def actor(self, table: str) -> TableActor:
        assert self.station is not None
        return self.station.actors[table]

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the station's loop and return its result."""

        async def wrapped() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(timeout=10)

    def command(self, table: str, event: Any, **kwargs: Any) -> Outcome:
        future = asyncio.run_coroutine_threadsafe(
            self.actor(table).command(kwargs.pop("source", "api"), event, **kwargs), self.loop
        )
        outcome: Outcome = future.result(timeout=10)
        return outcome

    def next_step(self, table: str) -> tuple[str, str]:
        def step() -> tuple[str, str]:
            state = self.actor(table).state
            assert state is not None
            s = state.next_step()
            return s.kind, s.to

        result: tuple[str, str] = self.call(step)
        return result

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.error is not None:
                raise AssertionError(f"the station died: {self.error!r}") from self.error
            if predicate():
                return
            time.sleep(0.01)
        raise AssertionError("timed out waiting for the station")

    def wait_for_step(self, table: str, kind: str, timeout: float = 15.0) -> None:
        self.wait_until(lambda: self.next_step(table)[0] == kind, timeout)
