"use strict";
// The croupier's console: the table as the station sees it, live, and the
// croupier's and pit boss's buttons. Every button is one API call; the station
// decides, and a refusal is shown with its reason.

const T = DS.table;
const TOKEN_KEY = "ds-console-token";
const $ = (id) => document.getElementById(id);
const { el } = DS;

let consoleToken = DS.token(TOKEN_KEY);
let pit = null; // a pit boss's PIN session: { token, name, until }
const live = {
  state: null, stats: null, result: null, station: null, feed: "connecting",
  devices: {}, events: [], offset: 0,
};

// -- talking to the station ------------------------------------------------------------

async function request(method, path, body, token, extra) {
  const headers = { Authorization: `Bearer ${token || ""}`, ...(extra || {}) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return { status: response.status, data };
}

const REASON_WORDS = {
  betting_closed: "Betting is closed",
  no_round: "No round is open: OPEN BETS first",
  round_in_progress: "A round is in play: finish or void it first",
  shuffle_due: "The cut card is out: SHUFFLE first",
  counting_out: "The shoe is being counted out: read the rest, then SHUFFLE or NEW SHOE",
  misdeal: "No card is due",
  round_held: "The round holds: pit boss",
  no_shoe: "This game has no shoe",
  impossible_card: "That card cannot be in this shoe",
  not_held: "No card waits for the pit boss",
  destination_changed: "The card's place changed: CANCEL and enter it again",
  not_releasable: "An unread card is entered by hand or the round voided",
  camera_online: "The camera reads the wheel: a number by hand needs the pit boss",
  sensor_online: "The wheel sensor reads the wheel: a number by hand needs the pit boss",
  no_dealer: "No dealer signed on: DEALER first",
  already_signed_on: "That dealer is signed on already",
  no_dealer_signed_on: "No dealer is signed on",
  stale: "The table moved on: look again, then press",
  table_closed: "The table is closed: a pit boss opens it",
  table_closing: "The table closes after this round already",
  table_open: "The table is open already",
};

// A new name for each press (docs/api.md, Idempotency-Key). Random bytes, not
// crypto.randomUUID: that needs a secure origin, and a console is often plain http.
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function explain(result) {
  const d = result.data || {};
  if (result.status === 409) return `REFUSED: ${REASON_WORDS[d.reason] || d.reason} (${d.detail || d.reason})`;
  if (result.status === 422) {
    const fields = (d.detail || []).map((e) => (e.loc || []).slice(1).join(".")).join(", ");
    return `NOT SENT: check ${fields || "the input"}`;
  }
  if (result.status === 428) return "NOT SENT: WAITING FOR THE TABLE";
  if (result.status === 403) return "NOT ALLOWED FOR THIS LOGIN";
  if (result.status === 401) return "LOGIN NEEDED";
  return `ERROR ${result.status}`;
}

// The step the table showed when the open dialog was opened. A number, card or
// VOID picked in a dialog means the table as it was then: left open while the
// round ended and the next began, it must be refused as stale, not applied to
// the next round.
let dialogStep = null;

function shownStep() {
  return live.state ? live.state.next.step : null;
}

// Every command names the step of the table as the console shows it (or showed
// it when its dialog opened): the station refuses it as stale if the table has
// moved on since (docs/api.md).
function write(path, body, token, step = modal.open ? dialogStep : shownStep()) {
  const headers = { "Idempotency-Key": newKey() };
  if (step) headers["If-Match"] = `"${step}"`;
  return request("POST", `/tables/${encodeURIComponent(T)}${path}`, body, token, headers);
}

async function command(path, body, asPitBoss) {
  const result = await write(path, body, asPitBoss ? pit && pit.token : consoleToken);
  if (result.status === 200 || result.status === 202) {
    toast("DONE", "ok");
    return true;
  }
  // A dialog opened on a table that has moved on shows what no longer holds.
  if (result.status === 409 && result.data && result.data.reason === "stale" && modal.open) modal.close();
  if (result.status === 401 && asPitBoss) {
    pit = null;
    say("PIN SESSION ENDED: ENTER THE PIN AGAIN", "bad");
    return false;
  }
  if (result.status === 401) {
    if (modal.open) say(explain(result), "bad");
    else askToken();
    return false;
  }
  say(explain(result), "bad");
  return false;
}

// A message goes where the croupier is looking: inside the open dialog that
// caused it (a toast would sit under the dialog's backdrop), else a toast.
function say(text, kind) {
  const msg = modal.open ? $("modal-msg") : null;
  if (!msg) { toast(text, kind); return; }
  msg.textContent = text;
  msg.className = `msg ${kind}`;
}

let toastTimer = 0;
function toast(text, kind) {
  const t = $("toast");
  t.textContent = text;
  t.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.className = ""; }, kind === "bad" ? 6000 : 2000);
}

