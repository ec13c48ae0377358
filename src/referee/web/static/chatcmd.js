// referee web table: the chat's commands (/r 2d6, /gr, /br, and the game's actions by
// name: /task Fitness 6). What is typed after a "/" is read by the server
// (POST /api/tables/{tid}/commands, referee.table.commands): this module shows how it
// reads, the words that may complete it (an accessible listbox: arrow keys, Tab or Enter
// to take one, Escape to close) and the exact odds (the page's own preview, /t/{tid}/preview)
// before Enter; Enter sends it with run, and the server acts through the table's service
// exactly as the action panel does. Nothing here knows a game.

import { api } from "./http.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;
const text = document.getElementById("chat-text");
const form = document.getElementById("chat-form");
const hint = document.getElementById("chat-cmd");
const odds = document.getElementById("chat-odds");
const box = document.getElementById("chat-options");

let options = [];
let active = -1;
let start = 0;
let serial = 0;
let timer = 0;
let reading = null; // the last command read from the line (null: none, or an error)

export function isCommand(line) {
  return line.trimStart().startsWith("/");
}

function actor() {
  const pick = document.getElementById("act-as");
  if (pick && pick.value) return pick.value;
  const panels = [...document.querySelectorAll("#panels > section.actpanel")];
  return panels.length === 1 ? panels[0].dataset.actor : null;
}

const ROLL_WORDS = { public: "Roll", referee: "Roll in secret", blind: "Roll blind", private: "Roll privately" };

function showButton() {
  const button = form?.querySelector("button[type=submit]");
  if (!button) return;
  if (!isCommand(text.value)) {
    if (button.dataset.command) {
      delete button.dataset.command;
      text.dispatchEvent(new Event("chat-mode")); // chat.js puts its own words back
    }
    return;
  }
  button.dataset.command = "1";
  const vis = reading?.visibility || "public";
  button.textContent = ROLL_WORDS[vis] || "Roll";
  button.classList.toggle("hidden-roll", vis !== "public");
}

function close() {
  options = [];
  active = -1;
  if (box) {
    box.hidden = true;
    box.textContent = "";
  }
  text.setAttribute("aria-expanded", "false");
  text.removeAttribute("aria-activedescendant");
}

function drawOptions() {
  if (!box) return;
  box.textContent = "";
  if (!options.length) {
    close();
    return;
  }
  options.forEach((o, i) => {
    const li = document.createElement("li");
    li.id = `chat-opt-${i}`;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", i === active ? "true" : "false");
    const v = document.createElement("span");
    v.className = "opt-value";
    v.textContent = o.value;
    const l = document.createElement("span");
    l.className = "opt-label muted";
    l.textContent = o.label;
    li.append(v, " ", l);
    li.addEventListener("mousedown", (ev) => {
      ev.preventDefault(); // keep the focus in the textarea
      take(i);
    });
    box.append(li);
  });
  box.hidden = false;
  text.setAttribute("aria-expanded", "true");
  if (active >= 0) text.setAttribute("aria-activedescendant", `chat-opt-${active}`);
  else text.removeAttribute("aria-activedescendant");
}

function take(i) {
  const o = options[i];
  if (!o) return;
  const before = text.value.slice(0, start);
  const after = o.value.endsWith("=") ? "" : " ";
  text.value = before + o.value + after;
  text.setSelectionRange(text.value.length, text.value.length);
  close();
  text.focus();
  readSoon();
}

function say(el, words, bad) {
  if (!el) return;
  el.textContent = words;
  el.classList.toggle("bad", Boolean(bad));
}

async function read() {
  const line = text.value;
  const mine = ++serial;
  if (!isCommand(line)) {
    reading = null;
    close();
    say(hint, "");
    if (odds) odds.textContent = "";
    showButton();
    return;
  }
  let data;
  try {
    data = await api("POST", `/api/tables/${tid}/commands`, { line, actor: actor() });
  } catch (e) {
    if (mine === serial) say(hint, e.message, true);
    return;
  }
  if (mine !== serial) return; // a newer line is being read
  start = data.start || 0;
  options = data.options || [];
  active = -1;
  drawOptions();
  reading = data.command;
  showButton();
  if (!data.command) {
    // a word still being typed that something completes is only unfinished
    const unfinished = !/\s$/.test(line) && options.length > 0;
    say(hint, unfinished ? "" : data.error?.detail || "", !unfinished);
    if (odds) odds.textContent = "";
    return;
  }
  const c = data.command;
  const parts = c.reading.map((r) => `${r.field} ${r.value}`).join(" · ");
  if (data.preview) { // a roll request (requests.js): each asked character's exact chance
    say(hint, `ask for ${c.action.replace(/-/g, " ")}${parts ? ": " + parts : ""}. Enter asks.`);
    if (odds) odds.textContent = data.preview.map((p) => `${p.name}: ${p.chance?.chance ? `${(100 * p.chance.chance.split("/").reduce((a, b) => a / b)).toFixed(1)}% (${p.chance.chance})` : p.chance?.none || "no chance"}`).join(" · ");
    return;
  }
  say(hint, `${c.action.replace(/-/g, " ")}${parts ? ": " + parts : ""}. Enter rolls.`);
  if (!odds) return;
  try {
    const shown = await api("POST", `/t/${tid}/preview`, { action: c.action, fields: c.fields });
    if (mine !== serial) return;
    odds.innerHTML = shown.html; // rendered and escaped by the server
  } catch (e) {
    if (mine === serial) odds.textContent = e.message;
  }
}

function readSoon() {
  clearTimeout(timer);
  timer = setTimeout(read, 150);
}

/** Send a command line: run it through the server; returns true when it was taken. */
export async function runCommand(line, status) {
  try {
    const done = await api("POST", `/api/tables/${tid}/commands`, { line, actor: actor(), run: true });
    const kind = done.event && done.event.kind;
    const said = kind === "action-proposed" ? `Waiting for a decision (event #${done.seq}).`
      : kind === "request-made" ? `Waiting for the referee's approval (event #${done.seq}).`
      : kind === "roll-requested" ? `Asked for the roll (event #${done.seq}).`
      : kind === "action-failed" ? `Refused after the dice were drawn (event #${done.seq}): ${done.event.payload.error}`
      : `Rolled: event #${done.seq} in the log.`;
    say(status, said, kind === "action-failed");
    reading = null;
    close();
    say(hint, "");
    if (odds) odds.textContent = "";
    return true;
  } catch (e) {
    say(status, e.message, true);
    return false;
  }
}

if (text && form && tid) {
  text.setAttribute("aria-autocomplete", "list");
  text.setAttribute("aria-expanded", "false");
  if (box) text.setAttribute("aria-controls", box.id);
  text.addEventListener("input", () => {
    showButton();
    readSoon();
  });
  text.addEventListener("keydown", (ev) => {
    if (!options.length || box?.hidden) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      const n = options.length;
      active = ev.key === "ArrowDown" ? (active + 1) % n : (active - 1 + n) % n;
      drawOptions();
    } else if (ev.key === "Tab" && !ev.shiftKey) {
      ev.preventDefault();
      take(active >= 0 ? active : 0);
    } else if (ev.key === "Enter" && active >= 0) {
      ev.preventDefault();
      ev.stopImmediatePropagation(); // takes the word; a second Enter sends
      take(active);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    }
  });
  text.addEventListener("blur", () => setTimeout(close, 150));
}
