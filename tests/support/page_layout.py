"""What a person would call a broken layout, measured in the page: text or card
boxes that overlap, anything cut off by a box that hides its overflow or by the
window's sides, and (on a table's screen) what the croupier acts on out of sight.

The boxes are the browser's own: a card, a pocket or a road's mark as one box,
every other piece of text by its glyphs' rectangles (a Range over the text node,
one per line), so a wide block that only holds short text overlaps nothing.
"""

from __future__ import annotations

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

_FAULTS = r"""
([mustSee, within]) => {
  const W = innerWidth, H = innerHeight, faults = [];
  const SOLID = ".card, .pocket, .mark";
  const root = within ? document.querySelector(within) : document.body;
  const skip = (e) => e.closest(within ? "#toast, script, [hidden]" : "#toast, dialog, script, style, head, [hidden]");
  const shown = (e) => {
    for (let x = e; x; x = x.parentElement) {
      const cs = getComputedStyle(x);
      if (cs.display === "none" || cs.visibility === "hidden" || cs.opacity === "0") return false;
    }
    return true;
  };
  const name = (e) => {
    const id = e.id ? `#${e.id}` : "";
    const cls = typeof e.className === "string" && e.className ? `.${e.className.trim().split(/\s+/).join(".")}` : "";
    return `${e.tagName.toLowerCase()}${id}${cls}`;
  };
  const items = [];
  for (const e of root.querySelectorAll(SOLID)) {
    if (skip(e) || !shown(e) || (e.parentElement && e.parentElement.closest(SOLID))) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.height) items.push({ r, owner: e, what: `${name(e)} "${e.textContent.trim()}"` });
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const owner = t.parentElement;
    if (!t.textContent.trim() || skip(owner) || owner.closest(SOLID) || !shown(owner)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    for (const r of range.getClientRects()) {
      // A glyph box reaches above and below its line; tight lines touch.
      const pad = r.height * 0.15;
      const inner = new DOMRect(r.x, r.y + pad, r.width, r.height - 2 * pad);
      if (r.width > 0.5) items.push({ r: inner, owner, node: t, what: `${name(owner)} "${t.textContent.trim().slice(0, 40)}"` });
    }
  }
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      if (a.node && a.node === b.node) continue;
      if (overlap(a.r, b.r)) faults.push(`overlap: ${a.what} and ${b.what}`);
    }
  }
  for (const it of items) {
    const r = it.r;
    if (r.left < -1 || r.right > W + 1) faults.push(`off the window's side: ${it.what}`);
    for (let x = it.owner.parentElement; x && x !== document.documentElement; x = x.parentElement) {
      const cs = getComputedStyle(x);
      const hides = (v) => v === "hidden" || v === "clip";
      if (!hides(cs.overflowX) && !hides(cs.overflowY)) continue;
      const c = x.getBoundingClientRect();
      const outX = hides(cs.overflowX) && (r.left < c.left - 1 || r.right > c.right + 1);
      const outY = hides(cs.overflowY) && (r.top < c.top - 1 || r.bottom > c.bottom + 1);
      if (outX || outY) { faults.push(`clipped by ${name(x)}: ${it.what}`); break; }
    }
  }
  if (document.documentElement.scrollWidth > W + 1) faults.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${W})`);
  if (within) {
    // A dialog is the whole screen while it is open: all of it in sight.
    const r = root.getBoundingClientRect();
    if (r.top < -1 || r.bottom > H + 1 || r.left < -1 || r.right > W + 1) faults.push(`the dialog does not fit the window`);
  }
  if (mustSee) {
    for (const e of document.querySelectorAll(mustSee)) {
      if (skip(e) || !shown(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.top < -1 || r.bottom > H + 1 || r.left < -1 || r.right > W + 1) faults.push(`out of sight without scrolling: ${name(e)}`);
    }
  }
  return faults;
}
"""


def layout_faults(page: Page, must_see: str = "", within: str = "") -> list[str]:
    """The page's overlaps and clippings now (dialogs and toasts aside), or those
    of the element ``within`` names (an open dialog), which must fit the window;
    and whatever ``must_see`` (a CSS selector) matches that lies outside it."""
    faults: list[str] = page.evaluate(_FAULTS, [must_see, within])
    return faults
