"""A croupier signs on at the console in a real Chromium: the name from the list,
the PIN on the pad, the dealer's display name on the console and on the overlay
(and nothing else of the dealer there), a double-click that signs on once, a
change during a round shown as waiting for the next one, a sign-off. The
station is its own here: its console token is bound to its table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from support.broker import Broker, running_broker
from support.browser_pages import LONG, shot
from support.station_rig import TOKENS, Rig, auth_section, running, station_config

from dealer_station.credentials import hash_pin, hash_token

CONSOLE = "test-console-of-rou-browser-0123456789"
DEALERS = {"Ana Petrova": ("Ana P.", "4711"), "Bo Lind": ("Bo", "2580")}


@pytest.fixture(scope="module")
def station(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    base = auth_section()
    auth = {
        "tokens": [
            *base["tokens"],
            {
                "name": "console-rou",
                "role": "croupier",
                "sha256": hash_token(CONSOLE),
                "table": "rou",
            },
        ],
        "pit_bosses": base["pit_bosses"],
        "dealers": [
            {"name": name, "display_name": shown, "pin_scrypt": hash_pin(pin)}
            for name, (shown, pin) in DEALERS.items()
        ],
    }
    broker: Broker
    for broker in running_broker(tmp_path_factory.mktemp("broker")):
        tables = [{"id": "rou", "game": "roulette", "timers": LONG, "require_dealer": True}]
        config = station_config(tmp_path_factory.mktemp("station"), broker.port, tables, auth=auth)
        with running(config) as rig:
            yield rig


def signed_on(rig: Rig) -> list[str | None]:
    return [r.body.get("dealer") for r in rig.records("rou") if r.body.get("type") == "dealer"]


def open_console(page: Page, rig: Rig) -> None:
    page.goto(f"{rig.url}/console/rou#token={CONSOLE}")
    expect(page.locator("#dev-feed")).to_have_text("LIVE")


def type_pin(page: Page, name: str, pin: str) -> None:
    page.keyboard.press("i")  # the key shown on DEALER
    page.get_by_role("button", name=name.upper()).click()
    expect(page.locator("dialog h2")).to_have_text(f"PIN: {name}")
    for digit in pin:
        page.keyboard.press(digit)


def test_a_dealer_signs_on_and_the_table_shows_only_the_display_name(
    page: Page, station: Rig
) -> None:
    open_console(page, station)
    dealer = page.locator("#dealer")
    expect(dealer).to_have_text("NO DEALER SIGNED ON")
    page.keyboard.press("o")  # OPEN BETS: this table needs a dealer first
    expect(page.locator("#toast")).to_contain_text("No dealer signed on")
    type_pin(page, "Ana Petrova", "9999")
    page.keyboard.press("Enter")
    expect(page.locator("#modal-msg")).to_have_text("WRONG PIN")  # inside the PIN pad
    assert signed_on(station) == []
    for digit in "4711":
        page.keyboard.press(digit)
    shot(page, "console-dealer-pin")
    page.get_by_role("button", name="OK").dblclick()  # a tired double-tap
    expect(dealer).to_have_text("DEALER Ana P.")
    expect(page.locator("#toast")).to_have_text("ANA PETROVA SIGNED ON")
    expect(page.locator("dialog")).not_to_be_visible()
    shot(page, "console-dealer-signed-on")
    assert signed_on(station) == ["Ana P."]  # one sign-on, journaled once

    overlay = page.context.new_page()
    overlay.goto(f"{station.url}/overlay/rou#token={TOKENS['viewer']}")
    expect(overlay.locator("#dealer-tag")).to_have_text("DEALER  Ana P.")
    assert "Ana Petrova" not in overlay.content()
    shot(overlay, "overlay-dealer")
    overlay.close()


def test_a_change_during_a_round_waits_for_the_next_round(page: Page, station: Rig) -> None:
    open_console(page, station)
    dealer = page.locator("#dealer")
    expect(dealer).to_have_text("DEALER Ana P.")
    page.keyboard.press("o")
    expect(page.locator("#action")).to_have_text("BETS OPEN")
    type_pin(page, "Bo Lind", "2580")
    page.keyboard.press("Enter")
    expect(page.locator("#toast")).to_have_text("BO LIND: FROM THE NEXT ROUND")
    expect(dealer).to_have_text("DEALER Ana P. · NEXT ROUND: Bo")
    shot(page, "console-dealer-next-round")
    page.keyboard.press("n")
    station.wait_for_step("rou", "wheel")
    station.command("rou", {"type": "wheel_result", "number": 32}, source="camera")
    expect(dealer).to_have_text("DEALER Bo")
    page.keyboard.press("i")
    page.get_by_role("button", name="SIGN OFF BO").click()
    expect(dealer).to_have_text("NO DEALER SIGNED ON")
    assert signed_on(station) == ["Ana P.", "Bo", None]
