"""The floods of issue 13 against a station run as systemd runs it: the longest
gap between its watchdog pings and its memory, for each flood.

    .venv/bin/python benchmarks/http_floods.py [--flood NAME ...]

Each flood gets a fresh station: ``dealer-station run`` as a subprocess, with
``NOTIFY_SOCKET`` on a datagram socket bound here and ``WATCHDOG_USEC`` set (a ping
every 0.1 s), its descriptors capped at 1024 as the unit's ``LimitNOFILE`` does,
one baccarat table and no broker (the outbox holds the events; nothing here
needs one). The real ``WATCHDOG=1`` datagrams are timed as they arrive. Reported:
the longest gap between two pings from just before the flood to just after, the
growth of the station's peak RSS (VmHWM, reset before the flood through
``/proc/PID/clear_refs``) over its RSS before, its most descriptors, and whether
an authenticated ``GET /tables/t1/state`` was answered all along.

The floods (tests/adversarial/test_http_floods.py repeats them and asserts the
outcomes):

- ``big-post``: a 200 MB POST without a token, and one of 200 MB chunked with one;
- ``websockets``: 60 WebSockets each sending a 16 MiB first message;
- ``idle``: 1,100 connections that never send a byte;
- ``slowloris``: 200 connections sending their headers a byte at a time;
- ``silent-websockets``: 300 WebSockets that never send their token.

Goal (issue 13): every gap under 1 s, RSS growth under 20 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from dealer_station.credentials import hash_token

TOKEN = "flood-bench-viewer-token-0123456789"
CROUPIER = "flood-bench-croupier-token-0123456789"
TABLE = "t1"
NOFILE = 1024  # the unit's LimitNOFILE (systemd/dealer-station.service)
MIB = 1024 * 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def raise_own_nofile(wanted: int) -> None:
    """The flooding side needs more descriptors than the station may have."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


@dataclass
class WatchedStation:
    """``dealer-station run`` under a stand-in for systemd's notify socket."""

    workdir: Path
    http: dict[str, object] = field(default_factory=dict)
    watchdog_usec: int = 200_000
    pings: list[float] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def _config(self) -> Path:
        http = "".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}\n"
                       for k, v in self.http.items())  # fmt: skip
        path = self.workdir / "station.toml"
        path.write_text(
            f'studio = "bench"\nstation = "st"\njournal = "{self.workdir / "j.sqlite3"}"\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n'
            f'[http]\nhost = "127.0.0.1"\nport = {self.port}\n{http}'
            f'[[auth.tokens]]\nname = "viewer-1"\nrole = "viewer"\n'
            f'sha256 = "{hash_token(TOKEN)}"\n'
            f'[[auth.tokens]]\nname = "croupier-1"\nrole = "croupier"\n'
            f'sha256 = "{hash_token(CROUPIER)}"\n'
            f'[[tables]]\nid = "{TABLE}"\ngame = "baccarat"\n'
        )
        return path

    def start(self) -> None:
        notify_path = self.workdir / "notify"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(notify_path))
        ready = threading.Event()

        def listen() -> None:
            with contextlib.suppress(OSError):
                while True:
                    message = self.notify.recv(4096).decode()
                    if message == "WATCHDOG=1":
                        self.pings.append(time.monotonic())
                    elif message == "READY=1":
                        ready.set()

        threading.Thread(target=listen, daemon=True).start()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dealer_station", "run", "--config", str(self._config())],
            env={**os.environ, "NOTIFY_SOCKET": str(notify_path),
                 "WATCHDOG_USEC": str(self.watchdog_usec)},
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE)),
            stdout=subprocess.DEVNULL,
            # A file, not a pipe: a pipe nobody reads would block the station's logging.
            stderr=(self.workdir / "stderr.log").open("wb"),
        )  # fmt: skip
        if not ready.wait(60):
            raise RuntimeError("the station did not say READY=1")
        for _ in range(600):
            if self.answers():
                return
            time.sleep(0.05)
        raise RuntimeError("the station does not answer HTTP")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.notify.close()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def answers(self) -> bool:
        """An authenticated ``GET /tables/t1/state`` gets its 200."""
        try:
            response = httpx.get(
                f"{self.url}/tables/{TABLE}/state",
                headers={"Authorization": f"Bearer {TOKEN}"},
                timeout=10,
            )
        except httpx.TransportError:
            return False
        return response.status_code == 200

    def memory_kib(self) -> dict[str, int]:
        fields: dict[str, int] = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0])
        return fields

    def reset_peak(self) -> None:
        with open(f"/proc/{self.pid}/clear_refs", "w") as refs:
            refs.write("5")  # resets VmHWM to the current RSS (proc(5))

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def longest_gap(self, start: float, end: float) -> float:
        """The longest time without a ping over [start, end]."""
        times = [start, *(t for t in self.pings if start < t < end), end]
        return max(b - a for a, b in itertools.pairwise(times))


