"""The pit boss's integrity page (/integrity/{table}) in real headless Chromium
against a real station (real HTTP, a real mosquitto): a roulette wheel whose
pocket 17 comes up a quarter of the time, results entered by hand, looked at
every 100 spins. The page must draw the pockets with pocket 17's bar outside
the fair band, show the alarm in words, and show nothing to a viewer's token.
Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from support.broker import running_broker
from support.browser_pages import shot
from support.station_rig import (
    SLOW,
    TOKENS,
    Rig,
    play_biased_wheel,
    running,
    station_config,
)

TABLE = "rou"


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    for broker in running_broker(tmp_path_factory.mktemp("broker")):
        tables = [{"id": TABLE, "game": "roulette", "timers": SLOW}]
        config = station_config(
            tmp_path_factory.mktemp("station"),
            broker.port,
            tables,
            integrity={"spins_between_reports": 100},
        )
        with running(config) as station:
            play_biased_wheel(station, TABLE, 200, seed=5)
            yield station


def test_the_page_draws_a_hot_pocket_outside_the_fair_band(rig: Rig, page: Page) -> None:
    page.goto(f"{rig.url}/integrity/{TABLE}#token={TOKENS['pit_boss']}")
    expect(page.locator("#verdict")).to_contain_text("wheel.arc1")
    expect(page.locator("#alarms .alarm").first).to_be_visible()
    expect(page.locator("#alarms")).to_contain_text("Pocket 17 came up")
    bars = page.locator("#pockets rect.bar")
    expect(bars).to_have_count(37)
    hot = page.locator('#pockets rect.bar.out[data-label="17"]')
    expect(hot).to_have_count(1)
    # Drawn in proportion: pocket 17's bar stands above every other.
    heights = page.eval_on_selector_all(
        "#pockets rect.bar",
        "rs => rs.map(r => [r.dataset.label, r.getBBox().height])",
    )
    tallest = max(heights, key=lambda h: h[1])
    assert tallest[0] == "17"
    expect(page.locator("#hold circle.day")).to_have_count(1)
    # Nobody signed on: every round is the unknown dealer's.
    expect(page.locator('#dealer-hold circle.day[data-label="unknown"]')).to_have_count(1)
    assert "#token" not in page.url  # the token left the address bar
    shot(page, "integrity-page")


def test_a_viewers_token_sees_no_report(rig: Rig, page: Page) -> None:
    page.goto(f"{rig.url}/integrity/{TABLE}#token={TOKENS['viewer']}")
    expect(page.locator("#sign-in")).to_be_visible()
    expect(page.locator("#refused")).to_contain_text("may not read")
    expect(page.locator("#report")).to_be_hidden()
    assert "came up" not in page.content()
    # The pit boss types the token in: the report appears.
    page.fill("#token-text", TOKENS["pit_boss"])
    page.click("#sign-in button")
    expect(page.locator("#pockets rect.bar")).to_have_count(37)
    shot(page, "integrity-page-signed-in")


def test_the_index_links_the_page(rig: Rig, page: Page) -> None:
    page.goto(f"{rig.url}/")
    expect(page.locator(f'a[href="/integrity/{TABLE}"]')).to_be_visible()


def test_an_unknown_table_has_no_page(rig: Rig) -> None:
    assert rig.get("/integrity/nope").status_code == 404
