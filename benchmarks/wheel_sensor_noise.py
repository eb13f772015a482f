"""Wheel sensor figures: decoder throughput, and every result through a noisy line.

    PYTHONPATH=. .venv/bin/python benchmarks/wheel_sensor_noise.py [--games 11111]

1. Throughput: lines per second through `WheelSensorSession.received`, clean
   games in 4 KiB reads, pure Python, one core, the best of three runs: by the
   wall clock, and by the CPU time this process used (what one core gives when
   the machine is not shared).
2. Damage: the games on a 9600-baud line (10 bits a byte, each line sent when
   the wire is free), with a share of the bytes flipped, dropped or doubled
   (`LineFaults.mixed`, a third each), with or without 1 % of the lines dropped
   whole besides, read line by line at the time its last byte arrives. A game
   takes 45 s (start; launch at 12 s; no more bets at 22 s; result at 30 s, the
   record right after it `RECORD_REPEATS` times; idle at 40 s), with the
   wheel's status record every second. One game in ten is voided (a misfire at
   15 s, then the wheel gives up: the next game starts at 20 s) and, after the
   next game's start, the wheel sends a result line for it anyway (the
   saboteur's stale line, which PROTOCOL.md §4 forbids): a result the wheel
   never meant. The default 11,111 games mean 10,000 results. For each case:
   the lines damaged and dropped, those rejected, the game lines the counter
   reported lost, the results delivered (from their result line, or made good
   by a record), invented (a `WheelResult` the wheel did not mean), delivered
   twice, records refused as contradicting, and the time from the end of the
   wheel's result line to the end of the line that gave the station the result:
   median, 99th percentile and worst, in ms. PROTOCOL.md §10 says which damage
   the CRC always sees and how often the rest passes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, replace

from drivers.line_faults import LineFaults
from drivers.wheel import WheelResult
from drivers.wheel.sentences import (
    RECORD_REPEATS,
    BallLaunched,
    GameStart,
    Idle,
    NoMoreBets,
    Sentence,
    Status,
    Warning,
    WinningNumber,
    encode,
    flags_of,
    flags_value,
    next_seq,
)
from drivers.wheel.session import SENSOR_BAUDRATE, WheelSensorSession

VOIDED_EVERY = 10
STATUS_MS = 1000
BYTE_MS = 10_000 / SENSOR_BAUDRATE  # start bit, 8 data bits, stop bit
GAME_MS = 45_000
VOIDED_GAME_MS = 20_000
# When each line of a game is due, from its start (ms).
LAUNCH_AT, MISFIRE_AT, CLOSE_AT, RESULT_AT, IDLE_AT = 12_000, 15_000, 22_000, 30_000, 40_000


@dataclass(frozen=True, slots=True)
class Sent:
    line: bytes
    at_ms: float  # when its last byte is on the wire
    kind: str  # "result" (the game's result line), "stale", "other"
    game: int


def games(count: int, seed: int) -> tuple[list[Sent], dict[int, int]]:
    """The lines of `count` games as the wheel sends them, and the result the
    wheel meant for each game that has one."""
    rng = random.Random(seed)
    due: list[tuple[int, int, Sentence | None, str]] = []  # (ms, order, game line or status)
    meant: dict[int, int] = {}
    t, stale_number, stale_rpm = 0, 0, 0.0
    for game in range(1, count + 1):
        rpm = round(rng.uniform(18, 32), 1)
        number = rng.randrange(37)
        due.append((t, 0, GameStart(game), "other"))
        if game > 1 and (game - 1) % VOIDED_EVERY == 0:
            due.append((t, 1, WinningNumber(game - 1, stale_number, stale_rpm, "clockwise"),
                        "stale"))
        due.append((t + LAUNCH_AT, 0, BallLaunched(game, rpm, "clockwise"), "other"))
        if game % VOIDED_EVERY == 0:
            due.append((t + MISFIRE_AT, 0, Warning(game, ("misfire",)), "other"))
            stale_number, stale_rpm = number, rpm
            t += VOIDED_GAME_MS
            continue
        meant[game] = number
        due.append((t + CLOSE_AT, 0, NoMoreBets(game), "other"))
        due.append((t + RESULT_AT, 0, WinningNumber(game, number, rpm, "clockwise"), "result"))
        due.append((t + IDLE_AT, 0, Idle(game), "other"))
        t += GAME_MS
    due += [(ms, 2, None, "status") for ms in range(0, t, STATUS_MS)]
    due.sort(key=lambda d: (d[0], d[1]))
    return _on_the_wire(due), meant


def _on_the_wire(due: list[tuple[int, int, Sentence | None, str]]) -> list[Sent]:
    """The wheel's lines, each with its counter and the record it is in, at
    the time its last byte leaves (a line waits for the one before it)."""
    out: list[Sent] = []
    seq, free = 0, 0.0
    record = Status("IDL", 0, 0.0, "clockwise")

    def send(line: bytes, ms: float, kind: str, game: int) -> None:
        nonlocal free
        free = max(free, ms) + len(line) * BYTE_MS
        out.append(Sent(line, free, kind, game))

    for ms, _, sentence, kind in due:
        if sentence is None:
            send(encode(record, seq), ms, "other", record.game)
            continue
        seq = next_seq(seq)
        if kind != "stale":
            record = _recorded(record, sentence, seq)
        send(encode(sentence, seq), ms, kind, sentence.game)
        if kind == "result":
            for _ in range(RECORD_REPEATS):
                send(encode(record, seq), ms, "other", record.game)
    return out


def _recorded(record: Status, sentence: Sentence, seq: int) -> Status:
    """The wheel's record after it sent `sentence` counted `seq` (PROTOCOL.md §3)."""
    match sentence:
        case GameStart(game):
            return Status("GST", game, 0.0, "clockwise", seq)
        case BallLaunched(_, rpm, direction):
            return replace(record, stage="BLN", rotor_rpm=rpm, direction=direction,
                           launches=record.launches + 1)
        case Warning(_, flags):
            return replace(record, stage="GST", flags=flags_of(flags_value(record.flags + flags)))
        case NoMoreBets():
            return replace(record, stage="NMB")
        case WinningNumber(number=number):
            return replace(record, stage="WIN", number=number)
        case Idle():
            return replace(record, stage="IDL")
    raise AssertionError(sentence)