// The European wheel's colours (games/roulette_layout.py): the stats name a hot
// or cold number without its colour.
const REDS = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
function colourOf(n) {
  return n === 0 ? "green" : REDS.has(n) ? "red" : "black";
}

// -- the live feed ----------------------------------------------------------------------

function onMessage(topic, payload) {
  if (topic === "round/state") live.state = payload;
  else if (topic === "state") live.opening = payload;
  else if (topic === "result") live.result = payload;
  else if (topic === "stats") live.stats = payload.stats;
  else if (topic.startsWith("device/")) live.devices[topic.slice(7)] = payload;
  else if (topic === "station") {
    live.station = payload;
    live.offset = Date.parse(payload.at) - Date.now();
  } else if (topic === "round/event") {
    if (payload.type === "round_opened") live.events = [];
    live.events.push(payload);
  }
  schedule();
}

function onStatus(status) {
  live.feed = status;
  if (status === "unauthorized") askToken();
  schedule();
}

let drawing = false;
function schedule() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => { drawing = false; render(); });
}

// -- drawing ------------------------------------------------------------------------------

function signedIn() {
  return !!consoleToken && live.feed !== "unauthorized";
}

// Why no button may be pressed now, or "": presses made blind (an old or no
// feed), that players would not see (no broker), or that no one may send.
function blockedBy() {
  if (!signedIn()) return "SIGN IN NEEDED";
  if (live.feed !== "live") return "NO LIVE DATA";
  if (!live.state) return "WAITING FOR THE TABLE";
  if (live.station && live.station.broker !== "online") return "BROKER DOWN";
  return "";
}

// The links whose loss stops the game for players or the croupier, in words.
function losses() {
  const lost = [];
  if (live.feed === "live" && live.station && live.station.broker !== "online") {
    const backlog = live.station.backlog ? `, ${live.station.backlog} MESSAGES KEPT FOR IT` : "";
    lost.push(`BROKER DOWN: PLAYERS AND THE GAME SERVER SEE NOTHING${backlog}`);
  }
  for (const [name, d] of Object.entries(live.devices)) {
    if (d.state !== "online") lost.push(`${name.toUpperCase()} OFFLINE${d.detail ? `: ${d.detail}` : ""}`);
  }
  return lost;
}

function render() {
  const s = live.state;
  const feedText = !signedIn() ? "SIGN IN NEEDED" : live.feed === "live" ? "LIVE" : "STALE";
  document.body.classList.toggle("stale", live.feed !== "live");
  document.body.classList.toggle("signed-out", !signedIn());
  $("stale-note").textContent = signedIn()
    ? "NO LIVE DATA: RECONNECTING. WHAT YOU SEE MAY BE OLD."
    : "SIGN IN NEEDED: ENTER THIS CONSOLE'S TOKEN.";
  $("table-id").textContent = T;
  $("game").textContent = s ? `${s.game.toUpperCase()} · ${s.variant}` : "";
  $("round").textContent = s && s.round ? `ROUND ${s.round}` : "";
  dev("dev-feed", live.feed === "live", feedText);
  for (const name of ["shoe", "camera"]) {
    const d = live.devices[name];
    dev(`dev-${name}`, d && d.state === "online", name.toUpperCase(), d === undefined);
  }
  dev("dev-broker", live.station && live.station.broker === "online", "BROKER");
  const lost = $("lost");
  lost.replaceChildren(...losses().map((text) => el("div", "", text)));
  renderDealer(s);
  renderOpening(live.opening);
  renderButtons(s);
  blockDialog(blockedBy());
  const counting = s && s.shoe && s.shoe.counted_out !== null && s.shoe.counted_out !== undefined;
  $("shoe-left").textContent = !s || !s.shoe ? ""
    : counting ? `COUNTED ${s.shoe.counted_out} · ${s.shoe.cards_left} TO READ`
    : `${s.shoe.cards_left} CARDS${s.shoe.cut_card_out ? " · CUT CARD OUT" : ""}`;
  if (!s) {
    if (!signedIn()) $("action").textContent = "SIGN IN NEEDED";
    return;
  }
  document.body.dataset.game = s.game;
  renderBanner(s);
  renderAlarms(s);
  const view = $("view");
  const side = $("side");
  view.replaceChildren();
  side.replaceChildren();
  if (s.game === "baccarat") renderBaccarat(s, view, side);
  else if (s.game === "blackjack") renderBlackjack(s, view, side);
  else renderRoulette(s, view, side);
}

