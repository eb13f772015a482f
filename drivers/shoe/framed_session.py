"""The station's side of the framed shoe protocol (firmware_proto/PROTOCOL.md)."""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass

import firmware_proto as fp
from drivers.shoe.events import (
    CardDrawn,
    CardUnread,
    ShoeAlarm,
    ShoeEvent,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
    ShoeStateName,
)
from drivers.shoe.session import Mark, SessionOutput, ShoeSession
from firmware_proto.framing import DecoderCounters
from firmware_proto.reliability import Position

FRAMED_BAUDRATE = 115200
HEARTBEAT_TIMEOUT_S = 3.0  # PROTOCOL.md §4.6
RESET_INTERVAL_S = 1.0
IDLE_ABANDON_S = 0.02
KEEPALIVE_INTERVAL_S = fp.messages.KEEPALIVE_INTERVAL_MS / 1000
# Sequenced frames refused (duplicates, gaps) this long with none delivered: the
# two ends disagree on where they are, and only a new handshake can tell.
STALL_TIMEOUT_S = 2.0
# A shoe retransmits within 1 s (PROTOCOL.md §4.2): refusals further apart than
# this are separate mishaps (a lost ACK now and then), not one stall.
REFUSALS_APART_S = 1.0
# A malformed sequenced frame is believed only when repeated identically: noise
# that slips past the CRC does not repeat itself, a firmware bug does.
MALFORMED_REPEATS = 3

SHOE_STATE_NAMES: dict[fp.ShoeCondition, ShoeStateName] = {
    fp.ShoeCondition.INSERTED: "inserted",
    fp.ShoeCondition.REMOVED: "removed",
    fp.ShoeCondition.EMPTY: "empty",
    fp.ShoeCondition.CUT_CARD: "cut_card",
}


@dataclass(slots=True)
class FramedCounters:
    bytes_received: int = 0
    frames: int = 0
    bytes_discarded: int = 0
    bad_check: int = 0
    bad_length: int = 0
    truncated: int = 0
    delivered: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    malformed: int = 0
    acks_sent: int = 0
    naks_sent: int = 0
    handshakes: int = 0
    unexpected_hellos: int = 0
    unanswered_hellos: int = 0
    stalls: int = 0
    taken_back: int = 0


