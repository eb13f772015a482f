"""Basic strategy as players know it: one table by total, soft total and pair
against each up-card, and the rule that plays any hand from it.

Each cell is the action of best value over the two-card hands of that row,
each weighted by how often it is dealt (total-dependent basic strategy). A
cell names what to do when the first choice is not allowed: ``Dh`` double,
else hit; ``Ds`` double, else stand; ``Rh``/``Rs``/``Rp`` surrender, else hit,
stand or split. A hand of more cards is played by its row too (doubling and
surrendering where the variant allows them on more cards). Where a variant
lets a doubled hand surrender, ``rescue`` says against which up-cards a
doubled total surrenders rather than stands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from dealer_station.games.blackjack_dealer import (
    ACE,
    RANK_CLASSES,
    TEN,
    Composition,
    composition,
    full_shoe,
    hand_value,
    rank_class,
)
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_strategy import (
    DEALT,
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    Spot,
    decision_evs,
    up_card_solvers,
)
from dealer_station.games.cards import Card

# Up-cards in the order players read them: 2 to 10, then the ace.
UP_ORDER: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, ACE)
HARD_ROWS: Final = tuple(range(4, 21))
SOFT_ROWS: Final = tuple(range(12, 21))
PAIR_ROWS: Final = tuple(range(10))

_LETTER: Final = {STAND: "S", HIT: "H", DOUBLE: "D", SPLIT: "P", SURRENDER: "R"}
_ACTION: Final = {letter: action for action, letter in _LETTER.items()}
# Every cell ``cell_code`` writes: an action, or a double or surrender and
# what to do when it is not allowed.
_CELLS: Final = frozenset(_LETTER.values()) | {
    first + then.lower() for first in "DR" for then in "SHP"
}


# The rows a doubled hand may surrender from: (soft, total).
_RESCUE_ROWS: Final = tuple((False, t) for t in HARD_ROWS) + tuple((True, t) for t in SOFT_ROWS)


def _rescue_label(key: tuple[bool, int]) -> str:
    soft, total = key
    return f"{'soft' if soft else 'hard'} {total}"


def up_label(up: int) -> str:
    return "A" if up == ACE else str(up + 1)


def pair_label(pair: int) -> str:
    name = "T" if pair == TEN else RANK_CLASSES[pair]
    return f"{name},{name}"


def cell_code(evs: dict[str, float]) -> str:
    """The cell for a row whose actions are worth ``evs``: the best action,
    and after a double or a surrender the best of the rest."""
    ranked = sorted(evs, key=evs.__getitem__, reverse=True)
    best = ranked[0]
    if best in (DOUBLE, SURRENDER) and len(ranked) > 1:
        fallback = next(a for a in ranked[1:] if a not in (DOUBLE, SURRENDER))
        return _LETTER[best] + _LETTER[fallback].lower()
    return _LETTER[best]


def action_for(code: str, legal: Iterable[str]) -> str:
    """The action a cell asks for among the legal ones."""
    allowed = set(legal)
    for letter in code.upper():
        action = _ACTION[letter]
        if action in allowed:
            return action
    return HIT if HIT in allowed else STAND


@dataclass(frozen=True, slots=True)
class BasicStrategy:
    """Cells keyed by row then up-card class (see ``UP_ORDER``)."""

    hard: dict[int, dict[int, str]]
    soft: dict[int, dict[int, str]]
    pairs: dict[int, dict[int, str]]
    rescue: dict[tuple[bool, int], dict[int, bool]]

    def code(self, total: int, soft: bool, up: int) -> str:
        """The cell for a total; a total no two-card hand makes (hard 21,
        or any cell a small test shoe cannot deal) stands from 17 up."""
        cell = (self.soft if soft else self.hard).get(total, {}).get(up)
        return cell or ("S" if total >= 17 else "H")

    def choose(
        self, up: int, hand: Composition, spot: Spot, doubled: bool, evs: dict[str, float]
    ) -> str:
        """The action the table gives this hand (a ``Chooser``)."""
        total, soft = hand_value(hand)
        if doubled:
            wants = self.rescue.get((soft, total), {}).get(up, False)
            return SURRENDER if wants and SURRENDER in evs else STAND
        if SPLIT in evs:
            pair = next(r for r in range(10) if hand[r] == 2)
            cell = self.pairs.get(pair, {}).get(up)
            if cell:
                return action_for(cell, evs)
        return action_for(self.code(total, soft, up), evs)

    def play(self, cards: Sequence[Card], up: Card, legal: Iterable[str], doubled: bool) -> str:
        """The action for ``cards`` against ``up`` among the legal ones
        (``stand_all`` is never the table's choice)."""
        allowed = dict.fromkeys((a for a in legal if a != "stand_all"), 0.0)
        hand = composition([rank_class(c) for c in cards])
        return self.choose(rank_class(up), hand, DEALT, doubled, allowed)

    def to_data(self) -> dict[str, str | dict[str, str]]:
        """Every cell, each row a line of a strategy card (up-cards 2 to 10,
        then the ace; ``-`` where the table has no cell), rows by total and
        pairs by their cards; after a double, ``R`` surrender or ``S`` stand.
        The form of a packaged table: ``from_data`` reads it back exactly."""

        def line(cells: Mapping[int, str]) -> str:
            return " ".join(cells.get(up, "-") for up in UP_ORDER)

        return {
            "up_cards": " ".join(up_label(up) for up in UP_ORDER),
            "hard": {str(row): line(cells) for row, cells in self.hard.items()},
            "soft": {str(row): line(cells) for row, cells in self.soft.items()},
            "pairs": {pair_label(pair): line(cells) for pair, cells in self.pairs.items()},
            "after_double": {
                _rescue_label(key): line({up: "R" if wants else "S" for up, wants in flags.items()})
                for key, flags in self.rescue.items()
            },
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BasicStrategy:
        """The table ``to_data`` wrote; ``ValueError`` for anything else (a row
        or a cell no table has)."""

        def cells(line: object, allowed: frozenset[str]) -> dict[int, str]:
            codes = str(line).split(" ")
            if len(codes) != len(UP_ORDER) or not set(codes) <= allowed | {"-"}:
                raise ValueError(f"not a row of a basic strategy table: {line!r}")
            return {up: code for up, code in zip(UP_ORDER, codes, strict=True) if code != "-"}

        def rows(kind: str, labels: Mapping[str, Any]) -> dict[Any, Mapping[str, Any]]:
            found = data[kind]
            if not set(found) <= set(labels):
                raise ValueError(f"{kind}: no such row {sorted(set(found) - set(labels))}")
            return {row: found[label] for label, row in labels.items() if label in found}

        def table(kind: str, labels: Mapping[str, int]) -> dict[int, dict[int, str]]:
            return {row: cells(line, _CELLS) for row, line in rows(kind, labels).items()}

        rescues = {_rescue_label(key): key for key in _RESCUE_ROWS}
        return cls(
            table("hard", {str(row): row for row in HARD_ROWS}),
            table("soft", {str(row): row for row in SOFT_ROWS}),
            table("pairs", {pair_label(pair): pair for pair in PAIR_ROWS}),
            {
                key: {up: code == "R" for up, code in cells(line, frozenset("RS")).items()}
                for key, line in rows("after_double", rescues).items()
            },
        )

    def to_json(self) -> dict[str, object]:
        def rows(
            table: dict[int, dict[int, str]], label: Callable[[int], str]
        ) -> dict[str, dict[str, str]]:
            return {
                label(row): {up_label(up): cells.get(up, "-") for up in UP_ORDER}
                for row, cells in table.items()
            }

        out: dict[str, object] = {
            "hard": rows(self.hard, str),
            "soft": rows(self.soft, str),
            "pairs": rows(self.pairs, pair_label),
        }
        if self.rescue:
            out["surrender_after_double"] = {
                f"{'soft' if soft else 'hard'} {total}": [
                    up_label(up) for up in UP_ORDER if flags.get(up)
                ]
                for (soft, total), flags in sorted(self.rescue.items())
                if any(flags.values())
            }
        return out

    def render(self) -> list[str]:
        """The table as text, the way a strategy card prints it."""
        header = "        " + " ".join(f"{up_label(up):>3}" for up in UP_ORDER)
        lines = []
        for title, table, label in (
            ("Hard", self.hard, str),
            ("Soft", self.soft, lambda t: f"A,{t - 11}" if t > 12 else "A,A"),
            ("Pairs", self.pairs, pair_label),
        ):
            lines += [f"{title}:", header]
            for row, cells in table.items():
                name = label(row) if title != "Hard" else str(row)
                lines.append(f"{name:<8}" + " ".join(f"{cells.get(up, '-'):>3}" for up in UP_ORDER))
            lines.append("")
        if self.rescue:
            lines.append("After doubling, surrender (else stand):")
            for (soft, total), flags in sorted(self.rescue.items()):
                ups = [up_label(up) for up in UP_ORDER if flags.get(up)]
                if ups:
                    lines.append(f"  {'soft' if soft else 'hard'} {total} vs {' '.join(ups)}")
            lines.append("")
        legend = "H hit, S stand, D double, P split, R surrender; a second letter: "
        lines.append(legend + "what to do when the first is not allowed.")
        return lines


def tabulate(
    rules: BlackjackRules,
    weighted: Iterable[tuple[int, Composition, float, dict[str, float]]],
) -> BasicStrategy:
    """The table from (up-card, dealt two-card hand, chance of it, value of
    each action) for every hand that is not a blackjack. Pairs count in their
    hard or soft row with the values of playing them unsplit."""
    surrender_after_double = rules.surrender_after_double and rules.surrender == "any"
    sums: dict[tuple[str, int, int], dict[str, float]] = {}

    def add(kind: str, row: int, up: int, p: float, evs: dict[str, float]) -> None:
        cell = sums.setdefault((kind, row, up), {})
        for action, value in evs.items():
            cell[action] = cell.get(action, 0.0) + p * value

    for up, hand, p, evs in weighted:
        total, soft = hand_value(hand)
        unsplit = {a: v for a, v in evs.items() if a != SPLIT}
        add("soft" if soft else "hard", total, up, p, unsplit)
        pair = next((r for r in range(10) if hand[r] == 2), -1)
        if pair >= 0:
            add("pair", pair, up, p, evs)

    def table(kind: str, rows: tuple[int, ...]) -> dict[int, dict[int, str]]:
        return {
            row: {
                up: cell_code(sums[(kind, row, up)]) for up in UP_ORDER if (kind, row, up) in sums
            }
            for row in rows
            if any((kind, row, up) in sums for up in UP_ORDER)
        }

    rescue: dict[tuple[bool, int], dict[int, bool]] = {}
    if surrender_after_double:
        for (kind, row, up), cell in sums.items():
            if kind != "pair" and SURRENDER in cell:
                key = (kind == "soft", row)
                rescue.setdefault(key, {})[up] = cell[SURRENDER] > cell[STAND]
    return BasicStrategy(
        table("hard", HARD_ROWS), table("soft", SOFT_ROWS), table("pair", PAIR_ROWS), rescue
    )


@lru_cache(maxsize=16)
def build(rules: BlackjackRules) -> BasicStrategy:
    """The variant's basic strategy, from a full shoe: the one table the
    self-driving croupier plays, the decision timer plays and the warnings
    measure against, and the one ``blackjack_odds.analyse`` reports (the same
    solvers, fetched and walked in the same order, so the same cells).
    Working it out takes seconds (every dealt hand against every up-card), so
    it is kept per variant; its solvers are its own, so a thread may build it
    while the table's own questions go to ``decision_evs``."""
    solvers = up_card_solvers(rules, full_shoe(rules.decks))
    return tabulate(
        rules,
        (
            (up, hand, p, solver.dealt_evs(hand))
            for up, solver in solvers.items()
            for hand, p in solver.dealt()
            if not hand[ACE] == hand[TEN] == 1
        ),
    )


def basic_action(
    rules: BlackjackRules, cards: Sequence[Card], up: Card, legal: Iterable[str], doubled: bool
) -> str:
    """What the variant's basic strategy plays with ``cards`` against ``up``."""
    return build(rules).play(cards, up, legal, doubled)


def ev_loss(
    rules: BlackjackRules,
    strategy: BasicStrategy,
    cards: Sequence[Card],
    up: Card,
    action: str,
    *,
    hands_in_box: int = 1,
    first_hand: bool = True,
    doubled: bool = False,
) -> float:
    """How much expected value ``action`` gives up against the action of the
    variant's basic strategy ``strategy`` for this hand, per unit of the box's
    original bet, from the exact values of ``decision_evs`` (0 for the table's
    action; below 0 where the cards make another action better than the
    table's). ``stand_all`` counts as standing this hand."""
    evs = decision_evs(
        rules, cards, up, hands_in_box=hands_in_box, first_hand=first_hand, doubled=doubled
    )
    chosen = STAND if action == "stand_all" else action
    if chosen not in evs:
        raise ValueError(f"{action!r} is not an action this hand has")
    return evs[strategy.play(cards, up, evs, doubled)] - evs[chosen]


def deviation_warning(
    rules: BlackjackRules,
    strategy: BasicStrategy,
    cards: Sequence[Card],
    up: Card,
    action: str,
    threshold: float,
    *,
    hands_in_box: int = 1,
    first_hand: bool = True,
    doubled: bool = False,
) -> str | None:
    """The warning for a decision that gives up more than ``threshold`` (per
    unit of the original bet) against basic strategy, or None."""
    loss = ev_loss(
        rules,
        strategy,
        cards,
        up,
        action,
        hands_in_box=hands_in_box,
        first_hand=first_hand,
        doubled=doubled,
    )
    if loss <= threshold:
        return None
    return f"deviates from basic strategy, EV -{loss:.2f}"
