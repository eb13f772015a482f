// The page's layout faults (tests/support/page_layout.py evaluates this in the page).
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
