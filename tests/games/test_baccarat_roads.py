"""The baccarat roads against the published rules.

Sources (the module docstring restates them):

- Wizard of Odds, "Baccarat Score Boards", https://wizardofodds.com/games/baccarat/history/
  (bead plate, big road, ties and pairs, dragon tail);
- sikwin casino, "Baccarat game rules: five road rules",
  https://www.sikwin.in/sikwin-casino-baccarat-game-rules-five-road-rules/ (where
  each derived road starts);
- the five-line rule of the derived roads (下三路口诀): "a match is red, no match
  blue, a level jump red, an uneven jump blue, a streak running on past the step
  red" (有对写红 无对写蓝 齐脚跳写红 突脚跳写蓝 突脚连写红).

Every expected road below is worked out by hand from those rules, cell by cell,
in the comments beside it; none is copied from the code's output. Columns and
rows count from 0 here (the "second column, second row" is column 1, row 1).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import groupby, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.games.baccarat import BaccaratEngine, BaccaratRound, BaccaratRules
from dealer_station.games.baccarat_roads import (
    BigRoad,
    DerivedRoad,
    RoundMark,
    Winner,
    ask,
    bead_plate,
    big_road,
    derived_road,
    roads,
)
from dealer_station.games.cards import parse_card
from dealer_station.games.events import CloseBets, DealCard, Event, VoidRound

WINNER: dict[str, Winner] = {"B": "banker", "P": "player", "T": "tie"}
# Scores that give each winner (Player-Banker): any consistent pair would do.
SCORES = {"B": (2, 7), "P": (7, 2), "T": (5, 5)}
OFFSET = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def mark(code: str, player_pair: bool = False, banker_pair: bool = False) -> RoundMark:
    p, b = SCORES[code]
    return RoundMark(WINNER[code], p, b, player_pair, banker_pair)


def marks(codes: str) -> list[RoundMark]:
    return [mark(c) for c in codes.replace(" ", "")]


def colours(road: DerivedRoad) -> str:
    """A derived road's marks in the order they were made: R red, b blue."""
    return "".join("R" if c.colour == "red" else "b" for col in road.columns for c in col)


def positions(road: BigRoad | DerivedRoad) -> list[list[tuple[int, int]]]:
    return [[(c.col, c.row) for c in col] for col in road.columns]


def derived(codes: str, name: str) -> str:
    return colours(derived_road(big_road(marks(codes)), OFFSET[name]))


# --- bead plate -----------------------------------------------------------------


def test_bead_plate_fills_six_rows_down_then_the_next_column_ties_included() -> None:
    plate = bead_plate(marks("BPTBBP TP"))
    assert [[(c.col, c.row, c.mark.winner[0]) for c in col] for col in plate.columns] == [
        [(0, 0, "b"), (0, 1, "p"), (0, 2, "t"), (0, 3, "b"), (0, 4, "b"), (0, 5, "p")],
        [(1, 0, "t"), (1, 1, "p")],
    ]


def test_bead_plate_json_cell() -> None:
    pair = RoundMark("banker", 3, 8, player_pair=True, banker_pair=False, natural=True)
    assert bead_plate([pair]).to_json() == {
        "rows": 6,
        "columns": [
            [
                {
                    "col": 0,
                    "row": 0,
                    "winner": "B",
                    "player_score": 3,
                    "banker_score": 8,
                    "player_pair": True,
                    "banker_pair": False,
                    "natural": True,
                }
            ]
        ],
    }


# --- big road -------------------------------------------------------------------


def test_big_road_new_column_when_the_winner_changes_ties_on_the_previous_cell() -> None:
    # B B | P (tie, tie) P | B: the ties are slashes on the first P, not cells.
    road = big_road(marks("BBPTTPB"))
    assert [[(c.col, c.row, c.winner, c.ties) for c in col] for col in road.columns] == [
        [(0, 0, "banker", 0), (0, 1, "banker", 0)],
        [(1, 0, "player", 2), (1, 1, "player", 0)],
        [(2, 0, "banker", 0)],
    ]
    assert road.pending_ties == 0


