"""Hostile input gives typed events only, and never a result the wheel did not give.

Three sources: soups of lines (valid ones for a few games, in any order, damaged
ones and garbage between them), the recorded captures with random damage and
whole lines dropped, and games played here (misfires, and a stale result line
after each) with whole lines dropped. The oracle is independent of the session:
a `WheelResult` must be the very line it came from (a result line or a status
record that has the result), checked here with the standard library's CRC (not
the session's code), for a game whose start and launch came before it (read or
made good) and whose launch no warning voided; on a capture or a game played
here, it must be a result the wheel meant (its ground truth), once per game.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Iterator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.wheel import (
    LaunchVoid,
    LinesLost,
    WheelEvent,
    WheelRefused,
    WheelResult,
    WheelState,
    event_from_json,
)
from drivers.wheel.events import EVENT_TYPES
from drivers.wheel.session import WheelSensorSession

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wheel_sensor"
CAPTURES = ["clean", "noisy_line", "warnings", "lost_lines"]


def line(body: str, seq: int) -> bytes:
    """A line of `body` (a sentence without its counter) counted `seq`."""
    name, _, fields = body.partition(",")
    counted = f"{name},{seq},{fields}" if fields else f"{name},{seq}"
    # The standard library's CRC-16/CCITT-FALSE, not the code under test's.
    check = binascii.crc_hqx(counted.encode("ascii"), 0xFFFF)
    return f"${counted}*{check:04X}\r\n".encode()


def numbered(bodies: list[str], skips: Iterator[int] | None = None) -> list[bytes]:
    """The wheel's lines: game lines counted 1, 2, ... (plus what `skips` adds,
    lines the wheel counted that are not in the list), a status line carrying the
    last count and, for `{start}`, the counter of its game's start line."""
    seq, out, starts = 0, [], dict[str, int]()
    for body in bodies:
        if not body.startswith("RWSTS"):
            seq = (seq + next(skips, 0) if skips else seq) % 9999 + 1
        if body.startswith("RWGST"):
            starts[body.split(",")[1]] = seq
        game = body.split(",")[2] if body.startswith("RWSTS") else ""
        out.append(line(body.replace("{start}", str(starts.get(game, 0))), seq))
    return out


games = st.integers(0, 3)
bodies = st.one_of(
    st.builds(lambda g: f"RWGST,{g}", games),
    st.builds(lambda g, d: f"RWBLN,{g},25.0,{d}", games, st.sampled_from(["CW", "CCW"])),
    st.builds(lambda g: f"RWNMB,{g}", games),
    st.builds(lambda g, n, f: f"RWWIN,{g},{n},25.0,CW,{f}", games,
              st.sampled_from(["0", "7", "36", "37", "07"]), st.sampled_from(["00", "08", "02"])),
    st.builds(lambda g: f"RWIDL,{g}", games),
    st.builds(lambda g, f: f"RWWRN,{g},{f}", games, st.sampled_from(["01", "04", "08", "00"])),
    st.builds(lambda stage, g, start, launches, f, n: (
        f"RWSTS,{stage},{g},25.0,CW,{start},{launches},{f},{n}"),
        st.sampled_from(["IDL", "GST", "BLN", "NMB", "WIN"]), games, st.integers(0, 12),
        st.integers(0, 2), st.sampled_from(["00", "08"]), st.sampled_from(["-", "7", "36"])),
)
damage = st.tuples(st.sampled_from(["flip", "drop", "duplicate", "insert"]),
                   st.integers(0, 100_000), st.integers(0, 255))
# A game as the wheel plays it, so that soups hold results to be believed or not.
game_lines = st.builds(
    lambda g, n, warn: [
        f"RWGST,{g}", f"RWBLN,{g},25.0,CW", *([f"RWWRN,{g},08"] if warn else []),
        f"RWNMB,{g}", f"RWWIN,{g},{n},25.0,CW,00"],
    st.integers(1, 3), st.integers(0, 36), st.booleans())
# A piece of a soup: bodies to count in turn, a damaged one, or garbage.
piece = st.one_of(
    game_lines,
    bodies.map(lambda b: [b]),
    st.tuples(bodies, damage),
    st.binary(max_size=12),
)


