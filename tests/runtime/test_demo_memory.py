"""What the demo keeps as it deals stays bounded (issue 19 part 6, docs/memory.md):
its simulated shoes keep no record of what they sent and heard, and its wheel
keeps the renderer's truth of the last spins only. Counted in objects and
bytes after many cards or spins, never in RSS."""

from __future__ import annotations

import queue
import time
from pathlib import Path

from support.shoe_rigs import WAIT_S, next_events

from dealer_station.demo import demo_shoe, wheel_clip
from dealer_station.demo_spins import TRUTHS_KEPT, RenderedWheel
from drivers.shoe import CardDrawn, ShoeEvent, ShoeOnline, open_shoe

CARDS = 60


def test_the_demo_shoe_deals_through_the_real_driver_and_keeps_no_record() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with demo_shoe(8, seed=4) as sim, open_shoe("framed", port=sim.port, on_event=events):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        for _ in range(CARDS):
            sim.draw()
        drawn = [e for e in next_events(events, CARDS) if isinstance(e, CardDrawn)]
        assert [e.shoe_index for e in drawn] == list(range(1, CARDS + 1))
        # The station acknowledged every card (its bytes crossed the line both ways).
        deadline = time.monotonic() + WAIT_S
        while sim.frames_written < CARDS and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sim.frames_written >= CARDS
        assert (sim.sent, sim.indicator_log) == ([], [])
        assert (len(sim.line_log), len(sim.station_log)) == (0, 0)


def test_the_demo_wheel_keeps_the_truth_of_its_last_spins_only() -> None:
    with wheel_clip() as clip:
        wheel = RenderedWheel(Path(clip), seed=3)
        # Each play after the clip renders a spin; taking one frame is enough.
        for _ in range(TRUTHS_KEPT + 21):
            next(iter(wheel.play()))
    assert len(wheel.truths) == TRUTHS_KEPT
    assert wheel.truths[-1].seed == 3 * 10_000 + TRUTHS_KEPT + 21
