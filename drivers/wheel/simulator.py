"""An automated roulette wheel's sensor on a real pseudo-terminal, with faults.

It plays the wheel controller: a status line every `status_interval`, and the
lines of each game (`spin`, or step by step: `start_game`, `launch`,
`no_more_bets`, `result`, `idle`; `warn`). The test plays the saboteur: line
noise (`faults`, `noise`), a bad checksum, a result without a game start, a
repeated line, a result for an old game, a misfire, a sensor fault, a result
that carries flags, game lines lost whole (`lose_next`), `unplug` / `replug`,
`silence`, a power cut (`restart`).

Every line carries the wheel's line counter (PROTOCOL.md §2): each game line the
wheel sends counts one, heard or not; a status line repeats the last count and
carries the record of the game (§3), sent every `status_interval` and
`RECORD_REPEATS` times right after each result line.

`sent` is the ground truth: the events the station should report for the lines
written so far (PROTOCOL.md §5 says which), as long as `faults` damaged none of
them. When game lines go unheard (`lose_next`, a damaged result, silent or
unplugged), `sent` has the `LinesLost` the station reports at the next line it
hears, the refusal of a result line until the station is in step again, the
game the station abandons, and what the next record heard makes good (§5, "What
a record makes good", applied to the station's view `known`: what the lines it
heard told it). A line heard after a loss that the station reads differently for
the lines it missed (a launch after a missed game start) follows the wheel's own
view, so a test that loses such lines compares the rest only. `results` is
every (game, number) the wheel really gave: whatever the line does, the station
may report no other.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from pathlib import Path

from drivers.line_faults import LineFaults
from drivers.pty_simulator import PtySimulator
from drivers.wheel.events import (
    Direction,
    GameAbandoned,
    LaunchVoid,
    LinesLost,
    WarningFlag,
    WheelEvent,
    WheelRefused,
    WheelRejected,
    WheelRestarted,
    WheelResult,
    WheelState,
    WheelWarning,
)
from drivers.wheel.sentences import (
    GAME_MAX,
    RECORD_REPEATS,
    BallLaunched,
    GameStart,
    Idle,
    NoMoreBets,
    Sentence,
    Stage,
    Status,
    Warning,
    WinningNumber,
    encode,
    flags_of,
    flags_value,
    next_seq,
)

STATUS_INTERVAL_S = 1.0


class WheelSensorSimulator(PtySimulator):
    def __init__(
        self,
        *,
        seed: int | None = None,
        link_path: Path | None = None,
        first_game: int = 1,
        first_seq: int = 0,
        status_interval: float = STATUS_INTERVAL_S,
        faults: LineFaults | None = None,
    ) -> None:
        super().__init__(link_path, "wheel-sim-", device="dealer-wheel")
        self.faults = faults or LineFaults()
        self.status_interval = status_interval
        self.sent: list[WheelEvent] = []
        self.results: list[tuple[int, int]] = []
        self.line_log = bytearray()
        self.game = first_game - 1  # the last game started; 0 before the first
        self.stage: Stage = "IDL"
        self.rotor_rpm = 0.0
        self.direction: Direction = "clockwise"
        # The wheel's line counter: the last game line sent (0 at power-up; a
        # wheel that has counted for a while starts at `first_seq`).
        self.seq = first_seq
        self._heard_seq = first_seq  # the counter of the last line the station heard
        self._unheard = 0  # game lines sent since then that the station never heard
        self._to_lose = 0  # game lines still to be lost whole (`lose_next`)
        self._doubted = False  # the station heard of lost lines no record made good
        # The wheel's record of its game (PROTOCOL.md §3): its start line's
        # counter (0: none since power-up), launches, warnings, result.
        self.start = 0
        self.launches = 0
        self.game_flags: set[WarningFlag] = set()
        self.number: int | None = None
        # What the station knows of the game, by the lines it heard, as a record
        # (None: nothing since it listened or since the wheel restarted).
        self.known: Status | None = None
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._silent = False
        self._last_line = b""
        self._stopping = threading.Event()
        self._pty.open()
        self._thread = threading.Thread(target=self._run, name="wheel simulator", daemon=True)
        self._thread.start()

    # -- the wheel's games ------------------------------------------------------

    def spin(self, number: int | None = None) -> int:
        """A whole game: start, launch, no more bets, the result, idle."""
        self.start_game()
        self.launch()
        self.no_more_bets()
        won = self.result(number)
        self.idle()
        return won

    def start_game(self) -> int:
        with self._lock:
            self.game = self.game % GAME_MAX + 1
            self.stage = "GST"
            self.direction = "counterclockwise" if self.direction == "clockwise" else "clockwise"
            self.start, self.launches, self.game_flags = next_seq(self.seq), 0, set()
            self.number, self.rotor_rpm = None, 0.0
            if self._say(GameStart(self.game), *self._abandoned(),
                         WheelState("game_start", self.game)):
                self._doubted = False
            return self.game

    def launch(self, rotor_rpm: float | None = None) -> None:
        with self._lock:
            self.rotor_rpm = rotor_rpm if rotor_rpm is not None else self._rpm()
            self.stage = "BLN"
            self.launches += 1
            self._say(BallLaunched(self.game, self.rotor_rpm, self.direction),
                      WheelState("ball_launched", self.game, self.rotor_rpm, self.direction))

    def no_more_bets(self) -> None:
        with self._lock:
            self.stage = "NMB"
            self._say(NoMoreBets(self.game), WheelState("no_more_bets", self.game))

    def result(self, number: int | None = None) -> int:
        """The result line, then the record `RECORD_REPEATS` times (PROTOCOL.md §3)."""
        with self._lock:
            won = self._won(number)
            sentence = WinningNumber(self.game, won, self.rotor_rpm, self.direction)
            if self._doubted or self._unheard:
                line = self._next_line(sentence)
                self._say(sentence, WheelRefused("lines_lost", self.game, _text(line)))
            else:
                self._say(sentence, WheelResult(self.game, won, self.rotor_rpm, self.direction))
            self._repeat_record()
            return won

    def idle(self) -> None:
        with self._lock:
            self.stage = "IDL"
            self._say(Idle(self.game), *self._abandoned(), WheelState("idle", self.game))

    def warn(self, *flags: WarningFlag) -> None:
        """A warning for the game in play (0 when idle); during a launch it
        voids the launch: the wheel launches again with `launch`."""
        flags = flags_of(flags_value(flags))  # in bit order, as the line carries them
        with self._lock:
            game = self.game if self.stage in ("GST", "BLN", "NMB") else 0
            if game:
                self.game_flags.update(flags)
            truth: list[WheelEvent] = [WheelWarning(game, flags)]
            if self.stage in ("BLN", "NMB"):
                self.stage = "GST"
                truth.append(LaunchVoid(self.game, flags))
            self._say(Warning(game, flags), *truth)

    def misfire(self) -> None:
        self.warn("misfire")

    def sensor_fault(self) -> None:
        self.warn("sensor_fault")

    # -- the saboteur -----------------------------------------------------------

    def flagged_result(self, number: int, *flags: WarningFlag) -> None:
        """A result line carrying warnings: not a result, the launch is void."""
        flags = flags_of(flags_value(flags))
        with self._lock:
            sentence = WinningNumber(self.game, number, self.rotor_rpm, self.direction, flags)
            line = self._next_line(sentence)
            self.stage = "GST"
            self.game_flags.update(flags)
            self._say(sentence, WheelRefused("flagged_result", self.game, _text(line)),
                      LaunchVoid(self.game, flags))

    def bad_checksum_result(self, number: int) -> None:
        """The wheel's result, its line damaged on the way, its checksum with
        every bit wrong: rejected, and the wheel counted it; the record after it
        shows the line lost and makes the result good."""
        with self._lock:
            won = self._won(number)
            line = bytearray(self._next_line(WinningNumber(self.game, won, self.rotor_rpm,
                                                           self.direction)))
            self.seq = next_seq(self.seq)
            # Not off by one: a single flipped bit of a hex digit could then put
            # the right checksum back, and the fuzz tests damage captures.
            digits = line[-6:-2].decode()
            line[-6:-2] = f"{int(digits, 16) ^ 0xFFFF:04X}".encode()
            self._write(bytes(line), WheelRejected("bad_checksum", _text(bytes(line))))
            self._unheard += 1
            self._repeat_record()

    def result_without_game_start(self, number: int) -> None:
        """A checked result for the next game, which never started."""
        with self._lock:
            game = self.game % GAME_MAX + 1
            self._say_refused(WinningNumber(game, number, self.rotor_rpm, self.direction))

    def old_game_result(self, number: int) -> None:
        """A checked result for the game before the last one started."""
        with self._lock:
            game = (self.game - 2) % GAME_MAX + 1
            self._say_refused(WinningNumber(game, number, self.rotor_rpm, self.direction))

    def lose_next(self, count: int = 1) -> None:
        """The next `count` game lines are lost whole on the wire: the wheel
        sends and counts them, the station never hears them."""
        with self._lock:
            self._to_lose += count

    def restart(self) -> None:
        """A power cut: the wheel comes back idle, its line counter at 0, and
        says so at once with a status line."""
        with self._lock:
            truth = [WheelRestarted(self._heard_seq), *self._abandoned()]
            self.seq, self._unheard, self._to_lose = 0, 0, 0
            self.stage, self.rotor_rpm, self.known, self._doubted = "IDL", 0.0, None, False
            self.start, self.launches, self.game_flags, self.number = 0, 0, set(), None
            self._write_status(*truth)

    def repeat_last(self) -> None:
        """The last game line again, byte for byte: dropped as a duplicate."""
        with self._lock:
            self._write(self._last_line)

    def inject(self, data: bytes, *truth: WheelEvent) -> None:
        """Bytes no wheel sent (noise, a damaged line), and what the station
        should report for them (PROTOCOL.md §6): nothing for noise between
        lines, a `WheelRejected` for each line they start."""
        with self._lock:
            self._write(data, *truth)

    def cut_line(self) -> None:
        """A status line cut short (its end lost): the next "$" ends it, rejected."""
        with self._lock:
            line = self._status()
            half = line[:len(line) // 2]
            self._write(half, WheelRejected("truncated", half.decode("ascii")))

    def silence(self, silent: bool = True) -> None:
        """A hung controller: no status, nothing, until un-silenced."""
        with self._lock:
            self._silent = silent

    def unplug(self) -> None:
        with self._lock:
            self._pty.close()

    def replug(self) -> None:
        with self._lock:
            self._pty.open()

    def close(self) -> None:
        self._stopping.set()
        self._thread.join()
        with self._lock:
            self._pty.close()
        super().close()

    # -- the controller ---------------------------------------------------------

    def _rpm(self) -> float:
        return round(self._rng.uniform(18.0, 32.0), 1)

    def _won(self, number: int | None) -> int:
        won = self._rng.randrange(37) if number is None else number
        self.stage, self.number = "WIN", won
        self.results.append((self.game, won))
        return won

    def record(self) -> Status:
        """The wheel's record of its game (PROTOCOL.md §3)."""
        if not self.start:
            return Status("IDL", 0, self.rotor_rpm, self.direction)
        return Status(self.stage, self.game, self.rotor_rpm, self.direction, self.start,
                      self.launches, flags_of(flags_value(tuple(self.game_flags))), self.number)

    def _status(self) -> bytes:
        return encode(self.record(), self.seq)

    def _write_status(self, *truth: WheelEvent) -> None:
        self._write(self._status(), *truth, seq=self.seq, record=True)

    def _repeat_record(self) -> None:
        for _ in range(RECORD_REPEATS):
            self._write_status()

    def _next_line(self, sentence: Sentence) -> bytes:
        """The line `sentence` is when the wheel sends it next."""
        return encode(sentence, next_seq(self.seq))

    def _say(self, sentence: Sentence, *truth: WheelEvent) -> bool:
        """A game line, counted; whether the station heard it."""
        line = self._next_line(sentence)
        self.seq = next_seq(self.seq)
        self._last_line = line
        if self._to_lose:
            self._to_lose -= 1
            heard = False
        else:
            heard = self._write(line, *truth, seq=self.seq)
        if heard:
            self._learn(sentence)
        else:
            self._unheard += 1
        return heard

    def _say_refused(self, sentence: WinningNumber) -> None:
        """A checked result line for a game not in play: refused."""
        line = self._next_line(sentence)
        self._say(sentence, WheelRefused("wrong_game" if self._in_play() else "no_game_in_play",
                                         sentence.game, _text(line)))

    def _in_play(self) -> bool:
        return self.known is not None and self.known.stage in ("GST", "BLN", "NMB")

    def _abandoned(self) -> list[WheelEvent]:
        """What the station says of its game in play when the wheel ends it."""
        return [GameAbandoned(self.known.game)] if self.known and self._in_play() else []

    def _learn(self, sentence: Sentence) -> None:
        """The station heard `sentence`: what it then knows (PROTOCOL.md §5)."""
        if not self._doubted or isinstance(sentence, GameStart):
            self.known = self.record() if self.start else None
            return
        known = self.known
        if known is None:
            return
        launched = known.stage in ("BLN", "NMB")
        match sentence:
            case BallLaunched(game) if game == known.game and known.stage == "GST":
                known = replace(known, stage="BLN", launches=known.launches + 1)
            case NoMoreBets(game) if game == known.game and known.stage == "BLN":
                known = replace(known, stage="NMB")
            case Warning(game, flags) | WinningNumber(game, flags=flags) if flags and (
                    launched or (game == known.game and known.stage == "GST")):
                flags = flags_of(flags_value(known.flags + flags))
                known = replace(known, stage="GST" if launched else known.stage, flags=flags)
            case Idle(game) if game in (0, known.game):
                known = replace(known, stage="IDL")
            case Idle():
                known = self.record()  # a game whose start it missed: a record completes it
        self.known = known

    def _made_good(self, record: Status) -> list[WheelEvent]:
        """What the station reports when a record reaches it after lines it
        missed (PROTOCOL.md §5, "What a record makes good"), from what it knew."""
        known, truth = self.known, list[WheelEvent]()
        if record.game == 0:
            return truth
        if known is None or known.start != record.start:
            truth += [*self._abandoned(), WheelState("game_start", record.game)]
            known = replace(record, stage="GST", launches=0, flags=(), number=None)
        game = record.game
        if known.stage in ("BLN", "NMB") and (record.launches > known.launches
                                              or record.stage == "GST"):
            truth.append(LaunchVoid(game, record.flags))
            known = replace(known, stage="GST")
        launched = record.stage in ("BLN", "NMB", "WIN") or record.number is not None
        if known.stage == "GST" and launched and record.launches > known.launches:
            truth.append(WheelState("ball_launched", game, record.rotor_rpm, record.direction))
            known = replace(known, stage="BLN")
        if record.stage == "NMB" and known.stage == "BLN":
            truth.append(WheelState("no_more_bets", game))
            known = replace(known, stage="NMB")
        if record.number is not None and known.stage in ("BLN", "NMB"):
            truth.append(WheelResult(game, record.number, record.rotor_rpm, record.direction))
            known = replace(known, stage="WIN")
        if record.stage == "IDL" and known.stage != "IDL":
            if known.stage in ("GST", "BLN", "NMB"):
                truth.append(GameAbandoned(game))
            truth.append(WheelState("idle", game))
        return truth

    def _write(self, data: bytes, *truth: WheelEvent, seq: int | None = None,
               record: bool = False) -> bool:
        """Bytes on the wire; their truth counts only if they went out (silent
        or unplugged, the station never hears them). `seq`: the counter of the
        wheel line they are, which, heard after unheard game lines, tells the
        station how many; `record`: they are the wheel's record, which makes
        good what the station missed."""
        if self._silent or not self._pty.is_open:
            return False
        damaged = self.faults.apply(data)
        written = self._pty.write(damaged)
        self.line_log += damaged[:written]
        if written != len(damaged):
            return False
        if seq is not None:
            self._heard_seq = seq
            if self._unheard:
                self.sent.append(LinesLost(self._unheard))
                self._unheard, self._doubted = 0, True
        self.sent.extend(truth)
        if record and self._doubted:
            self.sent += self._made_good(self.record())
            self.known, self._doubted = self.record(), False
        return True

    def _run(self) -> None:
        while not self._stopping.wait(self.status_interval):
            with self._lock:
                if self._silent or not self._pty.is_open:
                    continue
                self._write_status()


def _text(line: bytes) -> str:
    return line.rstrip(b"\r\n").decode("ascii")