def soup(pieces: list[list[str] | tuple[str, tuple[str, int, int]] | bytes],
         skips: list[int]) -> bytes:
    """The pieces as one stream, every body counted in turn (a damaged one too:
    the wheel counted it), the counter skipping ahead where `skips` says."""
    flat: list[str | tuple[str, tuple[str, int, int]] | bytes] = []
    for p in pieces:
        flat += p if isinstance(p, list) else [p]
    seq, skip, out = 0, iter(skips), bytearray()
    for item in flat:
        if isinstance(item, bytes):
            out += item
            continue
        body = item if isinstance(item, str) else item[0]
        if not body.startswith("RWSTS"):
            seq = (seq + next(skip, 0)) % 9999 + 1
        framed = line(body, seq)
        out += framed if isinstance(item, str) else damaged(framed, [item[1]])
    return bytes(out)


def damaged(data: bytes, mutations: list[tuple[str, int, int]]) -> bytes:
    out = bytearray(data)
    for kind, where, value in mutations:
        if not out:
            break
        at = where % len(out)
        if kind == "flip":
            out[at] ^= 1 << (value % 8)
        elif kind == "drop":
            del out[at]
        elif kind == "duplicate":
            out.insert(at, out[at])
        else:
            out.insert(at, value)
    return bytes(out)


def decode(data: bytes, cuts: list[int]) -> list[WheelEvent]:
    session = WheelSensorSession()
    session.connected(0.0)
    events: list[WheelEvent] = []
    points = sorted({c % (len(data) + 1) for c in cuts})
    for a, b in zip([0, *points], [*points, len(data)], strict=True):
        events += session.received(data[a:b], 0.0).events
    return events


def _win_pattern(event: WheelResult) -> re.Pattern[bytes]:
    """The result line or record `event` came from, whatever its counters."""
    rpm = f"{event.rotor_rpm:.1f}".encode()
    direction = b"CW" if event.direction == "clockwise" else b"CCW"
    return re.compile(rb"\$RWWIN,\d+,%d,%d,%s,%s,00\*|\$RWSTS,\d+,(WIN|IDL),%d,%s,%s,"
                      rb"\d+,\d+,[0-9A-F]{2},%d\*" % (
                          event.game, event.number, rpm, direction,
                          event.game, rpm, direction, event.number))


def _win_line_in(data: bytes, event: WheelResult) -> bool:
    """The line is in `data`, whole, with its right CRC (this file's)."""
    for m in _win_pattern(event).finditer(data):
        end = data.find(b"\r\n", m.end())
        whole = data[m.start():end + 2] if end != -1 else b""
        body = whole[1:whole.find(b"*")].decode("ascii", "replace")
        seq = int(body.split(",")[1])
        if whole == line(body.replace(f",{seq},", ",", 1), seq):
            return True
    return False


def assert_no_invented_result(data: bytes, events: list[WheelEvent]) -> None:
    for i, event in enumerate(events):
        assert type(event).__name__ in EVENT_TYPES
        if not isinstance(event, WheelResult):
            continue
        assert _win_line_in(data, event), f"{event} is not a line of the input"
        # Its game started and launched before it, once per start, no void since the launch.
        before = events[:i]
        start = max(j for j, e in enumerate(before)
                    if isinstance(e, WheelState) and e.phase == "game_start")
        started = before[start]
        assert isinstance(started, WheelState) and started.game == event.game
        since_start = before[start + 1:]
        assert not any(isinstance(e, WheelResult) for e in since_start)
        assert not any(isinstance(e, WheelResult) and e.game == event.game for e in before)
        launch = max(j for j, e in enumerate(since_start)
                     if isinstance(e, WheelState) and e.phase == "ball_launched")
        assert not any(isinstance(e, LaunchVoid) for e in since_start[launch:])
        assert 0 <= event.number <= 36


@given(st.binary(max_size=400), st.lists(st.integers(0, 10_000), max_size=6))
@settings(max_examples=200, deadline=None)
def test_random_bytes_give_typed_events_and_no_result(data: bytes, cuts: list[int]) -> None:
    events = decode(data, cuts)
    assert_no_invented_result(data, events)
    assert not any(isinstance(e, WheelResult) for e in events)


