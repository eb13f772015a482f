"""A journal written before the identities were typed (issue 14, step 5) is read
as it always was.

Its records are built here by hand from the format docs/journal.md and
docs/events.md give (no code of the old station runs): a camera result whose
confidence is inside its id (``spin:3:confidence:0.912``), shoe cards named
``<boot id>:<insertion>:<card index>``. The journal is the truth and is never
rewritten: such records replay through today's fold, recall shows them as they
were written, and a shoe that sends one of those cards again after the restart
is recognised by the bridge's remembered cards, which are typed now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.broker import Broker
from support.station import StationThread, config_for

from dealer_station.actor import TableActor
from dealer_station.api.history import round_history
from dealer_station.config import TableConfig
from dealer_station.games.roulette import RouletteRound
from dealer_station.journal import REFUSED_ON_REPLAY, Journal, OutMessage, Record
from dealer_station.payloads import Topics
from drivers.shoe.events import CardDrawn
from drivers.shoe.simulator import FramedShoeSimulator

AT = "2026-11-30T07:36:25.299Z"
BOOT = 305419896


def _append(
    journal: Journal, table: str, source: str, body: dict[str, Any], *published: dict[str, Any]
) -> None:
    """One accepted input as the journal holds it, with the round events it
    published (docs/mqtt.md's RoundEvent, numbered from the outbox's last)."""
    first = journal.last_msg_seq(table) + 1
    messages = [
        OutMessage(table, seq, f"dealer/test/{table}/round/event", json.dumps(
            {"v": 1, "table": table, "at": AT, "id": f"test/{table}/{seq}", "seq": seq,
             "round": "r1", "source": source, **event}, separators=(",", ":")))
        for seq, event in enumerate(published, first)
    ]
    journal.append(Record(table, AT, source, "event", body, "accepted"), messages)


ROULETTE_INPUTS = [
    ("station", {"v": 1, "type": "table", "game": "roulette", "table": "rou"}),
    ("api", {"v": 1, "type": "round_open", "round": "r1"}),
    ("api", {"v": 1, "type": "bets_closed"}),
    ("camera", {"v": 1, "type": "wheel_result", "number": 17, "id": "spin:3:confidence:0.912"}),
]


def test_a_camera_result_named_the_old_way_replays_and_recalls_as_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for source, body in ROULETTE_INPUTS:
        events: list[dict[str, Any]] = []
        if body["type"] == "round_open":
            events = [{"type": "round_opened", "data": {"round": "r1"}}]
        elif body["type"] == "wheel_result":
            events = [{"type": "round_settled", "data": {"number": 17, "payouts": []}}]
        _append(journal, "rou", source, body, *events)
    journal.close()

    config = TableConfig(id="rou", game="roulette", recovery="resume")
    actor = TableActor(config, "test", Journal(path), Topics("dealer", "test", "rou"))
    actor.recover()
    # Replayed: the camera's number settled the round; nothing was set aside.
    assert list(actor.journal.records("rou", kind=REFUSED_ON_REPLAY)) == []
    assert actor.state is not None and actor.state.round_over
    assert isinstance(actor.state.round, RouletteRound) and actor.state.round.number == 17
    actor.journal.close()

    # Recalled as written: the old id stays whole, no field is made up for it.
    history = round_history(path, "rou", "r1")
    assert history is not None and history.status == "settled"
    assert [(i.source, i.body) for i in history.inputs] == ROULETTE_INPUTS[1:]


def test_a_card_journaled_the_old_way_and_sent_again_is_dropped_once(
    broker: Broker, tmp_path: Path
) -> None:
    """The station journaled two cards and stopped before the shoe heard them
    acknowledged; the next station, on that journal, hears them again."""
    path = tmp_path / "journal.sqlite3"
    # No retransmission on a timer: the shoe sends what it holds at the handshake.
    with FramedShoeSimulator(decks=8, seed=21, boot_id=BOOT, link_path=tmp_path / "shoe",
                             retransmit_after=30.0) as sim:
        sim.draw(2)  # unacknowledged: no station listens yet
        held = [e for e in sim.sent if isinstance(e, CardDrawn)]
        journal = Journal(path)
        for source, body in [
            ("station", {"v": 1, "type": "table", "game": "baccarat", "table": "bac"}),
            ("api", {"v": 1, "type": "round_open", "round": "r1"}),
            ("api", {"v": 1, "type": "bets_closed"}),
        ] + [
            ("shoe", {"v": 1, "type": "card", "card": e.card,
                      "id": f"{BOOT}:{e.insertion}:{e.shoe_index}"})
            for e in held
        ]:
            _append(journal, "bac", source, body)
        journal.close()

        config = config_for(
            '[[tables]]\nid = "bac"\ngame = "baccarat"\nrecovery = "resume"\n'
            f'shoe = {{ port = "{sim.port}" }}\ntimers = {{ betting_seconds = 60 }}\n',
            path,
            broker.port,
        )
        with StationThread(config) as st:
            station = st.station
            assert station is not None
            st.wait_until(lambda: "bac" in station.shoes)
            bridge = station.shoes["bac"]
            st.wait_until(lambda: bridge.duplicates_dropped == 2)
            assert sim.wait_until_acknowledged(10)
            while st.next_step("bac")[0] == "card":
                _draw(st, sim)
            assert st.next_step("bac")[0] == "settled"
            journaled = _shoe_cards(st)
            dropped = bridge.duplicates_dropped

    drawn = [e for e in sim.sent if isinstance(e, CardDrawn)]
    # The two held cards once each (as written by hand), then the round's others
    # under names spelled the same way, by today's code; every card taken.
    assert [r.body["id"] for r in journaled] == [
        f"{BOOT}:{e.insertion}:{e.shoe_index}" for e in drawn
    ]
    assert [r.body["card"] for r in journaled] == [e.card for e in drawn]
    assert all(r.status == "accepted" for r in journaled)
    assert dropped == 2


def _shoe_cards(st: StationThread) -> list[Record]:
    def read() -> list[Record]:
        journal = st.actor("bac").journal
        return [r for r in journal.records("bac", kind="event") if r.source == "shoe"]

    cards: list[Record] = st.call(read)
    return cards


def _draw(st: StationThread, sim: FramedShoeSimulator) -> None:
    before = len(_shoe_cards(st))
    sim.draw()
    st.wait_until(lambda: len(_shoe_cards(st)) > before)