// A closing or closed table says so, and who closed it and why, under the
// action: the croupier must not wonder why OPEN BETS is refused.
function renderOpening(o) {
  const note = $("opening");
  const by = o && o.by ? o.by.toUpperCase() : "THE STATION";
  const why = o && o.reason ? `: ${o.reason.toUpperCase()}` : "";
  note.textContent = !o || o.state === "open" ? ""
    : o.state === "closing" ? `CLOSING AFTER THIS ROUND (${by}${why})`
    : `TABLE CLOSED BY ${by}${why}`;
  note.dataset.state = o ? o.state : "";
}

// An open dialog's buttons go off with the others (CANCEL aside), and come back
// as they were; the sign-in dialog is what ends SIGN IN NEEDED, so it stays on.
function blockDialog(blocked) {
  if (!modal.open || modal.dataset.kind === "login") return;
  const why = blocked ? `BUTTONS OFF: ${blocked}` : "";
  for (const b of modal.querySelectorAll("button:not(.close)")) {
    if (why && !b.disabled) {
      b.disabled = true;
      b.dataset.blocked = "1";
      b.title = blocked;
    } else if (!why && b.dataset.blocked) {
      b.disabled = false;
      delete b.dataset.blocked;
      b.title = "";
    }
  }
  const msg = $("modal-msg");
  if (why) { msg.textContent = why; msg.className = "msg bad"; msg.dataset.blocked = "1"; }
  else if (msg.dataset.blocked) { msg.textContent = ""; msg.className = "msg"; delete msg.dataset.blocked; }
}

// Before the first state no game is known, so no game's buttons are shown.
function renderButtons(s) {
  const blocked = blockedBy();
  const nav = $("buttons");
  nav.hidden = !s;
  $("blocked").textContent = blocked ? `BUTTONS OFF: ${blocked}` : "";
  for (const b of nav.querySelectorAll("button")) {
    const games = b.dataset.games;
    b.hidden = !s || (games !== "all" && !games.split(" ").includes(s.game));
    b.classList.toggle("suggested", !!s && suggested(s).includes(b.dataset.do));
    const why = busy.has(b) ? "SENDING" : blocked;
    b.disabled = !!why;
    b.title = why;
  }
}

// Who deals, as the table records it: the display name, never more.
function renderDealer(s) {
  const d = $("dealer");
  const next = s && s.dealer_next;
  d.textContent = !s ? "" : s.dealer ? `DEALER ${s.dealer}` : "NO DEALER SIGNED ON";
  if (next) d.textContent += ` · NEXT ROUND: ${next.dealer || "NO DEALER"}`;
  d.className = s && !s.dealer ? "none" : "";
}

function dev(id, ok, text, absent) {
  const d = $(id);
  d.textContent = text;
  d.className = `dev ${absent ? "absent" : ok ? "ok" : "down"}`;
  d.hidden = !!absent && id !== "dev-feed";
}

function suggested(s) {
  const kind = s.next.kind;
  if (kind === "round_open" || kind === "settled") return ["open"];
  if (kind === "bets") return ["close"];
  if (kind === "insurance") return ["deal"];
  if (kind === "wheel") return ["result"];
  if (kind === "shuffle") return ["count_out", "shuffle"];
  if (kind === "count_out") return ["shuffle", "new_shoe"];
  if (kind === "pit_boss" || kind === "closed") return ["pit"];
  return [];
}

