"""The station's side of the wheel sensor's line protocol (PROTOCOL.md), without I/O.

Bytes and the time in, events out: the serial link (drivers/wheel/link.py) owns
the port and calls it; the capture decoder calls it with the clock stopped. The
station sends the wheel nothing. The game in play outlives the port: after an
unplug, a result for it is still believed, and only for it, if the line counter
says no game line was lost meanwhile, or a status record makes the loss good.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

from drivers.wheel.events import (
    GameAbandoned,
    LaunchVoid,
    LinesLost,
    RefusalReason,
    RejectReason,
    WarningFlag,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRejected,
    WheelRestarted,
    WheelResult,
    WheelState,
    WheelWarning,
)
from drivers.wheel.sentences import (
    GAME_MAX,
    MAX_LINE,
    SEQ_MAX,
    BallLaunched,
    GameStart,
    Idle,
    Line,
    NoMoreBets,
    Rejection,
    Status,
    WinningNumber,
    next_seq,
    parse_line,
)
from drivers.wheel.sentences import Stage as WireStage
from drivers.wheel.sentences import Warning as WarningLine

SENSOR_BAUDRATE = 9600
STATUS_TIMEOUT_S = 3.0  # PROTOCOL.md §6: three status lines missed

# Where the game in play is (PROTOCOL.md §5). "idle" and "resulted" have no game
# in play; `_game` is then the last one, for the old-game rule.
Stage = Literal["idle", "started", "launched", "closed", "resulted"]
IN_PLAY: frozenset[Stage] = frozenset({"started", "launched", "closed"})
LAUNCHED: frozenset[Stage] = frozenset({"launched", "closed"})
# A record's stage (the wheel's word) as the session's.
RECORD_STAGES: dict[WireStage, Stage] = {"IDL": "idle", "GST": "started", "BLN": "launched",
                                         "NMB": "closed", "WIN": "resulted"}


@dataclass(slots=True)
class SensorOutput:
    events: list[WheelEvent] = field(default_factory=list)
    tx: bytes = b""  # the station never writes to the wheel


@dataclass(slots=True)
class SensorCounters:
    bytes_received: int = 0
    bytes_discarded: int = 0  # outside any line (noise before a "$"), or cut by an unplug
    lines: int = 0  # checked lines, of every sentence
    rejected_lines: int = 0
    refused_lines: int = 0
    duplicates: int = 0
    statuses: int = 0
    results: int = 0
    lines_lost: int = 0  # game lines the counter says were sent and never read
    made_good: int = 0  # results a status record gave, their result line lost
    contradictions: int = 0  # records that said otherwise than a line read
    restarts: int = 0
    not_taken: int = 0  # events the consumer refused: the wheel never resends them


class WheelSensorSession:
    protocol = "rw-line/4"

    def __init__(self, *, status_timeout: float = STATUS_TIMEOUT_S) -> None:
        self.status_timeout = status_timeout
        self._line: bytearray | None = None  # from "$"; None between lines
        self._overlong = False
        self._online = False
        self._last_line_at = 0.0
        self._counters = SensorCounters()
        self._stage: Stage = "idle"
        self._game = 0
        self._voided = False  # a launch of the game in play was voided
        # The line counter last read (PROTOCOL.md §5); None before the first line.
        self._seq: int | None = None
        # Game lines were lost since the game in play started: its result is
        # refused, whatever they were (a warning may have voided the launch).
        self._lost = False
        # The last game line read, to drop its repetition (§5, duplicates).
        self._last_line: bytes | None = None
        # What the station knows of the game `_game` (PROTOCOL.md §5, records):
        # the counter of its start line (None: never read nor recorded), its
        # launches, the warnings raised in it, its result (given, or recorded
        # of a game over whose start the station missed).
        self._start: int | None = None
        self._launches = 0
        self._flags: set[WarningFlag] = set()
        self._number: int | None = None
        # A record contradicted what was read of `_game`: nothing more of it is believed.
        self._disputed = False
        # The counter after which a game started while the station listened:
        # the start of `_game`, else the first line read (0 after a restart).
        self._horizon = 0

    @property
    def online(self) -> bool:
        return self._online

    def connected(self, now: float) -> SensorOutput:
        # The wheel is online once it is heard: an open port says nothing yet.
        self._drop_partial()
        self._last_line_at = now
        return SensorOutput()

    def received(self, data: bytes, now: float) -> SensorOutput:
        out = SensorOutput()
        self._counters.bytes_received += len(data)
        for byte in data:
            if byte == 0x24:  # "$": a line starts, whatever came before
                if self._line is not None:
                    self._reject("overlong" if self._overlong else "truncated",
                                 bytes(self._line), out)
                self._line = bytearray(b"$")
                self._overlong = False
            elif self._line is None:
                # Between lines: a line's end (CR LF) is not noise, the rest is.
                if byte not in (0x0D, 0x0A):
                    self._counters.bytes_discarded += 1
            elif byte in (0x0D, 0x0A):
                line, self._line = bytes(self._line), None
                if self._overlong:
                    self._reject("overlong", line, out)
                else:
                    self._handle(line, now, out)
            elif len(self._line) < MAX_LINE:
                self._line.append(byte)
            else:
                self._overlong = True
        return out

    def tick(self, now: float) -> SensorOutput:
        out = SensorOutput()
        if self._online and now - self._last_line_at >= self.status_timeout:
            self._online = False
            out.events.append(WheelOffline(
                f"no line from the wheel for {self.status_timeout:g} s"))
        return out

    def disconnected(self, reason: str) -> SensorOutput:
        self._drop_partial()
        self._online = False
        return SensorOutput([WheelOffline(reason)])

    def take_back(self, out: SensorOutput, index: int, now: float) -> SensorOutput:
        """The wheel never sends a line again: the event not taken is lost (and
        counted); the rest of `out` is still handed over."""
        self._counters.not_taken += 1
        return SensorOutput(out.events[index + 1:])

    def counters(self) -> dict[str, int]:
        return asdict(self._counters)

    def _drop_partial(self) -> None:
        if self._line is not None:
            self._counters.bytes_discarded += len(self._line)
        self._line = None
        self._overlong = False

    def _reject(self, reason: RejectReason, line: bytes, out: SensorOutput) -> None:
        self._counters.rejected_lines += 1
        out.events.append(WheelRejected(reason, _text(line)))

    def _handle(self, line: bytes, now: float, out: SensorOutput) -> None:
        parsed = parse_line(line)
        if isinstance(parsed, Rejection) and parsed.reason in ("malformed", "bad_checksum"):
            self._reject(parsed.reason, line, out)
            return
        # Its checksum is right: something speaking the protocol is there.
        self._counters.lines += 1
        self._last_line_at = now
        if not self._online:
            self._online = True
            out.events.append(WheelOnline(self.protocol))
        if isinstance(parsed, Rejection):
            self._reject(parsed.reason, line, out)
        else:
            self._believe(parsed, line, out)

    def _believe(self, line: Line, raw: bytes, out: SensorOutput) -> None:
        sentence = line.sentence
        if isinstance(sentence, Status):
            self._counters.statuses += 1
            gap = self._follow(line, out)
            self._record(sentence, line.seq, gap, raw, out)
            return
        if raw == self._last_line:
            self._counters.duplicates += 1
            return
        self._last_line = raw
        self._follow(line, out)
        if isinstance(sentence, WarningLine):
            self._warning(sentence, out)
            return
        refusal = self._refusal(sentence)
        if refusal is not None:
            self._counters.refused_lines += 1
            out.events.append(WheelRefused(refusal, sentence.game, _text(raw)))
            if isinstance(sentence, WinningNumber) and refusal == "flagged_result":
                self._void(sentence.game, out, sentence.flags)
            return
        match sentence:
            case GameStart(game):
                self._abandon(out)
                self._begin(game, line.seq)
                out.events.append(WheelState("game_start", game))
            case BallLaunched(game, rpm, direction):
                self._stage = "launched"
                self._launches += 1
                out.events.append(WheelState("ball_launched", game, rpm, direction))
            case NoMoreBets(game):
                self._stage = "closed"
                out.events.append(WheelState("no_more_bets", game))
            case WinningNumber(game, number, rpm, direction):
                self._result(WheelResult(game, number, rpm, direction), out)
            case Idle(game):
                self._abandon(out)
                self._stage = "idle"
                if game not in (0, self._game):
                    # A game whose start the station missed: only a record can say more.
                    self._game, self._start = game, None
                    self._launches, self._flags, self._number = 0, set(), None
                out.events.append(WheelState("idle", game))

    def _refusal(
        self, sentence: GameStart | BallLaunched | NoMoreBets | WinningNumber | Idle
    ) -> RefusalReason | None:
        """Why a game line is not believed, or None (PROTOCOL.md §5's table)."""
        stage, game = self._stage, self._game
        match sentence:
            case Idle():
                return None
            case GameStart(started) if started == game:
                return "out_of_order" if stage in IN_PLAY else "old_game"
            case GameStart():
                return None
            case WinningNumber(won) if stage == "resulted" and won == game:
                return "conflicting_result"
        if stage not in IN_PLAY:
            return "no_game_in_play"
        if sentence.game != game:
            return "wrong_game"
        match sentence:
            case BallLaunched() if stage != "started":
                return "out_of_order"
            case NoMoreBets() if stage != "launched":
                return "out_of_order"
            case WinningNumber() if stage == "started":
                return "launch_voided" if self._voided else "not_launched"
            case WinningNumber(flags=flags) if flags:
                return "flagged_result"
            case WinningNumber() if self._lost:
                return "lines_lost"
        return None

    def _begin(self, game: int, start: int) -> None:
        """`game` started at the line counted `start`: all is known of it."""
        self._stage, self._game, self._voided, self._lost = "started", game, False, False
        self._start = self._horizon = start
        self._launches, self._flags, self._number, self._disputed = 0, set(), None, False

    def _result(self, result: WheelResult, out: SensorOutput) -> None:
        self._stage, self._number = "resulted", result.number
        self._counters.results += 1
        out.events.append(result)

    def _follow(self, line: Line, out: SensorOutput) -> bool:
        """The line counter (PROTOCOL.md §5): a game line counts the one after
        the last, a status line repeats the last; 0 on a status line is the
        wheel's power-up. Whether game lines were lost just before this one."""
        last, seq = self._seq, line.seq
        self._seq = seq
        if last is None:
            self._horizon = seq  # the first line heard: nothing to compare it with
            return False
        if seq == 0:
            if last != 0:
                self._counters.restarts += 1
                out.events.append(WheelRestarted(last))
                self._abandon(out)
                # A new count: its first lines may repeat the old count's bytes.
                self._stage, self._last_line = "idle", None
                self._start, self._horizon = None, 0
            return False
        expected = last if isinstance(line.sentence, Status) else next_seq(last)
        skipped = (seq - expected) % SEQ_MAX
        if skipped:
            self._counters.lines_lost += skipped
            self._lost = True
            out.events.append(LinesLost(skipped))
        return skipped > 0

    # -- records (PROTOCOL.md §5, "What a record makes good") ------------------

    def _record(self, record: Status, seq: int, gap: bool, raw: bytes,
                out: SensorOutput) -> None:
        """Which game the record is of, and what it makes good or contradicts."""
        if record.game == 0:
            return  # no game since power-up: nothing to make good
        if self._start is not None and record.start == self._start:
            if record.game != self._game or self._contradicts(record, gap):
                self._refuse_record(record, raw, out)
            elif not self._disputed:
                self._catch_up(record, out)
        elif (self._start is None and record.game == self._game and self._stage == "idle"
              and self._started_since(record.start, seq)):
            # The game an idle line named, its start missed: the record completes it.
            if record.stage != "IDL":
                self._refuse_record(record, raw, out)
                return
            self._start = self._horizon = record.start
            self._launches, self._flags = record.launches, set(record.flags)
            self._number, self._lost = record.number, False
        elif self._started_since(record.start, seq):
            # A game whose start line the station missed, begun while it listened.
            if self._game and not 0 < (record.game - self._game) % GAME_MAX <= (
                    seq - self._horizon) % SEQ_MAX:
                self._refuse_record(record, raw, out)  # not a game number after the last
                return
            self._abandon(out)
            self._begin(record.game, record.start)
            out.events.append(WheelState("game_start", record.game))
            self._catch_up(record, out)
        elif self._start is not None:
            # Older than the game whose start the station read: the wheel's game is not that.
            self._refuse_record(record, raw, out)
        # Else a game begun before the station listened: nothing to make good.

    def _started_since(self, start: int, seq: int) -> bool:
        """The line counted `start` came after the horizon, by the counter `seq`."""
        return 0 < (start - self._horizon) % SEQ_MAX <= (seq - self._horizon) % SEQ_MAX

    def _contradicts(self, record: Status, gap: bool) -> bool:
        """The record of `_game` says otherwise than a line read of it."""
        return (
            (self._number is not None and record.number != self._number)
            or (self._stage == "idle" and record.stage != "IDL")
            or not self._flags <= set(record.flags)
            or record.launches < self._launches
            # A launch read void, yet the record's launch or result is that launch.
            or (self._stage == "started" and self._voided and _launched(record)
                and record.launches == self._launches)
            # Every line read since the game was known: the record is where the station is.
            or (not gap and not self._lost
                and (RECORD_STAGES[record.stage] != self._stage
                     or record.launches != self._launches))
        )

    def _refuse_record(self, record: Status, raw: bytes, out: SensorOutput) -> None:
        self._counters.refused_lines += 1
        self._counters.contradictions += 1
        out.events.append(WheelRefused("record_contradicts", record.game, _text(raw)))
        # One of the two is wrong and the station cannot tell which: no result
        # of this game, from a line or a record, until a new game starts.
        self._lost = self._disputed = True

    def _catch_up(self, record: Status, out: SensorOutput) -> None:
        """Make good what the lines lost told: the station is then where the record is."""
        game = self._game
        if self._stage in LAUNCHED and (record.launches > self._launches
                                        or record.stage == "GST"):
            # The launch the station read was voided by a line it missed.
            self._void(game, out, tuple(record.flags))
        if self._stage == "started" and _launched(record) and record.launches > self._launches:
            self._stage = "launched"
            out.events.append(WheelState("ball_launched", game, record.rotor_rpm,
                                         record.direction))
        self._launches = record.launches
        self._flags = set(record.flags)
        if record.stage == "NMB" and self._stage == "launched":
            self._stage = "closed"
            out.events.append(WheelState("no_more_bets", game))
        if record.number is not None and self._stage in LAUNCHED:
            self._counters.made_good += 1
            self._result(WheelResult(game, record.number, record.rotor_rpm, record.direction),
                         out)
        if record.stage == "IDL" and self._stage != "idle":
            self._abandon(out)
            self._stage = "idle"
            out.events.append(WheelState("idle", game))
        self._lost = False

    def _abandon(self, out: SensorOutput) -> None:
        if self._stage in IN_PLAY:
            out.events.append(GameAbandoned(self._game))

    def _warning(self, warning: WarningLine, out: SensorOutput) -> None:
        out.events.append(WheelWarning(warning.game, warning.flags))
        if self._stage in IN_PLAY and warning.game == self._game:
            self._flags.update(warning.flags)
        # Whatever game it names: a warning during a launch leaves its number in doubt.
        if self._stage in LAUNCHED:
            self._void(self._game, out, warning.flags)

    def _void(self, game: int, out: SensorOutput, flags: tuple[WarningFlag, ...]) -> None:
        self._stage, self._voided = "started", True
        self._flags.update(flags)
        out.events.append(LaunchVoid(game, flags))


def _launched(record: Status) -> bool:
    """The record's game is at a launch, or past it to a result."""
    return record.stage in ("BLN", "NMB", "WIN") or record.number is not None


def _text(line: bytes) -> str:
    return line.decode("ascii", "backslashreplace")
