"""Shoe link figures: decoder throughput, and card latency through a real PTY.

    .venv/bin/python benchmarks/shoe_link.py [--cards 10000]

1. Decoder throughput: CARD frames per second through `FrameDecoder` plus
   `decode_message`, fed in 4 KiB reads, pure Python, one core.
2. Latency: the simulated shoe writes one CARD frame to the pseudo-terminal in
   one write; the clock starts just before that write (the last byte lands during
   it, so the figure errs long) and stops when the station's driver hands the
   `CardDrawn` event to its callback.
   Cards are drawn one at a time, each after the previous was delivered. The shoe
   runs in a separate process, as the firmware would, so the two sides do not share
   one interpreter lock; both read CLOCK_MONOTONIC (time.perf_counter on Linux).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import statistics
import threading
import time
from multiprocessing.connection import Connection

import firmware_proto as fp
from drivers.shoe import CardDrawn, ShoeEvent, ShoeOnline, open_shoe


def decoder_throughput(frames: int = 100_000) -> float:
    stream = b"".join(
        fp.encode_message(fp.Card(i & 0xFFFF, 1 + i % 13, i % 4, False, i), i & 0xFF)
        for i in range(frames)
    )
    chunks = [stream[i : i + 4096] for i in range(0, len(stream), 4096)]
    best = 0.0
    for _ in range(3):
        decoder = fp.FrameDecoder()
        decoded = 0
        start = time.perf_counter()
        for chunk in chunks:
            for item in decoder.feed(chunk):
                if isinstance(item, fp.Frame):
                    fp.decode_message(item)
                    decoded += 1
        elapsed = time.perf_counter() - start
        assert decoded == frames
        best = max(best, frames / elapsed)
    return best


def _shoe_process(port_path: str, commands: Connection) -> None:
    from pathlib import Path

    from drivers.shoe.simulator import FramedShoeSimulator

    written: queue.SimpleQueue[float] = queue.SimpleQueue()
    with FramedShoeSimulator(decks=200, seed=1, link_path=Path(port_path),
                             on_card_written=written.put) as sim:
        commands.send("ready")
        while True:
            command = commands.recv()
            if command == "stop":
                break
            sim.draw(1)
            commands.send(written.get())


def card_latency(cards: int, port_path: str) -> list[float]:
    ours, theirs = mp.Pipe()
    shoe = mp.get_context("fork").Process(target=_shoe_process, args=(port_path, theirs))
    shoe.start()
    assert ours.recv() == "ready"
    delivered = threading.Event()
    online = threading.Event()
    delivered_at: list[float] = []

    def on_event(event: ShoeEvent) -> None:
        if isinstance(event, CardDrawn):
            delivered_at.append(time.perf_counter())
            delivered.set()
        elif isinstance(event, ShoeOnline):
            online.set()

    latencies = []
    with open_shoe("framed", port=port_path, on_event=on_event):
        if not online.wait(10):
            raise RuntimeError("the simulated shoe did not come online")
        for _ in range(cards):
            delivered.clear()
            ours.send("draw")
            written_at = ours.recv()
            if not delivered.wait(5):
                raise RuntimeError("a card was not delivered")
            latencies.append(delivered_at[-1] - written_at)
    ours.send("stop")
    shoe.join()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    rate = decoder_throughput()
    print(f"decoder throughput: {rate:,.0f} CARD frames/s ({rate * 16 / 1e6:.1f} MB/s)")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        latencies = card_latency(args.cards, f"{tmp}/dealer-shoe")
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms)
    p99 = ms[int(len(ms) * 0.99) - 1]
    print(f"card latency over {len(ms)} cards: p50 {p50:.3f} ms, p99 {p99:.3f} ms, "
          f"max {ms[-1]:.3f} ms (goal: p99 < 2 ms)")


if __name__ == "__main__":
    main()