function renderBanner(s) {
  const banner = $("banner");
  banner.dataset.kind = s.next.kind;
  let action = s.action;
  const respin = s.next.kind === "wheel" && s.alarms.find((a) => /^RE-SPIN/i.test(a.message));
  if (respin) action = respin.message.toUpperCase();
  const result = settledResult(s);
  if (result && s.game === "baccarat" && !result.data.voided) $("action").replaceChildren(...baccaratVerdict(result.data));
  else $("action").textContent = result ? DS.verdict(result, s.game) : action;
  const options = $("options");
  options.replaceChildren();
  if (s.next.kind === "decision" || s.next.kind === "insurance") {
    options.append(el("span", "due-label", s.next.kind === "insurance" ? s.next.to.toUpperCase() : "PLAYER MAY"));
    for (const o of s.next.options || []) options.append(el("span", "opt", o.replace("_", " ").toUpperCase()));
  }
  tick();
}

function tick() {
  const s = live.state;
  const c = $("countdown");
  if (!s || !s.next.ends_at) { c.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((Date.parse(s.next.ends_at) - (Date.now() + live.offset)) / 1000));
  c.textContent = `${left}s`;
  c.classList.toggle("low", left <= 3);
}
setInterval(tick, 250);

// The settlement of the round on screen, once it is settled.
function settledResult(s) {
  return s.next.kind === "settled" && live.result && live.result.round === s.round ? live.result : null;
}

const WINS = { banker: "BANKER WINS", player: "PLAYER WINS", tie: "TIE" };
// "PLAYER WINS  BANKER 6 - PLAYER 8": each score beside its side's name, the
// winner's in its colour and outlined (colour is never the only cue: the words say it).
function baccaratVerdict(d) {
  const side = (name) => el("span", `score-of ${name}${d.winner === name ? " winner" : ""}`, `${name.toUpperCase()} ${d[name].score}`);
  const scores = el("span", "scores");
  scores.append(side("banker"), " - ", side("player"));
  return [el("span", `verdict ${d.winner}`, WINS[d.winner]), " ", scores];
}

function renderAlarms(s) {
  const box = $("alarms");
  box.replaceChildren();
  for (const a of s.alarms) {
    const item = el("div", "alarm");
    item.append(el("b", "", a.code.replaceAll("_", " ").toUpperCase()), el("span", "", a.message));
    box.append(item);
  }
}

function renderBaccarat(s, view, side) {
  const v = s.view || { player: { cards: [], score: 0 }, banker: { cards: [], score: 0 } };
  const due = s.next.kind === "card" ? s.next.to : "";
  const result = settledResult(s);
  const winner = result && !result.data.voided ? result.data.winner : "";
  const sides = el("div", "baccarat");
  for (const name of ["player", "banker"]) {
    const won = winner === name || winner === "tie";
    const panel = el("div", `side ${name}${due === name ? " due" : ""}${won ? " winner" : ""}`);
    const head = el("h2", "", name.toUpperCase());
    if (won) head.append(el("span", "won", winner === "tie" ? "TIE" : "WINS"));
    panel.append(head, DS.cards(v[name].cards));
    panel.append(el("div", "score", v[name].cards.length ? String(v[name].score) : "–"));
    sides.append(panel);
  }
  view.append(sides);
  side.append(DS.roads(live.stats, { bead: 6, big: 12, derived: 12 }));
}

function decisionsOf(box) {
  return live.events.filter((e) => e.type === "decision" && e.data.box === box);
}

// A settled hand in the croupier's words, "WIN +50": the result and what the
// box's main stakes on that hand won or lost (bets behind and side bets apart).
const RESULT_WORDS = { win: "WIN", lose: "LOSE", push: "PUSH", surrender: "SURRENDER", void: "VOID" };
function handResult(d, box, index) {
  const b = (d.boxes || []).find((x) => x.box === box);
  const h = b && b.hands.find((x) => x.hand === index);
  if (!h) return null;
  const mine = (d.payouts || []).filter((p) => p.spot === "main" && p.box === box && p.hand === index);
  const word = mine.some((p) => p.blackjack && p.result === "win") ? "BLACKJACK" : RESULT_WORDS[h.result] || h.result.toUpperCase();
  const net = mine.reduce((sum, p) => sum + Number(p.net), 0);
  const amount = !mine.length ? "" : net > 0 ? ` +${net}` : net < 0 ? ` \u2212${-net}` : " \u00B10";
  return { word, text: `${word}${amount}` };
}

