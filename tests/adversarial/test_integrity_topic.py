"""The integrity topic and the table's alarm go to the studio, where players'
software may read them: they must not name a card (docs/mqtt.md, principle 6).
A shoe that does not add up names its cards in the monitor's words, and one of
them may still lie face down (a burnt card under the default ``hidden``, the
dealer's hole card when a shoe is checked mid-round); the pit boss's page,
behind a pit boss's token, has the names."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.broker import Broker, Subscriber
from support.station import StationThread, config_for

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.integrity.observations import CardOut, ShoeEnd, TableChosen
from dealer_station.integrity_watch import IntegrityWatch
from dealer_station.journal import Journal
from dealer_station.payloads import Integrity, Topics

pytestmark = pytest.mark.adversarial

TABLE = "bac"
# A card no baccarat shoe holds a ninth of (8 decks, docs/rules.md), burnt face down.
SECRET = "7D"


def test_a_shoe_that_does_not_add_up_is_an_alarm_that_names_no_card(tmp_path: Path) -> None:
    actor = TableActor(
        TableConfig(id=TABLE, game="baccarat"),
        "test",
        Journal(tmp_path / "j.sqlite3"),
        Topics("p", "test", TABLE),
    )
    watch = IntegrityWatch(actor, tmp_path / "j.sqlite3", 0.01, 500)
    monitor = watch.monitor
    monitor.feed(TableChosen(TABLE, "baccarat", None, 8))
    for card in ("AS", "2C") * 10 + (SECRET,) * 8:
        monitor.feed(CardOut(TABLE, card))
    monitor.feed(CardOut(TABLE, SECRET, burned=True))
    monitor.feed(ShoeEnd(TABLE, "shuffle"))
    watch.look("shoe")

    report = watch.report
    assert report is not None
    [alarm] = report.alarms
    assert alarm.finding.test == "shoe.composition"
    assert SECRET in alarm.words(0.01)  # the pit boss's words name it
    raised = actor.queue.get_nowait()
    assert raised.code == "integrity_shoe_composition"
    assert SECRET not in raised.message
    assert "card(s) wrong" in raised.message
    payload = watch.payload()
    assert payload is not None
    assert payload.alarms == 1
    assert SECRET not in payload.model_dump_json()
    actor.journal.close()


def test_a_broker_that_lost_its_retained_messages_gets_the_report_again(
    tmp_path: Path, broker: Broker
) -> None:
    """mosquitto restarted without persistence has forgotten every retained
    message: the station's own topics come back with its reconnect, and so
    must the integrity report, though no look happened since."""
    config = config_for(
        '[[tables]]\nid = "rou"\ngame = "roulette"\n', tmp_path / "r.sqlite3", broker.port
    )
    with StationThread(config) as st:
        assert st.station is not None
        watch = st.station.watches["rou"]
        st.wait_until(lambda: watch.checkpoint == "start")
        first = Subscriber(broker.port, "+/+/rou/integrity")
        try:
            first.wait_for(lambda got: len(got) >= 1)
        finally:
            first.close()
        broker.stop()
        broker.start()
        publisher = st.station.publishers["rou"]
        st.wait_until(lambda: publisher.connected and publisher.connects >= 2, 30)
        again = Subscriber(broker.port, "+/+/rou/integrity")
        try:
            again.wait_for(lambda got: len(got) >= 1, 15)  # sent again: live, or kept
        finally:
            again.close()
        late = Subscriber(broker.port, "+/+/rou/integrity")
        try:
            [kept] = late.wait_for(lambda got: len(got) >= 1)
            assert kept.retain
            assert Integrity.model_validate_json(kept.payload).checkpoint == "start"
        finally:
            late.close()
