"""Baccarat scoreboards ("roads") as live players read them, from a shoe's results.

The station publishes five roads after every round (issue 5, MQTT retained
topics; issue 6, the dealer console): the bead plate, the big road and the three
roads derived from the big road, big eye boy, small road and cockroach pig, plus
"ask banker / ask player": what each derived road would show next.

Sources (the rules below restate them; the tests cite them case by case):

- Wizard of Odds, "Baccarat Score Boards" (Michael Shackleford, worked out with
  the Venetian's baccarat staff), https://wizardofodds.com/games/baccarat/history/:
  the bead plate filled down six rows then across; the big road with a new column
  whenever the winner changes, ties drawn as a slash on the previous cell, pairs
  as dots; a streak longer than the six rows turning right along the bottom
  (the "dragon tail"); the three derived roads.
- sikwin casino, "Baccarat game rules: five road rules",
  https://www.sikwin.in/sikwin-casino-baccarat-game-rules-five-road-rules/: big
  eye boy's reference point is the big road's second column, second row, or the
  third column's first row when the second column has one result; small road
  and cockroach pig start one and two columns later.
- Road guides agree that a streak which runs into an earlier tail turns right at
  once, whatever its row, and starts a tail of its own.
- The five-line rule of the derived roads as dealers in Macau teach it (下三路口诀:
  有对写红 无对写蓝 齐脚跳写红 突脚跳写蓝 突脚连写红), as public road-drawing
  code in Chinese quotes it beside its implementation. For a derived road that
  looks ``k`` columns back (1 big eye boy, 2 small road, 3 cockroach pig), each
  new big-road cell in column ``c`` and row ``r`` (both counted from 0) is
  marked:

  * first row (a new column, "jump"): compare the two columns before it, ``c-1``
    and ``c-1-k``: equal lengths "level jump" (齐脚跳) red, else "uneven jump"
    (突脚跳) blue;
  * lower rows: look ``k`` columns back, at ``c-k``: a cell in the same row
    "has a match" (有对) red; that column ended just above this row "no match"
    (无对) blue; it ended two or more rows above, the streak "runs on past the
    step" (突脚连, a long streak) red.

  So a derived road begins at big-road column ``k`` row 1, or column ``k+1`` row 0
  when column ``k`` holds one cell (columns counted from 0: big eye boy at column
  1 row 1, the "second column, second row" above).

Decisions where the sources are silent or differ (tests pin each one):

- Ties before the first banker or player result are carried and marked on the
  first big-road cell when it comes (its ``ties`` include them). While the big
  road is still empty they are reported as ``pending_ties`` so the overlay can
  draw the slash at the first position; ``pending_ties`` is 0 once any cell
  exists, and the ties on the cells plus ``pending_ties`` always equal the ties
  played.
- A big-road cell carries the pairs and natural of the round that made it; pairs
  and naturals of tie rounds show on the bead plate only.
- The derived roads compare the big road's columns as counted (streak lengths),
  dragon tails included: a tail is still the same column.
- A derived road is drawn like the big road: same colour down the column, a new
  column when the colour changes, six rows and the same dragon tail.
- A new big-road column starts right of the previous column's first cell (a
  tail runs on beneath later columns). Only when stacked tails already cover
  that column's top cell does it move right to the first free top cell.
- Every road keeps all its columns; scrolling to the visible width is the
  display's business.

JSON (``to_json``; positions count from 0, ``col`` left to right, ``row`` top
down; ``columns`` lists the road's columns as players count them, a dragon tail
with its column, and each cell says where it is drawn)::

    {"bead_plate": {"rows": 6, "columns": [[
        {"col": 0, "row": 0, "winner": "B"|"P"|"T", "player_score": 0-9,
         "banker_score": 0-9, "player_pair": bool, "banker_pair": bool,
         "natural": bool}, ...], ...]},
     "big_road": {"rows": 6, "pending_ties": n, "columns": [[
        {"col": c, "row": r, "winner": "B"|"P", "ties": n, "player_pair": bool,
         "banker_pair": bool, "natural": bool}, ...], ...]},
     "big_eye_boy" | "small_road" | "cockroach_pig": {"rows": 6, "columns": [[
        {"col": c, "row": r, "colour": "red"|"blue"}, ...], ...]},
     "ask": {"banker": {"big_eye_boy": "red"|"blue"|null, "small_road": ...,
                        "cockroach_pig": ...},
             "player": {...}}}

``null`` in ``ask``: that road would get no cell from that result (it has not
started). Where both are given they are opposite colours, as the rules imply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any, Final, Literal

Winner = Literal["banker", "player", "tie"]
Side = Literal["banker", "player"]
Colour = Literal["red", "blue"]

ROWS: Final = 6
# Each derived road and how many big-road columns back it looks.
DERIVED: Final[dict[str, int]] = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}

_LETTER: Final[dict[str, str]] = {"banker": "B", "player": "P", "tie": "T"}

Position = tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundMark:
    """What the scoreboards need of one settled round. ``natural``: either hand
    was a two-card 8 or 9."""

    winner: Winner
    player_score: int
    banker_score: int
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False

    def __post_init__(self) -> None:
        if not (0 <= self.player_score <= 9 and 0 <= self.banker_score <= 9):
            raise ValueError("baccarat scores are 0 to 9")
        by_score = _winner_of(self.player_score, self.banker_score)
        if self.winner != by_score:
            raise ValueError(
                f"winner {self.winner!r} does not match the scores "
                f"{self.player_score}-{self.banker_score}"
            )

    @classmethod
    def from_outcome(cls, outcome: Mapping[str, Any]) -> RoundMark:
        """From ``BaccaratEngine.outcome()``. A voided round has no result and
        no place on any road: ``ValueError``."""
        if outcome.get("voided") or "winner" not in outcome:
            raise ValueError(f"round {outcome.get('round')!r} was voided: nothing to mark")
        player, banker = outcome["player"], outcome["banker"]
        return cls(
            winner=outcome["winner"],
            player_score=player["score"],
            banker_score=banker["score"],
            player_pair=player["pair"],
            banker_pair=banker["pair"],
            natural=player["natural"] or banker["natural"],
        )


def _winner_of(player_score: int, banker_score: int) -> Winner:
    if player_score == banker_score:
        return "tie"
    return "player" if player_score > banker_score else "banker"


# --- cells and roads ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BeadCell:
    col: int
    row: int
    mark: RoundMark

    def to_json(self) -> dict[str, Any]:
        m = self.mark
        return {
            "col": self.col,
            "row": self.row,
            "winner": _LETTER[m.winner],
            "player_score": m.player_score,
            "banker_score": m.banker_score,
            "player_pair": m.player_pair,
            "banker_pair": m.banker_pair,
            "natural": m.natural,
        }


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    col: int
    row: int
    winner: Side
    ties: int
    player_pair: bool
    banker_pair: bool
    natural: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "col": self.col,
            "row": self.row,
            "winner": _LETTER[self.winner],
            "ties": self.ties,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "natural": self.natural,
        }


@dataclass(frozen=True, slots=True)
class DerivedCell:
    col: int
    row: int
    colour: Colour

    def to_json(self) -> dict[str, Any]:
        return {"col": self.col, "row": self.row, "colour": self.colour}


@dataclass(frozen=True, slots=True)
class BeadPlate:
    columns: tuple[tuple[BeadCell, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"rows": ROWS, "columns": [[c.to_json() for c in col] for col in self.columns]}


@dataclass(frozen=True, slots=True)
class BigRoad:
    columns: tuple[tuple[BigRoadCell, ...], ...]
    pending_ties: int = 0

    @property
    def lengths(self) -> tuple[int, ...]:
        """Each column's length as players count it, dragon tail included."""
        return tuple(len(col) for col in self.columns)

    @property
    def last_winner(self) -> Side | None:
        return self.columns[-1][0].winner if self.columns else None

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": ROWS,
            "pending_ties": self.pending_ties,
            "columns": [[c.to_json() for c in col] for col in self.columns],
        }


