"""Time the exact baccarat enumeration (what `dealer-station odds baccarat` runs).

    .venv/bin/python benchmarks/baccarat_enumeration.py [--decks 8] [--repeat 20]

Prints the best and median time of one full enumeration, and checks the counts
against Wizard of Odds' published 8-deck figures so a fast wrong answer cannot
pass as an improvement.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dealer_station.games.baccarat_odds import count_outcomes

# Wizard of Odds, baccarat page: 8 decks.
PUBLISHED_8_DECKS = (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        counts = count_outcomes(args.decks)
        times.append(time.perf_counter() - start)
    if args.decks == 8:
        assert (counts.banker, counts.player, counts.tie) == PUBLISHED_8_DECKS
    print(
        f"baccarat enumeration, {args.decks} decks, {args.repeat} runs: "
        f"best {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms "
        f"({counts.total:,} sequences)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
