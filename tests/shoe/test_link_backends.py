"""One suite for every shoe backend: what the station runtime relies on."""

from __future__ import annotations

import queue

import pytest
from support.shoe_rigs import WAIT_S, next_events, rig

from drivers.shoe import (
    BACKENDS,
    CardDrawn,
    Indicator,
    ShoeEvent,
    ShoeOffline,
    ShoeOnline,
    UnknownBackend,
    UnsupportedCommand,
    open_shoe,
)
from drivers.shoe.simulator import FramedShoeSimulator

BACKEND_NAMES = sorted(BACKENDS)


def test_every_backend_is_covered() -> None:
    assert BACKEND_NAMES == ["beetek", "framed", "virtual"]


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_cards_arrive_once_in_order_with_burns_and_unread(backend: str) -> None:
    with rig(backend) as r:
        r.draw(3)
        r.draw(1, burn=True)
        r.draw_unread()
        r.draw(20)
        got = next_events(r.events, 25)
        assert got == r.truth()
        assert sum(isinstance(e, CardDrawn) for e in got) == 24
        assert r.events.empty() or not isinstance(r.events.get_nowait(), CardDrawn)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_close_reports_offline_once(backend: str) -> None:
    with rig(backend) as r:
        r.draw(1)
        next_events(r.events, 1)
    rest = []
    while not r.events.empty():
        rest.append(r.events.get_nowait())
    assert rest == [ShoeOffline("link closed")]


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_indicator_is_supported_or_refused_clearly(backend: str) -> None:
    with rig(backend) as r:
        if r.link.supports_indicator:
            r.link.set_indicator(Indicator.RED)
        else:
            with pytest.raises(UnsupportedCommand):
                r.link.set_indicator(Indicator.RED)


def test_unknown_backend_is_refused_with_the_known_names() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with pytest.raises(UnknownBackend, match="beetek, framed, virtual"):
        open_shoe("bluetooth", port="x", on_event=events)


def test_a_callable_sink_gets_the_same_events_as_a_queue() -> None:
    seen: list[ShoeEvent] = []
    with open_shoe("virtual", port="v", on_event=seen.append) as shoe:
        shoe.draw("AS")  # type: ignore[attr-defined]
    assert [type(e).__name__ for e in seen] == ["ShoeOnline", "CardDrawn", "ShoeOffline"]
    assert seen[1] == CardDrawn("AS", False, 1)



def test_a_failing_consumer_does_not_stop_the_link(caplog: pytest.LogCaptureFixture) -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    failed: list[ShoeEvent] = []

    def fragile(event: ShoeEvent) -> None:
        if isinstance(event, CardDrawn) and not failed:
            failed.append(event)
            raise RuntimeError("consumer bug")
        events.put(event)

    with FramedShoeSimulator(seed=8) as sim, open_shoe("framed", port=sim.port,
                                                        on_event=fragile):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.draw(3)
        # Not taken, so not acknowledged: the shoe sends it again, and it is taken.
        assert next_events(events, 3) == sim.sent and failed == sim.sent[:1]
    assert "consumer bug" in caplog.text
