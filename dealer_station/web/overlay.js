"use strict";
// The stream's overlay: the table's MQTT topics (relayed by the station's
// WebSocket) drawn over the video. Read-only: a viewer token is enough.
// Options and the CasparCG hooks are in docs/overlay.md.

const T = DS.table;
const { el } = DS;
const token = DS.token("ds-overlay-token");
// receivedAt: this machine's clock when the state came, so a countdown runs on
// the station's clock whatever this machine's says (docs/overlay.md).
const live = { state: null, receivedAt: 0, stats: null, statsVersion: 0, result: null };

const LAYOUTS = ["full", "cards", "stats"];
const THEMES = ["dark", "light", "solid"];
const OPTIONS = { layout: LAYOUTS, theme: THEMES };

// The single-zero wheel clockwise from zero, and its red pockets: copies of
// games/roulette_layout.py's WHEEL_ORDER and RED, which tests/browser/test_overlay.py
// holds equal to them.
const WHEEL_ORDER = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
  5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26];
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const colourOf = (n) => (n === 0 ? "green" : RED.has(n) ? "red" : "black");

// --- options: ?layout= and ?theme=, or update() from a CasparCG client ----------

// The option values a request asks for, or the reason it cannot have them;
// nothing is applied unless every value is known.
function checkOptions(wanted) {
  const ok = {};
  for (const [key, value] of Object.entries(wanted)) {
    if (!(key in OPTIONS)) return { ok: false, reason: `unknown option "${key}": one of ${Object.keys(OPTIONS).join(", ")}` };
    if (!OPTIONS[key].includes(value)) return { ok: false, reason: `${key} "${value}" is not one of ${OPTIONS[key].join(", ")}` };
    ok[key] = value;
  }
  return { ok: true, options: ok };
}

function applyOptions(options) {
  if (options.layout) document.body.dataset.layout = options.layout;
  if (options.theme) document.documentElement.dataset.theme = options.theme;
}

// CasparCG sends its template data as XML (<templateData><componentData id="layout">
// <data id="text" value="stats"/></componentData></templateData>), or as JSON when
// its client is told to; an empty one (sent before play()) changes nothing.
function parseTemplateData(data) {
  if (data !== null && typeof data === "object") return data;
  const text = String(data ?? "").trim();
  if (text.startsWith("<")) {
    // Read as HTML, which never fails: an XML parser's error page carries an
    // inline style that the page's policy refuses.
    const doc = new DOMParser().parseFromString(text, "text/html");
    const out = {};
    for (const c of doc.querySelectorAll("componentData")) {
      const value = c.querySelector('data[id="text"]');
      out[c.getAttribute("id")] = value ? value.getAttribute("value") : "";
    }
    return out;
  }
  const parsed = JSON.parse(text || "{}");
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
  return parsed;
}

function fromQuery() {
  const query = new URLSearchParams(location.search);
  const wanted = {};
  for (const key of Object.keys(OPTIONS)) if (query.has(key)) wanted[key] = query.get(key);
  const checked = checkOptions(wanted);
  // A wrong option must not put words over the programme: the defaults, and the reason in the log.
  if (!checked.ok) console.warn(`overlay: ${checked.reason}; using the defaults`);
  applyOptions({ layout: "full", theme: "dark", ...(checked.ok ? checked.options : {}) });
  return query.get("start") === "stopped";
}

// --- drawing --------------------------------------------------------------------

function panel(cls, ...children) {
  const p = el("div", `panel ${cls}`);
  p.append(...children);
  return p;
}

// Children with a space between them, so that the text reads as words.
function spaced(parent, ...children) {
  children.forEach((c, i) => parent.append(...(i ? [" ", c] : [c])));
  return parent;
}

function tag(label, value) {
  return spaced(el("div", "panel tag"), el("span", "label", label), el("span", "value", value));
}

