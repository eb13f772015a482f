"""A real station fed by shoe simulators on real PTYs, its console and overlay in
Debian's Chromium driven by Playwright (never a downloaded browser). One browser
per module; screenshots go to artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from support.broker import Broker, running_broker
from support.browser_pages import LONG, WHEEL_VIDEO
from support.station_rig import Rig, running, station_config

from drivers.shoe.simulator import FramedShoeSimulator

CHROMIUM = Path("/usr/bin/chromium")

# Two shared cores and other work beside the tests: patience, not a deadline.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            "Chromium is not installed at /usr/bin/chromium: run ./dev test, which installs it"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shoes() -> Iterator[dict[str, FramedShoeSimulator]]:
    with (
        FramedShoeSimulator(decks=8, seed=11) as baccarat,
        FramedShoeSimulator(decks=6, seed=12) as blackjack,
    ):
        yield {"bac": baccarat, "bj": blackjack}


@pytest.fixture(scope="module")
def station(
    shoes: dict[str, FramedShoeSimulator], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Rig]:
    broker: Broker
    for broker in running_broker(tmp_path_factory.mktemp("broker")):
        tables = [
            {"id": "bac", "game": "baccarat", "shoe": {"port": shoes["bac"].port}, "timers": LONG},
            {
                "id": "bj",
                "game": "blackjack",
                "variant": "standard-blackjack",
                "shoe": {"port": shoes["bj"].port},
                "timers": LONG,
            },
            {"id": "rou", "game": "roulette", "timers": LONG},
            {
                "id": "cam",
                "game": "roulette",
                "camera": {"source": str(WHEEL_VIDEO)},
                "timers": LONG,
            },
        ]
        config = station_config(tmp_path_factory.mktemp("station"), broker.port, tables)
        with running(config, {"cam": WHEEL_VIDEO}) as rig:
            rig.wait_until(lambda: len(rig.get("/healthz").json()["tables"]["bac"]) == 2)
            yield rig


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Whatever the Content-Security-Policy blocks is a page that does not work.
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    yield page
    context.close()
    assert not errors, f"the page threw or broke its policy: {errors}"
