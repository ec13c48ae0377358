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
