"""How fast a table is rebuilt from its journal: the fold over journaled events.

    .venv/bin/python benchmarks/replay_speed.py [--rounds 1000]

Plays rounds of each game with the self-driving table, then folds the events
again and prints microseconds per event (what a restart costs per journaled input).
"""

from __future__ import annotations

import argparse
import time

from dealer_station.autoplay import Autoplay
from dealer_station.games import table
from dealer_station.games.events import Event, event_to_json, parse_event


def events_of(game: str, rounds: int) -> list[dict[str, object]]:
    auto = Autoplay(game, seed=7)
    state: table.TableState | None = None
    events: list[Event] = []
    settled = 0
    while settled < rounds:
        event = auto.next_event(state)
        state, outputs = table.apply(state, event)
        events.append(event)
        settled += sum(o["type"] == "round_settled" for o in outputs)
    return [event_to_json(e) for e in events]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    for game in ("baccarat", "blackjack", "roulette"):
        journal = events_of(game, args.rounds)
        started = time.perf_counter()
        state = None
        for body in journal:
            state, _ = table.apply(state, parse_event(body))
        elapsed = time.perf_counter() - started
        print(f"{game:<10} {len(journal):>7} events  {elapsed / len(journal) * 1e6:6.1f} µs/event")


if __name__ == "__main__":
    main()
