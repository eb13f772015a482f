"use strict";
// The stream's overlay: the table's MQTT topics (relayed by the station's
// WebSocket) drawn over the video. Read-only: a viewer token is enough.

const T = DS.table;
const { el } = DS;
const token = DS.token("ds-overlay-token");
const live = { state: null, stats: null, result: null, events: [] };

function panel(...children) {
  const p = el("div", "panel");
  p.append(...children);
  return p;
}

function render() {
  const s = live.state;
  const table = document.getElementById("table");
  const corner = document.getElementById("corner");
  const result = document.getElementById("result");
  const dealerTag = document.getElementById("dealer-tag");
  table.replaceChildren();
  corner.replaceChildren();
  result.replaceChildren();
  dealerTag.replaceChildren();
  if (!s) return;
  // The dealer's display name: all the station sends of who deals.
  if (s.dealer) dealerTag.append(panel(el("span", "", `DEALER  ${s.dealer}`)));
  const v = s.view;
  if (s.game === "baccarat" && v) {
    for (const name of ["player", "banker"]) {
      const side = el("div", `side ${name}`);
      side.append(el("h2", "", `${name.toUpperCase()}  ${v[name].cards.length ? v[name].score : ""}`), DS.cards(v[name].cards));
      table.append(side);
    }
    if (live.stats) corner.append(panel(DS.roads(live.stats, { bead: 8, big: 16, derived: 16 })));
  } else if (s.game === "blackjack" && v) {
    const dealer = el("div", "dealer");
    dealer.append(el("h2", "", `DEALER  ${DS.total(v.dealer)}`), DS.cards(v.dealer.cards, v.dealer.face_down));
    table.append(dealer);
    for (const b of v.boxes) {
      const box = el("div", "box");
      box.append(el("div", "box-head", `BOX ${b.box}`));
      for (const h of b.hands) {
        box.append(DS.cards(h.cards), el("div", "total", h.status === "playing" ? DS.total(h) : `${DS.total(h)} ${h.status.toUpperCase()}`));
      }
      table.append(box);
    }
  } else if (s.game === "roulette") {
    if (v && v.number !== undefined) table.append(panel(DS.pocket(v.number, v.colour, "big")));
    if (live.stats) {
      const history = el("div", "history");
      for (const r of live.stats.last) history.append(DS.pocket(r.number, r.colour));
      const hot = el("div", "history");
      for (const h of live.stats.hot) hot.append(DS.pocket(h.number, "", "hot"));
      const cold = el("div", "history");
      for (const c of live.stats.cold) cold.append(DS.pocket(c.number, "", "cold"));
      corner.append(panel(el("h3", "", "LAST"), history, el("h3", "", "HOT"), hot, el("h3", "", "COLD"), cold));
    }
  }
  if (s.next.kind === "settled" && live.result && live.result.round === s.round) {
    result.append(panel(el("span", "", DS.verdict(live.result, s.game))));
  }
}

function onMessage(topic, payload) {
  if (topic === "round/state") live.state = payload;
  else if (topic === "result") live.result = payload;
  else if (topic === "stats") live.stats = payload.stats;
  else return;
  requestAnimationFrame(render);
}

DS.connect(T, () => token, onMessage, (status) => {
  document.body.classList.toggle("stale", status !== "live");
});