@given(st.lists(piece, max_size=40), st.lists(st.integers(0, 10_000), max_size=6),
       st.lists(st.sampled_from([0, 0, 0, 1, 5, 9998]), max_size=60))
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
def test_a_soup_of_lines_never_gives_a_result_outside_the_rules(
    pieces: list[list[str] | tuple[str, tuple[str, int, int]] | bytes], cuts: list[int],
    skips: list[int],
) -> None:
    data = soup(pieces, skips)
    assert_no_invented_result(data, decode(data, cuts))


def _capture(name: str) -> tuple[bytes, set[WheelResult]]:
    lines = (FIXTURES / f"{name}.events.jsonl").read_text().splitlines()
    truth = {e for e in map(event_from_json, map(json.loads, lines)) if isinstance(e, WheelResult)}
    return (FIXTURES / f"{name}.bin").read_bytes(), truth


RECORDED = {name: _capture(name) for name in CAPTURES}


@given(st.sampled_from(CAPTURES), st.lists(damage, min_size=1, max_size=12),
       st.lists(st.integers(0, 10_000), max_size=6))
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
def test_a_damaged_capture_never_gives_a_result_the_wheel_did_not_send(
    name: str, mutations: list[tuple[str, int, int]], cuts: list[int]
) -> None:
    """No damage makes a result the wheel did not mean: not a line it never sent
    (the CRC's guarantee), nor one it sent and meant refused (a result of a game
    its warning voided) when the damage destroys the lines that said so (the
    line counter's)."""
    data, truth = RECORDED[name]
    events = decode(damaged(data, mutations), cuts)
    results = [e for e in events if isinstance(e, WheelResult)]
    assert set(results) <= truth
    assert len({e.game for e in results}) == len(results)


def without_lines(data: bytes, drops: set[int]) -> bytes:
    """`data` with the lines numbered in `drops` (modulo their count) lost whole."""
    lines = data.split(b"\r\n")
    lost = {d % len(lines) for d in drops}
    return b"\r\n".join(ln for i, ln in enumerate(lines) if i not in lost)


@given(st.sampled_from(CAPTURES), st.sets(st.integers(0, 10_000), min_size=1, max_size=8),
       st.lists(damage, max_size=4), st.lists(st.integers(0, 10_000), max_size=4))
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
def test_a_capture_with_lines_lost_whole_never_gives_a_result_the_wheel_did_not_mean(
    name: str, drops: set[int], mutations: list[tuple[str, int, int]], cuts: list[int]
) -> None:
    data, truth = RECORDED[name]
    events = decode(damaged(without_lines(data, drops), mutations), cuts)
    results = [e for e in events if isinstance(e, WheelResult)]
    assert set(results) <= truth
    assert len({e.game for e in results}) == len(results)


def test_a_result_the_wheel_meant_refused_is_refused_when_the_lines_that_said_so_are_lost() -> None:
    """The warnings capture: game 4103's relaunch voided by a warning, game 4104
    started, then a result line for 4103 (the saboteur's stale line: refused as
    wrong_game). Cut the warning and the next game's start out whole: without a
    line counter the session saw a clean launch of 4103 and believed the stale
    line (rw-line 2 did)."""
    data, truth = RECORDED["warnings"]
    lost = re.compile(rb"\$RW(WRN,\d+,4103|GST,\d+,4104)[,*]")
    lines = data.split(b"\r\n")
    kept = b"\r\n".join(ln for ln in lines if not lost.match(ln))
    assert len(kept.split(b"\r\n")) == len(lines) - 2
    events = decode(kept, [])
    assert {e for e in events if isinstance(e, WheelResult)} <= truth
    # Refused for the lines lost, or as another game's once a record made 4104's start good.
    stale = next(e for e in events if isinstance(e, WheelRefused) and e.game == 4103
                 and e.reason in ("lines_lost", "wrong_game") and e.line.startswith("$RWWIN"))
    assert stale.line.startswith("$RWWIN,") and ",31," in stale.line


