// Roll requests (referee.table.requests). The referee types a request as in the chat
// ("/request" left out), previews each asked character's exact chance, and sends it; the
// answers gather below in the order they were rolled, each with the exact chance it had.
// A player sees a prompt per asked character with one button, and the chance as they may
// know it: exact for an open difficulty, one per named difficulty for a secret one. All of
// it comes from GET .../roll-requests, the caller's own view: a secret difficulty never
// reaches a player's page. The list is read again whenever the log changes.

import { api } from "./http.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;
const referee = main?.dataset.role === "referee";
const box = document.getElementById("roll-requests");
const list = document.getElementById("rr-list");

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
}

function status(text, kind) {
  const s = document.getElementById("rr-status");
  if (!s) return;
  s.textContent = text;
  s.classList.toggle("rr-bad", kind === "bad");
  s.classList.toggle("rr-ok", kind === "good");
}

// an exact chance as the server gives it ({chance: "5/12"} or {none: why})
function frac(text) {
  const [n, d] = String(text).split("/").map(Number);
  return d ? n / d : n;
}
function pct(chance) {
  if (!chance) return "no chance to show";
  if (chance.none) return `no number: ${chance.none}`;
  if (chance.chance === null || chance.chance === undefined) return "no success or failure";
  return `${(frac(chance.chance) * 100).toFixed(1)}%`;
}
function chanceNode(chance) {
  if (!chance || chance.none || chance.chance === null || chance.chance === undefined) return el("span", { class: "muted", text: pct(chance) });
  return el("span", {}, el("strong", { "data-chance": chance.chance, text: pct(chance) }), " ", el("span", { class: "muted", text: `(${chance.chance})` }));
}

