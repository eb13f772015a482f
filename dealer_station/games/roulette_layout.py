"""The European single-zero wheel and table layout (docs/rules.md).

The layout has 0 at the head and 1-36 in twelve rows of three: row ``r`` holds
``3r+1, 3r+2, 3r+3``. Every bet a player can place is a set of numbers the layout
allows for its type; ``placements`` lists all of them, and a bet is valid exactly
when it is one of them.

Encoding of a bet's ``numbers`` in the rules: inside bets (straight to six line)
list the numbers they cover, in any order; ``column`` and ``dozen`` carry one
number, 1, 2 or 3, saying which (column 1 is 1, 4, ... 34; dozen 1 is 1-12); the
even-money bets carry none.

Written out (every record, message and payout: `written_placement`), a column
or a dozen says which under its own name, ``"dozen": 1``, so that it cannot be
read as the number 1; inside bets write ``"numbers"``. Journals written before
hold ``"numbers": [1]`` for a dozen: `read_placement` reads both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

from dealer_station.games.rejection import Rejected

Colour = Literal["green", "red", "black"]

# Clockwise seen from above, starting at the green zero.
WHEEL_ORDER: Final[tuple[int, ...]] = (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
)  # fmt: skip
POCKETS: Final = frozenset(WHEEL_ORDER)
RED: Final = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK: Final = frozenset(range(1, 37)) - RED
ROWS: Final = 12

BET_TYPES: Final = (
    "straight",
    "split",
    "street",
    "trio",
    "corner",
    "first_four",
    "six_line",
    "column",
    "dozen",
    "red",
    "black",
    "odd",
    "even",
    "low",
    "high",
)
INSIDE: Final = frozenset(BET_TYPES[:7])
# Bets whose ``numbers`` say which of the three, not what they cover.
CHOOSE_ONE_OF_THREE: Final = frozenset({"column", "dozen"})


def written_placement(bet_type: str, numbers: tuple[int, ...]) -> dict[str, Any]:
    """A bet's placement as records and messages write it (above). One that
    names no single column or dozen keeps its ``numbers``, to be refused as
    written."""
    if bet_type in CHOOSE_ONE_OF_THREE and len(numbers) == 1:
        return {bet_type: numbers[0]}
    return {"numbers": list(numbers)} if numbers else {}


def read_placement(bet_type: str, written: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The rules' ``numbers`` of a written placement, in the form above or the
    old one (``"numbers": [1]`` for a dozen); None when ``written`` holds
    something else under the bet type's name (a list, a bool) or both forms."""
    numbers = written.get("numbers")
    if bet_type in CHOOSE_ONE_OF_THREE and bet_type in written:
        which = written[bet_type]
        # An empty list is no numbers (an HTTP body's default).
        if numbers not in (None, []) or isinstance(which, bool) or not isinstance(which, int):
            return None
        return (which,)
    if numbers is None:
        return ()
    if not isinstance(numbers, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in numbers
    ):
        return None
    return tuple(numbers)


def colour_of(number: int) -> Colour:
    if number == 0:
        return "green"
    return "red" if number in RED else "black"


def _row(r: int) -> frozenset[int]:
    return frozenset({3 * r + 1, 3 * r + 2, 3 * r + 3})


def _splits() -> list[frozenset[int]]:
    across = [frozenset({n, n + 1}) for n in range(1, 37) if n % 3 != 0]
    down = [frozenset({n, n + 3}) for n in range(1, 34)]
    return [frozenset({0, n}) for n in (1, 2, 3)] + across + down


def _corners() -> list[frozenset[int]]:
    return [frozenset({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if n % 3 != 0]


_INSIDE_PLACEMENTS: Final[dict[str, Callable[[], list[frozenset[int]]]]] = {
    "straight": lambda: [frozenset({n}) for n in range(37)],
    "split": _splits,
    "street": lambda: [_row(r) for r in range(ROWS)],
    "trio": lambda: [frozenset({0, 1, 2}), frozenset({0, 2, 3})],
    "corner": _corners,
    "first_four": lambda: [frozenset({0, 1, 2, 3})],
    "six_line": lambda: [_row(r) | _row(r + 1) for r in range(ROWS - 1)],
}

_OUTSIDE: Final[dict[str, frozenset[int]]] = {
    "red": RED,
    "black": BLACK,
    "odd": frozenset(range(1, 37, 2)),
    "even": frozenset(range(2, 37, 2)),
    "low": frozenset(range(1, 19)),
    "high": frozenset(range(19, 37)),
}


def _chosen(bet_type: str, which: int) -> frozenset[int]:
    if bet_type == "column":
        return frozenset(range(which, 37, 3))
    return frozenset(range(12 * (which - 1) + 1, 12 * which + 1))


def placements(bet_type: str) -> dict[tuple[int, ...], frozenset[int]]:
    """Every valid bet of a type: its ``numbers`` (canonical, sorted) -> the
    numbers it covers."""
    if bet_type in INSIDE:
        return {tuple(sorted(s)): s for s in _INSIDE_PLACEMENTS[bet_type]()}
    if bet_type in CHOOSE_ONE_OF_THREE:
        return {(which,): _chosen(bet_type, which) for which in (1, 2, 3)}
    if bet_type in _OUTSIDE:
        return {(): _OUTSIDE[bet_type]}
    raise _unknown(bet_type)


def _unknown(bet_type: str) -> Rejected:
    return Rejected("unknown_spot", f"no bet type {bet_type!r}; types: {', '.join(BET_TYPES)}")


_PLACEMENTS: Final = {bet_type: placements(bet_type) for bet_type in BET_TYPES}


def covered(bet_type: str, numbers: tuple[int, ...]) -> tuple[tuple[int, ...], frozenset[int]]:
    """The canonical ``numbers`` of a bet and what it covers, or
    ``Rejected('bet_not_on_layout')``."""
    if bet_type not in _PLACEMENTS:
        raise _unknown(bet_type)
    key = tuple(sorted(numbers))
    if len(set(key)) != len(key):
        raise Rejected("bet_not_on_layout", f"{bet_type} names a number twice: {list(numbers)}")
    found = _PLACEMENTS[bet_type].get(key)
    if found is None:
        raise Rejected("bet_not_on_layout", _why_not(bet_type, key))
    return key, found


def _why_not(bet_type: str, numbers: tuple[int, ...]) -> str:
    if bet_type in CHOOSE_ONE_OF_THREE:
        return f'a {bet_type} bet names which {bet_type}: "{bet_type}": 1, 2 or 3'
    if bet_type in _OUTSIDE:
        return f"a {bet_type} bet carries no numbers"
    size = len(next(iter(_PLACEMENTS[bet_type])))
    if len(numbers) != size:
        return f"a {bet_type} covers {size} numbers, not {len(numbers)}"
    return f"{list(numbers)} is not a {bet_type} on the layout"
