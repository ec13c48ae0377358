// Who is winning (templates/_gauge.html, web/gauge.py): the gauge drawn from the JSON
// route on load, then from each "gauge" message the live socket pushes (app.js passes
// it on as a "referee-gauge" event). Everything is drawn as text, never as HTML.
import { api } from "./http.js";

const box = document.getElementById("gauge");
const body = box && box.querySelector(".gauge-body");

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
  if (!g.shown) {
    body.append(el("p", "muted small gauge-why", g.why));
    return;
  }
  if (g.error) {
    body.append(el("p", "muted small gauge-why", g.error));
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
  body.append(el("p", "muted small gauge-how", `${how} ${g.sides.how[0].toUpperCase()}${g.sides.how.slice(1)}.`));
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
}

async function load() {
  try {
    draw(await api("GET", `/api/tables/${box.dataset.table}/gauge`));
  } catch (e) {
    body.replaceChildren(el("p", "muted small gauge-why", e.message));
  }
}

if (box && body) {
  document.addEventListener("referee-gauge", (ev) => draw(ev.detail));
  load();
}
