// Who is winning (templates/_gauge.html, web/gauge.py): the gauge drawn from the JSON
// route on load, then from each "gauge" message the live socket pushes (app.js passes
// it on as a "referee-gauge" event). Everything is drawn as text, never as HTML.
// The sides: the table's own (the players' characters against the referee's), or the
// ones this browser chose in the picker under the figures (kept per table in this
// browser; with them, each push is a cue to ask the route for those sides).
import { api } from "./http.js";

const box = document.getElementById("gauge");
const body = box && box.querySelector(".gauge-body");
const KEY = box ? `referee-gauge-sides:${box.dataset.table}` : "";

function chosen() {
  // the sides this browser chose for this table ({a: [ids], b: [ids]}), or null
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && Array.isArray(s.a) && Array.isArray(s.b) && s.a.length && s.b.length) return s;
  } catch {
    /* a stored value this page did not write: the table's sides */
  }
  return null;
}

function route() {
  const s = chosen();
  const q = s ? `?${[...s.a.map((c) => `a=${encodeURIComponent(c)}`), ...s.b.map((c) => `b=${encodeURIComponent(c)}`)].join("&")}` : "";
  return `/api/tables/${box.dataset.table}/gauge${q}`;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function pct(v) {
  return `${(v * 100).toFixed(1)}%`;
}

function figure(p, method) {
  // a side's chance in words: exact (its fraction on hover), or simulated with its interval
  if (method === "exact") return pct(p.value);
  return `${pct(p.value)} (${pct(p.low)}–${pct(p.high)})`;
}

function draw(g) {
  if (!body) return;
  body.replaceChildren();
  if (notice) body.append(el("p", "small gauge-notice", notice));
  if (!g.shown) {
    body.append(el("p", "muted small gauge-why", g.why));
    return;
  }
  if (g.error) {
    body.append(el("p", "muted small gauge-why", g.error));
    picker(g);
    return;
  }
  const { a, b } = g.sides;
  const bar = el("div", "gauge-bar");
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", `${a.names} ${pct(g.p.a.value)}, ${b.names} ${pct(g.p.b.value)}`);
  for (const [key, side] of [["a", a], ["b", b]]) {
    const part = el("span", `gauge-${key}`);
    part.style.width = `${(g.p[key].value * 100).toFixed(2)}%`;
    part.title = `${side.names}: ${g.p[key].exact || figure(g.p[key], g.method)}`;
    bar.append(part);
  }
  body.append(bar);
  const list = el("dl", "gauge-sides");
  for (const [key, side] of [["a", a], ["b", b]]) {
    const dt = el("dt", `gauge-name gauge-${key}-name`, side.names);
    const dd = el("dd", "gauge-p", figure(g.p[key], g.method));
    if (g.p[key].exact) dd.title = `exactly ${g.p[key].exact}`;
    list.append(dt, dd);
  }
  if (g.p.draw.value > 0 || (g.p.draw.high || 0) > 0.0005) {
    list.append(el("dt", "gauge-name", "both out (a draw)"), el("dd", "gauge-p", figure(g.p.draw, g.method)));
  }
  body.append(list);
  const how =
    g.method === "exact"
      ? `Exact: the whole fight's chain from now, ${g.states.toLocaleString()} states.`
      : `Simulated: ${g.runs.toLocaleString()} fights from now, ${Math.round(g.confidence * 100)}% intervals (${g.why}).`;
  const sides = chosen() ? "The sides as chosen in this browser" : `${g.sides.how[0].toUpperCase()}${g.sides.how.slice(1)}`;
  body.append(el("p", "muted small gauge-how", `${how} ${sides}.`));
  if (g.decided) {
    const won = g.decided === "a" ? a.names : g.decided === "b" ? b.names : "nobody";
    body.append(el("p", "gauge-decided", `The fight is over: ${won} won.`));
  }
  if (g.now && g.what_if && g.what_if.length) {
    const side = g.what_if[0].side === "a" ? a.names : b.names;
    body.append(el("p", "small gauge-now", `${g.now.name} acts now. Their side's chance…`));
    const ul = el("ul", "plain gauge-whatif");
    for (const w of g.what_if) {
      const li = el("li", w.usual ? "usual" : "");
      li.append(el("span", "gauge-policy", `If ${g.now.name} ${w.words}${w.usual ? " (as the analysis plays them)" : ""}`));
      li.append(el("span", "gauge-p", w.error ? w.error : figure(w.p, w.method)));
      if (w.p && w.p.exact) li.title = `${side}: exactly ${w.p.exact}`;
      ul.append(li);
    }
    body.append(ul);
  } else if (g.now && g.what_if_pending) {
    // the figures come first; the what-ifs (a chain each) follow in the next push
    body.append(el("p", "muted small gauge-pending", `Working out what ${g.now.name} could do…`));
  }
  picker(g);
}

const SIDES = [
  ["a", "side one"],
  ["b", "side two"],
  ["", "out of this fight"],
];

function picker(g) {
  // who is on which side: one choice per character of the fight, drawn from g.fighters
  const fighters = g.fighters || [];
  if (fighters.length < 2) return;
  const now = g.sides ? { a: g.sides.a.ids, b: g.sides.b.ids } : { a: [], b: [] };
  const details = el("details", "gauge-pick");
  details.open = picking;
  details.addEventListener("toggle", () => (picking = details.open));
  details.append(el("summary", "small", "Choose the sides"));
  const form = el("form", "gauge-pick-form");
  for (const f of fighters) {
    const label = el("label", "gauge-pick-row");
    label.append(el("span", "", f.name));
    const select = el("select");
    select.dataset.cid = f.id;
    for (const [value, words] of SIDES) {
      const option = el("option", "", words);
      option.value = value;
      select.append(option);
    }
    select.value = now.a.includes(f.id) ? "a" : now.b.includes(f.id) ? "b" : "";
    label.append(select);
    form.append(label);
  }
  const status = el("p", "small gauge-pick-status");
  status.setAttribute("role", "status");
  const show = el("button", "small", "Show these sides");
  show.type = "submit";
  const reset = el("button", "small", "The table's sides");
  reset.type = "button";
  reset.disabled = !chosen();
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const picked = { a: [], b: [] };
    for (const select of form.querySelectorAll("select")) {
      if (select.value) picked[select.value].push(select.dataset.cid);
    }
    if (!picked.a.length || !picked.b.length) {
      status.textContent = "Each side needs a character.";
      return;
    }
    localStorage.setItem(KEY, JSON.stringify(picked));
    notice = "";
    status.textContent = "Working out each side's chance…";
    load();
  });
  reset.addEventListener("click", () => {
    localStorage.removeItem(KEY);
    load();
  });
  const buttons = el("p", "gauge-pick-buttons");
  buttons.append(show, reset);
  form.append(buttons, status);
  details.append(form);
  body.append(details);
}

let notice = ""; // why the sides chosen here were let go, shown until sides are chosen again
let picking = false; // the picker stays open across redraws once opened
let asking = null; // the route's answer being awaited (one at a time)
let again = false; // a push came meanwhile: ask once more after it

async function load() {
  if (asking) {
    again = true;
    return;
  }
  const mine = chosen();
  try {
    asking = api("GET", route());
    draw(await asking);
  } catch (e) {
    if (mine && e.status === 422) {
      // the chosen sides no longer fit the table (a character left): its own sides again
      localStorage.removeItem(KEY);
      again = true;
      notice = "A character on the sides chosen here is no longer at the table: these are the table's sides.";
    } else {
      body.replaceChildren(el("p", "muted small gauge-why", e.message));
    }
  } finally {
    asking = null;
    if (again) {
      again = false;
      load();
    }
  }
}

if (box && body) {
  // the push is drawn as it comes for the table's sides; for chosen ones, it is the cue
  // to ask for those
  document.addEventListener("referee-gauge", (ev) => (chosen() ? load() : draw(ev.detail)));
  load();
}