class FramedSession(ShoeSession):
    protocol = f"framed/{fp.PROTOCOL_VERSION}"
    supports_indicator = True

    def __init__(
        self,
        *,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT_S,
        reset_interval: float = RESET_INTERVAL_S,
        idle_abandon: float = IDLE_ABANDON_S,
        replaying: bool = False,
    ) -> None:
        self.heartbeat_timeout = heartbeat_timeout
        self.reset_interval = reset_interval
        self.idle_abandon = idle_abandon
        # A capture holds the shoe's bytes, not the RESETs they answered: its
        # HELLOs are taken as answers whatever challenge they echo.
        self.replaying = replaying
        # The receiver outlives connections: after an unplug the shoe resumes
        # where the station's `expected` says, so nothing repeats or goes missing.
        self._receiver = fp.ReliableReceiver()
        self._decoder = fp.FrameDecoder()
        self._counters = FramedCounters()
        self._online = False
        self._last_frame_at = 0.0
        self._last_byte_at = 0.0
        self._last_reset_at: float | None = None
        self._last_keepalive_at = 0.0
        self._refused_since: float | None = None
        self._refused_last = 0.0
        self._challenge = _new_challenge()
        self._wanted_indicator: fp.Indicator | None = None
        self._version_refused: int | None = None
        self._malformed_key: tuple[int, int, bytes] | None = None
        self._malformed_count = 0
        # Handshakes and restarts so far: a delivery taken back after one of
        # them cannot simply be undone (see `take_back`).
        self._epoch = 0

    @property
    def online(self) -> bool:
        return self._online

    def connected(self, now: float) -> SessionOutput:
        self._fold_decoder_counters()
        self._decoder = fp.FrameDecoder()
        self._version_refused = None
        out = SessionOutput()
        self._send_reset(out, now)
        return out

    def received(self, data: bytes, now: float) -> SessionOutput:
        out = SessionOutput()
        self._counters.bytes_received += len(data)
        self._last_byte_at = now
        for item in self._decoder.feed(data):
            self._handle(item, now, out)
        return out

    def tick(self, now: float) -> SessionOutput:
        out = SessionOutput()
        if self._decoder.pending and now - self._last_byte_at >= self.idle_abandon:
            for item in self._decoder.abandon_partial():
                self._handle(item, now, out)
        if self._online and now - self._last_frame_at >= self.heartbeat_timeout:
            self._online = False
            out.events.append(ShoeOffline(
                f"no frame from the shoe for {self.heartbeat_timeout:g} s"))
        if self._online and now - self._last_keepalive_at >= KEEPALIVE_INTERVAL_S:
            # The shoe's watchdog: silence from here turns its light red (§4.7).
            self._last_keepalive_at = now
            out.tx += fp.encode_message(fp.Keepalive())
        if not self._online and (
            self._last_reset_at is None or now - self._last_reset_at >= self.reset_interval
        ):
            self._send_reset(out, now)
        return out

    def disconnected(self, reason: str) -> SessionOutput:
        out = SessionOutput()
        self._last_reset_at = None
        if self._online:
            self._online = False
            out.events.append(ShoeOffline(reason))
        return out

    def take_back(self, out: SessionOutput, index: int, now: float) -> SessionOutput:
        mark = next((m for m in out.marks if m.event == index), None)
        if mark is None:  # not a message of the shoe's (ShoeOnline, ...): nothing to undo
            return SessionOutput(
                out.events[index + 1:], out.tx,
                [Mark(m.event - index - 1, m.tx, m.before) for m in out.marks if m.event > index])
        before = mark.before
        assert isinstance(before, _Before)
        # The receiver goes back to the refused message, and every later delivery
        # of `out` goes with it: the shoe resends from there, in order, after its
        # timeout. Their acknowledgements, and whatever was answered after them,
        # are never sent: an ACK or NAK from a later position would acknowledge
        # the refused message too.
        self._receiver.rewind(before.position)
        later = [m.event for m in out.marks if m.event >= index]
        self._counters.delivered -= len(later)
        self._counters.taken_back += 1
        rest = SessionOutput(
            [e for i, e in enumerate(out.events) if i > index and i not in later],
            out.tx[:mark.tx])
        if before.epoch != self._epoch:
            # A handshake (or a restart) came after it: its ACK, just cut, spoke
            # from a position now given up. Only a new handshake can agree again.
            self._restart("a message the station did not take came before a handshake: "
                          "handshaking again", now, rest)
        return rest

    def indicator(self, colour: fp.Indicator, now: float) -> SessionOutput:
        self._wanted_indicator = colour
        out = SessionOutput()
        if self._online:
            out.tx += fp.encode_message(fp.SetIndicator(colour))
        return out

    def counters(self) -> dict[str, int]:
        self._fold_decoder_counters()
        return asdict(self._counters)

    def _fold_decoder_counters(self) -> None:
        d = self._decoder.counters
        c = self._counters
        c.frames += d.frames
        c.bytes_discarded += d.bytes_discarded
        c.bad_check += d.bad_check
        c.bad_length += d.bad_length
        c.truncated += d.truncated
        self._decoder.counters = DecoderCounters()

    def _send_reset(self, out: SessionOutput, now: float) -> None:
        self._last_reset_at = now
        out.tx += fp.encode_message(fp.Reset(fp.PROTOCOL_VERSION, self._challenge))

    def _handle(self, item: fp.Frame | fp.FrameFault, now: float, out: SessionOutput) -> None:
        if isinstance(item, fp.FrameFault):
            if self._online:
                self._reply(self._receiver.corruption_seen(), out)
            return
        self._last_frame_at = now
        try:
            message = fp.decode_message(item)
        except fp.MessageError as error:
            self._malformed(item, error, now, out)
            return
        self._malformed_key = None
        match message:
            case fp.Hello():
                self._hello(message, now, out)
            case fp.Heartbeat():
                wanted = self._wanted_indicator
                if self._online and wanted is not None and message.indicator != wanted:
                    out.tx += fp.encode_message(fp.SetIndicator(wanted))
            case fp.Card() | fp.CardUnread() | fp.ShoeStatus() | fp.ShoeError():
                event = _event_of(message)
                if self._accept(item.seq, now, out):
                    out.events.append(event)
            case _:
                # A station command coming back: an echoing line, not a shoe.
                self._counters.malformed += 1

    def _accept(self, seq: int, now: float, out: SessionOutput) -> bool:
        if not self._online:
            return False  # the shoe resends after the handshake
        before = _Before(self._receiver.position(), self._epoch)
        verdict, reply = self._receiver.receive(seq)
        if verdict is fp.Verdict.DELIVER:
            # The caller appends the event next: `out.events` is where it goes.
            out.marks.append(Mark(len(out.events), len(out.tx), before))
        self._reply(reply, out)
        match verdict:
            case fp.Verdict.DELIVER:
                self._counters.delivered += 1
                self._refused_since = None
                return True
            case fp.Verdict.DUPLICATE:
                self._counters.duplicates += 1
            case fp.Verdict.OUT_OF_ORDER:
                self._counters.out_of_order += 1
            case fp.Verdict.NOT_CONNECTED:
                pass
        if self._refused_since is None or now - self._refused_last > REFUSALS_APART_S:
            self._refused_since = now
        self._refused_last = now
        if now - self._refused_since >= STALL_TIMEOUT_S:
            # The shoe ignores every answer: an ACK or NAK outside what it holds
            # is damage to it (§4.2). Online but stuck is the one state a
            # croupier cannot see, so the session ends and starts again.
            self._counters.stalls += 1
            self._restart(f"the link stalled: the shoe's frames from seq {seq} were refused "
                          f"for {STALL_TIMEOUT_S:g} s", now, out)
        return False

    def _restart(self, reason: str, now: float, out: SessionOutput) -> None:
        """End the session and ask for a HELLO that answers our RESET."""
        self._online = False
        self._refused_since = None
        self._epoch += 1
        out.events.append(ShoeOffline(reason))
        self._send_reset(out, now)

    def _hello(self, hello: fp.Hello, now: float, out: SessionOutput) -> None:
        if self._online:
            # Not an answer to a RESET of ours: a shoe that rebooted, or damage
            # or a forgery that passed the CRC. Its numbers are believed only
            # when the shoe says them again in answer to a RESET (§4.5). The
            # session ends: online would be a lie while the two ends disagree.
            self._counters.unexpected_hellos += 1
            self._restart(f"HELLO in mid-session (boot id {hello.boot_id:08x}): "
                          "handshaking again", now, out)
            return
        if hello.protocol_version != fp.PROTOCOL_VERSION:
            # The shoe answers every RESET with the same HELLO: one alarm is enough.
            if self._version_refused != hello.protocol_version:
                self._version_refused = hello.protocol_version
                out.events.append(ShoeAlarm(
                    "protocol_version",
                    f"shoe speaks protocol version {hello.protocol_version}, "
                    f"this station only {fp.PROTOCOL_VERSION}",
                ))
            return
        if hello.challenge != self._challenge and not self.replaying:
            # Not the answer to the RESET outstanding: the HELLO of a power-up
            # (the next RESET is answered), or damage, or a blind forgery.
            self._counters.unanswered_hellos += 1
            return
        self._challenge = _new_challenge()  # answered: a replay of it is not
        self._counters.handshakes += 1
        self._epoch += 1
        self._refused_since = None
        self._last_keepalive_at = now
        result = self._receiver.handshake(hello)
        self._reply(result.reply, out)
        if result.shoe_restarted:
            out.events.append(ShoeAlarm(
                "shoe_restarted", "the shoe restarted; cards it had not sent are lost"))
        if result.lost:
            out.events.append(ShoeAlarm(
                "messages_lost", f"the shoe dropped {result.lost} unacknowledged messages"))
        if result.false_position is not None:
            out.events.append(ShoeAlarm(
                "sequence_resynced", f"the station expected seq {result.false_position}, "
                f"the shoe holds from {hello.next_seq}: the station's position was false"))
        if not self._online:
            self._online = True
            out.events.append(ShoeOnline(
                self.protocol, hello.vendor, hello.model, hello.serial_number,
                hello.firmware_version, hello.boot_id))
        if self._wanted_indicator is not None:
            out.tx += fp.encode_message(fp.SetIndicator(self._wanted_indicator))

    def _malformed(
        self, frame: fp.Frame, error: fp.MessageError, now: float, out: SessionOutput
    ) -> None:
        self._counters.malformed += 1
        if not fp.is_sequenced(frame.type):
            out.events.append(ShoeAlarm("malformed_message", str(error)))
            return
        key = (frame.seq, frame.type, frame.payload)
        self._malformed_count = self._malformed_count + 1 if key == self._malformed_key else 1
        self._malformed_key = key
        if self._malformed_count < MALFORMED_REPEATS:
            self._reply(self._receiver.corruption_seen() if self._online else None, out)
            return
        if self._accept(frame.seq, now, out):
            if frame.type in (fp.MessageType.CARD, fp.MessageType.CARD_UNREAD):
                out.events.append(CardUnread(f"malformed: {error.reason}"))
            else:
                out.events.append(ShoeAlarm("malformed_message", str(error)))

    def _reply(self, reply: fp.Ack | fp.Nak | None, out: SessionOutput) -> None:
        if reply is None:
            return
        if isinstance(reply, fp.Ack):
            self._counters.acks_sent += 1
        else:
            self._counters.naks_sent += 1
        out.tx += fp.encode_message(reply)


@dataclass(frozen=True, slots=True)
class _Before:
    """The session's state before a delivery, to take it back."""
    position: Position
    epoch: int


def _new_challenge() -> int:
    # Never 0: that is what a shoe's HELLO at power-up carries.
    return secrets.randbits(32) or 1


def _event_of(message: fp.Card | fp.CardUnread | fp.ShoeStatus | fp.ShoeError) -> ShoeEvent:
    match message:
        case fp.Card():
            return CardDrawn(message.code, message.burn, message.index, message.shoe_time_ms,
                             message.insertion)
        case fp.CardUnread():
            return CardUnread(message.reason.name.lower(), message.burn, message.index,
                              message.shoe_time_ms, message.insertion)
        case fp.ShoeStatus():
            return ShoeState(SHOE_STATE_NAMES[message.condition], message.shoe_time_ms)
        case fp.ShoeError():
            return ShoeAlarm(f"shoe_error_{message.code}", message.text)
