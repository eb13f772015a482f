"""The shoe's tests: its composition at its end, and how well it was shuffled.

**Composition.** Every card out of a shoe (dealt, burned, or refused by the
rules as one the shoe cannot hold) plus the cards never read at its end must
be exactly the shoe's decks: ``decks`` of each of the 52 cards. A card seen
more often than the shoe holds is an extra card (a foreign card, a
duplicate, or a misread); a card short is a missing one. The cards never read
are known when the shoe was emptied through the scanner (the shoe says
``empty``) or counted out through it (a ``count_out`` before the shuffle:
the rest of the shoe comes out as cards, and none is left). An extra card
needs no count and is checked at every shoe's end; a missing one only where
the rest was counted. A card that passed the scanner unread and was never
entered is a card of unknown value: as many missing cards as such unknown
ones are not an alarm (the croupier had that alarm when it happened), and
the finding says so.

**Shuffle.** A shuffle must break the order of the shoe before. Of the
neighbouring pairs of a new shoe (a card and the next one out), count those
that were neighbours in the same order in the previous shoe. For a shoe
shuffled at random, a given pair of positions holds a given ordered pair
(a, b) with chance d^2 / (N (N - 1)) (a != b) or d (d - 1) / (N (N - 1))
(a = b), d the decks and N the cards, so the count's mean is the pairs seen
times the sum of those chances over the previous shoe's pairs; it is a sum
of many rare events, so its tail is Poisson's. An unshuffled shoe keeps
nearly every pair, one riffle about half of them, a stacked run its length:
each far beyond the mean. A second finding is the longest run of cards that
came out in the same order in both shoes: a stacked run of twenty cards adds
only nineteen pairs to some sixty (a weak signal in the count) but is a
streak that a shuffled shoe makes with a chance of about 0.15^19. (Rising
sequences, the classic measure of a riffle, need a permutation; a shoe of
eight decks has eight of each card, so its order against the last is not one.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final

from dealer_station.games.cards import RANKS, SUITS
from dealer_station.integrity.findings import Finding, Skipped
from dealer_station.integrity.observations import CardOut, CountingOut, ShoeEnd
from dealer_station.integrity.tails import poisson_sf

KINDS: Final = tuple(r + s for s in SUITS for r in RANKS)
# Enough neighbouring pairs for the count to mean something; its Poisson
# tail needs no large sample.
MIN_SHUFFLE_CARDS: Final = 20


@dataclass(slots=True)
class _ShoeSeen:
    order: list[str | None] = field(default_factory=list)  # None: read as unreadable
    refused: int = 0
    counted_out: bool = False  # the rest was read through the scanner: none left


@dataclass(slots=True)
class ShoeAudit:
    decks: int
    shoe: _ShoeSeen = field(default_factory=_ShoeSeen)
    previous: list[str | None] | None = None
    shoes: int = 0  # shoes finished
    found: list[Finding] = field(default_factory=list)
    unchecked: int = 0  # shoes finished whose cards left nobody counted
    started: bool = True  # False until the first shoe boundary of a journal read mid-shoe

    def add(self, card: CardOut) -> None:
        if not self.started:
            return
        order = self.shoe.order
        if card.manual and order and order[-1] is None:
            order[-1] = card.card  # the unread card, entered by the pit boss
            return
        order.append(card.card)
        self.shoe.refused += card.refused

    def counting_out(self, _: CountingOut) -> None:
        self.shoe.counted_out = self.started

    def end(self, table: str, end: ShoeEnd) -> None:
        """The shoe is done: check it, and keep its order for the next one's test."""
        seen = self.shoe.order
        if end.cards_left is None and self.shoe.counted_out:
            end = ShoeEnd(end.table, end.why, ())
        if end.why == "removed" and end.cards_left is None:
            return  # the same shoe goes back: nothing to check yet, nothing ends
        if not self.started:
            self.started = True
            return
        if not any(seen) and not self.shoe.refused:
            self.shoe = _ShoeSeen()
            return  # nothing came out of it (a new table's first shoe, a second shuffle)
        self.shoes += 1
        label = f"{table}, shoe {self.shoes} (ended by {end.why})"
        composition = self._composition(label, end.cards_left)
        if composition is None:
            self.unchecked += 1
        else:
            self.found.append(composition)
        self.found += self.shuffle_findings(label)
        if end.why != "removed":
            # The cards counted out follow in the order counted: the shoe's end.
            self.previous = seen + list(end.cards_left or ())
            self.shoe = _ShoeSeen()

    def _composition(self, label: str, left: tuple[str, ...] | None) -> Finding | None:
        seen = Counter(c for c in self.shoe.order if c is not None)
        unknown = sum(c is None for c in self.shoe.order)
        counted = seen + Counter(left or ())
        extra = {k: counted[k] - self.decks for k in counted if counted[k] > self.decks}
        missing = {k: self.decks - counted[k] for k in KINDS if counted[k] < self.decks}
        out = sum(seen.values()) + unknown
        if extra:
            words = ", ".join(f"{n} {k} too many" for k, n in sorted(extra.items()))
            return Finding(
                "shoe.composition",
                label,
                out,
                float(sum(extra.values())),
                0.0,
                f"ALARM: {label}: cards that a {self.decks}-deck shoe does not hold came out: "
                f"{words}. A foreign or duplicated card, or a misread: check the shoe and "
                "the discard tray before the next shoe",
                exact=True,
            )
        if left is None:
            return None
        short = sum(missing.values())
        if short > unknown:
            words = ", ".join(f"{k}" + (f" x{n}" if n > 1 else "") for k, n in missing.items())
            return Finding(
                "shoe.composition",
                label,
                out,
                float(short),
                0.0,
                f"ALARM: {label}: {short - unknown} card(s) of the {self.decks} decks never came "
                f"out and were not among the cards left: {words}"
                + (f" ({unknown} read as unreadable)" if unknown else "")
                + ". Look for the card on the table, the floor and the discard tray",
                exact=True,
            )
        note = f" ({unknown} unread and never entered: their values are unknown)" if short else ""
        return Finding(
            "shoe.composition",
            label,
            out,
            0.0,
            1.0,
            f"{label}: {out} cards out and {len(left or ())} left make the "
            f"{self.decks} decks{note}",
            exact=True,
        )

    def shuffle_findings(self, label: str) -> list[Finding]:
        """The shoe's order against the shoe before: the pairs kept, and the
        longest run kept (a stacked run is few pairs but one long streak)."""
        new = self.shoe.order
        old = self.previous
        if old is None:
            return []
        known_new = sum(c is not None for c in new)
        if known_new < MIN_SHUFFLE_CARDS or sum(c is not None for c in old) < MIN_SHUFFLE_CARDS:
            return []
        pairs = {(a, b) for a, b in pairwise(old) if a and b}
        d = self.decks
        size = 52 * d
        chance = sum((d * d if a != b else d * (d - 1)) for a, b in pairs) / (size * (size - 1))
        looked = 0
        kept = 0
        streak = longest = 0
        for a, b in pairwise(new):
            if a is None or b is None:
                streak = 0
                continue
            looked += 1
            if (a, b) in pairs:
                kept += 1
                streak += 1
                longest = max(longest, streak)
            else:
                streak = 0
        mean = looked * chance
        # A run of L cards kept is L - 1 pairs kept in a row: at most ``looked``
        # places to start, each kept with about ``chance`` independently of the one before.
        run_p = min(1.0, looked * chance**longest) if longest else 1.0
        return [
            Finding(
                "shoe.shuffle",
                label,
                known_new,
                float(kept),
                poisson_sf(kept, mean),
                f"{label}: {kept} of its {looked} neighbouring pairs of cards were neighbours in "
                f"the same order in the shoe before, where {mean:.1f} are expected of a "
                "shuffled shoe",
            ),
            Finding(
                "shoe.repeated_run",
                label,
                known_new,
                float(longest + 1),
                run_p,
                f"{label}: {longest + 1} cards in a row came out in the same order as in the "
                f"shoe before (each pair kept with chance {chance:.3f} in a shuffled shoe)",
            ),
        ]

    def skipped(self, table: str) -> list[Skipped]:
        if self.unchecked:
            # A shoe whose rest was not counted: shown as a test that did not run.
            why = (
                f"{self.unchecked} shoe(s) whose cards left were not counted: "
                "a missing card cannot be known"
            )
            return [Skipped("shoe.composition", table, self.unchecked, 0, why)]
        return []
