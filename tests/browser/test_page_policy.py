"""The pages under their Content-Security-Policy in real Chromium: /docs draws
Swagger UI from the station's own files (the ``page`` fixture fails a test on any
policy violation, and the console and overlay tests run under the same policy)."""

from __future__ import annotations

from playwright.sync_api import Page, Request, expect
from support.browser_pages import shot
from support.station_rig import Rig


def test_the_docs_draw_from_the_station_alone(page: Page, station: Rig) -> None:
    elsewhere: list[str] = []

    def note(request: Request) -> None:
        if not request.url.startswith(station.url):
            elsewhere.append(request.url)

    page.on("request", note)
    page.goto(f"{station.url}/docs")
    expect(page.locator(".opblock-tag").first).to_be_visible()
    expect(page.get_by_text("/tables/{table}/state").first).to_be_visible()
    shot(page, "docs")
    assert not elsewhere
