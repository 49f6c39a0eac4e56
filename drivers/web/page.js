// The players' page: draws the snapshot the gadget sends (every word in it already translated)
// and each one after it as it comes (Server-Sent Events), and counts the tables' round clocks
// down between them, so the gadget need not send anything while only time passes.
"use strict";

const asked = new URLSearchParams(location.search).get("lang");
const query = asked ? "?lang=" + encodeURIComponent(asked) : "";
let clocks = [];  // [element, deadline by performance.now()] of each running round clock
let ticking = null;
let words = {};

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function heading(section, label, event) {
  const h2 = make("h2", "", label);
  h2.append(make("span", "event", " · " + event));
  section.replaceChildren(h2);
}

function standings(data) {
  const section = document.getElementById("standings");
  heading(section, words.standings, data.title);
  if (!data.pods.length) section.append(make("p", "empty", words.nothing));
  for (const pod of data.pods) {
    section.append(make("h3", "", pod.title));
    const table = make("table");
    const columns = make("colgroup");
    columns.append(make("col", "place"), make("col", "name"), make("col", "detail"));
    table.append(columns);
    const head = make("tr");
    head.append(make("th", "", words.place), make("th", "", words.player), make("th", "", words.groups));
    table.append(make("thead"), make("tbody"));
    table.tHead.append(head);
    for (const row of pod.rows) {
      const tr = make("tr", row.placed ? "placed" : "unplaced");
      tr.append(make("td", "place", row.place), make("td", "name", row.name), make("td", "detail", row.detail));
      table.tBodies[0].append(tr);
    }
    section.append(table);
  }
}

function seatings(data) {
  const section = document.getElementById("seatings");
  heading(section, words.seatings, data.title);
  for (const round of data.seatings) {
    section.append(make("h3", "", round.title));
    for (const group of round.groups) {
      const box = make("div", "group");
      const title = make("h4");
      title.append(make("span", "at", group.table), group.title);
      if (group.over) title.append(make("span", "over", words.over));
      const list = make("ol");
      for (const name of group.players) list.append(make("li", "", name));
      box.append(title, list);
      section.append(box);
    }
  }
}

function tables(data, received) {
  const section = document.getElementById("tables");
  section.replaceChildren(make("h2", "", words.tables));
  const list = make("ul", "tables");
  clocks = [];
  for (const table of data.tables) {
    const item = make("li", table.online ? (table.playing ? "playing" : "idle") : "offline", table.text);
    item.dataset.table = table.table;
    if (table.left !== null && table.left !== undefined) {
      const clock = make("span", "clock");
      item.append(clock);
      clocks.push([clock, received + (table.left - data.age) * 1000]);
    }
    list.append(item);
  }
  section.append(list);
  tick();
}

function clockTime(seconds) {
  // As the gadget's clock shows a countdown: a second begun counts whole; h:mm:ss from an hour on.
  const whole = Math.max(0, Math.ceil(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  if (whole >= 3600) return Math.floor(whole / 3600) + ":" + pad(Math.floor(whole / 60) % 60) + ":" + pad(whole % 60);
  return Math.floor(whole / 60) + ":" + pad(whole % 60);
}

function tick() {
  clearTimeout(ticking);
  ticking = null;
  const now = performance.now();
  let next = Infinity;
  for (const [clock, deadline] of clocks) {
    const left = (deadline - now) / 1000;
    clock.classList.toggle("up", left <= 0);
    clock.textContent = left > 0 ? words.clock.replace("{time}", clockTime(left)) : words.time_up;
    if (left > 0) next = Math.min(next, (left - Math.floor(left)) * 1000 || 1000);
  }
  if (next < Infinity) ticking = setTimeout(tick, next + 5);
}

function languages(data) {
  const nav = document.getElementById("languages");
  nav.replaceChildren();
  for (const [code, name] of Object.entries(data.language_names)) {
    const link = make("a", code === data.lang ? "here" : "", name);
    link.href = "?lang=" + code;
    link.lang = code;
    nav.append(link);
  }
}

function draw(data) {
  const received = performance.now();
  if (data.empty) return;
  words = data.labels;
  document.documentElement.lang = data.lang;
  document.title = data.title;
  document.getElementById("title").textContent = data.title;
  // The heading says more than the event's name only at a table's gadget (which group it plays,
  // the broker out of reach); the organiser's says the name again.
  document.getElementById("heading").textContent = data.heading === data.title ? "" : data.heading;
  // A gadget cut off from the broker shows standings that may be behind: its heading says so.
  document.getElementById("heading").className = data.connected ? "" : "warn";
  const print = document.getElementById("print");
  print.textContent = words.print;
  print.hidden = false;  // hidden until the gadget has said what it is called
  document.getElementById("status").textContent = words.live;
  languages(data);
  standings(data);
  seatings(data);
  tables(data, received);
}

function connect() {
  const status = document.getElementById("status");
  const stream = new EventSource("events" + query);
  stream.onmessage = (message) => {
    draw(JSON.parse(message.data));
    status.className = "live";
    status.textContent = words.live || "";
  };
  stream.onerror = () => {
    status.className = "lost";
    status.textContent = words.lost || "";
  };
}

document.getElementById("print").addEventListener("click", () => window.print());
connect();