function renderBlackjack(s, view, side) {
  const v = s.view;
  const due = s.next.to || "";
  const result = settledResult(s);
  const dealer = el("div", `dealer${due === "dealer" ? " due" : ""}`);
  dealer.append(el("h2", "", "DEALER"));
  if (v) {
    const bust = v.dealer.total_of === "all" && v.dealer.total > 21;
    dealer.append(DS.cards(v.dealer.cards, v.dealer.face_down), el("div", `total${bust ? " bust" : ""}`, bust ? `${v.dealer.total} BUST` : DS.total(v.dealer)));
  }
  view.append(dealer);
  const boxes = el("div", "boxes");
  for (const b of (v && v.boxes) || []) {
    const box = el("div", `box${due.startsWith(`box ${b.box} `) ? " due" : ""}`);
    const head = el("div", "box-head");
    head.append(el("b", "", `BOX ${b.box}`), el("span", "", `${b.seated || ""} · ${b.stake}`));
    if (b.behind !== "0") head.append(el("span", "behind", `BEHIND ${b.behind}`));
    box.append(head);
    b.hands.forEach((h, i) => {
      const hand = el("div", `hand ${h.status}${due === `box ${b.box} hand ${i}` ? " due" : ""}`);
      if (b.hands.length > 1) hand.append(el("span", "hand-no", `HAND ${i + 1}`));
      hand.append(DS.cards(h.cards));
      // Once settled the result says what the status said (but a bust).
      const settled = result && handResult(result.data, b.box, i);
      const plain = h.status === "playing" || (settled && h.status !== "bust");
      const label = plain ? String(settled ? h.total : DS.total(h)) : `${DS.total(h)} ${h.status.toUpperCase()}`;
      hand.append(el("div", "total", `${label}${h.doubled ? " · DOUBLED" : ""}`));
      if (settled) hand.append(el("div", `result r-${settled.word.toLowerCase()}`, settled.text));
      box.append(hand);
    });
    // What was decided, as words, not chips: nothing here can be tapped.
    const said = el("div", "said");
    for (const d of decisionsOf(b.box)) {
      // Diamond Blackjack warns of a decision far from basic strategy.
      const word = d.data.action.replaceAll("_", " ").toUpperCase();
      said.append(el("span", d.data.warning ? "said-one warned" : "said-one", d.data.warning ? `${word} ⚠` : word));
    }
    box.append(said);
    boxes.append(box);
  }
  view.append(boxes);
  side.append(el("h3", "", "DECISIONS"));
  const list = el("ol", "decisions");
  for (const d of live.events.filter((e) => e.type === "decision").slice(-12).reverse()) {
    const who = d.data.hand !== undefined ? `BOX ${d.data.box} HAND ${d.data.hand + 1}` : `BOX ${d.data.box} ${d.data.player || ""}`;
    const warned = d.data.warning ? ` ⚠ ${d.data.warning}` : "";
    list.append(el("li", d.data.warning ? "warned" : "", `${who}: ${d.data.action.replaceAll("_", " ").toUpperCase()} (${d.source})${warned}`));
  }
  side.append(list);
}

// A hot or cold number: its pocket in the wheel's colour, and how often it came up.
function hits(entry) {
  const item = el("span", "hits");
  item.append(DS.pocket(entry.number, colourOf(entry.number)), el("span", "count", `\u00D7${entry.count}`));
  item.title = `${entry.number}: ${entry.count} in the last ${live.stats.spins || ""} spins`;
  return item;
}

function renderRoulette(s, view, side) {
  const v = s.view || {};
  const wheel = el("div", "wheel");
  if (v.number !== undefined) wheel.append(DS.pocket(v.number, v.colour, "big"));
  else wheel.append(el("div", "bets", `${v.bets || 0} BETS`));
  view.append(wheel);
  const st = live.stats;
  if (!st) return;
  side.append(el("h3", "", "LAST RESULTS"));
  const last = el("div", "last");
  for (const r of st.last) last.append(DS.pocket(r.number, r.colour));
  const hotCold = el("div", "hot-cold");
  for (const [title, entries] of [["HOT", st.hot], ["COLD", st.cold]]) {
    const group = el("div", title.toLowerCase());
    const list = el("div", "last");
    for (const entry of entries) list.append(hits(entry));
    group.append(el("h3", "", title), list);
    hotCold.append(group);
  }
  side.append(last, hotCold);
}