@dataclass(frozen=True, slots=True)
class DerivedRoad:
    """Big eye boy (``offset`` 1), small road (2) or cockroach pig (3)."""

    offset: int
    columns: tuple[tuple[DerivedCell, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"rows": ROWS, "columns": [[c.to_json() for c in col] for col in self.columns]}


@dataclass(frozen=True, slots=True)
class Ask:
    """What each derived road would show after one more result; None: no cell."""

    big_eye_boy: Colour | None
    small_road: Colour | None
    cockroach_pig: Colour | None

    def to_json(self) -> dict[str, Any]:
        return {
            "big_eye_boy": self.big_eye_boy,
            "small_road": self.small_road,
            "cockroach_pig": self.cockroach_pig,
        }


@dataclass(frozen=True, slots=True)
class Roads:
    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad
    ask_banker: Ask
    ask_player: Ask

    def to_json(self) -> dict[str, Any]:
        return {
            "bead_plate": self.bead_plate.to_json(),
            "big_road": self.big_road.to_json(),
            "big_eye_boy": self.big_eye_boy.to_json(),
            "small_road": self.small_road.to_json(),
            "cockroach_pig": self.cockroach_pig.to_json(),
            "ask": {"banker": self.ask_banker.to_json(), "player": self.ask_player.to_json()},
        }


# --- building them ------------------------------------------------------------


def roads(marks: Sequence[RoundMark]) -> Roads:
    """All five roads and both asks for a shoe's results so far, oldest first."""
    big = big_road(marks)
    return Roads(
        bead_plate=bead_plate(marks),
        big_road=big,
        big_eye_boy=derived_road(big, DERIVED["big_eye_boy"]),
        small_road=derived_road(big, DERIVED["small_road"]),
        cockroach_pig=derived_road(big, DERIVED["cockroach_pig"]),
        ask_banker=ask(big, "banker"),
        ask_player=ask(big, "player"),
    )


def bead_plate(marks: Sequence[RoundMark]) -> BeadPlate:
    """One cell per round, ties included, down six rows and then across."""
    cells = [BeadCell(i // ROWS, i % ROWS, m) for i, m in enumerate(marks)]
    return BeadPlate(tuple(tuple(cells[i : i + ROWS]) for i in range(0, len(cells), ROWS)))


def big_road(marks: Sequence[RoundMark]) -> BigRoad:
    """One cell per banker or player win; a tie adds to the previous cell's ties."""
    streaks: list[list[BigRoadCell]] = []
    pending = 0
    for m in marks:
        if m.winner == "tie":
            if streaks:
                last = streaks[-1][-1]
                streaks[-1][-1] = replace(last, ties=last.ties + 1)
            else:
                pending += 1
            continue
        # Positions are placed below, once every column's length is known.
        cell = BigRoadCell(0, 0, m.winner, pending, m.player_pair, m.banker_pair, m.natural)
        pending = 0
        if streaks and streaks[-1][0].winner == m.winner:
            streaks[-1].append(cell)
        else:
            streaks.append([cell])
    placed = _layout([len(s) for s in streaks])
    columns = tuple(
        tuple(replace(cell, col=c, row=r) for cell, (c, r) in zip(streak, spots, strict=True))
        for streak, spots in zip(streaks, placed, strict=True)
    )
    return BigRoad(columns, pending)


def _layout(lengths: Sequence[int]) -> list[list[Position]]:
    """Where each cell of each column is drawn on a ``ROWS``-high grid: down the
    column, then right along the row where it could go no further (the dragon
    tail: at the bottom, or above a cell an earlier tail already holds)."""
    taken: set[Position] = set()
    placed: list[list[Position]] = []
    start = -1
    for length in lengths:
        start += 1
        # Only stacked tails can hold a column's top cell; start past them.
        while (start, 0) in taken:
            start += 1
        col, row = start, 0
        spots = [(col, row)]
        turned = False
        for _ in range(length - 1):
            if not turned and row + 1 < ROWS and (col, row + 1) not in taken:
                row += 1
            else:
                # Once turned, a tail keeps going right even where there is room
                # below again: it is drawn as one horizontal run.
                turned = True
                col += 1
            spots.append((col, row))
        taken.update(spots)
        placed.append(spots)
    return placed


def derived_colour(lengths: Sequence[int], col: int, row: int, offset: int) -> Colour | None:
    """The mark the big-road cell at column ``col``, row ``row`` (as counted,
    from 0) puts on the derived road that looks ``offset`` columns back, given
    the big road's column lengths; None before that road starts. The columns it
    compares lie left of ``col``, so their lengths are final."""
    if row == 0:
        if col < offset + 1:
            return None
        return "red" if lengths[col - 1] == lengths[col - 1 - offset] else "blue"
    if col < offset:
        return None
    # Same row k columns back filled: red; that column ended one row up: blue;
    # it ended further up (a long streak runs on): red.
    return "blue" if lengths[col - offset] == row else "red"


def derived_road(big: BigRoad, offset: int) -> DerivedRoad:
    """Big eye boy (``offset`` 1), small road (2) or cockroach pig (3)."""
    if offset not in DERIVED.values():
        raise ValueError(f"a derived road looks 1, 2 or 3 columns back, not {offset}")
    lengths = big.lengths
    marks = [
        colour
        for col, length in enumerate(lengths)
        for row in range(length)
        if (colour := derived_colour(lengths, col, row, offset)) is not None
    ]
    streaks = [list(run) for _, run in groupby(marks)]
    placed = _layout([len(s) for s in streaks])
    return DerivedRoad(
        offset,
        tuple(
            tuple(DerivedCell(c, r, colour) for colour, (c, r) in zip(s, spots, strict=True))
            for s, spots in zip(streaks, placed, strict=True)
        ),
    )


def ask(big: BigRoad, side: Side) -> Ask:
    """What each derived road would mark if ``side`` won the next round."""
    lengths = big.lengths
    if not lengths:
        return Ask(None, None, None)
    if side == big.last_winner:
        col, row = len(lengths) - 1, lengths[-1]
    else:
        col, row = len(lengths), 0
    big_eye_boy, small_road, cockroach_pig = (
        derived_colour(lengths, col, row, offset) for offset in DERIVED.values()
    )
    return Ask(big_eye_boy, small_road, cockroach_pig)
