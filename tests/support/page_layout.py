"""What a person would call a broken layout, measured in the page: text or card
boxes that overlap, anything cut off by a box that hides its overflow or by the
window's sides, and (on a table's screen) what the croupier acts on out of sight.

The boxes are the browser's own: a card, a pocket or a road's mark as one box,
every other piece of text by its glyphs' rectangles (a Range over the text node,
one per line), so a wide block that only holds short text overlaps nothing.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

# Each of the sizes the issue names: the 7-inch touch screen, the common
# desktops and TVs, and a phone (a single scrolling column).
SIZES = {
    "800x480": (800, 480),
    "1280x720": (1280, 720),
    "1280x800": (1280, 800),
    "1920x1080": (1920, 1080),
    "412x915": (412, 915),
}
PHONE = "412x915"

_FAULTS = (Path(__file__).with_name("layout_faults.js")).read_text()


def layout_faults(page: Page, must_see: str = "", within: str = "") -> list[str]:
    """The page's overlaps and clippings now (dialogs and toasts aside), or those
    of the element ``within`` names (an open dialog), which must fit the window;
    and whatever ``must_see`` (a CSS selector) matches that lies outside it."""
    faults: list[str] = page.evaluate(_FAULTS, [must_see, within])
    return faults