def played(games: list[tuple[int, bool]]) -> tuple[list[str], set[WheelResult]]:
    """Games as a wheel plays them, its record after each game line (three
    times after the result, PROTOCOL.md §3). A voided game (a misfire, then the
    wheel gives up: the next game starts) is followed, after that start, by a
    result line for it (the saboteur's stale line, which §4 forbids): the wheel
    never meant it, and its record does not have it. The results it meant, for
    the oracle."""
    bodies: list[str] = []
    meant: set[WheelResult] = set()
    stale: list[str] = []

    def record(stage: str, game: int, launches: int, flags: str = "00", number: str = "-") -> str:
        return f"RWSTS,{stage},{game},25.0,CW,{{start}},{launches},{flags},{number}"

    for game, (number, voided) in enumerate(games, start=1):
        bodies += [f"RWGST,{game}", *stale, record("GST", game, 0),
                   f"RWBLN,{game},25.0,CW", record("BLN", game, 1)]
        stale = []
        if voided:
            bodies += [f"RWWRN,{game},08", record("GST", game, 1, "08")]
            stale = [f"RWWIN,{game},{number},25.0,CW,00"]
        else:
            bodies += [f"RWNMB,{game}", record("NMB", game, 1),
                       f"RWWIN,{game},{number},25.0,CW,00",
                       *[record("WIN", game, 1, number=str(number))] * 3,
                       f"RWIDL,{game}", record("IDL", game, 1, number=str(number))]
            meant.add(WheelResult(game, number, 25.0, "clockwise"))
    return bodies, meant


games_played = st.lists(st.tuples(st.integers(0, 36), st.booleans()), min_size=1, max_size=30)


@given(games_played)
@settings(max_examples=50, deadline=None, derandomize=True, database=None)
def test_games_played_whole_give_every_result_the_wheel_meant(
    games: list[tuple[int, bool]]
) -> None:
    bodies, meant = played(games)
    events = decode(b"".join(numbered(bodies)), [])
    assert [e for e in events if isinstance(e, WheelResult)] == sorted(
        meant, key=lambda e: e.game)
    assert not any(isinstance(e, LinesLost) for e in events)


@st.composite
def games_and_drops(draw: st.DrawFn) -> tuple[list[str], set[WheelResult], list[bytes], set[int]]:
    """Games played, their lines, and which of them are lost whole: each line
    by a coin of its own, so that hypothesis finds the pairs that matter (a
    warning and the next game's start) as well as single lines."""
    bodies, meant = played(draw(games_played))
    lines = numbered(bodies)
    lost = draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
    return bodies, meant, lines, {i for i, drop in enumerate(lost) if drop}


@given(games_and_drops(), st.lists(damage, max_size=6), st.lists(st.integers(0, 10_000),
                                                                  max_size=4))
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
def test_games_with_lines_dropped_at_random_give_no_result_the_wheel_did_not_mean(
    played_and_lost: tuple[list[str], set[WheelResult], list[bytes], set[int]],
    mutations: list[tuple[str, int, int]], cuts: list[int]
) -> None:
    """Lines lost whole and bytes damaged: never a result the wheel did not
    mean (the stale lines, a record's damage), never one twice."""
    bodies, meant, lines, lost = played_and_lost
    data = b"".join(ln for i, ln in enumerate(lines) if i not in lost)
    events = decode(damaged(data, mutations) if mutations else data, cuts)
    results = [e for e in events if isinstance(e, WheelResult)]
    assert set(results) <= meant
    assert len({e.game for e in results}) == len(results)
    # A game line lost between two lines read is reported (before the first
    # line read, there is nothing to compare with).
    kept = [i for i in range(len(lines)) if i not in lost]
    if not mutations and any(kept and kept[0] < i < kept[-1]
                             and not bodies[i].startswith("RWSTS") for i in lost):
        assert any(isinstance(e, LinesLost) for e in events)


@given(games_and_drops())
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
def test_with_every_record_read_every_result_is_delivered_once_whatever_game_lines_are_lost(
    played_and_lost: tuple[list[str], set[WheelResult], list[bytes], set[int]]
) -> None:
    """Game lines lost whole at random, the records all read: each result the
    wheel meant for a game begun after the first line read is delivered, once."""
    bodies, meant, lines, lost = played_and_lost
    lost = {i for i in lost if not bodies[i].startswith("RWSTS")}
    events = decode(b"".join(ln for i, ln in enumerate(lines) if i not in lost), [])
    first = min(i for i in range(len(lines)) if i not in lost)  # a record is never lost
    begun = {int(b.split(",")[1]) for i, b in enumerate(bodies)
             if b.startswith("RWGST") and i >= first}
    results = [e for e in events if isinstance(e, WheelResult)]
    assert sorted(results, key=lambda e: e.game) == results  # in the games' order
    assert {e for e in meant if e.game in begun} <= set(results) <= meant
    assert len({e.game for e in results}) == len(results)