// -- dialogs --------------------------------------------------------------------------------

const modal = $("modal");
function dialog(title, build) {
  const body = $("modal-body");
  body.replaceChildren(el("h2", "", title));
  build(body);
  const msg = el("p", "msg", "");
  msg.id = "modal-msg";
  msg.setAttribute("role", "alert");
  body.append(msg);
  const close = el("button", "close", "CANCEL");
  close.type = "button";
  close.append(el("kbd", "", "Esc"));
  close.onclick = () => modal.close();
  body.append(close);
  modal.dataset.kind = title === LOGIN ? "login" : "";
  if (!modal.open) {
    dialogStep = shownStep();
    modal.showModal();
  }
}

function button(label, key, action, cls) {
  const b = el("button", cls || "");
  b.type = "button";
  b.append(el("b", "", label));
  if (key) { b.append(el("kbd", "", key.toUpperCase())); b.dataset.key = key; }
  b.onclick = inFlight(b, action);
  return b;
}

// A button is disabled while what it sent is in flight: a double-click, or a key
// pressed twice, sends one request. A press that sent a command (its action says
// whether it was accepted) stays disabled for a double-click's interval from the
// press, so that a second press landing after a fast answer is not sent again; a
// pad's keys, which send nothing, take the same key twice at once. A disabled
// button takes no click.
const DOUBLE_PRESS_MS = 500;
const busy = new Set();
function inFlight(b, action) {
  return async () => {
    if (b.disabled) return;
    b.disabled = true;
    busy.add(b);
    const pressed = performance.now();
    try {
      if (typeof (await action()) === "boolean") {
        const left = DOUBLE_PRESS_MS - (performance.now() - pressed);
        if (left > 0) await new Promise((done) => setTimeout(done, left));
      }
    } finally {
      busy.delete(b);
      b.disabled = false;
      schedule();
    }
  };
}

// Where a card goes, as the croupier reads it: "box 2 hand 0" is BOX 2 - HAND 1.
function placeText(to) {
  const m = /^box (\d+) hand (\d+)$/.exec(to || "");
  return m ? `BOX ${m[1]} - HAND ${Number(m[2]) + 1}` : (to || "").toUpperCase();
}

function pickCard(title, then) {
  let rank = "";
  let suit = "";
  dialog(title, (body) => {
    const shown = el("div", "picked", "?");
    const ok = button("OK", "enter", () => then(rank + suit), "primary");
    ok.disabled = true;
    const update = () => {
      shown.replaceChildren(rank && suit ? DS.card(rank + suit) : el("span", "", `${rank === "T" ? "10" : rank}${suit}` || "?"));
      ok.disabled = !(rank && suit);
    };
    const ranks = el("div", "pad ranks");
    for (const r of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]) {
      ranks.append(button(r === "T" ? "10" : r, null, () => { rank = r; update(); }));
    }
    const suits = el("div", "pad suits");
    for (const [code, sym] of [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]]) {
      suits.append(button(sym, null, () => { suit = code; update(); }, code === "H" || code === "D" ? "red" : ""));
    }
    body.append(shown, ranks, suits, ok);
  });
}

// A number by hand is two presses: tap it, then confirm it as read back with its
// colour ("23 RED - CONFIRM"), so one stray tap commits nothing.
function pickNumber(title, then) {
  const colour = colourOf;
  let number = null;
  dialog(title, (body) => {
    const pad = el("div", "pad numbers");
    const confirm = button("TAP THE NUMBER", "enter", async () => { if (number !== null) await then(number); }, "primary confirm");
    confirm.disabled = true;
    for (let n = 0; n <= 36; n++) {
      pad.append(button(String(n), null, () => {
        number = n;
        confirm.querySelector("b").textContent = `${n} ${colour(n).toUpperCase()} - CONFIRM`;
        confirm.className = `primary confirm ${colour(n)}`;
        confirm.disabled = false;
      }, colour(n)));
    }
    body.append(pad, confirm);
  });
}

