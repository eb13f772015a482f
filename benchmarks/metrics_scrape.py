"""What a Prometheus scrape costs the event loop that deals the cards.

    .venv/bin/python benchmarks/metrics_scrape.py [--scrapes 500] [--tables 3]

A scrape of ``/metrics`` reads the station on its loop (api/metrics.py): while
it runs, no table takes an input. This runs a station (a real mosquitto, the
journal on disk, roulette tables with 20 settled rounds each, the croupier
entering the numbers)
and times, on its loop, the whole exposition of the app's registry: the
station's families, the journal's size, the process's /proc reads, the text.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from dealer_station.api.app import create_app
from dealer_station.api.metrics import exposition
from dealer_station.config import parse_config
from dealer_station.station import Station


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scrapes", type=int, default=500)
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="metrics-scrape-"))
    port = free_port()
    (work / "mosquitto.conf").write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
    )
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen([mosquitto, "-c", str(work / "mosquitto.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    tables = "".join(
        f'[[tables]]\nid = "t{i}"\ngame = "roulette"\ntimers = {{ betting_seconds = 600 }}\n'
        for i in range(args.tables)
    )
    config = parse_config(
        f'studio = "bench"\nstation = "st"\njournal = "{work / "journal.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n[http]\nport = 0\n' + tables
    )
    times: list[float] = []
    size = 0

    async def run() -> None:
        nonlocal size
        station = Station(config)
        task = asyncio.create_task(station.run())
        while len(station.publishers) < args.tables:
            await asyncio.sleep(0.01)
        context = create_app(station).state.context  # its feeds count from now
        for actor in station.actors.values():
            for n in range(20):  # settled rounds: counters with values, a last settlement
                await actor.command("api", {"type": "round_open", "round": f"r{n}"})
                await actor.command("api", {"type": "bets_closed"})
                await actor.command("console", {"type": "wheel_result", "number": n})
        assert all(feed.events["round_settled"] == 20 for feed in context.feeds.values())
        registry = context.metrics
        for _ in range(args.scrapes):
            started = time.perf_counter()
            body = exposition(registry).body
            times.append((time.perf_counter() - started) * 1000)
            size = len(body)
            await asyncio.sleep(0)
        station.stopped.set()
        await task

    try:
        asyncio.run(run())
    finally:
        broker.terminate()
        shutil.rmtree(work, ignore_errors=True)
    times.sort()
    print(f"{args.scrapes} scrapes of {args.tables} tables, {size} bytes each")
    print(
        f"  on the loop: p50 {statistics.median(times):.2f} ms  "
        f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms  max {times[-1]:.2f} ms"
    )


if __name__ == "__main__":
    main()
