"""The European single-zero wheel: pocket order and colours (docs/rules.md)."""

from __future__ import annotations

from typing import Final, Literal

Colour = Literal["green", "red", "black"]

# Clockwise seen from above, starting at the green zero.
POCKET_ORDER: Final[tuple[int, ...]] = (
    0,
    32,
    15,
    19,
    4,
    21,
    2,
    25,
    17,
    34,
    6,
    27,
    13,
    36,
    11,
    30,
    8,
    23,
    10,
    5,
    24,
    16,
    33,
    1,
    20,
    14,
    31,
    9,
    22,
    18,
    29,
    7,
    28,
    12,
    35,
    3,
    26,
)
POCKET_COUNT: Final[int] = len(POCKET_ORDER)
POCKET_DEGREES: Final[float] = 360.0 / POCKET_COUNT
RED_NUMBERS: Final[frozenset[int]] = frozenset(
    {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
)


def pockets_between(start: int, end: int, direction: str) -> int:
    """How many pockets from the number ``start`` to the number ``end`` on the rotor,
    going ``"clockwise"`` or ``"counterclockwise"`` (0-36): the landing distance from
    the release pocket, counted the way the rotor turns."""
    steps = POCKET_ORDER.index(end) - POCKET_ORDER.index(start)
    return (steps if direction == "clockwise" else -steps) % POCKET_COUNT


def colour_of(number: int) -> Colour:
    if number == 0:
        return "green"
    return "red" if number in RED_NUMBERS else "black"


def pocket_colours() -> tuple[Colour, ...]:
    """Colour of each pocket, in wheel order from zero."""
    return tuple(colour_of(n) for n in POCKET_ORDER)
