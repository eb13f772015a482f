"""A journal's ids that name no shoe card never cost a real one (issue 14, step 5).

The shoe bridge now reads each journaled id back into a card's three numbers.
What a journal may hold besides a framed shoe's names: a hand-edited or foreign
id, an id that is a JSON number, a run of digits no 32-bit field holds (an int()
of it would raise and stop the shoe's start), and another device's record named
like a shoe card. Here such a journal is built by hand, a real station starts on
it with a framed shoe on a real PTY and a real mosquitto, and plays a round:
every card the shoe draws is journaled, none is taken for one already held.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from dealer_station.journal import Journal, Record
from drivers.shoe.events import CardDrawn
from drivers.shoe.simulator import FramedShoeSimulator

pytestmark = pytest.mark.adversarial

AT = "2026-11-30T07:36:25.299Z"
BOOT = 4242
TABLE = "bac"

# The names the shoe will give the round's first cards, written where they
# name no card of this shoe, or no card at all.
FOREIGN: list[tuple[str, dict[str, Any]]] = [
    ("shoe", {"type": "card", "card": "2S", "id": "9" * 5000 + ":1:1"}),
    ("shoe", {"type": "card", "card": "3S", "id": f"{BOOT}:1:1:extra"}),
    ("shoe", {"type": "card", "card": "4S", "id": f"{BOOT}:1"}),
    ("shoe", {"type": "card", "card": "5S", "id": 12}),
    ("shoe", {"type": "card", "card": "6S", "id": f"{BOOT}: 1:2"}),
    ("camera", {"type": "wheel_result", "number": 3, "id": f"{BOOT}:1:3"}),
    ("api", {"type": "card", "card": "7S", "id": f"{BOOT}:1:4"}),
]


def test_ids_that_name_no_card_of_the_shoe_drop_none_of_its_cards(
    broker: Broker, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for source, body in FOREIGN:
        # Refused records, as a table that was not dealing would journal them:
        # only their ids matter to the bridge, the replay passes over them.
        journal.append(Record(TABLE, AT, source, "event", {"v": 1, **body}, "rejected",
                              "no_round", "no round in play"), [])
    journal.close()

    with FramedShoeSimulator(decks=8, seed=5, boot_id=BOOT, link_path=tmp_path / "shoe") as sim:
        config = config_for(
            f'[[tables]]\nid = "{TABLE}"\ngame = "baccarat"\n'
            f'shoe = {{ port = "{sim.port}" }}\ntimers = {{ betting_seconds = 60 }}\n',
            path,
            broker.port,
        )
        with StationThread(config) as st:
            station = st.station
            assert station is not None
            st.wait_until(lambda: TABLE in station.shoes
                          and st.call(lambda: st.actor(TABLE).devices.get("shoe", ("",))[0])
                          == "online")
            bridge = station.shoes[TABLE]
            assert st.command(TABLE, {"type": "round_open", "round": "r1"}).accepted
            assert st.command(TABLE, {"type": "bets_closed"}).accepted
            while st.next_step(TABLE)[0] == "card":
                _draw(st, sim)
            assert st.next_step(TABLE)[0] == "settled"
            assert st.error is None
            dropped = bridge.duplicates_dropped
            cards = st.call(lambda: [
                r for r in st.actor(TABLE).journal.records(TABLE, kind="event")
                if r.source == "shoe" and r.status == "accepted"
            ])

    drawn = [e for e in sim.sent if isinstance(e, CardDrawn)]
    assert dropped == 0
    assert [r.body["id"] for r in cards] == [f"{BOOT}:1:{e.shoe_index}" for e in drawn]
    assert [r.body["card"] for r in cards] == [e.card for e in drawn]


def _draw(st: StationThread, sim: FramedShoeSimulator) -> None:
    before = _journaled(st)
    sim.draw()
    st.wait_until(lambda: _journaled(st) > before)


def _journaled(st: StationThread) -> int:
    count: int = st.call(lambda: sum(
        1 for r in st.actor(TABLE).journal.records(TABLE, kind="event")
        if r.source == "shoe" and r.status == "accepted"
    ))
    return count
