"""Play a blackjack variant through the real engine with the computed basic
strategy, and check the simulated return against the exact one.

    .venv/bin/python benchmarks/blackjack_simulation.py --rounds 10000000 --workers 2
    .venv/bin/python benchmarks/blackjack_simulation.py --variant diamond-blackjack --rounds 200000

Every round goes through ``BlackjackEngine.apply``, the engine the table runs:
bets, cards off a uniformly shuffled shoe one by one (``DealtShoe``; the
variant's own shuffle: every round, or when the cut card is out), the engine's legal actions,
its settlement. (The table fold around it only adds the shoe's bookkeeping; it
is left out for speed.) Each box plays the variant's basic strategy table
(``blackjack_strategy_table.build``, the one the station plays and
``blackjack_odds.analyse`` reports), and declines
insurance and even money. The simulated return must fall inside the 99.9%
confidence interval around the computed basic-strategy return. With a cut card
the game is not the full-shoe game the analysis computes (the cut-card effect,
a few hundredths of a percent), which the interval at these sample sizes does
not resolve.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
import time
from decimal import Decimal
from typing import NamedTuple

from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_odds import analyse
from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS, BlackjackRules, load_variant
from dealer_station.games.blackjack_strategy_table import BasicStrategy, build
from dealer_station.games.cards import Card, standard_deck
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    DealCard,
    Decision,
    Event,
    PlaceBet,
)

Z_999 = 3.2905  # two-sided 99.9% normal quantile
STAKE = Decimal(10)


def decide(
    strategy: BasicStrategy, rnd: BlackjackRound, to: str, options: tuple[str, ...]
) -> Decision:
    _, box_text, _, hand_text = to.split()
    box, index = int(box_text), int(hand_text)
    hand = rnd.box(box).hands[index]
    assert rnd.up_card is not None
    action = strategy.play(hand.cards, rnd.up_card, options, hand.doubled)
    return Decision(box=box, hand=index, action=action)


class Part(NamedTuple):
    """One worker's share: the sums the mean and deviation are made of, and the
    processor time it took."""

    rounds: int
    total: float
    total_sq: float
    cpu_seconds: float


class DealtShoe:
    """A shoe shuffled as it is dealt: each card drawn is a uniform pick among
    those not drawn yet (one Fisher-Yates step a card). The cards come out in
    the order of a uniformly shuffled shoe, without shuffling 300-odd cards for
    a round that reaches half a dozen: a variant that shuffles every round spent
    a third of its time in ``random.shuffle``."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        self.cards: list[Card] = list(standard_deck()) * decks
        self.rng = rng
        self.drawn = 0

    def shuffle(self) -> None:
        self.drawn = 0

    def draw(self) -> Card:
        cards, i = self.cards, self.drawn
        if i == len(cards):
            raise AssertionError("the shoe ran out before its cut card")
        j = self.rng.randrange(i, len(cards))
        cards[i], cards[j] = cards[j], cards[i]
        self.drawn = i + 1
        return cards[i]


def simulate(
    rules: BlackjackRules, strategy: BasicStrategy, rounds: int, boxes: int, seed: int
) -> Part:
    """Play ``rounds`` rounds on one shoe, shuffled by the variant's rule."""
    engine = BlackjackEngine(rules)
    shoe = DealtShoe(rules.decks, random.Random(seed))
    cut = rules.cut_card_at if rules.shuffle == "cut_card" else None
    total = total_sq = 0.0
    started = time.process_time()
    for _ in range(rounds):
        if cut is None or shoe.drawn >= cut:
            shoe.shuffle()
        x = play_round(engine, strategy, shoe, boxes) / boxes
        total += x
        total_sq += x * x
    return Part(rounds, total, total_sq, time.process_time() - started)


# What the forked workers play: set before the pool forks, so that the strategy
# is not pickled.
_JOB: tuple[BlackjackRules, BasicStrategy, int] | None = None