const REASONS = {
  void: ["Shoe or scanner fault", "Misdeal: cards out of order", "Dealer error", "Game server fault"],
  card: ["Card unread by the scanner", "Card misread: entered as it is"],
  release: ["Foreign card removed from the table", "Misread card set aside"],
  burn: ["Card drawn when none was due"],
  wheel: ["Camera unsure: number checked", "Camera offline: number checked"],
  respin: ["Ball off the track", "Too few revolutions", "Ball spun the wrong way"],
  close: ["End of shift", "Table maintenance", "Game server fault"],
};

function askReason(kind, then) {
  dialog("WHY?", (body) => {
    const list = el("div", "reasons");
    for (const r of REASONS[kind]) list.append(button(r.toUpperCase(), null, () => then(r)));
    const input = el("input", "why");
    input.placeholder = "or type the reason";
    input.id = "why-text";
    const go = button("OK", "enter", () => (input.value.trim().length >= 3 ? then(input.value.trim()) : undefined), "primary");
    body.append(list, input, go);
  });
}

async function pitAction(path, body) {
  if (await command(`/pit-boss/${path}`, body, true)) modal.close();
}

function pitMenu() {
  if (!pit || Date.now() > pit.until) { pit = null; pitLogin(); return; }
  dialog(`PIT BOSS: ${pit.name}`, (body) => {
    const game = live.state ? live.state.game : "";
    const menu = el("div", "menu");
    menu.append(button("VOID ROUND", "v", () => askReason("void", (why) => pitAction("void", { why })), "danger"));
    const held = () => live.state && live.state.next.kind === "pit_boss";
    if (game !== "roulette") {
      // A card by hand only for the card the round holds for, and for the place
      // it is due when ENTER CARD is pressed: the station refuses it elsewhere.
      if (held() && live.state.next.to) {
        menu.append(button("ENTER CARD", "c", () => {
          const to = held() ? live.state.next.to : "";
          if (!to) { say(`REFUSED: ${REASON_WORDS.not_held}`, "bad"); return; }
          askReason("card", (why) => pickCard(`CARD FOR ${placeText(to)}`, (card) => pitAction("card", { card, to, why })));
        }));
      }
      if (held()) menu.append(button("RELEASE HOLD", "h", () => askReason("release", (why) => pitAction("release", { why }))));
      menu.append(button("BURN MISDEALT CARD", "m", () => askReason("burn", (why) => pickCard("CARD TO BURN", (card) => pitAction("burn", { card, why })))));
    } else {
      menu.append(button("CONFIRM NUMBER", "n", () => askReason("wheel", (why) => pickNumber("WINNING NUMBER", (number) => pitAction("wheel-result", { number, why })))));
      menu.append(button("RE-SPIN", "r", () => askReason("respin", (why) => pitAction("respin", { why }))));
    }
    // No "close now": a round in play is never voided by the table's state.
    if (!live.opening || live.opening.state === "open") {
      menu.append(button("CLOSE AFTER THIS ROUND", "t", () => askReason("close", (why) => pitAction("close", { why }))));
    } else {
      menu.append(button("OPEN TABLE", "t", () => pitAction("open", {})));
    }
    menu.append(button("LOCK", "l", async () => {
      await request("POST", "/auth/logout", undefined, pit.token);
      pit = null;
      modal.close();
    }));
    body.append(menu);
  });
}

async function pitLogin() {
  const names = await request("GET", "/auth/pit-bosses", undefined, consoleToken);
  if (names.status !== 200) { toast(explain(names), "bad"); return; }
  dialog("PIT BOSS", (body) => {
    const list = el("div", "menu");
    for (const name of names.data) list.append(button(name.toUpperCase(), null, () => pinPad(name, pitSignIn)));
    body.append(list);
  });
}

