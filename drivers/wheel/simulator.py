"""An automated roulette wheel's sensor on a real pseudo-terminal, with faults.

It plays the wheel controller: a status line every `status_interval`, and the
lines of each game (`spin`, or step by step: `start_game`, `launch`,
`no_more_bets`, `result`, `idle`; `warn`). The test plays the saboteur: line
noise (`faults`, `noise`), a bad checksum, a result without a game start, a
repeated line, a result for an old game, a misfire, a sensor fault, a result
that carries flags, `unplug` / `replug`, `silence`.

`sent` is the ground truth: the events the station should report for the lines
written so far (PROTOCOL.md §5 says which), as long as `faults` damaged none of
them. `results` is every (game, number) the wheel really gave: whatever the line
does, the station may report no other.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

from drivers.line_faults import LineFaults
from drivers.pty_simulator import PtySimulator
from drivers.wheel.events import (
    Direction,
    GameAbandoned,
    LaunchVoid,
    WarningFlag,
    WheelEvent,
    WheelRefused,
    WheelRejected,
    WheelResult,
    WheelState,
    WheelWarning,
)
from drivers.wheel.sentences import (
    GAME_MAX,
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
)

STATUS_INTERVAL_S = 1.0


class WheelSensorSimulator(PtySimulator):
    def __init__(
        self,
        *,
        seed: int | None = None,
        link_path: Path | None = None,
        first_game: int = 1,
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
            if self.stage in ("GST", "BLN", "NMB"):
                self.sent.append(GameAbandoned(self.game))
            self.game = self.game % GAME_MAX + 1
            self.stage = "GST"
            self.direction = "counterclockwise" if self.direction == "clockwise" else "clockwise"
            self._say(GameStart(self.game), WheelState("game_start", self.game))
            return self.game

    def launch(self, rotor_rpm: float | None = None) -> None:
        with self._lock:
            self.rotor_rpm = rotor_rpm if rotor_rpm is not None else self._rpm()
            self.stage = "BLN"
            self._say(BallLaunched(self.game, self.rotor_rpm, self.direction),
                      WheelState("ball_launched", self.game, self.rotor_rpm, self.direction))

    def no_more_bets(self) -> None:
        with self._lock:
            self.stage = "NMB"
            self._say(NoMoreBets(self.game), WheelState("no_more_bets", self.game))

    def result(self, number: int | None = None) -> int:
        with self._lock:
            won = self._rng.randrange(37) if number is None else number
            self.stage = "WIN"
            self.results.append((self.game, won))
            self._say(WinningNumber(self.game, won, self.rotor_rpm, self.direction),
                      WheelResult(self.game, won, self.rotor_rpm, self.direction))
            return won

    def idle(self) -> None:
        with self._lock:
            if self.stage in ("GST", "BLN", "NMB"):
                self.sent.append(GameAbandoned(self.game))
            self.stage = "IDL"
            self._say(Idle(self.game), WheelState("idle", self.game))

    def warn(self, *flags: WarningFlag) -> None:
        """A warning for the game in play (0 when idle); during a launch it
        voids the launch: the wheel launches again with `launch`."""
        flags = flags_of(flags_value(flags))  # in bit order, as the line carries them
        with self._lock:
            game = self.game if self.stage in ("GST", "BLN", "NMB") else 0
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
            line = encode(WinningNumber(self.game, number, self.rotor_rpm, self.direction,
                                        flags))
            self.stage = "GST"
            self._write(line, WheelRefused("flagged_result", self.game, _text(line)),
                        LaunchVoid(self.game, flags))

    def bad_checksum_result(self, number: int) -> None:
        """A result line whose checksum has every bit wrong: rejected, no result."""
        with self._lock:
            line = bytearray(encode(WinningNumber(self.game, number, self.rotor_rpm,
                                                  self.direction)))
            # Not off by one: a single flipped bit of a hex digit could then put
            # the right checksum back, and the fuzz tests damage captures.
            digits = line[-6:-2].decode()
            line[-6:-2] = f"{int(digits, 16) ^ 0xFFFF:04X}".encode()
            self._write(bytes(line), WheelRejected("bad_checksum", _text(bytes(line))))

    def result_without_game_start(self, number: int) -> None:
        """A checked result for the next game, which never started."""
        with self._lock:
            game = self.game % GAME_MAX + 1
            line = encode(WinningNumber(game, number, self.rotor_rpm, self.direction))
            in_play = self.stage in ("GST", "BLN", "NMB")
            self._write(line, WheelRefused("wrong_game" if in_play else "no_game_in_play",
                                           game, _text(line)))

    def old_game_result(self, number: int) -> None:
        """A checked result for the game before the last one started."""
        with self._lock:
            game = (self.game - 2) % GAME_MAX + 1
            line = encode(WinningNumber(game, number, self.rotor_rpm, self.direction))
            in_play = self.stage in ("GST", "BLN", "NMB")
            self._write(line, WheelRefused("wrong_game" if in_play else "no_game_in_play",
                                           game, _text(line)))

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
            line = encode(Status(self.stage, self.game, self.rotor_rpm, self.direction))
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

    def _say(self, sentence: Sentence, *truth: WheelEvent) -> None:
        line = encode(sentence)
        self._last_line = line
        self._write(line, *truth)

    def _write(self, data: bytes, *truth: WheelEvent) -> None:
        """A line on the wire; its truth counts only if it went out (silent or
        unplugged, the station never hears it)."""
        if self._silent or not self._pty.is_open:
            return
        damaged = self.faults.apply(data)
        written = self._pty.write(damaged)
        self.line_log += damaged[:written]
        if written == len(damaged):
            self.sent.extend(truth)

    def _run(self) -> None:
        while not self._stopping.wait(self.status_interval):
            with self._lock:
                if self._silent or not self._pty.is_open:
                    continue
                self._write(encode(Status(self.stage, self.game, self.rotor_rpm,
                                          self.direction)))


def _text(line: bytes) -> str:
    return line.rstrip(b"\r\n").decode("ascii")
