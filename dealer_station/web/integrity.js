"use strict";
// The pit boss's integrity page: GET /tables/{table}/integrity (a pit boss's
// token) drawn as pictures in SVG, refreshed every few seconds. No build step.

(() => {
  const TOKEN_KEY = "ds-integrity-token";
  const REFRESH_MS = 5000;
  const SVG = "http://www.w3.org/2000/svg";
  const parts = location.pathname.split("/").filter(Boolean);
  const table = decodeURIComponent(parts[parts.length - 1] || "");
  const $ = (id) => document.getElementById(id);

  // A page opened as /integrity/t#token=... keeps the token; the fragment
  // leaves the address bar (it never reaches the server's logs).
  const match = location.hash.match(/token=([^&]+)/);
  if (match) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }

  function node(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function html(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Bars with the band a fair count stays in: counts, labels, expected, low, high.
  function bars(svg, counts, labels, expected, low, high, name) {
    svg.replaceChildren();
    const W = 740, H = 220, left = 30, bottom = 20, top = 8;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const most = Math.max(high, ...counts, 1);
    const y = (v) => H - bottom - (v / most) * (H - bottom - top);
    const step = (W - left) / counts.length;
    svg.append(node("rect", { class: "band", x: left, y: y(high), width: W - left,
      height: Math.max(1, y(low) - y(high)) }));
    counts.forEach((c, i) => {
      const out = c > high || c < low;
      const bar = node("rect", { class: out ? "bar out" : "bar", x: left + i * step + 1,
        y: y(c), width: Math.max(1, step - 2), height: H - bottom - y(c),
        "data-label": labels[i], "data-count": c });
      bar.append(node("title", {}, `${name} ${labels[i]}: ${c} (expected ${expected.toFixed(1)})`));
      svg.append(bar);
      svg.append(node("text", { x: left + i * step + step / 2, y: H - 6,
        "text-anchor": "middle" }, labels[i]));
    });
    svg.append(node("line", { class: "expected", x1: left, x2: W, y1: y(expected),
      y2: y(expected) }));
    svg.append(node("text", { x: 2, y: y(most) + 10 }, String(most)));
    svg.append(node("text", { x: 2, y: H - bottom }, "0"));
  }

  // Each row a day (``label``: its date) or a dealer: the hold (dot) against
  // the odds' figure (line) and its 95% interval (bar).
  function holdPicture(svg, days, label) {
    svg.replaceChildren();
    const W = 740, H = 220, left = 40, bottom = 20, top = 8;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const values = days.flatMap((d) => [d.hold, d.low, d.high].filter((v) => v !== null));
    const lo = Math.min(0, ...values), hi = Math.max(1, ...values);
    const y = (v) => H - bottom - ((v - lo) / (hi - lo)) * (H - bottom - top);
    const step = (W - left) / Math.max(days.length, 1);
    days.forEach((d, i) => {
      const x = left + i * step + step / 2;
      if (d.low !== null) {
        svg.append(node("line", { class: "interval", x1: x, x2: x, y1: y(d.high), y2: y(d.low) }));
        svg.append(node("line", { class: "expected", x1: x - step / 3, x2: x + step / 3,
          y1: y(d.expected), y2: y(d.expected) }));
      }
      const out = d.low !== null && (d.hold < d.low || d.hold > d.high);
      const dot = node("circle", { class: out ? "day out" : "day", cx: x, cy: y(d.hold), r: 5,
        "data-label": label(d) });
      dot.append(node("title", {}, `${label(d)}: ${d.hold.toFixed(2)}% over ${d.rounds} rounds`));
      svg.append(dot);
      svg.append(node("text", { x, y: H - 6, "text-anchor": "middle" }, label(d)));
    });
    svg.append(node("text", { x: 2, y: y(hi) + 10 }, `${hi.toFixed(1)}%`));
    svg.append(node("text", { x: 2, y: y(lo) }, `${lo.toFixed(1)}%`));
  }

  function draw(page) {
    $("table-id").textContent = page.table;
    $("look").textContent = page.checkpoint
      ? `last look: ${page.checkpoint}, up to record ${page.records}, level ${page.level}`
      : "no look yet";
    const alarms = $("alarms");
    alarms.replaceChildren();
    const found = page.findings.filter((f) => f.alarm);
    const verdict = $("verdict");
    verdict.className = found.length ? "alarmed" : "calm";
    verdict.textContent = found.length
      ? `${found.length} alarm(s) at the last look: ` +
        [...new Set(found.map((f) => f.test))].join(", ")
      : "No alarm at the last look.";
    for (const f of found) alarms.append(html("div", "alarm", f.words));

    const wheel = page.pictures.wheel;
    $("wheel-picture").hidden = !wheel || wheel.spins === 0;
    if (wheel && wheel.spins > 0) {
      bars($("pockets"), wheel.pockets.map((p) => p.count), wheel.pockets.map((p) => p.number),
        wheel.expected, wheel.low, wheel.high, "pocket");
    }
    const signatures = $("signatures");
    signatures.replaceChildren();
    const dealers = wheel ? wheel.signatures : [];
    $("signature-picture").hidden = dealers.length === 0;
    for (const s of dealers) {
      signatures.append(html("h2", "", `${s.dealer || "dealer unknown"}: ${s.throws} throws`));
      const svg = node("svg", { role: "img", "aria-label": `signature ${s.dealer}` });
      signatures.append(svg);
      bars(svg, s.counts, s.counts.map((_, i) => i), s.expected, s.low, s.high, "distance");
    }
    const days = page.pictures.hold;
    $("hold-picture").hidden = days.length === 0;
    if (days.length) holdPicture($("hold"), days, (d) => d.day.slice(5));
    const byDealer = page.pictures.dealers;
    $("dealer-hold-picture").hidden = byDealer.length === 0;
    if (byDealer.length) holdPicture($("dealer-hold"), byDealer, (d) => d.dealer || "unknown");

    const list = $("findings");
    list.replaceChildren();
    for (const f of page.findings) list.append(html("li", f.alarm ? "alarm" : "", f.words));
    $("not-run").textContent = page.not_run.length
      ? "Not run yet (too small a sample): " +
        page.not_run.map((s) => `${s.test} (${s.sample} of ${s.minimum})`).join(", ")
      : "";
  }

  async function load() {
    const token = localStorage.getItem(TOKEN_KEY) || "";
    const answer = await fetch(`/tables/${encodeURIComponent(table)}/integrity`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (answer.status === 401 || answer.status === 403) {
      $("report").hidden = true;
      $("sign-in").hidden = false;
      $("refused").textContent = token ? "This token may not read the integrity report." : "";
      return false;
    }
    if (!answer.ok) return true;
    $("sign-in").hidden = true;
    $("report").hidden = false;
    draw(await answer.json());
    return true;
  }

  async function loop() {
    try {
      if (!(await load())) return; // waits for the form
    } catch (e) {
      $("look").textContent = "the station does not answer: retrying";
    }
    setTimeout(loop, REFRESH_MS);
  }
  $("sign-in").addEventListener("submit", (ev) => {
    ev.preventDefault();
    localStorage.setItem(TOKEN_KEY, $("token-text").value.trim());
    loop();
  });
  loop();
})();