// A dealer signs on at this table's console: from now on (from the next round,
// during one) they deal here. The console keeps its own token and role.
async function dealerMenu() {
  const names = await request("GET", "/auth/dealers", undefined, consoleToken);
  if (names.status !== 200) { toast(explain(names), "bad"); return; }
  dialog("DEALER SIGN-ON", (body) => {
    const list = el("div", "menu");
    for (const name of names.data) list.append(button(name.toUpperCase(), null, () => pinPad(name, dealerSignOn)));
    if (live.state && live.state.dealer) {
      list.append(button(`SIGN OFF ${live.state.dealer.toUpperCase()}`, "f", async () => {
        if (await command("/dealer/sign-off")) modal.close();
      }, "danger"));
    }
    body.append(list);
  });
}

async function dealerSignOn(name, pin) {
  // Meant for the table as it is now, not as it was when the dialog opened: the
  // station says whether it applies now or from the next round.
  const r = await write("/dealer", { name, pin }, consoleToken, shownStep());
  if (r.status === 200) {
    modal.close();
    const later = (r.data.outputs || []).some((o) => o.type === "dealer_changed" && o.applies === "next_round");
    toast(later ? `${name.toUpperCase()}: FROM THE NEXT ROUND` : `${name.toUpperCase()} SIGNED ON`, "ok");
    return;
  }
  say(pinRefusal(r), "bad");
}

function pinRefusal(r) {
  return r.status === 429 ? "TOO MANY WRONG PINS: WAIT" : r.status === 401 ? "WRONG PIN" : explain(r);
}

async function pitSignIn(name, pin) {
  const r = await request("POST", "/auth/pit-boss", { name, pin }, consoleToken);
  if (r.status !== 200) {
    say(pinRefusal(r), "bad");
    return;
  }
  pit = { token: r.data.token, name: r.data.name, until: Date.now() + r.data.expires_in * 1000 };
  pitMenu();
}

function pinPad(name, submit) {
  let pin = "";
  dialog(`PIN: ${name}`, (body) => {
    const shown = el("div", "picked pin", "");
    const pad = el("div", "pad digits");
    const press = (d) => { pin += d; shown.textContent = "\u2022".repeat(pin.length); };
    for (const d of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]) pad.append(button(d, d, () => press(d)));
    pad.append(button("\u232B", "backspace", () => { pin = pin.slice(0, -1); shown.textContent = "\u2022".repeat(pin.length); }));
    const ok = button("OK", "enter", async () => {
      const typed = pin;
      pin = "";
      shown.textContent = "";
      await submit(name, typed);
    }, "primary");
    body.append(shown, pad, ok);
  });
}

const LOGIN = "CONSOLE LOGIN";
function askToken() {
  if (modal.open) return;
  dialog(LOGIN, (body) => {
    body.append(el("p", "", "Enter this console's token (from the station's [auth] config)."));
    const input = el("input", "why");
    input.type = "password";
    input.id = "token-text";
    body.append(input, button("OK", "enter", () => {
      consoleToken = input.value.trim();
      localStorage.setItem(TOKEN_KEY, consoleToken);
      modal.close();
      feed.reconnect();
    }, "primary"));
  });
}

// -- the croupier's buttons -----------------------------------------------------------------

const ACTIONS = {
  open: () => command("/round/open"),
  close: () => command("/round/close-bets"),
  deal: () => command("/round/deal"),
  shuffle: () => command("/shoe/shuffle"),
  count_out: () => command("/shoe/count_out"),
  new_shoe: () => command("/shoe/new"),
  burn: () => pickCard("BURN CARD", async (card) => { if (await command("/shoe/burn", { card })) modal.close(); }),
  result: () => pickNumber("WINNING NUMBER", async (number) => { if (await command("/wheel/result", { number })) modal.close(); }),
  pit: () => (pit ? pitMenu() : pitLogin()),
  dealer: () => dealerMenu(),
};

for (const b of document.querySelectorAll("#buttons button")) b.onclick = inFlight(b, () => ACTIONS[b.dataset.do]());

document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement) {
    if (ev.key === "Enter") { const ok = modal.querySelector('button[data-key="enter"]'); if (ok) ok.click(); }
    return;
  }
  const key = ev.key.toLowerCase();
  const scope = modal.open ? modal : $("buttons");
  const target = [...scope.querySelectorAll("button[data-key]")].find((b) => b.dataset.key === key && !b.hidden && !b.disabled);
  if (target) { ev.preventDefault(); target.click(); }
});

const feed = DS.connect(T, () => consoleToken, onMessage, onStatus);
render();
