"""A real station with its HTTP face, in a thread with its own event loop: what
the API, schemathesis and browser tests drive over real HTTP and WebSocket.

Tokens and PINs here are test fixtures: the config holds only their hashes, as
a studio's would.
"""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from support.station import StationThread

from dealer_station.api.server import serve_http
from dealer_station.config import StationConfig
from dealer_station.credentials import hash_pin, hash_token
from dealer_station.journal import Record

TOKENS = {
    "croupier": "test-croupier-token-0123456789",
    "pit_boss": "test-pit-boss-token-0123456789",
    "game_server": "test-game-server-token-0123456789",
    "viewer": "test-viewer-token-0123456789",
}
PIT_BOSSES = {"Eva Novak": "4711", "Jan": "2580"}
# Rig.post reads the table's step and makes a new key unless told otherwise.
AUTO = "<auto>"

# Hashed once: scrypt is slow by design.
_AUTH: dict[str, Any] = {}


# Long windows: a test closes them itself, so no wall clock decides anything.
SLOW = {"betting_seconds": 600, "decision_seconds": 600, "insurance_seconds": 600}

# The three tables the API tests drive, one of each game.
TABLES = [
    {"id": "bac", "game": "baccarat", "timers": SLOW},
    {"id": "bj", "game": "blackjack", "variant": "live-blackjack", "timers": SLOW},
    {"id": "rou", "game": "roulette", "timers": SLOW},
]


def shoe_tables(shoe_port: str) -> list[dict[str, Any]]:
    """A baccarat table with a framed shoe on ``shoe_port`` (a simulator's: its
    heartbeat missed for a second is an unplugged shoe), and a roulette table."""
    return [
        {"id": "bac", "game": "baccarat", "timers": SLOW,
         "shoe": {"port": shoe_port, "heartbeat_timeout": 1.0}},
        {"id": "rou", "game": "roulette", "timers": SLOW},
    ]


def auth_section() -> dict[str, Any]:
    if not _AUTH:
        _AUTH["tokens"] = [
            {"name": f"{role.replace('_', '-')}-1", "role": role, "sha256": hash_token(token)}
            for role, token in TOKENS.items()
        ]
        _AUTH["pit_bosses"] = [
            {"name": name, "pin_scrypt": hash_pin(pin)} for name, pin in PIT_BOSSES.items()
        ]
    return _AUTH


def station_config(
    tmp: Path, broker_port: int, tables: list[dict[str, Any]], **extra: Any
) -> StationConfig:
    return StationConfig.model_validate(
        {
            "studio": "test",
            "station": "st",
            "journal": str(tmp / "journal.sqlite3"),
            "mqtt": {"host": "127.0.0.1", "port": broker_port},
            # Port 0: should the station serve HTTP itself, it takes any free port.
            "http": {"host": "127.0.0.1", "port": 0},
            "auth": auth_section(),
            "tables": tables,
            **extra,
        }
    )