@contextlib.contextmanager
def watched_station(**http: object) -> Iterator[WatchedStation]:
    with tempfile.TemporaryDirectory(prefix="http-floods-") as workdir:
        station = WatchedStation(Path(workdir), http=http)
        station.start()
        try:
            yield station
        finally:
            station.stop()


# -- the floods: each returns what the station did to the flooding client ---------------------


async def _open(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def _status(reader: asyncio.StreamReader) -> int | None:
    """The status of the answer, or None when the station closed without one."""
    try:
        line = await reader.readline()
    except ConnectionError:
        return None
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[0].startswith(b"HTTP/") else None


def json_array(size: int, piece: int = 64 * 1024) -> Iterator[bytes]:
    """A JSON array of ``size`` bytes, ``[1,1,...,1]``, in pieces: what costs a
    parser the most per byte (one object per two bytes)."""
    yield b"["
    middle = size - 3
    ones = b"1," * (piece // 2)
    for _ in range(middle // len(ones)):
        yield ones
    yield b"1," * ((middle % len(ones)) // 2) + b"1" * (middle % 2) + b"1]"


async def _push(
    writer: asyncio.StreamWriter, chunks: Iterable[bytes], answer: asyncio.Future[Any]
) -> int:
    """Send ``chunks`` until they end, or until the station's ``answer`` comes or
    it hangs up; the bytes sent by then."""
    sent = 0
    with contextlib.suppress(ConnectionError, TimeoutError):
        for chunk in chunks:
            if answer.done():
                break
            writer.write(chunk)
            # A station that neither reads nor hangs up stops the flood here.
            await asyncio.wait_for(writer.drain(), 30)
            sent += len(chunk)
    return sent


async def _within(answer: asyncio.Future[Any]) -> Any:
    """The station's answer, or None if it gives none within a minute."""
    try:
        return await asyncio.wait_for(answer, 60)
    except TimeoutError:
        return None


@dataclass
class BigPost:
    """What the station answered to a 200 MB body, and how much of it it took."""

    status: int | None
    sent: int


async def big_post(port: int, path: str, token: str | None, chunked: bool) -> BigPost:
    size = 200 * 1000 * 1000
    reader, writer = await _open(port)
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n"
    writer.write((head + "\r\n").encode())
    body = json_array(size)
    if chunked:
        body = (f"{len(c):x}\r\n".encode() + c + b"\r\n" for c in itertools.chain(body, [b""]))
    answer = asyncio.ensure_future(_status(reader))
    sent = await _push(writer, body, answer)
    status = await _within(answer)
    writer.close()
    return BigPost(status, sent)


def _ws_handshake(port: int) -> bytes:
    return (
        f"GET /tables/{TABLE}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def _ws_close_code(reader: asyncio.StreamReader) -> int | None:
    """The code of the station's close frame, or None when it only hung up."""
    try:
        head = await reader.readexactly(2)
        length = head[1] & 0x7F
        if length == 126:
            length = struct.unpack("!H", await reader.readexactly(2))[0]
        payload = await reader.readexactly(length)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    if head[0] & 0x0F != 0x8 or len(payload) < 2:
        return None
    code: int = struct.unpack("!H", payload[:2])[0]
    return code


async def big_ws_message(port: int, size: int = 16 * MIB) -> int | None:
    """Open the feed and send a ``size``-byte first message; the close code."""
    reader, writer = await _open(port)
    writer.write(_ws_handshake(port))
    await writer.drain()
    if await _status(reader) != 101:
        writer.close()
        return None
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    # A client's frame is masked; a zero mask leaves the payload as it is.
    writer.write(b"\x81\xff" + struct.pack("!Q", size) + b"\0\0\0\0")
    answer = asyncio.ensure_future(_ws_close_code(reader))
    await _push(writer, json_array(size), answer)
    code: int | None = await _within(answer)
    writer.close()
    return code


async def idle_connections(port: int, count: int, during: Callable[[], Awaitable[None]]) -> int:
    """Open ``count`` connections that say nothing, run ``during``, close them;
    how many the station had closed by then."""
    opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            opened.append(await _open(port))
    await during()
    await asyncio.sleep(0.5)  # let the station's closes arrive
    closed = sum(1 for reader, _ in opened if reader.at_eof())
    for _, writer in opened:
        writer.close()
    return closed


async def silent_websockets(port: int, count: int, during: Callable[[], Awaitable[None]]) -> int:
    """Open ``count`` WebSockets that never send their token, run ``during``, close
    them; how many the station upgraded."""
    opened: list[asyncio.StreamWriter] = []
    upgraded = 0
    for _ in range(count):
        reader, writer = await _open(port)
        writer.write(_ws_handshake(port))
        opened.append(writer)
        upgraded += await _status(reader) == 101
    await during()
    for writer in opened:
        writer.close()
    return upgraded


async def slowloris(port: int, count: int, max_bytes: int = 400) -> list[int]:
    """``count`` connections each sending endless headers a byte every 0.1 s, until
    the station closes them or ``max_bytes``; the bytes each got to send."""

    async def one() -> int:
        reader, writer = await _open(port)
        line = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode() + b"a" * max_bytes
        sent = 0
        try:
            for byte in line:
                if reader.at_eof():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                sent += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(1), 0.1)
        except ConnectionError:
            pass
        writer.close()
        return sent

    return list(await asyncio.gather(*(one() for _ in range(count))))


# -- the benchmark ------------------------------------------------------------------------------


async def probe_while(
    station: WatchedStation, flood: Callable[[WatchedStation], Awaitable[object]]
) -> tuple[object, bool]:
    """Run ``flood``; meanwhile ask for the table's state, in a thread, every 0.2 s."""
    answered: list[bool] = []
    done = threading.Event()

    def probe() -> None:
        while not done.is_set():
            answered.append(station.answers())
            time.sleep(0.2)

    thread = threading.Thread(target=probe)
    thread.start()
    try:
        outcome = await flood(station)
    finally:
        done.set()
        thread.join()
    return outcome, bool(answered) and all(answered)


FLOODS: dict[str, Callable[[WatchedStation], Awaitable[object]]] = {
    "big-post": lambda s: asyncio.gather(
        big_post(s.port, f"/tables/{TABLE}/bets", None, chunked=False),
        big_post(s.port, f"/tables/{TABLE}/bets", CROUPIER, chunked=True),
    ),
    "websockets": lambda s: asyncio.gather(*(big_ws_message(s.port) for _ in range(60))),
    "idle": lambda s: idle_connections(s.port, 1100, lambda: asyncio.sleep(3)),
    "slowloris": lambda s: slowloris(s.port, 200),
    "silent-websockets": lambda s: silent_websockets(s.port, 300, lambda: asyncio.sleep(3)),
}


def run_one(name: str) -> None:
    with watched_station() as station:
        time.sleep(1)
        before = station.memory_kib()["VmRSS"]
        station.reset_peak()
        most_fds = station.descriptors()
        sampling = threading.Event()

        def sample() -> None:
            nonlocal most_fds
            while not sampling.is_set():
                with contextlib.suppress(OSError):
                    most_fds = max(most_fds, station.descriptors())
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        start = time.monotonic()
        outcome, answered = asyncio.run(probe_while(station, FLOODS[name]))
        end = time.monotonic()
        time.sleep(0.5)
        sampling.set()
        sampler.join()
        after = station.answers()
        assert station.process is not None
        if station.process.poll() is not None:
            print(f"{name:17} the station died (exit {station.process.returncode})", flush=True)
            return
        peak = station.memory_kib()["VmHWM"]
        gap = station.longest_gap(start - 0.5, end + 0.5)
        summary = outcome if not isinstance(outcome, list) or len(outcome) < 5 else (
            f"{len(outcome)} results, distinct: {sorted(set(map(str, outcome)))[:5]}"
        )  # fmt: skip
        print(
            f"{name:17} longest watchdog gap {gap:6.2f} s   RSS growth "
            f"{(peak - before) / 1024:7.1f} MiB   most fds {most_fds:5}   "
            f"state answered during: {answered}, after: {after}   outcome: {summary}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flood", choices=sorted(FLOODS), action="append")
    args = parser.parse_args()
    raise_own_nofile(4096)
    for name in args.flood or list(FLOODS):
        run_one(name)


if __name__ == "__main__":
    main()
