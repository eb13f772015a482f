"use strict";
// Shared by the console and the overlay: the token, the live feed (the table's
// MQTT topics relayed by the station's WebSocket, docs/api.md), cards and roads.

const DS = (() => {
  const parts = location.pathname.split("/").filter(Boolean);
  const table = decodeURIComponent(parts[parts.length - 1] || "");
  // A page opened as /console/t#token=... keeps the token for later visits, and
  // the fragment leaves the address bar (it never reaches the server's logs).
  function token(key) {
    const match = location.hash.match(/token=([^&]+)/);
    if (match) {
      localStorage.setItem(key, decodeURIComponent(match[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
    return localStorage.getItem(key);
  }

  const STALE_MS = 6000; // three missed heartbeats
  // Opens the feed and keeps it open; onStatus gets live, stale or unauthorized.
  function connect(tableId, getToken, onMessage, onStatus) {
    let socket = null;
    let last = 0;
    let delay = 500;
    let status = "";
    const setStatus = (s) => { if (s !== status) { status = s; onStatus(s); } };
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/tables/${encodeURIComponent(tableId)}/ws`);
      socket.onopen = () => socket.send(JSON.stringify({ token: getToken() || "" }));
      socket.onmessage = (msg) => {
        last = Date.now();
        delay = 500;
        setStatus("live");
        const { topic, payload } = JSON.parse(msg.data);
        onMessage(topic, payload);
      };
      socket.onclose = (ev) => {
        socket = null;
        if (ev.code === 4401) { setStatus("unauthorized"); return; }
        setStatus("stale");
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      };
    }
    setInterval(() => {
      if (status === "live" && Date.now() - last > STALE_MS) {
        setStatus("stale");
        if (socket) socket.close(); // a half-open socket: start again
      }
    }, 1000);
    open();
    return { reconnect: () => { if (socket) socket.close(); else open(); } };
  }

  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function card(code) {
    const rank = code[0] === "T" ? "10" : code[0];
    const suit = code[1];
    const c = el("span", `card ${suit === "H" || suit === "D" ? "red" : "black"}`);
    c.append(el("span", "rank", rank), el("span", "suit", SUITS[suit] || suit));
    c.title = code;
    return c;
  }
  // A face-down card: its back, and nothing of its value (the station never
  // sends it, docs/mqtt.md "Visibility").
  function back() {
    const c = el("span", "card back");
    c.title = "face down";
    return c;
  }
  function cards(codes, faceDown) {
    const row = el("div", "cards");
    for (const code of codes || []) row.append(card(code));
    for (let i = 0; i < (faceDown || 0); i++) row.append(back());
    return row;
  }
  // A total of the face-up cards only says so: "10 + ?".
  function total(hand) {
    if (!hand.cards || hand.cards.length === 0) return "";
    const shown = hand.soft ? `soft ${hand.total}` : String(hand.total);
    return hand.total_of === "face_up" ? `${shown} + ?` : shown;
  }

  // A road as players know it: a grid of 6 rows, newest columns on the right.
  function road(name, data, kind, maxColumns) {
    const box = el("div", `road road-${kind}`);
    box.append(el("div", "road-name", name));
    const grid = el("div", "road-grid");
    const columns = (data && data.columns) || [];
    const shown = columns.slice(-maxColumns);
    const first = columns.length - shown.length;
    grid.style.gridTemplateColumns = `repeat(${maxColumns}, 1fr)`;
    for (let i = 0; i < maxColumns * 6; i++) grid.append(el("span", "cell"));
    for (const column of shown) {
      for (const cell of column) {
        const col = cell.col - first;
        if (col < 0 || col >= maxColumns || cell.row >= 6) continue;
        const slot = grid.children[cell.row * maxColumns + col];
        const mark = el("span", "mark");
        if (kind === "bead") {
          mark.classList.add(`w-${cell.winner}`);
          mark.textContent = cell.winner;
        } else if (kind === "big") {
          mark.classList.add(`w-${cell.winner}`, "ring");
          if (cell.ties) mark.append(el("span", "ties", cell.ties > 1 ? String(cell.ties) : "/"));
        } else {
          mark.classList.add(`c-${cell.colour}`, kind);
        }
        if (cell.player_pair) mark.append(el("span", "pair pp"));
        if (cell.banker_pair) mark.append(el("span", "pair bp"));
        slot.append(mark);
      }
    }
    box.append(grid);
    return box;
  }
  // Bead plate beside the big road (cells of one size), the three derived roads
  // below; ``columns`` says how many columns of each to show.
  function roads(stats, columns) {
    const wrap = el("div", "roads");
    if (!stats) return wrap;
    const main = el("div", "roads-main");
    main.style.gridTemplateColumns = `${columns.bead}fr ${columns.big}fr`;
    main.append(
      road("BEAD PLATE", stats.bead_plate, "bead", columns.bead),
      road("BIG ROAD", stats.big_road, "big", columns.big),
    );
    const derived = el("div", "roads-derived");
    derived.append(
      road("BIG EYE BOY", stats.big_eye_boy, "eye", columns.derived),
      road("SMALL ROAD", stats.small_road, "small", columns.derived),
      road("COCKROACH PIG", stats.cockroach_pig, "pig", columns.derived),
    );
    wrap.append(main, derived);
    return wrap;
  }
  function pocket(number, colour, cls) {
    return el("span", `pocket ${colour || ""} ${cls || ""}`, String(number));
  }
  // The settlement of the round shown, in words (a baccarat coup's, banker first and
  // the winner marked, the console and the overlay each draw themselves).
  function verdict(result, game) {
    if (!result) return "";
    const d = result.data;
    if (d.voided) return "ROUND VOID: STAKES RETURNED";
    if (game === "roulette") return `${d.number} ${d.colour.toUpperCase()}`;
    if (game === "blackjack") {
      const dealer = d.dealer || {};
      return dealer.blackjack ? "DEALER BLACKJACK" : `DEALER ${dealer.total > 21 ? "BUSTS" : dealer.total}`;
    }
    return "";
  }
  return { table, token, connect, el, card, cards, total, roads, pocket, verdict };
})();
