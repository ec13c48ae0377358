// One click answers a decision the rules wait for: the button takes the choice's action
// for the deciding character (its declared defaults; "Change the details first" opens the
// full form instead), and a tracker's "advance" button takes the game's turn action. The
// server refuses what is not the caller's to decide; the odds on each button are the
// server's, computed from the same plan as the roll.

import { api } from "./http.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;

function status(text, kind) {
  const el = document.getElementById("log-status");
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("bad", kind === "bad");
  el.classList.toggle("good", kind === "good");
}

async function take(button, action, fields) {
  button.disabled = true;
  try {
    const done = await api("POST", `/api/tables/${tid}/actions`, { action, fields, visibility: "public" });
    status(`Done: event #${done.seq} in the log.`, "good");
  } catch (e) {
    status(e.message, "bad");
    button.disabled = false;
  }
}

document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button.answer-now, button.turn-advance");
  if (!b || !tid) return;
  ev.preventDefault();
  if (b.classList.contains("answer-now")) {
    take(b, b.dataset.action, { actor: b.dataset.actor });
  } else {
    const fields = {};
    for (const [key, value] of Object.entries(b.dataset)) {
      if (!key.startsWith("arg") || key.length < 4) continue;
      const name = key[3].toLowerCase() + key.slice(4).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      fields[name] = /^-?\d+$/.test(value) ? Number(value) : value;
    }
    take(b, b.dataset.action, fields);
  }
});

// The same buttons in the log: under the newest entry, while the decision waits (the
// one who answers follows the log on a phone). Copies of the prompt's own buttons, with
// their own ids; they go when the decision is answered.
function mirrorInLog() {
  const log = document.getElementById("log");
  if (!log) return;
  for (const old of log.querySelectorAll(".entry-answers")) old.remove();
  const groups = [...document.querySelectorAll("#pending-top .decision")].filter((d) => d.querySelector(".answers"));
  const last = log.querySelector("li.entry:last-of-type");
  if (!groups.length || !last) return;
  const box = document.createElement("div");
  box.className = "entry-answers";
  for (const d of groups) {
    const copy = d.cloneNode(true);
    for (const el of copy.querySelectorAll("[id]")) el.id = `${el.id}-log`;
    for (const el of copy.querySelectorAll("[aria-describedby]")) {
      el.setAttribute("aria-describedby", el.getAttribute("aria-describedby").split(" ").map((x) => `${x}-log`).join(" "));
    }
    for (const el of copy.querySelectorAll("button.choice")) el.closest("p")?.remove(); // the full form is in Actions
    box.append(copy);
  }
  last.append(box);
}

const top = document.getElementById("pending-top");
const logList = document.getElementById("log");
if (top && logList) {
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      mirrorInLog();
    });
  };
  new MutationObserver(soon).observe(top, { childList: true, subtree: true });
  new MutationObserver((records) => {
    // a new entry: the buttons move under it (our own additions are not new entries)
    if (records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 && n.matches("li.entry")))) soon();
  }).observe(logList, { childList: true });
  mirrorInLog();
}
