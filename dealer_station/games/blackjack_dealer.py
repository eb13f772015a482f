"""The dealer's final totals in blackjack, exact for any finite shoe.

Odds work on ten rank classes (ace, 2 to 9, and every ten-value card as one
class): suits and the difference between a ten and a king never change what
the dealer or the player totals.

The dealer's play is fixed, so every way the dealer's hand can end is a
multiset of drawn cards with an outcome, reached in some number of valid
orders (orders in which the dealer would have drawn every card). The chance of
drawing a given multiset in one given order from a shoe of ``N`` cards holding
``n_r`` of class ``r`` is ``prod_r n_r(n_r-1)...(n_r-m_r+1) / N(N-1)...(N-k+1)``,
the same for every order. So one table of (multiset, outcome, valid orders) per
up-card answers the question for any shoe with a few array operations, and a
strategy analysis asks it for thousands of shoes: one per player hand, with
that hand's cards removed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from dealer_station.games.cards import Card

RANK_CLASSES: Final = "A23456789T"
ACE: Final = 0
TEN: Final = 9
# Columns of every probability row: final 17 to 21, bust, blackjack (ace and
# ten as the dealer's first two cards).
OUTCOMES: Final = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST: Final = 5
BLACKJACK: Final = 6

Composition = tuple[int, ...]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def rank_class(card: Card) -> int:
    """0 for an ace, 1 to 8 for 2 to 9, 9 for any ten-value card."""
    return TEN if card.is_ten_value else RANK_CLASSES.index(card.rank)


def class_value(index: int) -> int:
    return index + 1


def full_shoe(decks: int) -> Composition:
    """Cards per rank class in ``decks`` fresh decks."""
    return (4 * decks,) * 9 + (16 * decks,)


def composition(cards: tuple[int, ...] | list[int]) -> Composition:
    """Rank-class indices to counts per class."""
    counts = [0] * 10
    for c in cards:
        counts[c] += 1
    return tuple(counts)


@cache
def hand_value(counts: Composition) -> tuple[int, bool]:
    """Total and softness of a hand given as counts per class."""
    hard = sum((i + 1) * c for i, c in enumerate(counts))
    if counts[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@dataclass(frozen=True, slots=True)
class DealerTable:
    """Every way the dealer's hand can end from one up-card.

    ``draws[i]`` is the multiset of cards drawn after the up-card, ``sizes[i]``
    its size, ``weights[i]`` the number of valid orders put in the column of
    its outcome.
    """

    up: int
    hits_soft_17: bool
    draws: IntArray
    sizes: IntArray
    weights: FloatArray


def _stands(total: int, soft: bool, hits_soft_17: bool) -> bool:
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


@cache
def dealer_table(up: int, hits_soft_17: bool) -> DealerTable:
    """The table for one up-card. Built breadth-first over multisets: a
    multiset's number of valid orders is the sum over its last card of the
    orders of the (still drawing) multiset before it."""
    endings: dict[tuple[Composition, int], int] = defaultdict(int)
    drawing: dict[Composition, int] = {(0,) * 10: 1}
    while drawing:
        following: dict[Composition, int] = defaultdict(int)
        for drawn, orders in drawing.items():
            first = sum(drawn) == 0
            for r in range(10):
                after = drawn[:r] + (drawn[r] + 1,) + drawn[r + 1 :]
                if first and {up, r} == {ACE, TEN}:
                    endings[(after, BLACKJACK)] += orders
                    continue
                with_up = after[:up] + (after[up] + 1,) + after[up + 1 :]
                total, soft = hand_value(with_up)
                if total > 21:
                    endings[(after, BUST)] += orders
                elif _stands(total, soft, hits_soft_17):
                    endings[(after, total - 17)] += orders
                else:
                    following[after] += orders
        drawing = following
    keys = sorted(endings)
    draws = np.array([k[0] for k in keys], dtype=np.int64)
    weights = np.zeros((len(keys), len(OUTCOMES)))
    for i, key in enumerate(keys):
        weights[i, key[1]] = endings[key]
    return DealerTable(up, hits_soft_17, draws, draws.sum(axis=1), weights)


def _log_falling(counts: IntArray, depth: int) -> FloatArray:
    """``out[..., j] = log(n (n-1) ... (n-j+1))`` for j = 0..depth; a class
    that runs out gets a log so low that its term comes back as zero."""
    steps = (counts[..., None] - np.arange(depth)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(steps > 0, np.log(np.maximum(steps, 1.0)), _EMPTY)
    zeros = np.zeros((*counts.shape, 1))
    return np.concatenate((zeros, np.cumsum(logs, axis=-1)), axis=-1)


# exp() of a sum holding this is exactly 0.0: the draw is impossible.
_EMPTY: Final = -1.0e6


@cache
def _selector(up: int, hits_soft_17: bool) -> tuple[IntArray, FloatArray, int, int]:
    """What sums each multiset's log falling factorials in one matrix
    product: the columns of the flattened log table that some multiset uses
    (class ``r`` drawn ``j >= 1`` times is column ``r * (depth + 1) + j``; the
    shoe's own falling factorial, which divides, follows at ``10 * (depth + 1)
    + size``), and a matrix with +1 (or -1 for the divisor) where a multiset
    uses a column. Columns no multiset uses are left out: most are, and the
    product is the bulk of the work."""
    table = dealer_table(up, hits_soft_17)
    depth = int(table.draws.max())
    size_depth = int(table.sizes.max())
    width = depth + 1
    full = np.zeros((10 * width + size_depth + 1, len(table.draws)))
    rows = np.arange(len(table.draws))
    for r in range(10):
        full[r * width + table.draws[:, r], rows] = 1.0
    full[10 * width + table.sizes, rows] = -1.0
    # log ff(n, 0) = 0: drawing none of a class adds nothing.
    full[[r * width for r in range(10)] + [10 * width], :] = 0.0
    used = np.flatnonzero(np.abs(full).sum(axis=1))
    return used, full[used], depth, size_depth


def outcome_probabilities(table: DealerTable, shoes: IntArray, chunk: int = 1024) -> FloatArray:
    """One row of ``OUTCOMES`` probabilities per shoe (rows of 10 counts, the
    up-card already out). The probabilities are not conditioned on anything:
    the blackjack column holds the chance of a dealer blackjack."""
    shoes = np.asarray(shoes, dtype=np.int64).reshape(-1, 10)
    used, select, depth, size_depth = _selector(table.up, table.hits_soft_17)
    out = np.empty((len(shoes), len(OUTCOMES)))
    for start in range(0, len(shoes), chunk):
        part = shoes[start : start + chunk]
        logs = np.concatenate(
            (
                _log_falling(part, depth).reshape(len(part), -1),
                _log_falling(part.sum(axis=1), size_depth),
            ),
            axis=1,
        )
        out[start : start + chunk] = np.exp(logs[:, used] @ select) @ table.weights
    return out


def dealer_probabilities(shoe: Composition, up: int, hits_soft_17: bool) -> tuple[float, ...]:
    """The dealer's outcome probabilities for one shoe (the up-card already
    out of it), in the order of ``OUTCOMES``."""
    row = outcome_probabilities(dealer_table(up, hits_soft_17), np.array([shoe]))[0]
    return tuple(float(p) for p in row)