// Money as the station writes it (shortest decimal strings), added exactly.
function addMoney(a, b) {
  const places = Math.max(...[a, b].map((x) => (x.split(".")[1] || "").length));
  const units = (x) => {
    const [whole, frac = ""] = x.replace("-", "").split(".");
    const value = BigInt(whole + frac.padEnd(places, "0"));
    return x.startsWith("-") ? -value : value;
  };
  const sum = units(a) + units(b);
  const digits = (sum < 0n ? -sum : sum).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const frac = places ? digits.slice(-places).replace(/0+$/, "") : "";
  return `${sum < 0n ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

function signed(amount) {
  return amount.startsWith("-") || amount === "0" ? amount : `+${amount}`;
}

// Each hand's result and what its main stakes won or lost, from the settlement.
function handOutcomes(result) {
  const out = new Map();
  if (!result) return out;
  const d = result.data;
  for (const box of d.boxes || []) {
    for (const hand of box.hands) out.set(`${box.box}:${hand.hand}`, { word: hand.result, net: "0" });
  }
  for (const p of d.payouts || []) {
    const o = out.get(`${p.box}:${p.hand}`);
    if (!o || p.spot !== "main") continue;
    o.net = addMoney(o.net, p.net);
    if (p.blackjack && p.result === "win") o.word = "blackjack";
  }
  return out;
}

function drawBaccarat(s, table, side, settled) {
  const v = s.view;
  const sides = el("div", "sides");
  for (const name of ["player", "banker"]) {
    const p = panel(`side ${name}`);
    if (settled && settled.data.winner === name) p.classList.add("won");
    const head = el("h2");
    spaced(head, el("span", "", name.toUpperCase()), el("span", "score", v && v[name].cards.length ? String(v[name].score) : ""));
    p.append(head, DS.cards(v ? v[name].cards : []));
    sides.append(p);
  }
  table.append(sides);
  if (!side || !live.stats) return;
  side.append(panel("scoreboard", DS.roads(live.stats, { bead: 8, big: 16, derived: 16 }), tally(live.stats, s.shoe), asks(live.stats.ask)));
}

// The shoe so far: wins of each side, ties and pairs (the bead plate holds one
// cell per round of the shoe), and the cards left in it.
function tally(stats, shoe) {
  const n = { B: 0, P: 0, T: 0, bp: 0, pp: 0 };
  for (const column of (stats.bead_plate && stats.bead_plate.columns) || []) {
    for (const cell of column) {
      n[cell.winner] += 1;
      if (cell.banker_pair) n.bp += 1;
      if (cell.player_pair) n.pp += 1;
    }
  }
  return spaced(el("div", "tally"), el("span", "b", `B ${n.B}`), el("span", "p", `P ${n.P}`),
    el("span", "t", `T ${n.T}`), el("span", "", `BP ${n.bp}`), el("span", "", `PP ${n.pp}`),
    ...(shoe ? [el("span", "left", `${shoe.cards_left} CARDS LEFT`)] : []));
}

const ASK_MARKS = [["big_eye_boy", "eye"], ["small_road", "small"], ["cockroach_pig", "pig"]];
// What the three derived roads would show after a banker or a player win.
function asks(ask) {
  const row = el("div", "asks");
  for (const [who, label, cls] of [["banker", "ASK BANKER", "b"], ["player", "ASK PLAYER", "p"]]) {
    const a = el("div", `ask ${cls}`);
    a.append(el("span", "", label));
    for (const [road, kind] of ASK_MARKS) {
      const colour = ask && ask[who] ? ask[who][road] : null;
      a.append(colour ? el("span", `mark ${kind} c-${colour}`) : el("span", "none", "-"));
    }
    row.append(a);
  }
  return row;
}

// The canvas holds seven boxes of four cards a hand at full size (BOX_SLOTS card
// widths): a table whose widest hands need more gets smaller cards, never a row
// past the edge.
const BOX_SLOTS = 28;
function boxCardScale(boxes) {
  const slots = boxes.reduce((n, b) => n + Math.max(4, ...b.hands.map((h) => h.cards.length)), 0);
  return Math.min(1, BOX_SLOTS / slots);
}

function drawBlackjack(s, table, settled) {
  // Between rounds the dealer's place stays, empty, as baccarat's sides do.
  const v = s.view || { dealer: { cards: [], face_down: 0, total: 0, total_of: "all" }, boxes: [] };
  const d = v.dealer;
  const dealer = panel("dealer");
  const head = el("h2", "", ["DEALER", DS.total(d)].filter(Boolean).join(" "));
  if (d.total_of === "all" && d.total > 21) head.append(" ", el("span", "bust", "BUST"));
  else if (settled && settled.data.dealer && settled.data.dealer.blackjack) head.append(" ", el("span", "", "BLACKJACK"));
  dealer.append(head, DS.cards(d.cards, d.face_down));
  table.append(dealer);
  const outcomes = handOutcomes(settled);
  const boxes = el("div", "boxes");
  boxes.style.setProperty("--card-scale", String(boxCardScale(v.boxes)));
  for (const b of v.boxes) {
    const box = panel("box");
    box.append(spaced(el("div", "box-head"), el("span", "", `BOX ${b.box}`), el("span", "stake", b.stake)));
    b.hands.forEach((h, i) => {
      const hand = el("div", `hand ${h.status}`);
      const foot = el("div", "hand-foot");
      const o = outcomes.get(`${b.box}:${i}`);
      const status = h.status === "playing" || h.status === "standing" ? "" : ` ${h.status.toUpperCase()}`;
      foot.append(el("span", "total", `${DS.total(h)}${o ? "" : status}`));
      if (o) foot.append(el("span", `outcome ${o.word}`, `${o.word.toUpperCase()} ${signed(o.net)}`));
      hand.append(DS.cards(h.cards), foot);
      box.append(hand);
    });
    boxes.append(box);
  }
  table.append(boxes);
}

// The wheel's order as a loop: the first half left to right along the top, the
// rest right to left along the bottom, each pocket with its hits in the window.
function racetrack(stats, now) {
  const half = Math.ceil(WHEEL_ORDER.length / 2);
  const track = el("div", "racetrack");
  track.style.gridTemplateColumns = `repeat(${half}, auto)`;
  WHEEL_ORDER.forEach((n, i) => {
    const slot = el("div", "slot");
    if (n === now) slot.classList.add("now");
    slot.append(DS.pocket(n, colourOf(n)), el("span", "hits", stats ? String(stats.counts[n]) : ""));
    slot.style.gridRow = i < half ? "1" : "2";
    slot.style.gridColumn = String(i < half ? i + 1 : WHEEL_ORDER.length - i + 1);
    track.append(slot);
  });
  return track;
}

const SHARES = {
  colour: [["red", "RED"], ["black", "BLACK"], ["green", "ZERO"]],
  dozen: [["first", "1-12"], ["second", "13-24"], ["third", "25-36"], ["zero", "ZERO"]],
};

function shares(split, names) {
  const row = el("div", "shares");
  for (const [key, label] of names) {
    const s = el("div", `share ${key}`);
    s.append(el("span", "name", label), el("span", "pct", `${split[key].percent.toFixed(1)}%`));
    row.append(s);
  }
  return row;
}

function counted(numbers, cls) {
  const row = el("div", "row");
  for (const h of numbers) {
    const c = el("div", `counted ${cls}`);
    c.append(DS.pocket(h.number, colourOf(h.number)), el("span", "n", `${h.count}x`));
    row.append(c);
  }
  return row;
}

function drawRoulette(s, table, side) {
  const v = s.view;
  const st = live.stats;
  const shown = v && v.number !== undefined ? v : st && st.last.length ? st.last[0] : null;
  const spin = el("div", "spin");
  if (shown) spin.append(panel("number", DS.pocket(shown.number, shown.colour, "big")));
  spin.append(panel("track", racetrack(st, shown ? shown.number : null)));
  table.append(spin);
  if (!side || !st) return;
  const last = el("div", "last");
  for (const r of st.last) last.append(DS.pocket(r.number, r.colour));
  const hotcold = el("div", "hotcold");
  const hot = el("div");
  hot.append(el("h3", "", "HOT"), counted(st.hot, "hot"));
  const cold = el("div");
  cold.append(el("h3", "", "COLD"), counted(st.cold, "cold"));
  hotcold.append(hot, cold);
  side.append(panel("figures", el("h3", "", `LAST ${st.last.length}`), last, hotcold,
    el("h3", "", `COLOUR  LAST ${st.window}`), shares(st.colour, SHARES.colour),
    el("h3", "", `DOZEN  LAST ${st.window}`), shares(st.dozen, SHARES.dozen)));
}

const WINNER = { banker: "BANKER WINS", player: "PLAYER WINS", tie: "TIE" };

// The settled round in words: a title and the line under it.
function verdict(result, game) {
  const d = result.data;
  if (d.voided) return { title: "ROUND VOID", sub: "STAKES RETURNED", cls: "void" };
  if (game === "baccarat") {
    const [first, second] = d.winner === "player" ? ["player", "banker"] : ["banker", "player"];
    const sub = `${first.toUpperCase()} ${d[first].score} - ${second.toUpperCase()} ${d[second].score}`;
    return { title: WINNER[d.winner], sub, cls: `w-${d.winner}` };
  }
  if (game === "roulette") return { title: `${d.number} ${d.colour.toUpperCase()}`, sub: "", cls: d.colour };
  const dealer = d.dealer || {};
  const title = dealer.blackjack ? "DEALER BLACKJACK" : dealer.total > 21 ? `DEALER BUSTS ${dealer.total}` : `DEALER ${dealer.total}`;
  return { title, sub: "", cls: "" };
}

// The line for what the table does now, if viewers should read one.
const PHASE = { bets: "PLACE YOUR BETS", insurance: "INSURANCE", wheel: "NO MORE BETS", shuffle: "SHUFFLE", count_out: "SHUFFLE" };

// Why betting closed when no person did (the round state's table.closed_by), for viewers.
const CLOSED_BY = {
  below_revs_per_s: "THE BALL IS SLOWING",
  before_drop_s: "THE BALL IS ABOUT TO DROP",
  ball_dropped: "THE BALL HAS DROPPED",
  wheel_sensor: "CLOSED BY THE WHEEL",
  timer: "TIME IS UP",
};

function banner(s, settled) {
  if (settled) return verdict(settled, s.game);
  const title = PHASE[s.next.kind];
  if (!title) return null;
  const closedBy = s.next.kind === "wheel" && s.view && s.view.closed_by;
  const sub = (closedBy && CLOSED_BY[closedBy]) || "";
  return { title, sub, cls: s.next.kind, countdown: Boolean(s.next.ends_at) };
}

// Seconds left of the step's timer, on the station's clock.
function secondsLeft(s) {
  const left = Date.parse(s.next.ends_at) - Date.parse(s.at) - (Date.now() - live.receivedAt);
  return Math.max(0, Math.ceil(left / 1000));
}

function tick() {
  const c = document.querySelector("#banner .countdown");
  if (!c || !live.state || !live.state.next.ends_at) return;
  const left = secondsLeft(live.state);
  c.textContent = `${left}`;
  c.classList.toggle("low", left <= 5);
}

function render() {
  const s = live.state;
  const head = document.getElementById("head");
  const bannerArea = document.getElementById("banner");
  const side = document.getElementById("side");
  const table = document.getElementById("table");
  // The figures change with a stats message or the shoe's count, not with every
  // card: redrawn only then, since the baccarat roads are most of a page's cells.
  const sideKey = s ? `${s.game}|${live.statsVersion}|${s.shoe ? s.shoe.cards_left : ""}` : "";
  const sideStale = sideKey !== side.dataset.key;
  side.dataset.key = sideKey;
  for (const area of [head, bannerArea, table, ...(sideStale ? [side] : [])]) area.replaceChildren();
  if (!s) return;
  // The dealer's display name: all the station sends of who deals.
  if (s.dealer) {
    const dealer = tag("DEALER", s.dealer);
    dealer.id = "dealer-tag"; // the name a broadcast template or a test looks for
    head.append(dealer);
  }
  if (s.round) head.append(tag("ROUND", s.round));
  const settled = s.next.kind === "settled" && live.result && live.result.round === s.round ? live.result : null;
  const figures = sideStale ? side : null;
  if (s.game === "baccarat") drawBaccarat(s, table, figures, settled);
  else if (s.game === "blackjack") drawBlackjack(s, table, settled);
  else if (s.game === "roulette") drawRoulette(s, table, figures);
  const b = banner(s, settled);
  if (b) {
    const p = panel(`banner ${b.cls}`, el("div", "title", b.title));
    if (b.countdown) p.append(el("div", "countdown"));
    if (b.sub) p.append(el("div", "sub", b.sub));
    bannerArea.append(p);
    tick();
  }
  // For a benchmark or a test that waits on a drawing: which state is on screen.
  document.dispatchEvent(new CustomEvent("overlay:drawn", { detail: { seq: s.seq } }));
}

let drawPending = false;
function redraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => { drawPending = false; render(); });
}

function onMessage(topic, payload) {
  if (topic === "round/state") { live.state = payload; live.receivedAt = Date.now(); }
  else if (topic === "result") live.result = payload;
  else if (topic === "stats") { live.stats = payload.stats; live.statsVersion += 1; }
  else return;
  redraw();
}

// --- CasparCG's template hooks: play(), stop(), next(), update(data) ------------

window.play = () => { document.body.classList.remove("off-air"); };
window.stop = () => { document.body.classList.add("off-air"); };
// The next layout in turn: full, cards only, figures only.
window.next = () => {
  const i = LAYOUTS.indexOf(document.body.dataset.layout);
  applyOptions({ layout: LAYOUTS[(i + 1) % LAYOUTS.length] });
};
// Layout and theme from the template data; anything unknown changes nothing.
window.update = (data) => {
  let wanted;
  try { wanted = parseTemplateData(data); } catch (error) {
    const refused = { ok: false, reason: `template data not read: ${error.message}` };
    console.warn(`overlay: ${refused.reason}`);
    return refused;
  }
  const checked = checkOptions(wanted);
  if (!checked.ok) { console.warn(`overlay: ${checked.reason}`); return checked; }
  applyOptions(checked.options);
  return { ok: true };
};

if (fromQuery()) window.stop();
setInterval(tick, 250);
DS.connect(T, () => token, onMessage, (status) => {
  document.body.classList.toggle("stale", status !== "live");
});
