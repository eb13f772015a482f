"""From the shoe's link to a table's actor, and the indicator back.

The shoe link runs in its own thread and reports typed events; each becomes one
input of the table's queue. The link hands an event over before it acknowledges
it to the shoe, and this bridge returns only once the table has journaled the
event: so the shoe forgets a card only when the journal holds it.

The price of that order: a station that dies between journaling a card and
acknowledging it sees the shoe send that card again after the restart. Each
journaled card carries the shoe's name for it (``<boot id>:<card index>``);
right after a start, a card the journal already holds under that name is
recognised and dropped. The check ends at the first new card or shoe-state
message, because the card index restarts with each shoe inserted.

The indicator follows what the table waits for: green when a card is due, red
otherwise.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging

from dealer_station.actor import Alarm, Command, DeviceChange, Outcome, TableActor
from dealer_station.config import ShoeConfig
from dealer_station.games.cards import CardError, parse_card
from dealer_station.games.events import BurnCard, CardUnread, DealCard
from drivers.shoe import (
    CardDrawn,
    Indicator,
    ShoeAlarm,
    ShoeEvent,
    ShoeLink,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
    open_shoe,
)
from drivers.shoe import CardUnread as ShoeCardUnread

log = logging.getLogger(__name__)

SHOE_STATE_ADVICE = {
    "cut_card": "The cut card is out: finish this round, then shuffle.",
    "empty": "The shoe is empty: shuffle a new shoe.",
    "removed": "The shoe was removed from the scanner: put it back before drawing.",
    "inserted": "The shoe is back in the scanner.",
}

# How long the link's thread waits for the journal before it gives up on an
# event (the loop is stopping); the shoe then sends it again.
JOURNAL_WAIT_S = 10.0


def to_input(event: ShoeEvent, ref: str | None = None) -> Command | DeviceChange | Alarm:
    if isinstance(event, CardDrawn):
        try:
            card = parse_card(event.card)
        except CardError:
            # Journaled as refused (bad_card) with what the shoe really sent.
            kind = "burn" if event.burn else "card"
            return Command("shoe", {"type": kind, "card": event.card}, ref=ref)
        return Command("shoe", BurnCard(card) if event.burn else DealCard(card), ref=ref)
    if isinstance(event, ShoeCardUnread):
        return Command("shoe", CardUnread(), ref=ref)
    if isinstance(event, ShoeOnline):
        detail = " ".join(p for p in (event.vendor, event.model, event.firmware_version) if p)
        return DeviceChange("shoe", True, detail or event.protocol)
    if isinstance(event, ShoeOffline):
        return DeviceChange("shoe", False, event.reason)
    if isinstance(event, ShoeState):
        return Alarm(f"shoe_{event.state}", SHOE_STATE_ADVICE[event.state], "shoe")
    assert isinstance(event, ShoeAlarm)
    return Alarm(f"shoe_{event.code}", event.text, "shoe")


def last_card_ref(actor: TableActor) -> tuple[int, int] | None:
    """The shoe's name for the last card the journal holds: (boot id, index)."""
    body = actor.journal.last_body(actor.id, "shoe")
    ref = None if body is None else body.get("id")
    if not isinstance(ref, str) or ":" not in ref:
        return None
    boot, index = ref.split(":")
    return int(boot), int(index)


class ShoeBridge:
    def __init__(self, actor: TableActor, config: ShoeConfig) -> None:
        self.actor = actor
        self.config = config
        self.link: ShoeLink | None = None
        self.green: bool | None = None
        self.boot_id: int | None = None
        self.journaled: tuple[int, int] | None = None
        self.duplicates_dropped = 0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.journaled = last_card_ref(self.actor)

        def post(event: ShoeEvent) -> None:
            item = self._input(event)
            if item is None:
                return
            if not isinstance(item, Command):
                loop.call_soon_threadsafe(self.actor.submit, item)
                return
            reply: concurrent.futures.Future[Outcome] = concurrent.futures.Future()
            item.reply = reply
            try:
                loop.call_soon_threadsafe(self.actor.submit, item)
                reply.result(timeout=JOURNAL_WAIT_S)
            except concurrent.futures.TimeoutError:
                log.warning("table %s: the journal did not take %s in time", self.actor.id, event)
            except RuntimeError:  # the loop closed, or the table failed on it (logged there)
                log.warning("table %s: %s was not journaled", self.actor.id, event)

        options: dict[str, float | int] = {}
        if self.config.baudrate:
            options["baudrate"] = self.config.baudrate
        if self.config.protocol == "framed":  # the ASCII shoe sends no heartbeat
            options["heartbeat_timeout"] = self.config.heartbeat_timeout
        self.link = open_shoe(self.config.protocol, port=self.config.port, on_event=post, **options)
        self.actor.listeners.append(self._follow_table)
        self.link.start()

    def _input(self, event: ShoeEvent) -> Command | DeviceChange | Alarm | None:
        """The table's input for ``event``, or None for a card already journaled."""
        if isinstance(event, ShoeOnline):
            self.boot_id = event.boot_id
        if isinstance(event, ShoeState):
            self.journaled = None
        if not isinstance(event, CardDrawn | ShoeCardUnread) or event.shoe_index is None:
            return to_input(event)
        ref = f"{self.boot_id}:{event.shoe_index}" if self.boot_id is not None else None
        if self.journaled is not None and self.boot_id is not None:
            boot, index = self.journaled
            if boot == self.boot_id and event.shoe_index <= index:
                self.duplicates_dropped += 1
                log.warning("table %s: card %s is already journaled", self.actor.id, ref)
                return None
            self.journaled = None
        return to_input(event, ref)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()

    def _follow_table(self, actor: TableActor) -> None:
        if self.link is None or not self.link.supports_indicator or actor.state is None:
            return
        green = actor.state.next_step().kind == "card"
        if green != self.green:
            self.green = green
            self.link.set_indicator(Indicator.GREEN if green else Indicator.RED)
