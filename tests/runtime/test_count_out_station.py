"""The count-out at a real station: a baccarat table whose shoe is a simulator
on a real PTY, a real mosquitto. The croupier presses COUNT OUT, reads the
cards still in the shoe through the scanner while its light is green, and
presses SHUFFLE. The integrity watch checks the shoe when the scanner says it
is empty (the simulator does, as PROTOCOL.md's shoe state): 8 decks,
416 cards (docs/rules.md, "Baccarat"), each of the 52 cards 8 times. A card
that fell on the floor is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator

EIGHT_DECKS = 416


def _count_out_and_shuffle(tmp_path: Path, broker: Broker, lose: bool) -> tuple[str, str | None]:
    """The composition's words at the shuffle, and the card lost, if any."""
    with FramedShoeSimulator(decks=8, seed=9) as sim:
        config = config_for(
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n',
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        with StationThread(config) as st:
            watch = st.station.watches["bac"] if st.station else None
            assert watch is not None
            st.wait_until(lambda: watch.checkpoint == "start")
            assert st.command("bac", {"type": "count_out"}, source="console").accepted
            st.wait_until(lambda: sim.indicator == Indicator.GREEN)
            lost = sim.cards_left.pop(0) if lose else None
            while sim.cards_left:
                sim.draw()
            held = EIGHT_DECKS - (1 if lose else 0)

            def counted() -> int | None:
                state = st.actor("bac").state
                return None if state is None else state.counted

            st.wait_until(lambda: counted() == held, 60)
            # The table's count says whether the shoe is empty: the light too.
            st.wait_until(
                lambda: sim.indicator == (Indicator.GREEN if lose else Indicator.RED)
            )
            assert not st.command("bac", {"type": "round_open"}, source="console").accepted
            assert st.command("bac", {"type": "shuffle"}, source="console").accepted
            st.wait_until(lambda: watch.checkpoint == "shoe", 30)
            report = st.call(lambda: watch.monitor.report(0.01))
    (words,) = [
        v.words(0.01) for v in report.tables[0].verdicts if v.finding.test == "shoe.composition"
    ]
    return words, lost


@pytest.mark.parametrize("lose", [False, True], ids=["whole", "one-card-lost"])
def test_a_counted_out_shoe_is_checked_at_its_shuffle(
    tmp_path: Path, broker: Broker, lose: bool
) -> None:
    words, lost = _count_out_and_shuffle(tmp_path, broker, lose)
    if lost is None:
        assert words == (
            "bac, shoe 1 (ended by empty): 416 cards out and 0 left make the 8 decks: "
            "as it should be."
        )
    else:
        assert words.startswith("ALARM") and f": {lost}." in words