def test_big_road_cell_keeps_pairs_and_natural_of_its_own_round_only() -> None:
    road = big_road(
        [
            RoundMark("player", 9, 3, player_pair=True, natural=True),
            # A tie with a banker pair: the pair shows on the bead plate only.
            RoundMark("tie", 4, 4, banker_pair=True),
        ]
    )
    assert road.to_json() == {
        "rows": 6,
        "pending_ties": 0,
        "columns": [
            [
                {
                    "col": 0,
                    "row": 0,
                    "winner": "P",
                    "ties": 1,
                    "player_pair": True,
                    "banker_pair": False,
                    "natural": True,
                }
            ]
        ],
    }


def test_ties_at_the_start_of_a_shoe_go_on_the_first_cell_when_it_comes() -> None:
    waiting = big_road(marks("TT"))
    assert waiting.columns == ()
    assert waiting.pending_ties == 2
    assert waiting.to_json() == {"rows": 6, "pending_ties": 2, "columns": []}

    road = big_road(marks("TTBTP"))
    assert [[(c.winner, c.ties) for c in col] for col in road.columns] == [
        [("banker", 3)],  # two ties before it, one after
        [("player", 0)],
    ]
    assert road.pending_ties == 0
    # The bead plate has every round, ties first.
    assert [c.mark.winner for col in bead_plate(marks("TTBTP")).columns for c in col] == [
        "tie",
        "tie",
        "banker",
        "tie",
        "player",
    ]


def test_dragon_tail_turns_right_at_the_bottom_and_when_it_bumps_into_a_tail() -> None:
    road = big_road(marks("BBBBBBBB PPPPPPP B PPPPPP"))
    assert positions(road) == [
        # Eight Banker: six down, then right along the bottom row.
        [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)],
        # Seven Player start next to it; row 5 of column 1 holds the tail, so
        # the fifth Player turns right above it.
        [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4)],
        # The next column starts right of column 1's first cell, as ever.
        [(2, 0)],
        # Six Player: (3, 4) holds the previous tail, so it turns after four.
        [(3, 0), (3, 1), (3, 2), (3, 3), (4, 3), (5, 3)],
    ]
    assert road.lengths == (8, 7, 1, 6)


def test_a_column_whose_top_cell_a_tail_holds_starts_at_the_next_free_one() -> None:
    # Stacked tails (our decision; the sources do not reach this case): tails at
    # rows 5, 4, 3, 2, 1, then a column that turns at row 0 at once, its cell
    # below being a tail's; the column after it finds (6, 0) and (7, 0) taken.
    road = big_road(marks("B" * 12 + "P" * 10 + "B" * 10 + "P" * 9 + "B" * 8 + "PPP" + "B" + "P"))
    assert [col[0] for col in positions(road)] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (8, 0),
        (9, 0),
    ]
    assert positions(road)[4] == [(4, 0), (4, 1)] + [(c, 1) for c in range(5, 11)]
    assert positions(road)[5] == [(5, 0), (6, 0), (7, 0)]


def test_a_column_of_exactly_six_has_no_tail() -> None:
    assert positions(big_road(marks("PPPPPP B"))) == [
        [(0, r) for r in range(6)],
        [(1, 0)],
    ]


# --- derived roads: where they start ------------------------------------------


def test_big_eye_boy_starts_at_column_1_row_1() -> None:
    # B | P P: the second P is column 1 row 1; column 0 has no row 1 and ended
    # just above it: no match, blue. The first P made no mark.
    assert derived("BPP", "big_eye_boy") == "b"
    # B B | P P: column 0 has a row 1: a match, red.
    assert derived("BBPP", "big_eye_boy") == "R"
    # Nothing before: a first column alone, and column 1's first cell.
    assert derived("BBBBB", "big_eye_boy") == ""
    assert derived("BP", "big_eye_boy") == ""


def test_big_eye_boy_starts_at_column_2_row_0_when_column_1_has_one_cell() -> None:
    # B | P | B: columns 0 and 1 are level (1 and 1): a level jump, red.
    assert derived("BPB", "big_eye_boy") == "R"
    # B B | P | B: 2 against 1, an uneven jump: blue.
    assert derived("BBPB", "big_eye_boy") == "b"


