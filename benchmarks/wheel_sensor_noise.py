"""Wheel sensor figures: decoder throughput, and what line damage and lost lines cost and invent.

    PYTHONPATH=. .venv/bin/python benchmarks/wheel_sensor_noise.py [--games 20000]

1. Throughput: lines per second through `WheelSensorSession.received`, clean
   games in 4 KiB reads, pure Python, one core, the best of three runs: by the
   wall clock, and by the CPU time this process used (what one core gives when
   the machine is not shared).
2. Damage: the same games with a share of the bytes flipped, dropped or doubled
   (`LineFaults.mixed`, a third each), and with or without 1 % of the lines
   dropped whole besides, decoded at once. One game in ten is voided (a misfire,
   then the wheel gives up: the next game starts) and, after the next game's
   start, the wheel sends a result line for it anyway (the saboteur's stale line,
   which PROTOCOL.md §4 forbids): a result the wheel never meant. For each case:
   the game lines damaged and dropped, those rejected, the lines the counter
   reported lost, the results meant and believed, false results (a
   `WheelResult` the wheel did not mean), results given twice, and the stale
   lines *exposed*: those that arrived whole with the warning and the next
   game's start that made them stale both lost, and their game's start and
   launch read, which a station without the line counter (`rw-line` 2) believed.
   PROTOCOL.md §10 says which damage the CRC always sees and how often the rest
   passes; this says how often a damaged or lost line makes a result.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass

from drivers.line_faults import LineFaults
from drivers.wheel import WheelResult
from drivers.wheel.sentences import (
    BallLaunched,
    GameStart,
    Idle,
    NoMoreBets,
    Sentence,
    Status,
    Warning,
    WinningNumber,
    encode,
    next_seq,
)
from drivers.wheel.session import WheelSensorSession

VOIDED_EVERY = 10


@dataclass(frozen=True, slots=True)
class Sent:
    """A line the wheel sent: what it is, for the exposed-stale count."""

    line: bytes
    kind: str  # "start", "launch", "warning", "stale" or "other"
    game: int


def games(count: int, seed: int) -> tuple[list[Sent], dict[int, int]]:
    """The lines of `count` games, and the result the wheel meant for each game
    that has one."""
    rng = random.Random(seed)
    lines: list[Sent] = []
    meant: dict[int, int] = {}
    seq = 0

    def say(sentence: Sentence, kind: str, game: int) -> None:
        nonlocal seq
        if not isinstance(sentence, Status):
            seq = next_seq(seq)
        lines.append(Sent(encode(sentence, seq), kind, game))

    stale: tuple[int, int, float] | None = None
    for game in range(1, count + 1):
        rpm = round(rng.uniform(18, 32), 1)
        number = rng.randrange(37)
        say(GameStart(game), "start", game)
        if stale is not None:
            say(WinningNumber(stale[0], stale[1], stale[2], "clockwise"), "stale", stale[0])
            stale = None
        say(BallLaunched(game, rpm, "clockwise"), "launch", game)
        say(Status("BLN", game, rpm, "clockwise"), "other", game)
        if game % VOIDED_EVERY == 0:
            say(Warning(game, ("misfire",)), "warning", game)
            stale = (game, number, rpm)
            continue
        meant[game] = number
        say(NoMoreBets(game), "other", game)
        say(WinningNumber(game, number, rpm, "clockwise"), "other", game)
        say(Idle(game), "other", game)
    return lines, meant


def decode(data: bytes) -> tuple[list[WheelResult], dict[str, int]]:
    session = WheelSensorSession()
    session.connected(0.0)
    results = []
    for i in range(0, len(data), 4096):
        results += [e for e in session.received(data[i:i + 4096], 0.0).events
                    if isinstance(e, WheelResult)]
    return results, session.counters()


def exposed(lines: list[Sent], whole: list[bool]) -> int:
    """Stale result lines that arrived whole after the lines that made them
    stale were lost, their game's start and launch read."""
    fate = {(s.kind, s.game): ok for s, ok in zip(lines, whole, strict=True)
            if s.kind != "other"}
    return sum(
        1 for (kind, game), ok in fate.items()
        if kind == "stale" and ok and fate[("start", game)] and fate[("launch", game)]
        and not fate[("warning", game)] and not fate[("start", game + 1)]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    lines, meant = games(args.games, seed=1)
    clean = b"".join(s.line for s in lines)
    timings = []
    for _ in range(3):
        started, cpu = time.perf_counter(), time.process_time()
        results, _ = decode(clean)
        timings.append((time.perf_counter() - started, time.process_time() - cpu))
    elapsed, cpu = min(t for t, _ in timings), min(c for _, c in timings)
    assert {r.game: r.number for r in results} == meant and len(results) == len(meant)
    print(f"throughput: {len(lines) / elapsed:,.0f} lines/s "
          f"({len(clean) / elapsed / 1e6:.2f} MB/s), {len(lines) / cpu:,.0f} lines/s of CPU; "
          f"{args.games} games, {len(lines)} lines, {len(meant)} results meant")
    print("bytes  dropped  damaged  dropped  rejected  counted  believed  false  twice  exposed")
    print("       lines    lines    lines              lost")
    for rate in (0.001, 0.01, 0.05, 0.2):
        for drop_rate in (0.0, 0.01):
            faults = LineFaults.mixed(rate, seed=7)
            dropping = random.Random(11)
            damaged_lines = dropped = 0
            whole: list[bool] = []
            data = bytearray()
            for sent in lines:
                if dropping.random() < drop_rate:
                    dropped += 1
                    whole.append(False)
                    continue
                hurt = faults.apply(sent.line)
                damaged_lines += hurt != sent.line
                whole.append(hurt == sent.line)
                data += hurt
            results, counters = decode(bytes(data))
            false = [r for r in results if meant.get(r.game) != r.number]
            twice = sum(n - 1 for n in Counter(r.game for r in results).values() if n > 1)
            print(f"{rate:>5.1%}  {drop_rate:>7.0%}  {damaged_lines:>7}  {dropped:>7}  "
                  f"{counters['rejected_lines']:>8}  {counters['lines_lost']:>7}  "
                  f"{len(results):>8}  {len(false):>5}  {twice:>5}  {exposed(lines, whole):>7}")


if __name__ == "__main__":
    main()