function fieldsText(r) {
  const parts = Object.entries(r.fields || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${Array.isArray(v) ? v.join(", ") : v}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}
function against(r) {
  if (r.label) return `${r.secret ? "secret " : ""}${(r.field || "difficulty").replaceAll("_", " ")}: ${r.label}`;
  if (r.secret) return `${(r.field || "difficulty").replaceAll("_", " ")}: secret`;
  return "";
}

// a secret difficulty's chances: one row per difficulty the rules name, with a bar
function curve(rows, id) {
  const table = el("table", { class: "rr-table", id });
  table.append(el("caption", { class: "small muted", text: "Your chance for each difficulty the rules name (the referee chose one of them, or another):" }));
  table.append(el("tr", {}, el("th", { scope: "col", text: "Difficulty" }), el("th", { scope: "col", class: "num", text: "Chance" }), el("th", { scope: "col", class: "bar-cell", text: "Curve" })));
  for (const c of rows) {
    const p = c.chance && c.chance.chance ? frac(c.chance.chance) : 0;
    const bar = el("span", { class: "rr-bar" });
    bar.style.width = `${Math.round(p * 100)}px`; // the page's policy allows no style attribute
    table.append(
      el(
        "tr",
        {},
        el("td", { text: `${c.label} (${c.value})` }),
        el("td", { class: "num" }, chanceNode(c.chance)),
        el("td", { class: "bar-cell", "aria-hidden": "true" }, bar),
      ),
    );
  }
  return table;
}

function playerCard(r) {
  const frag = document.createDocumentFragment();
  for (const a of r.asked) {
    const card = el("div", { class: `rr-card${a.answered || !r.open ? " done" : ""}`, "data-request": r.seq, "data-character": a.character });
    card.append(el("p", {}, "The referee asks ", el("strong", { text: a.name }), ` for ${r.words}${fieldsText(r)}.`));
    const diff = against(r);
    if (diff) card.append(el("p", { class: r.secret ? "rr-secret" : "", text: r.secret ? "The difficulty is secret." : diff }));
    if (a.answered) {
      card.append(el("p", { class: "rr-ok", text: r.secret ? `Rolled (event #${a.answered}): the referee sees the result.` : `Rolled: event #${a.answered} in the log.` }));
    } else if (r.withdrawn) {
      card.append(el("p", { class: "muted", text: "The referee withdrew this request." }));
    } else {
      const odds = `rr-odds-${r.seq}-${a.character}`;
      if (a.chances) card.append(curve(a.chances, odds));
      else card.append(el("p", { id: odds }, chanceNode(a.chance), " chance of success"));
      const b = el("button", { type: "button", class: "primary rr-roll", "data-seq": r.seq, "data-character": a.character, "aria-describedby": odds, text: `Roll for ${a.name}` });
      card.append(el("p", {}, b));
    }
    frag.append(card);
  }
  return frag;
}

function refereeCard(r) {
  const card = el("div", { class: `rr-card${r.open ? "" : " done"}`, "data-request": r.seq });
  const state = r.withdrawn ? " · withdrawn" : r.open ? "" : " · all rolled";
  card.append(el("p", {}, el("strong", { text: `#${r.seq} ${r.words}` }), `${fieldsText(r)}${against(r) ? ` · ${against(r)}` : ""}${state}`));
  const table = el("table", { class: "rr-table" });
  table.append(el("caption", { class: "small muted", text: "Answers in the order rolled; the chance is the exact one each had." }));
  table.append(el("tr", {}, el("th", { scope: "col", text: "Character" }), el("th", { scope: "col", text: "Roll" }), el("th", { scope: "col", class: "num", text: "Chance" })));
  for (const a of r.asked) {
    const roll = a.answered
      ? el("span", {}, el("a", { href: `#e${a.answered}`, text: `#${a.answered}` }), ` ${a.result || (a.failed ? "refused by the rules" : "rolled")}`)
      : el("span", { class: "muted", text: r.withdrawn ? "withdrawn" : `waiting for ${a.owner || "the referee"}` });
    if (r.secret && a.answered && typeof a.success === "boolean") {
      // the referee's choice to tell the table whether it worked: a public note, no number
      const said = `${a.name}'s ${r.words}: ${a.success ? "success" : "failure"}.`;
      roll.append(" ", el("button", { type: "button", class: "linkish rr-tell", "data-text": said, "aria-label": `Tell the table whether ${a.name} succeeded`, text: "Tell the table" }));
    }
    table.append(el("tr", { "data-character": a.character }, el("td", { text: a.name }), el("td", {}, roll), el("td", { class: "num" }, chanceNode(a.chance))));
  }
  card.append(table);
  if (r.open) {
    const row = el("p", {});
    const mine = r.asked.filter((a) => !a.answered && !a.owner);
    for (const a of mine) row.append(el("button", { type: "button", class: "rr-roll", "data-seq": r.seq, "data-character": a.character, text: `Roll for ${a.name}` }), " ");
    row.append(el("button", { type: "button", class: "rr-recall", "data-seq": r.seq, text: "Withdraw" }));
    card.append(row);
  }
  return card;
}

let shown = "";
async function load() {
  if (!tid || !list) return;
  let data;
  try {
    data = await api("GET", `/api/tables/${tid}/roll-requests`);
  } catch {
    return; // the connection's own status says what is wrong
  }
  const text = JSON.stringify(data);
  if (text === shown) return;
  shown = text;
  list.replaceChildren();
  const items = referee ? [...data].reverse() : data.filter((r) => r.open || r.asked.some((a) => a.answered));
  for (const r of items) list.append(referee ? refereeCard(r) : playerCard(r));
  if (!referee && box) box.hidden = items.length === 0;
  const waiting = data.filter((r) => r.open && r.asked.some((a) => !a.answered)).length;
  const tab = document.getElementById("tab-actions");
  if (tab && !referee) {
    let badge = tab.querySelector(".rr-count");
    if (!badge) tab.append((badge = el("span", { class: "rr-count" })));
    badge.textContent = waiting ? ` (${waiting})` : "";
  }
}

async function send(run) {
  const line = document.getElementById("rr-line")?.value.trim() || "";
  const out = document.getElementById("rr-preview-out");
  if (!line) {
    status("Type what to ask for: an action, its fields, a difficulty.", "bad");
    return;
  }
  const typed = line.startsWith("/") ? line : `/request ${line}`;
  try {
    const got = await api("POST", `/api/tables/${tid}/commands`, { line: typed, run });
    if (run) {
      status(`Sent: event #${got.seq} in the log.`, "good");
      document.getElementById("rr-line").value = "";
      out?.replaceChildren();
      load();
      return;
    }
    if (got.error) {
      status(got.error.detail, "bad");
      out?.replaceChildren();
      return;
    }
    status("", "");
    const table = el("table", { class: "rr-table", id: "rr-preview-table" });
    table.append(el("caption", { class: "small muted", text: `Each asked character's exact chance${got.command.secret ? " (the players will not see the difficulty)" : ""}:` }));
    for (const p of got.preview) table.append(el("tr", {}, el("td", { text: p.name }), el("td", { text: p.owner || "no player" }), el("td", { class: "num" }, chanceNode(p.chance))));
    out?.replaceChildren(table);
  } catch (e) {
    status(e.message, "bad");
  }
}

document.getElementById("rr-preview")?.addEventListener("click", () => send(false));
document.getElementById("rr-form")?.addEventListener("submit", (ev) => {
  ev.preventDefault();
  send(true);
});

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("button.rr-roll, button.rr-recall, button.rr-tell");
  if (!b || !tid || !box?.contains(b)) return;
  ev.preventDefault();
  b.disabled = true;
  try {
    if (b.classList.contains("rr-tell")) {
      const done = await api("POST", `/api/tables/${tid}/notes`, { text: b.dataset.text, visibility: "public", to: null });
      status(`Told the table: event #${done.seq} in the log.`, "good");
    } else if (b.classList.contains("rr-roll")) {
      const done = await api("POST", `/api/tables/${tid}/roll-requests/${b.dataset.seq}`, { character: b.dataset.character });
      status(`Rolled: event #${done.seq} in the log.`, "good");
    } else {
      await api("DELETE", `/api/tables/${tid}/roll-requests/${b.dataset.seq}`);
      status("Withdrawn.", "good");
    }
    load();
  } catch (e) {
    status(e.message, "bad");
    b.disabled = false;
  }
});

// read again when the log changes (a request, a roll, a withdrawal: each is an event)
const logList = document.getElementById("log");
if (logList) {
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => {
      queued = false;
      load();
    }, 150);
  }).observe(logList, { childList: true });
}
load();