def test_small_road_starts_one_column_later() -> None:
    assert derived("BPB", "small_road") == ""
    # Column 2 row 1, looking two columns back at column 0 (one cell): blue.
    assert derived("BPBB", "small_road") == "b"
    # Column 3 row 0: compare columns 2 and 0, both one cell: red.
    assert derived("BPBP", "small_road") == "R"


def test_cockroach_pig_starts_two_columns_later() -> None:
    assert derived("BPBP", "cockroach_pig") == ""
    # Column 3 row 1, three columns back is column 0 (one cell): blue.
    assert derived("BPBPP", "cockroach_pig") == "b"
    # Column 4 row 0: compare columns 3 and 0, both one cell: red.
    assert derived("BPBPB", "cockroach_pig") == "R"


# --- derived roads: the colours ---------------------------------------------------


def test_a_chop_is_all_red_and_a_repeating_streak_pattern_too() -> None:
    # Every column one long: every jump is level.
    assert derived("BPBPBPBP", "big_eye_boy") == "R" * 6
    assert derived("BPBPBPBP", "small_road") == "R" * 5
    assert derived("BPBPBPBP", "cockroach_pig") == "R" * 4
    # Columns of four: rows 1-3 of column 1 match column 0, column 2's jump is
    # level (4 and 4), its rows 1-3 match column 1.
    assert derived("BBBB PPPP BBBB", "big_eye_boy") == "RRR" + "R" + "RRR"


# A shoe with columns of 2, 3, 1, 2, 4, 1 (B B | P P P | B | P P | B B B B | P).
SHOE = "BB PPP B PP BBBB P"


def test_big_eye_boy_on_a_known_sequence() -> None:
    assert derived(SHOE, "big_eye_boy") == "".join(
        [
            "R",  # col 1 row 1: column 0 has row 1 (match)
            "b",  # col 1 row 2: column 0 ended at row 1, just above (no match)
            "b",  # col 2 row 0: columns 1 and 0 are 3 and 2 (uneven jump)
            "b",  # col 3 row 0: columns 2 and 1 are 1 and 3
            "b",  # col 3 row 1: column 2 ended at row 0, just above
            "b",  # col 4 row 0: columns 3 and 2 are 2 and 1
            "R",  # col 4 row 1: column 3 has row 1
            "b",  # col 4 row 2: column 3 ended just above
            "R",  # col 4 row 3: column 3 ended two rows up: the streak runs on
            "b",  # col 5 row 0: columns 4 and 3 are 4 and 2
        ]
    )


def test_small_road_on_a_known_sequence() -> None:
    assert derived(SHOE, "small_road") == "".join(
        [
            "b",  # col 3 row 0: columns 2 and 0 are 1 and 2
            "R",  # col 3 row 1: column 1 (two back) has row 1
            "b",  # col 4 row 0: columns 3 and 1 are 2 and 3
            "b",  # col 4 row 1: column 2 ended just above
            "R",  # col 4 row 2: column 2 ended two rows up
            "R",  # col 4 row 3: likewise
            "b",  # col 5 row 0: columns 4 and 2 are 4 and 1
        ]
    )


def test_cockroach_pig_on_a_known_sequence() -> None:
    assert derived(SHOE, "cockroach_pig") == "".join(
        [
            "R",  # col 3 row 1: column 0 (three back) has row 1
            "R",  # col 4 row 0: columns 3 and 0 are 2 and 2 (level)
            "R",  # col 4 row 1: column 1 has row 1
            "R",  # col 4 row 2: column 1 has row 2
            "b",  # col 4 row 3: column 1 ended just above
            "b",  # col 5 row 0: columns 4 and 1 are 4 and 3
        ]
    )


def test_derived_road_is_drawn_like_the_big_road() -> None:
    # Big eye boy of SHOE is R | b b b b b | R | b | R | b.
    road = derived_road(big_road(marks(SHOE)), 1)
    assert positions(road) == [
        [(0, 0)],
        [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)],
        [(2, 0)],
        [(3, 0)],
        [(4, 0)],
        [(5, 0)],
    ]
    assert road.to_json()["columns"][1][0] == {"col": 1, "row": 0, "colour": "blue"}


