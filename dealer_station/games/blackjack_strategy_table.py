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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from dealer_station.games.blackjack_dealer import ACE, RANK_CLASSES, TEN, Composition, hand_value
from dealer_station.games.blackjack_strategy import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    Spot,
)

# Up-cards in the order players read them: 2 to 10, then the ace.
UP_ORDER: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, ACE)
HARD_ROWS: Final = tuple(range(4, 21))
SOFT_ROWS: Final = tuple(range(12, 21))
PAIR_ROWS: Final = tuple(range(10))

_LETTER: Final = {STAND: "S", HIT: "H", DOUBLE: "D", SPLIT: "P", SURRENDER: "R"}
_ACTION: Final = {letter: action for action, letter in _LETTER.items()}


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


def build(
    weighted: Iterable[tuple[int, Composition, float, dict[str, float]]],
    surrender_after_double: bool,
) -> BasicStrategy:
    """The table from (up-card, dealt two-card hand, chance of it, value of
    each action) for every hand that is not a blackjack. Pairs count in their
    hard or soft row with the values of playing them unsplit."""
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