class Rig(StationThread):
    """A `StationThread` that also serves HTTP on a socket of its own, which a
    test can take down and bring back while the station runs on."""

    def __init__(self, config: StationConfig, wheels: Mapping[str, Path] | None = None) -> None:
        super().__init__(config, wheels)
        self.sock = self._bound(0)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.serving: asyncio.Task[None] | None = None
        self.ready = threading.Event()

    @staticmethod
    def _bound(port: int) -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        return sock

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        except BaseException as exc:  # the test should see why the station died
            self.error = exc
            self.ready.set()
        finally:
            self.loop.close()

    async def _main(self) -> None:
        self.station = self.new_station()
        running = asyncio.create_task(self.station.run())
        self.serving = asyncio.create_task(serve_http(self.station, self.sock))
        while len(self.station.publishers) < len(self.config.tables) and not running.done():
            await asyncio.sleep(0.01)
        self.ready.set()
        try:
            await running
        finally:
            await self._stop_http()

    async def _stop_http(self) -> None:
        if self.serving is not None:
            self.serving.cancel()
            await asyncio.gather(self.serving, return_exceptions=True)
            self.serving = None

    def http_down(self) -> None:
        """The HTTP server goes away (the station runs on), as if the link broke."""
        asyncio.run_coroutine_threadsafe(self._stop_http(), self.loop).result(timeout=15)

    def http_up(self) -> None:
        async def start() -> None:
            assert self.station is not None
            self.serving = asyncio.create_task(serve_http(self.station, self._bound(self.port)))

        asyncio.run_coroutine_threadsafe(start(), self.loop).result(timeout=15)
        self.wait_until(self.answers)

    def answers(self) -> bool:
        try:
            return self.get("/healthz").status_code == 200
        except httpx.TransportError:
            return False

    def start(self) -> None:
        self.thread.start()
        self.ready.wait(30)
        if self.error is not None:
            raise AssertionError(f"the station did not start: {self.error!r}") from self.error
        self.wait_until(self.answers)

    def stop(self) -> None:
        super().stop()
        if self.error is not None:
            raise AssertionError(f"the station died: {self.error!r}") from self.error

    def records(self, table: str) -> list[Record]:
        assert self.station is not None
        journal = self.station.journal
        result: list[Record] = self.call(lambda: list(journal.records(table)))
        return result

    # -- HTTP ---------------------------------------------------------------------------------

    def headers(self, role: str | None) -> dict[str, str]:
        if role is None:
            return {}
        token = TOKENS.get(role, role)  # a role's token, or a literal (wrong) token
        return {"Authorization": f"Bearer {token}"}

    def get(self, path: str, role: str | None = None, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.url + path, headers=self.headers(role), timeout=10, **kwargs)

    def step(self, table: str) -> str | None:
        """The table's step now (``next.step``), as a client that looked would send it."""
        answer = self.get(f"/tables/{table}/state", "viewer")
        state = answer.json().get("state") if answer.status_code == 200 else None
        step = None if state is None else state["next"].get("step")
        return None if step is None else str(step)

    def post(
        self,
        path: str,
        role: str | None = None,
        json: Any = None,
        *,
        step: str | None = AUTO,
        key: str | None = AUTO,
        **kwargs: Any,
    ) -> httpx.Response:
        """A write as a well-behaved client sends it: ``If-Match`` with the step
        it just read and a fresh ``Idempotency-Key`` (docs/api.md), unless the
        test names them (or None: without the header)."""
        headers = self.headers(role) | kwargs.pop("headers", {})
        if path.startswith("/tables/"):
            if step == AUTO:
                step = self.step(path.split("/")[2])
            if step is not None:
                headers["If-Match"] = f'"{step}"'
            if key == AUTO:
                key = uuid.uuid4().hex
            if key is not None:
                headers["Idempotency-Key"] = key
        return httpx.post(self.url + path, headers=headers, json=json, timeout=10, **kwargs)


@contextmanager
def running(config: StationConfig, wheels: Mapping[str, Path] | None = None) -> Iterator[Rig]:
    rig = Rig(config, wheels)
    rig.start()
    try:
        yield rig
    finally:
        rig.stop()


def biased_wheel(rounds: int, seed: int) -> list[int]:
    """The numbers of a wheel that lands on 17 a quarter of the time."""
    rng = random.Random(seed)
    return [17 if rng.random() < 0.25 else rng.randrange(37) for _ in range(rounds)]


def play_biased_wheel(station: Rig, table: str, rounds: int, seed: int) -> None:
    """Play ``rounds`` roulette rounds at ``table``, the croupier entering the
    numbers of `biased_wheel`."""
    for i, number in enumerate(biased_wheel(rounds, seed)):
        for event, source in (
            ({"type": "round_open", "round": f"r{i}"}, "api"),
            ({"type": "bets_closed"}, "api"),
            ({"type": "wheel_result", "number": number}, "console"),
        ):
            assert station.command(table, event, source=source).accepted