def test_derived_road_has_a_dragon_tail_too() -> None:
    # A chop of 20: big eye boy marks 18 reds, one column with a tail.
    road = derived_road(big_road(marks("BP" * 10)), 1)
    assert positions(road) == [[(0, r) for r in range(6)] + [(c, 5) for c in range(1, 13)]]


def test_ties_change_no_derived_road() -> None:
    assert derived("BTBPTTPPB", "big_eye_boy") == derived("BBPPPB", "big_eye_boy")


def test_derived_road_offsets_are_1_2_3() -> None:
    with pytest.raises(ValueError, match="1, 2 or 3"):
        derived_road(big_road(marks(SHOE)), 4)


# --- ask banker / ask player -----------------------------------------------------


def test_ask_on_the_known_sequence() -> None:
    big = big_road(marks(SHOE))
    # Banker next opens column 6: compare column 5 (1 long) with columns 4, 3, 2
    # (4, 2, 1): blue, blue, red.
    assert ask(big, "banker").to_json() == {
        "big_eye_boy": "blue",
        "small_road": "blue",
        "cockroach_pig": "red",
    }
    # Player next is column 5 row 1: columns 4, 3, 2 (4, 2, 1 long) have a row
    # 1, have a row 1, ended just above: red, red, blue.
    assert ask(big, "player").to_json() == {
        "big_eye_boy": "red",
        "small_road": "red",
        "cockroach_pig": "blue",
    }


def test_ask_before_a_road_starts_is_null() -> None:
    assert ask(big_road([]), "banker").to_json() == {
        "big_eye_boy": None,
        "small_road": None,
        "cockroach_pig": None,
    }
    big = big_road(marks("BP"))
    # Player would be column 1 row 1 (big eye boy's start); Banker would open
    # column 2, comparing columns 1 and 0 (level).
    assert ask(big, "player").to_json()["big_eye_boy"] == "blue"
    assert ask(big, "banker").to_json()["big_eye_boy"] == "red"
    assert ask(big, "banker").small_road is None


# --- from the engine, and the whole payload ------------------------------------------


ENGINE = BaccaratEngine(BaccaratRules())


def play(events: Sequence[Event]) -> BaccaratRound:
    state = ENGINE.new_round("r1")
    for event in events:
        state, _ = ENGINE.apply(state, event)
    return state


def test_round_mark_from_the_engines_outcome() -> None:
    # Player 4C 4D (a pair, natural 8), Banker TC 2D (2): Player wins at once.
    state = play([CloseBets(), *(DealCard(parse_card(c)) for c in ("4C", "TC", "4D", "2D"))])
    assert RoundMark.from_outcome(ENGINE.outcome(state)) == RoundMark(
        "player", 8, 2, player_pair=True, banker_pair=False, natural=True
    )


def test_a_voided_round_has_no_mark() -> None:
    state = play([CloseBets(), VoidRound("shoe jammed")])
    with pytest.raises(ValueError, match="voided"):
        RoundMark.from_outcome(ENGINE.outcome(state))


def test_round_mark_refuses_a_winner_the_scores_contradict() -> None:
    with pytest.raises(ValueError, match="does not match"):
        RoundMark("banker", 7, 2)
    with pytest.raises(ValueError, match="0 to 9"):
        RoundMark("player", 10, 2)


def test_roads_payload_is_plain_json() -> None:
    payload = roads(marks("TBPPB")).to_json()
    assert json.loads(json.dumps(payload)) == payload
    assert set(payload) == {
        "bead_plate",
        "big_road",
        "big_eye_boy",
        "small_road",
        "cockroach_pig",
        "ask",
    }
    # B (tie before it) | P P | B: big eye boy: col 1 row 1 blue (column 0 ended
    # just above), col 2 row 0 blue (2 against 1).
    assert payload["big_eye_boy"] == {
        "rows": 6,
        "columns": [
            [{"col": 0, "row": 0, "colour": "blue"}, {"col": 0, "row": 1, "colour": "blue"}]
        ],
    }
    assert payload["big_road"]["columns"][0][0]["ties"] == 1
    assert payload["ask"]["banker"]["big_eye_boy"] == "red"  # column 2 row 1: column 1 has row 1


