"""Wheel sensor figures: decoder throughput, and what line damage costs and invents.

    PYTHONPATH=. .venv/bin/python benchmarks/wheel_sensor_noise.py [--games 20000]

1. Throughput: lines per second through `WheelSensorSession.received`, clean
   games (six lines each: the five of a game and a status line) in 4 KiB reads,
   pure Python, one core.
2. Damage: the same games with a share of the bytes flipped, dropped or doubled
   (`LineFaults.mixed`, a third each), decoded at once. For each rate: the game
   lines damaged, those rejected, results believed, and false results (a
   `WheelResult` that is not the wheel's own result for its game). PROTOCOL.md §10
   says which damage the CRC always sees and how often the rest passes; this says
   how often a damaged line is believed.
"""

from __future__ import annotations

import argparse
import random
import time

from drivers.line_faults import LineFaults
from drivers.wheel import WheelResult
from drivers.wheel.sentences import (
    BallLaunched,
    GameStart,
    Idle,
    NoMoreBets,
    Status,
    WinningNumber,
    encode,
)
from drivers.wheel.session import WheelSensorSession


def games(count: int, seed: int) -> tuple[list[bytes], dict[int, int]]:
    rng = random.Random(seed)
    lines: list[bytes] = []
    truth: dict[int, int] = {}
    for game in range(1, count + 1):
        rpm = round(rng.uniform(18, 32), 1)
        number = rng.randrange(37)
        truth[game] = number
        lines += [encode(GameStart(game)), encode(BallLaunched(game, rpm, "clockwise")),
                  encode(Status("BLN", game, rpm, "clockwise")), encode(NoMoreBets(game)),
                  encode(WinningNumber(game, number, rpm, "clockwise")), encode(Idle(game))]
    return lines, truth


def decode(data: bytes) -> tuple[list[WheelResult], dict[str, int]]:
    session = WheelSensorSession()
    session.connected(0.0)
    results = []
    for i in range(0, len(data), 4096):
        results += [e for e in session.received(data[i:i + 4096], 0.0).events
                    if isinstance(e, WheelResult)]
    return results, session.counters()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    lines, truth = games(args.games, seed=1)
    clean = b"".join(lines)
    started = time.perf_counter()
    results, _ = decode(clean)
    elapsed = time.perf_counter() - started
    assert len(results) == args.games
    print(f"throughput: {len(lines) / elapsed:,.0f} lines/s "
          f"({len(clean) / elapsed / 1e6:.2f} MB/s), {args.games} games")
    print("rate   damaged lines  rejected  results  false results")
    for rate in (0.001, 0.01, 0.05, 0.2):
        faults = LineFaults.mixed(rate, seed=7)
        damaged_lines = 0
        data = bytearray()
        for line in lines:
            before = faults.damaged
            data += faults.apply(line)
            damaged_lines += faults.damaged != before
        results, counters = decode(bytes(data))
        false = [r for r in results if truth.get(r.game) != r.number]
        print(f"{rate:>5.1%}  {damaged_lines:>13}  {counters['rejected_lines']:>8}  "
              f"{len(results):>7}  {len(false):>13}")


if __name__ == "__main__":
    main()
