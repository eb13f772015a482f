"""Python heap snapshots of a running station, and what grew between two of them.

    .venv/bin/python benchmarks/heap_snapshots.py run DIR EVERY -- demo [args...]
    .venv/bin/python benchmarks/heap_snapshots.py compare OLD NEW [--top 25]

``run`` starts ``tracemalloc`` (25 frames), then ``dealer-station`` with the
arguments after ``--``, and writes ``DIR/heap-<seconds>.snapshot`` every
``EVERY`` seconds from a daemon thread (a benchmark-only hook: the station's
code knows nothing of it). ``memory_soak.py --snapshots DIR`` starts the demo
this way. ``compare`` prints the allocations that grew most from OLD to NEW,
grouped by traceback, the station's own frames first.

tracemalloc sees only the Python heap: memory kept by glibc's arenas after a
free, SQLite's page cache and OpenCV's buffers are outside it.
"""

from __future__ import annotations

import argparse
import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 25


def dump_every(directory: Path, every: float) -> None:
    """Write a snapshot every ``every`` seconds, named by seconds since the start."""
    started = time.monotonic()
    while True:
        time.sleep(every)
        seconds = round(time.monotonic() - started)
        snapshot = tracemalloc.take_snapshot().filter_traces(
            (tracemalloc.Filter(False, tracemalloc.__file__),)
        )
        snapshot.dump(str(directory / f"heap-{seconds:06d}.snapshot"))


def run(directory: Path, every: float, station_args: list[str]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(FRAMES)
    threading.Thread(target=dump_every, args=(directory, every), daemon=True).start()
    sys.argv = ["dealer-station", *station_args]
    runpy.run_module("dealer_station", run_name="__main__", alter_sys=True)


def compare(old: Path, new: Path, top: int) -> None:
    before = tracemalloc.Snapshot.load(str(old))
    after = tracemalloc.Snapshot.load(str(new))
    grown = [s for s in after.compare_to(before, "traceback") if s.size_diff > 0]
    total = sum(s.size_diff for s in after.compare_to(before, "filename"))
    print(f"Python heap {old.name} -> {new.name}: {total / 1024:+.1f} KiB")
    for stat in grown[:top]:
        print(f"\n{stat.size_diff / 1024:+9.1f} KiB  {stat.count_diff:+7d} blocks")
        ours = [f for f in stat.traceback if "/site-packages/" not in f.filename]
        for frame in (ours or list(stat.traceback))[-8:]:
            print(f"    {frame.filename}:{frame.lineno}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    running = commands.add_parser("run")
    running.add_argument("directory", type=Path)
    running.add_argument("every", type=float)
    running.add_argument("station_args", nargs=argparse.REMAINDER)
    comparing = commands.add_parser("compare")
    comparing.add_argument("old", type=Path)
    comparing.add_argument("new", type=Path)
    comparing.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if args.command == "run":
        station_args = (
            args.station_args[1:] if args.station_args[:1] == ["--"] else args.station_args
        )
        run(args.directory, args.every, station_args)
    else:
        compare(args.old, args.new, args.top)


if __name__ == "__main__":
    main()
