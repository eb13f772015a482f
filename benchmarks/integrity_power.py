"""How much play the integrity monitor needs to see a fault (issue 15).

    .venv/bin/python benchmarks/integrity_power.py [--trials 20] [--level 0.01]

For each fault, independent trials at each sample size of a doubling grid
(and the steps between); a trial detects when the monitor's report at that
size has any alarm (Bonferroni over every test the table ran, at ``--level``).
Printed: the smallest size detected in half the trials and in 90% of them.

- a wheel whose one pocket (17) comes up 1.5 times as often as each other;
- a wheel whose 9-pocket sector (5 to 33 clockwise, the tiers' middle) comes
  up 1.2 times as often pocket for pocket;
- a dealer who lands within 4 pockets of a chosen distance past the release
  point 30% of the time (and at random otherwise);
- an eight-deck shoe with one card missing, dealt to a cut card one shoe in
  four from the end and the rest counted out at the shuffle;
- a shoe not shuffled (the last shoe's order, cut once) and a shoe riffled
  once (Gilbert-Shannon-Reeds), against the shoe before: cards of the new
  shoe needed.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from dealer_station.games.cards import RANKS, SUITS
from dealer_station.games.roulette_layout import WHEEL_ORDER
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import CardOut, DealerOn, ShoeEnd, Spin, TableChosen

DECK8 = [r + s for s in SUITS for r in RANKS] * 8
Trial = Callable[[random.Random, int, float], bool]


def _weighted_wheel(weights: list[float]) -> Callable[[random.Random], int]:
    pockets = list(range(37))
    return lambda rng: rng.choices(pockets, weights)[0]


def _wheel_trial(spin: Callable[[random.Random], int]) -> Trial:
    def trial(rng: random.Random, n: int, level: float) -> bool:
        monitor = Monitor()
        monitor.feed(TableChosen("r", "roulette", None, None))
        for _ in range(n):
            monitor.feed(Spin("r", spin(rng)))
        return bool(monitor.report(level).alarms)

    return trial


def _aiming_dealer(rng: random.Random, n: int, level: float) -> bool:
    monitor = Monitor()
    monitor.feed(TableChosen("r", "roulette", None, None))
    monitor.feed(DealerOn("r", "ann"))
    for _ in range(n):
        release = rng.randrange(37)
        offset = 12 + rng.randint(-4, 4) if rng.random() < 0.3 else rng.randrange(37)
        landing = WHEEL_ORDER[(WHEEL_ORDER.index(release) + offset) % 37]
        monitor.feed(Spin("r", landing, landing_distance=offset % 37))
    return bool(monitor.report(level).alarms)


def _shoe_table(monitor: Monitor, cards: list[str], end: ShoeEnd) -> None:
    monitor.feed_all(CardOut("b", c) for c in cards)
    monitor.feed(end)


def _missing_card(rng: random.Random, n: int, level: float) -> bool:
    """``n`` is ignored: the count closes only at the shoe's end."""
    cards = list(DECK8)
    rng.shuffle(cards)
    cards.pop(rng.randrange(len(cards)))
    cut = 3 * len(DECK8) // 4
    monitor = Monitor()
    monitor.feed(TableChosen("b", "baccarat", None, None))
    _shoe_table(monitor, cards[:cut], ShoeEnd("b", "shuffle", tuple(cards[cut:])))
    return bool(monitor.report(level).alarms)


def _riffle(rng: random.Random, cards: list[str]) -> list[str]:
    cut = sum(rng.random() < 0.5 for _ in cards)
    left, right = cards[:cut], cards[cut:]
    out = []
    while left or right:
        if rng.random() < len(left) / (len(left) + len(right)):
            out.append(left.pop(0))
        else:
            out.append(right.pop(0))
    return out


def _reshuffle_trial(make: Callable[[random.Random, list[str]], list[str]]) -> Trial:
    def trial(rng: random.Random, n: int, level: float) -> bool:
        first = list(DECK8)
        rng.shuffle(first)
        cut = 3 * len(DECK8) // 4
        monitor = Monitor()
        monitor.feed(TableChosen("b", "baccarat", None, None))
        _shoe_table(monitor, first[:cut], ShoeEnd("b", "shuffle", tuple(first[cut:])))
        second = make(rng, first)
        monitor.feed_all(CardOut("b", c) for c in second[:n])
        return bool(monitor.report(level).alarms)

    return trial


def _unshuffled(rng: random.Random, cards: list[str]) -> list[str]:
    cut = rng.randrange(1, len(cards))
    return cards[cut:] + cards[:cut]


def sizes(start: int, stop: int) -> list[int]:
    out = []
    n = start
    while n <= stop:
        out += [n, n * 3 // 2]
        n *= 2
    return sorted(set(out))


def needed(
    trial: Trial, grid: list[int], trials: int, level: float
) -> tuple[int | None, int | None]:
    half = ninety = None
    for n in grid:
        hits = sum(trial(random.Random(n * 1009 + t), n, level) for t in range(trials))
        if half is None and hits >= trials / 2:
            half = n
        if hits >= 0.9 * trials:
            ninety = n
            break
    return half, ninety


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--level", type=float, default=0.01)
    args = parser.parse_args()
    one = [1.5 if n == 17 else 1.0 for n in range(37)]
    start = WHEEL_ORDER.index(5)
    sector = {WHEEL_ORDER[(start + i) % 37] for i in range(9)}
    nine = [1.2 if n in sector else 1.0 for n in range(37)]
    faults: list[tuple[str, Trial, list[int], str]] = [
        ("one pocket at 1.5x", _wheel_trial(_weighted_wheel(one)), sizes(250, 64_000), "spins"),
        (
            "9-pocket sector at 1.2x",
            _wheel_trial(_weighted_wheel(nine)),
            sizes(250, 64_000),
            "spins",
        ),
        ("dealer on target 30%", _aiming_dealer, sizes(25, 8_000), "throws"),
        ("unshuffled shoe (one cut)", _reshuffle_trial(_unshuffled), sizes(20, 416), "cards"),
        ("one riffle only", _reshuffle_trial(_riffle), sizes(20, 416), "cards"),
    ]
    print(f"level {args.level}, {args.trials} trials a size")
    for name, trial, grid, unit in faults:
        half, ninety = needed(trial, grid, args.trials, args.level)
        top = f">{grid[-1]}"
        print(f"{name:<28} 50%: {half or top} {unit}, 90%: {ninety or top} {unit}")
    hits = sum(_missing_card(random.Random(t), 0, args.level) for t in range(args.trials))
    print(
        f"{'one card missing':<28} found at the shoe's end in {hits}/{args.trials} shoes "
        f"({3 * len(DECK8) // 4} cards dealt, {len(DECK8) - 1 - 3 * len(DECK8) // 4} counted out)"
    )


if __name__ == "__main__":
    main()
