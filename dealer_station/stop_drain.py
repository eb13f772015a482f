"""A stop that lets the rounds in play finish: the drain before a shutdown.

On the first SIGTERM the station closes every open table after its round (a
`CloseTable` from the station, journaled like any input, so a table with no
round in play is closed at once), tells systemd it is stopping and how many
rounds are still in play, and waits until none is, or until ``drain_seconds``
have passed. Then it stops as before. A round still in play at the limit (or
at a second SIGTERM, which does not wait for this) stays in the journal and is
recovered at the next start, as after any stop; the tables the station closed
open again then (`TableActor.recover`; docs/decisions.md, "Table state and
drain").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection

from dealer_station import sdnotify
from dealer_station.actor import TableActor
from dealer_station.games.events import CloseTable

log = logging.getLogger(__name__)

# Why the station closed its tables: what the state topic and the console say.
DRAIN_REASON = "station stopping"


def rounds_in_play(actors: Collection[TableActor]) -> int:
    return sum(1 for a in actors if a.state is not None and not a.state.round_over)


async def drain(actors: Collection[TableActor], limit: float) -> int:
    """Close every open table after its round and wait, up to ``limit``
    seconds, for the rounds in play to settle; the rounds still in play then."""
    changed = asyncio.Event()
    for actor in actors:
        actor.listeners.subscribe("follow", lambda _: changed.set())
    for actor in actors:
        # A table a pit boss closed, or closes after this round, stays theirs.
        if actor.state is not None and actor.state.opening.state == "open":
            await actor.command("station", CloseTable(reason=DRAIN_REASON))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    told: int | None = None
    while True:
        left = rounds_in_play(actors)
        if left != told:
            # Once per count, not per card: systemd needs no datagram a card.
            sdnotify.draining(left)
            log.info("stopping: %d rounds in play to settle", left)
            told = left
        if left == 0:
            return 0
        if loop.time() >= deadline:
            log.warning(
                "stopping after %.0f s with %d rounds still in play: they stay in the journal"
                " and are recovered at the next start",
                limit,
                left,
            )
            return left
        changed.clear()
        try:
            async with asyncio.timeout_at(deadline):
                await changed.wait()
        except TimeoutError:
            pass
