"""What the browser tests share beside their fixtures (tests/browser/conftest.py):
the recorded spin a camera table plays, the long timers, the console opened as a
croupier, a pit boss signed in there, screenshots for a person to look at."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect
from support.station_rig import TOKENS, Rig
from support.wheel_clips import video

# A recorded valid spin: the camera table plays it each time it waits for a spin.
WHEEL_VIDEO = video("valid-190")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
LONG = {"betting_seconds": 600, "decision_seconds": 600, "insurance_seconds": 600}


def shot(page: Page, name: str, **kwargs: object) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), **kwargs)  # type: ignore[arg-type]
    return path


def console(page: Page, rig: Rig, table: str) -> None:
    """The table's console, opened with the croupier's token, once it is live."""
    page.goto(f"{rig.url}/console/{table}#token={TOKENS['croupier']}")
    expect(page.locator("#dev-feed")).to_have_text("LIVE")


def sign_in_pit_boss(page: Page) -> None:
    """Eva Novak's PIN session at the console open on ``page``: her menu shows."""
    page.keyboard.press("p")
    page.get_by_role("button", name="EVA NOVAK").click()
    for digit in "4711":
        page.keyboard.press(digit)
    page.keyboard.press("Enter")
    expect(page.locator("#modal h2")).to_have_text("PIT BOSS: Eva Novak")
