"""A card's way from its MQTT message to the broadcast overlay, and what the
overlay costs the machine while a table runs.

    PYTHONPATH=. .venv/bin/python benchmarks/overlay_latency.py [--cards 500] [--gap 0.15]

Everything real, as in the browser tests (it reuses their rig, tests/support):
a station with a self-driving baccarat table, its shoe simulator on a PTY
drawing a card whenever the shoe's light is green and ``--gap`` seconds have
passed, mosquitto, a subscriber on the table's ``round/event``, and the overlay
in Debian's Chromium (headless, 1920x1080) fed by the station's WebSocket.

Latency, per ``card_dealt``: the page notes, with the Performance API
(``performance.timeOrigin + performance.now()``, the wall clock the station
stamps its messages with), when the overlay drew a state that holds the card
(its ``overlay:drawn`` event, fired in the animation frame that changed the
page) and the start of the frame after it (the frame that shows it). Both are
measured from the message's ``at`` (the station's stamp as it builds the
message, before MQTT) and from the subscriber's receipt of the MQTT message.
CPU: Chromium's own per-process CPU time (``SystemInfo.getProcessInfo``) and
the overlay's main-thread task time (``Performance.getMetrics``) over the run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import CDPSession, sync_playwright  # noqa: E402
from support.broker import Subscriber, running_broker  # noqa: E402
from support.station_rig import TOKENS, Rig, running, station_config  # noqa: E402

from dealer_station.demo import reshuffle_with_the_table  # noqa: E402
from drivers.shoe.shuffled_shoe import shuffled_shoe  # noqa: E402
from drivers.shoe.simulator import FramedShoeSimulator  # noqa: E402
from firmware_proto import Indicator  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DECKS = 8

# What the page keeps: for each state it drew, when, and when the next frame began.
NOTE_DRAWS = """
window.__draws = [];
document.addEventListener("overlay:drawn", (e) => {
  const note = { seq: e.detail.seq, drawn: performance.timeOrigin + performance.now(), shown: 0 };
  window.__draws.push(note);
  requestAnimationFrame(() => { note.shown = performance.timeOrigin + performance.now(); });
});
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def deal_when_green(shoe: FramedShoeSimulator, gap: float, stop: threading.Event) -> None:
    """The croupier's hand: a card when the light is green, ``gap`` after the last;
    a shoe counted out to its last card is filled again, as the demo's is."""
    while not stop.wait(gap):
        if shoe.indicator == Indicator.GREEN:
            if not shoe.cards_left:
                shoe.cards_left = shuffled_shoe(DECKS, None)
            shoe.draw()


def cpu_seconds(session: CDPSession) -> dict[str, float]:
    """Chromium's CPU time so far, by process type (browser, renderer, gpu, ...)."""
    info = session.send("SystemInfo.getProcessInfo")
    out: dict[str, float] = {}
    for process in info["processInfo"]:
        out[process["type"]] = out.get(process["type"], 0.0) + process["cpuTime"]
    return out


def task_seconds(session: CDPSession) -> float:
    metrics = session.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def cards_of(subscriber: Subscriber, clock_offset: float) -> dict[int, tuple[float, float]]:
    """Each card_dealt's seq: its ``at`` and the subscriber's receipt, in epoch ms."""
    out: dict[int, tuple[float, float]] = {}
    for m in subscriber.on("/round/event"):
        event = json.loads(m.payload)
        if event["type"] == "card_dealt":
            at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
            out[event["seq"]] = (at * 1000, (m.at + clock_offset) * 1000)
    return out


def measure(cards: int, gap: float, workdir: Path) -> dict[str, Any]:
    for broker in running_broker(workdir):
        table = {
            "id": "bac",
            "game": "baccarat",
            "shoe": {"port": ""},
            "timers": {"betting_seconds": 0.5},
            "self_driving": {"pause_seconds": 0.3},
        }
        with FramedShoeSimulator(decks=DECKS, seed=17) as shoe:
            table["shoe"] = {"port": shoe.port}
            config = station_config(workdir, broker.port, [table])
            with running(config) as rig:
                return _run(rig, shoe, broker.port, cards, gap)
    raise AssertionError("no broker")


def _run(rig: Rig, shoe: FramedShoeSimulator, port: int, cards: int, gap: float) -> dict[str, Any]:
    rig.call(lambda: reshuffle_with_the_table(rig.actor("bac"), shoe, DECKS))
    subscriber = Subscriber(port, "dealer-station/test/bac/round/event")
    clock_offset = time.time() - time.perf_counter()
    stop = threading.Event()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.add_init_script(NOTE_DRAWS)
        page.goto(f"{rig.url}/overlay/bac#token={TOKENS['viewer']}")
        page.wait_for_function("window.__draws.length > 0")
        browser_cdp = browser.new_browser_cdp_session()
        page_cdp = page.context.new_cdp_session(page)
        page_cdp.send("Performance.enable")
        cpu_before, task_before, wall_before = (
            cpu_seconds(browser_cdp),
            task_seconds(page_cdp),
            time.monotonic(),
        )
        dealer = threading.Thread(target=deal_when_green, args=(shoe, gap, stop), daemon=True)
        dealer.start()
        try:
            subscriber.wait_for(
                lambda _: len(cards_of(subscriber, clock_offset)) >= cards,
                timeout=cards * (gap + 1.0) + 60,
            )
        finally:
            stop.set()
            dealer.join()
        wall = time.monotonic() - wall_before
        cpu_after, task_after = cpu_seconds(browser_cdp), task_seconds(page_cdp)
        dealt = cards_of(subscriber, clock_offset)
        last = max(dealt)
        page.wait_for_function("seq => window.__draws.some(d => d.seq >= seq && d.shown)", arg=last)
        draws: list[dict[str, float]] = page.evaluate("window.__draws")
        browser.close()
    subscriber.close()
    drawn_at, shown_at, drawn_mqtt, shown_mqtt = [], [], [], []
    for seq, (at, received) in sorted(dealt.items())[:cards]:
        first = next(d for d in draws if d["seq"] >= seq)
        drawn_at.append(first["drawn"] - at)
        shown_at.append(first["shown"] - at)
        drawn_mqtt.append(first["drawn"] - received)
        shown_mqtt.append(first["shown"] - received)
    cpu = {kind: 100 * (cpu_after[kind] - cpu_before.get(kind, 0.0)) / wall for kind in cpu_after}

    def figures(values: list[float]) -> dict[str, float]:
        return {
            "p50": round(statistics.median(values), 1),
            "p99": round(percentile(values, 99), 1),
            "max": round(max(values), 1),
        }

    return {
        "cards": len(drawn_at),
        "seconds": round(wall, 1),
        "ms_from_at_to_drawn": figures(drawn_at),
        "ms_from_at_to_next_frame": figures(shown_at),
        "ms_from_mqtt_receipt_to_drawn": figures(drawn_mqtt),
        "ms_from_mqtt_receipt_to_next_frame": figures(shown_mqtt),
        "chromium_cpu_percent_of_one_core": {k: round(v, 1) for k, v in sorted(cpu.items())},
        "overlay_main_thread_percent": round(100 * (task_after - task_before) / wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--gap", type=float, default=0.15, help="seconds between cards, at least")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="overlay-latency-") as tmp:
        result = measure(args.cards, args.gap, Path(tmp))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
