"""The demo station's resident memory over a long run, and after a flood.

    .venv/bin/python benchmarks/memory_soak.py [--minutes 60] [--every 30]
        [--warmup 5] [--flood-minutes 5] [--quiet-minutes M] [--out soak.csv]
        [--snapshots DIR --snapshot-every 300]

Starts ``dealer-station demo`` (three self-driving tables: two PTY shoes, the
rendered wheel, mosquitto in its own process, not counted) and samples the
station process's VmRSS every ``--every`` seconds for ``--minutes``. Then, if
``--flood-minutes``, a flood of the API and the live feed for that long (HTTP
GETs of every table's state and rounds with the viewer's and the pit boss's
tokens, and WebSockets that sign in, read a frame and close, all the time), and
``--quiet-minutes`` (as long as the flood unless given) of quiet play after it,
sampled the same way.

Reported: the samples (a CSV with ``--out``), and the growth, in MiB an hour,
of a least-squares line through the samples after ``--warmup`` minutes of play
(the first minutes fill caches, the strategy tables and the rendered spins),
and the same for the quiet after the flood, from its first sample and from
``--warmup`` minutes into it (as the flood's last connections close, the
allocator settles once, as the start's caches fill); and the rise (last sample
less the first, an hour) of each. Issue 19's goal: under 2 MiB an hour after
the first five minutes, and the same after a flood, measured as the rise.

With ``--snapshots DIR`` the demo runs under ``tracemalloc`` and writes a heap
snapshot there every ``--snapshot-every`` seconds (``heap_snapshots.py``); its
RSS is then not the station's own (tracemalloc keeps a traceback per block).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from demo_footprint import free_port, memory_kib

TABLES = ("baccarat-1", "blackjack-1", "roulette-1")


def rise_mib_per_hour(samples: list[tuple[float, float]]) -> float:
    """The last (seconds, KiB) sample less the first, in MiB an hour: issue 19's
    own measure, where the least-squares slope weighs the whole curve."""
    if len(samples) < 2 or samples[-1][0] == samples[0][0]:
        return float("nan")
    (t0, m0), (t1, m1) = samples[0], samples[-1]
    return (m1 - m0) / 1024 / ((t1 - t0) / 3600)


def slope_mib_per_hour(samples: list[tuple[float, float]]) -> float:
    """The least-squares slope of (seconds, KiB) samples, in MiB an hour."""
    n = len(samples)
    if n < 2:
        return float("nan")
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    var = sum((t - mean_t) ** 2 for t, _ in samples)
    cov = sum((t - mean_t) * (m - mean_m) for t, m in samples)
    return cov / var * 3600 / 1024 if var else float("nan")


async def flood(base: str, tokens: dict[str, str], seconds: float) -> dict[str, int]:
    """HTTP and WebSocket requests back to back for ``seconds``; how many of each."""
    counts = {"http": 0, "ws": 0, "errors": 0}
    stop = time.monotonic() + seconds
    ws_base = base.replace("http://", "ws://")

    async def http_loop(token: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=10) as client:
            while time.monotonic() < stop:
                for table in TABLES:
                    for path in (f"/tables/{table}/state", f"/tables/{table}/rounds?limit=20"):
                        try:
                            answer = await client.get(path)
                        except httpx.HTTPError:  # a timeout on a loaded machine
                            counts["errors"] += 1
                            continue
                        counts["http" if answer.status_code < 500 else "errors"] += 1

    async def ws_loop(token: str) -> None:
        while time.monotonic() < stop:
            for table in TABLES:
                try:
                    async with websockets.connect(f"{ws_base}/tables/{table}/ws") as ws:
                        await ws.send(json.dumps({"token": token}))
                        await asyncio.wait_for(ws.recv(), timeout=10)
                    counts["ws"] += 1
                except (TimeoutError, OSError, websockets.WebSocketException):
                    counts["errors"] += 1

    await asyncio.gather(
        http_loop(tokens["viewer"]),
        http_loop(tokens["pit_boss"]),
        ws_loop(tokens["viewer"]),
        ws_loop(tokens["croupier"]),
    )
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--flood-minutes", type=float, default=5.0)
    parser.add_argument("--quiet-minutes", type=float)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--snapshots", type=Path)
    parser.add_argument("--snapshot-every", type=float, default=300.0)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="memory-soak-")
    http_port = free_port()
    station = [sys.executable, "-m", "dealer_station"]
    if args.snapshots is not None:
        station = [
            sys.executable,
            str(Path(__file__).with_name("heap_snapshots.py")),
            "run",
            str(args.snapshots),
            str(args.snapshot_every),
            "--",
        ]
    process = subprocess.Popen(
        [*station, "demo", "--http-port", str(http_port), "--dir", workdir],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdout is not None
    printed = []
    for line in process.stdout:
        printed.append(line)
        if line.strip().startswith("stop"):
            break
    text = "".join(printed)
    tokens = {
        "croupier": re.search(r"console\s+\S+#token=(\S+)", text),
        "viewer": re.search(r"overlay\s+\S+#token=(\S+)", text),
        "pit_boss": re.search(r"pit boss (\S+)\n", text),
    }
    found = {role: m.group(1) for role, m in tokens.items() if m is not None}
    assert len(found) == 3, f"the demo did not print its tokens: {text}"
    base = f"http://127.0.0.1:{http_port}"
    started = time.monotonic()
    rows: list[tuple[str, float, float]] = []

    def sample_for(phase: str, minutes: float) -> None:
        end = time.monotonic() + minutes * 60
        while True:
            kib = memory_kib(process.pid)["VmRSS"]
            rows.append((phase, time.monotonic() - started, float(kib)))
            print(f"{phase:6s} {rows[-1][1]:8.0f} s  {kib / 1024:7.1f} MiB", flush=True)
            if time.monotonic() >= end:
                return
            time.sleep(min(args.every, max(0.0, end - time.monotonic())))

    try:
        sample_for("play", args.minutes)
        counts: dict[str, int] = {}
        if args.flood_minutes > 0:
            counts = asyncio.run(flood(base, found, args.flood_minutes * 60))
            quiet = args.flood_minutes if args.quiet_minutes is None else args.quiet_minutes
            sample_for("after", quiet)
    finally:
        process.terminate()
        process.wait(timeout=60)
    if args.out is not None:
        with args.out.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["phase", "seconds", "rss_kib"])
            writer.writerows(rows)
    play = [(t, m) for phase, t, m in rows if phase == "play" and t >= args.warmup * 60]
    after = [(t, m) for phase, t, m in rows if phase == "after"]
    settled = [(t, m) for t, m in after if t >= after[0][0] + args.warmup * 60] if after else []
    report = {
        "minutes": args.minutes,
        "rss_mib_first": rows[0][2] / 1024,
        "rss_mib_at_warmup_end": play[0][1] / 1024 if play else None,
        "rss_mib_last_play": [m for p, _, m in rows if p == "play"][-1] / 1024,
        "growth_mib_per_hour_after_warmup": slope_mib_per_hour(play),
        "rise_mib_per_hour_after_warmup": rise_mib_per_hour(play),
        "flood_requests": counts,
        "rss_mib_after_flood_first": after[0][1] / 1024 if after else None,
        "rss_mib_after_flood_last": after[-1][1] / 1024 if after else None,
        "growth_mib_per_hour_after_flood": slope_mib_per_hour(after) if after else None,
        "rise_mib_per_hour_after_flood": rise_mib_per_hour(after) if after else None,
        "growth_mib_per_hour_after_flood_warmup": slope_mib_per_hour(settled),
        "rise_mib_per_hour_after_flood_warmup": rise_mib_per_hour(settled),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
