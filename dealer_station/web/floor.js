"use strict";
// The pit boss's floor: every table of this station at a glance, each one's
// live feed (the same WebSocket the console reads): what it waits for, its
// alarms, who deals, its broker and devices, and links to its console and
// integrity page.

(() => {
  const TOKEN_KEY = "ds-floor-token";
  const $ = (id) => document.getElementById(id);
  const { el } = DS;
  let token = DS.token(TOKEN_KEY);
  const tables = new Map(); // id -> { game, state, station, devices, feed }

  function signIn(why) {
    $("sign-in").hidden = false;
    $("sign-in-why").textContent = why;
  }

  $("sign-in").addEventListener("submit", (ev) => {
    ev.preventDefault();
    token = $("token-text").value.trim();
    localStorage.setItem(TOKEN_KEY, token);
    location.reload();
  });

  function badge(text, ok) {
    return el("span", `badge ${ok ? "ok" : "down"}`, text);
  }

  // A table's troubles, worst first: the floor is read for what needs a person.
  function troubles(t) {
    const list = [];
    if (t.feed !== "live") list.push(t.feed === "unauthorized" ? "SIGN IN NEEDED" : "NO LIVE DATA");
    if (t.station && t.station.broker !== "online") list.push("BROKER DOWN");
    for (const [name, d] of Object.entries(t.devices)) if (d.state !== "online") list.push(`${name.toUpperCase()} OFFLINE`);
    for (const a of (t.state && t.state.alarms) || []) list.push(`${a.code.replaceAll("_", " ").toUpperCase()}: ${a.message}`);
    return list;
  }

  function row(id, t) {
    const s = t.state;
    const item = el("article", "table");
    item.dataset.table = id;
    const trouble = troubles(t);
    item.classList.toggle("trouble", trouble.length > 0);
    const head = el("div", "head");
    head.append(el("b", "id", id), el("span", "game", s ? `${s.game.toUpperCase()} · ${s.variant}` : t.game.toUpperCase()));
    const links = el("span", "links");
    const consoleLink = el("a", "", "CONSOLE");
    consoleLink.href = `/console/${encodeURIComponent(id)}`;
    const integrityLink = el("a", "", "INTEGRITY");
    integrityLink.href = `/integrity/${encodeURIComponent(id)}`;
    links.append(consoleLink, integrityLink);
    head.append(links);
    const state = el("div", "state", s ? s.action : "WAITING FOR THE TABLE");
    if (s) state.dataset.kind = s.next.kind;
    const facts = el("div", "facts");
    facts.append(el("span", `dealer${s && !s.dealer ? " none" : ""}`, !s ? "" : s.dealer ? `DEALER ${s.dealer}` : "NO DEALER SIGNED ON"));
    if (s && s.round) facts.append(el("span", "round", `ROUND ${s.round}`));
    const health = el("span", "links-state");
    health.append(badge(t.feed === "live" ? "LIVE" : "STALE", t.feed === "live"));
    health.append(badge("BROKER", !!t.station && t.station.broker === "online"));
    for (const [name, d] of Object.entries(t.devices)) health.append(badge(name.toUpperCase(), d.state === "online"));
    facts.append(health);
    const alarms = el("ul", "alarms");
    for (const text of trouble) alarms.append(el("li", "", text));
    item.append(head, state, facts, alarms);
    return item;
  }

  let drawing = false;
  function render() {
    drawing = false;
    const main = $("tables");
    main.replaceChildren(...[...tables].map(([id, t]) => row(id, t)));
    const troubled = [...tables.values()].filter((t) => troubles(t).length).length;
    $("summary").textContent = `${tables.size} TABLES · ${troubled ? `${troubled} NEED A LOOK` : "ALL RUNNING"}`;
  }
  function schedule() {
    if (!drawing) { drawing = true; requestAnimationFrame(render); }
  }

  function follow(id) {
    const t = tables.get(id);
    DS.connect(id, () => token, (topic, payload) => {
      if (topic === "round/state") t.state = payload;
      else if (topic === "station") t.station = payload;
      else if (topic.startsWith("device/")) t.devices[topic.slice(7)] = payload;
      else return;
      schedule();
    }, (status) => {
      t.feed = status;
      if (status === "unauthorized") signIn("That token is not this station's.");
      schedule();
    });
  }

  async function start() {
    if (!token) { signIn(""); return; }
    const answer = await fetch("/tables", { headers: { Authorization: `Bearer ${token}` } });
    if (answer.status !== 200) { signIn(answer.status === 401 ? "That token is not this station's." : `ERROR ${answer.status}`); return; }
    for (const t of await answer.json()) {
      tables.set(t.table, { game: t.game, state: null, station: null, devices: {}, feed: "connecting" });
      follow(t.table);
    }
    render();
  }
  start();
})();