def throughput(data: bytes) -> tuple[float, float]:
    """The best of three: seconds by the wall clock, and of CPU."""
    timings = []
    for _ in range(3):
        session = WheelSensorSession()
        session.connected(0.0)
        started, cpu = time.perf_counter(), time.process_time()
        for i in range(0, len(data), 4096):
            session.received(data[i:i + 4096], 0.0)
        timings.append((time.perf_counter() - started, time.process_time() - cpu))
    return min(t for t, _ in timings), min(c for _, c in timings)


def percentile(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(share * len(values)))] if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=11_111)
    args = parser.parse_args()
    lines, meant = games(args.games, seed=1)
    clean = b"".join(s.line for s in lines)
    elapsed, cpu = throughput(clean)
    print(f"throughput: {len(lines) / elapsed:,.0f} lines/s "
          f"({len(clean) / elapsed / 1e6:.2f} MB/s), {len(lines) / cpu:,.0f} lines/s of CPU; "
          f"{args.games} games, {len(lines)} lines, {len(meant)} results meant")
    sent_at = {s.game: s.at_ms for s in lines if s.kind == "result"}
    print("bytes  dropped  damaged  dropped  rejected  counted  delivered  made  invented  "
          "twice  contra-  p50   p99    worst")
    print("       lines    lines    lines              lost               good               "
          "dicts   ms    ms     ms")
    for rate in (0.001, 0.01, 0.05):
        for drop_rate in (0.0, 0.01):
            faults = LineFaults.mixed(rate, seed=7)
            dropping = random.Random(11)
            session = WheelSensorSession()
            session.connected(0.0)
            damaged_lines = dropped = 0
            results: list[tuple[WheelResult, float]] = []
            for sent in lines:
                if dropping.random() < drop_rate:
                    dropped += 1
                    continue
                hurt = faults.apply(sent.line)
                damaged_lines += hurt != sent.line
                results += [(e, sent.at_ms) for e in session.received(hurt, sent.at_ms).events
                            if isinstance(e, WheelResult)]
            counters = session.counters()
            invented = [r for r, _ in results if meant.get(r.game) != r.number]
            twice = sum(n - 1 for n in Counter(r.game for r, _ in results).values() if n > 1)
            delivered = {r.game for r, _ in results} & meant.keys()
            waits = [at - sent_at[r.game] for r, at in results if r.game in meant]
            print(f"{rate:>5.1%}  {drop_rate:>7.0%}  {damaged_lines:>7}  {dropped:>7}  "
                  f"{counters['rejected_lines']:>8}  {counters['lines_lost']:>7}  "
                  f"{len(delivered):>9}  {counters['made_good']:>4}  {len(invented):>8}  "
                  f"{twice:>5}  {counters['contradictions']:>7}  "
                  f"{statistics.median(waits) if waits else 0:>4.0f}  "
                  f"{percentile(waits, 0.99):>5.0f}  {max(waits, default=0):>6.0f}")


if __name__ == "__main__":
    main()
