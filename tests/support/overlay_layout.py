"""What a broadcast overlay must never do, read from the page's own boxes: two
texts, cards or panels on top of each other, a thing drawn past the canvas, a
row of cards or a header that wrapped (tests/browser/test_overlay.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page

# Each unit the eye reads: a text node's glyphs (its client rects: one per line),
# a card, a pocket, a road's grid, a panel. What lies inside a card, a pocket or a
# road is drawn inside it by design and is left out.
_BOXES = """() => {
  const units = ".card, .pocket, .road-grid, .mark";
  const out = [];
  const label = (e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`;
  const box = (kind, name, r, lines) => out.push(
    { kind, name, x: r.left, y: r.top, w: r.width, h: r.height, lines });
  const stage = document.getElementById("stage");
  const walker = document.createTreeWalker(stage, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.nodeType === Node.TEXT_NODE ? n.parentElement : n;
    const holder = n.nodeType === Node.TEXT_NODE ? e : e.parentElement;
    if (holder && holder.closest(units)) continue;
    if (getComputedStyle(e).display === "none" || e.closest("[hidden]")) continue;
    if (n.nodeType === Node.TEXT_NODE) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (!rects.length) continue;
      const r = range.getBoundingClientRect();
      box("text", `${label(e)} "${n.textContent.trim()}"`, r, rects.length);
    } else if (n.matches(units)) {
      box("unit", label(n), n.getBoundingClientRect(), 1);
    } else if (n.matches(".panel")) {
      box("panel", label(n), n.getBoundingClientRect(), 1);
    } else if (n.matches(".cards")) {
      const tops = [...n.children].map((c) => Math.round(c.getBoundingClientRect().top));
      out.push({ kind: "row", name: label(n), rows: new Set(tops).size });
    }
  }
  return { boxes: out, width: innerWidth, height: innerHeight };
}"""


@dataclass(frozen=True)
class Box:
    kind: str
    name: str
    x: float
    y: float
    w: float
    h: float
    lines: int

    def overlaps(self, other: Box, slack: float) -> bool:
        return (
            min(self.x + self.w, other.x + other.w) - max(self.x, other.x) > slack
            and min(self.y + self.h, other.y + other.h) - max(self.y, other.y) > slack
        )

    def __str__(self) -> str:
        return f"{self.name} at {self.x:.0f},{self.y:.0f} {self.w:.0f}x{self.h:.0f}"


def layout_faults(page: Page) -> list[str]:
    """Every fault of the overlay as it is drawn now, in words; [] when none."""
    seen: dict[str, Any] = page.evaluate(_BOXES)
    width, height = seen["width"], seen["height"]
    faults: list[str] = []
    boxes: list[Box] = []
    for raw in seen["boxes"]:
        if raw["kind"] == "row":  # a row of cards: how many lines its tops take
            if raw["rows"] > 1:
                faults.append(f"{raw['name']}: its cards wrapped onto {raw['rows']} rows")
            continue
        boxes.append(Box(**{k: raw[k] for k in ("kind", "name", "x", "y", "w", "h", "lines")}))
    # A pixel's slack: sub-pixel neighbours that merely touch are not an overlap.
    slack = 1.0
    for b in boxes:
        if b.x < -slack or b.y < -slack or b.x + b.w > width + slack or b.y + b.h > height + slack:
            faults.append(f"clipped by the {width}x{height} canvas: {b}")
        if b.kind == "text" and b.lines > 1:
            faults.append(f"wrapped onto {b.lines} lines: {b}")
    for kind in ("text", "unit", "panel"):
        same = [b for b in boxes if b.kind == kind]
        for i, a in enumerate(same):
            faults += [f"{a} overlaps {b}" for b in same[i + 1 :] if a.overlaps(b, slack)]
    texts = [b for b in boxes if b.kind == "text"]
    units = [b for b in boxes if b.kind == "unit"]
    faults += [f"{t} overlaps {u}" for t in texts for u in units if t.overlaps(u, slack)]
    return faults