def _play_share(share: tuple[int, int]) -> Part:
    assert _JOB is not None
    rules, strategy, boxes = _JOB
    rounds, seed = share
    return simulate(rules, strategy, rounds, boxes, seed)


def simulate_in_parallel(
    rules: BlackjackRules,
    strategy: BasicStrategy,
    rounds: int,
    boxes: int,
    seed: int,
    workers: int,
) -> tuple[float, float, float, float]:
    """Mean and standard deviation of a round's net per unit staked on each box,
    the wall seconds and the processor seconds. Each worker plays its own shoe
    from its own seed (``seed``, ``seed + 1``, ...)."""
    global _JOB
    shares = [(rounds // workers + (i < rounds % workers), seed + i) for i in range(workers)]
    started = time.perf_counter()
    if workers == 1:
        parts = [simulate(rules, strategy, rounds, boxes, seed)]
    else:
        _JOB = (rules, strategy, boxes)
        with mp.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play_share, shares)
    seconds = time.perf_counter() - started
    total = sum(p.total for p in parts)
    total_sq = sum(p.total_sq for p in parts)
    mean = total / rounds
    sd = math.sqrt(max(total_sq / rounds - mean * mean, 0.0))
    return mean, sd, seconds, sum(p.cpu_seconds for p in parts)


def play_round(
    engine: BlackjackEngine, strategy: BasicStrategy, shoe: DealtShoe, boxes: int
) -> float:
    """One round from the bets to the settlement; the main bets' net in units
    of the stake."""
    state = engine.new_round("sim")
    for box in range(1, boxes + 1):
        state, _ = engine.apply(state, PlaceBet("sim", "main", STAKE, box=box))
    state, _ = engine.apply(state, CloseBets())
    while not engine.is_over(state):
        step = engine.next_step(state)
        event: Event
        if step.kind == "card":
            event = DealCard(shoe.draw())
        elif step.kind == "decision":
            event = decide(strategy, state, step.to, step.options)
        elif step.kind == "insurance":
            event = CloseInsurance()
        else:
            raise AssertionError(f"unexpected step {step}")
        state, _ = engine.apply(state, event)
    payouts = engine.outcome(state)["payouts"]
    return float(sum(Decimal(p["net"]) for p in payouts if p["spot"] == "main") / STAKE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="variant (repeat; default: all shipped)")
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--boxes", type=int, default=1, help="boxes played each round")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes, each on its own shoe and seed"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line per variant")
    args = parser.parse_args(argv)
    failed = False
    for variant in args.variant or SHIPPED_VARIANTS:
        rules = load_variant(variant)
        started = time.perf_counter()
        odds = analyse(rules)
        analysed = time.perf_counter() - started
        mean, sd, seconds, cpu = simulate_in_parallel(
            rules, build(rules), args.rounds, args.boxes, args.seed, args.workers
        )
        half = Z_999 * sd / math.sqrt(args.rounds)
        inside = abs(1 + mean - odds.rtp_basic) <= half
        failed |= not inside
        result = {
            "variant": variant,
            "rounds": args.rounds,
            "boxes": args.boxes,
            "computed_rtp_basic_strategy": odds.rtp_basic,
            "computed_rtp_optimal": odds.rtp_optimal,
            "simulated_rtp": 1 + mean,
            "standard_error": sd / math.sqrt(args.rounds),
            "interval_99_9": [odds.rtp_basic - half, odds.rtp_basic + half],
            "inside": inside,
            "rounds_per_second": args.rounds / seconds,
            "rounds_per_cpu_second": args.rounds / cpu,
            "workers": args.workers,
            "analysis_seconds": analysed,
        }
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(
                f"{variant:28s} computed {100 * odds.rtp_basic:.4f}%  simulated "
                f"{100 * (1 + mean):.4f}% ± {100 * half:.4f}% (99.9%)  "
                f"{'inside' if inside else 'OUTSIDE'}  {args.rounds:,} rounds at "
                f"{args.rounds / seconds:,.0f}/s ({args.rounds / cpu:,.0f} per CPU-second)",
                flush=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