# --- properties ---------------------------------------------------------------------

# Whole shoes as runs, so that long streaks (and so dragon tails) are common.
runs = st.lists(st.tuples(st.sampled_from("BPT"), st.integers(1, 14)), max_size=40)
shoes = runs.map(lambda rs: [mark(code) for code, n in rs for _ in range(n)][:90])


def all_cells(road: BigRoad | DerivedRoad) -> list[tuple[int, int]]:
    return [pos for col in positions(road) for pos in col]


def count_formula(lengths: Sequence[int], k: int) -> int:
    """Every big-road cell from column k row 1 on, and every column's first cell
    from column k+1 on, makes one mark."""
    lower = sum(n - 1 for n in lengths[k:])
    return lower + max(0, len(lengths) - k - 1)


def assert_drawn_like_the_big_road(road: BigRoad | DerivedRoad) -> None:
    cells = all_cells(road)
    assert len(cells) == len(set(cells)), "two cells in one place"
    assert all(0 <= row < 6 and col >= 0 for col, row in cells)
    starts = [col[0] for col in positions(road)]
    assert all(row == 0 for _, row in starts)
    assert all(a[0] < b[0] for a, b in pairwise(starts))
    for col in positions(road):
        for (c0, r0), (c1, r1) in pairwise(col):
            # Down one, or right one along the same row (the tail).
            assert (c1, r1) in ((c0, r0 + 1), (c0 + 1, r0))


@settings(max_examples=100, deadline=None)
@given(shoes)
def test_bead_plate_has_one_cell_per_round(shoe: list[RoundMark]) -> None:
    plate = bead_plate(shoe)
    cells = [c for col in plate.columns for c in col]
    assert [c.mark for c in cells] == shoe
    assert [(c.col, c.row) for c in cells] == [(i // 6, i % 6) for i in range(len(shoe))]


@settings(max_examples=100, deadline=None)
@given(shoes)
def test_big_road_has_one_cell_per_decision_and_every_tie(shoe: list[RoundMark]) -> None:
    road = big_road(shoe)
    decided = [m.winner for m in shoe if m.winner != "tie"]
    assert [[c.winner for c in col] for col in road.columns] == [
        list(run) for _, run in groupby(decided)
    ]
    ties = sum(m.winner == "tie" for m in shoe)
    assert sum(c.ties for col in road.columns for c in col) + road.pending_ties == ties
    assert road.pending_ties == (ties if not decided else 0)
    assert_drawn_like_the_big_road(road)


@settings(max_examples=100, deadline=None)
@given(shoes)
def test_derived_roads_have_the_standard_count_and_never_overlap(shoe: list[RoundMark]) -> None:
    result = roads(shoe)
    lengths = result.big_road.lengths
    for name, k in OFFSET.items():
        road: DerivedRoad = getattr(result, name)
        assert len(all_cells(road)) == count_formula(lengths, k), name
        assert_drawn_like_the_big_road(road)
        # A new column exactly when the colour changes.
        assert all(len({c.colour for c in col}) == 1 for col in road.columns)
        assert all(a[0].colour != b[0].colour for a, b in pairwise(road.columns))


@settings(max_examples=100, deadline=None)
@given(shoes)
def test_ask_is_what_the_next_result_would_add(shoe: list[RoundMark]) -> None:
    now = roads(shoe)
    for code, asked in (("B", now.ask_banker), ("P", now.ask_player)):
        after = roads([*shoe, mark(code)])
        for name in OFFSET:
            before_road: DerivedRoad = getattr(now, name)
            after_road: DerivedRoad = getattr(after, name)
            added = colours(after_road)[len(colours(before_road)) :]
            expected = {"": None, "R": "red", "b": "blue"}[added]
            assert getattr(asked, name) == expected, (code, name)
    # Where both asks give a mark, they are opposite.
    for name in OFFSET:
        pair = {getattr(now.ask_banker, name), getattr(now.ask_player, name)}
        assert None in pair or pair == {"red", "blue"}
