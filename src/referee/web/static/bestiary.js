// referee web table: the referee's bestiary (issue 39 item 3). The entries come with the
// page (_bestiary.html, each radio's data-entry: its line, where it comes from, the
// text's discrepancies and the numbers a referee changes, with their bounds); this shows
// the chosen one's and sends the choice to the JSON API. The server checks everything
// again and seats them; the live log shows each seating.

import { api } from "./http.js";

const form = document.getElementById("bestiary-form");
const tid = document.getElementById("main")?.dataset.table;

function chosen() {
  const input = form.querySelector("input[name=entry]:checked");
  return input ? JSON.parse(input.dataset.entry) : null;
}

function say(el, text, kind) {
  el.textContent = text;
  el.classList.toggle("bad", kind === "bad");
  el.classList.toggle("good", kind === "good");
}

function names() {
  const entry = chosen();
  const count = Number(form.elements.count.value) || 1;
  const base = form.elements.name.value.trim() || (entry ? entry.name : "");
  const hint = document.getElementById("bst-names");
  if (!base) {
    hint.textContent = "";
  } else if (base.includes("#")) {
    hint.textContent = count > 1 ? `${base.replace("#", "1")} to ${base.replace("#", String(count))}` : base.replace("#", "1");
  } else {
    hint.textContent = count > 1 ? `${base} 1–${count} (the first numbers free)` : `${base} (numbered if taken)`;
  }
}

function show() {
  const entry = chosen();
  if (!entry) return;
  document.getElementById("bst-line").textContent = `${entry.line} Source: ${entry.where}.`;
  form.elements.name.placeholder = entry.name;
  const row = document.getElementById("bst-dial-row");
  row.replaceChildren();
  for (const d of entry.dials) {
    const field = document.createElement("div");
    field.className = "field bst-dial";
    const id = `bst-dial-${d.key}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = d.label;
    const input = document.createElement("input");
    Object.assign(input, { id, type: "number", min: d.ge, max: d.le, value: d.value, inputMode: "numeric" });
    input.dataset.key = d.key;
    input.dataset.stored = d.value;
    field.append(label, input);
    row.append(field);
  }
  document.getElementById("bst-dials").hidden = entry.dials.length === 0;
  const force = document.getElementById("bst-force");
  force.hidden = entry.notes.length === 0;
  form.elements.force.checked = false;
  document.getElementById("bst-notes").textContent = entry.notes.length
    ? `As the text gives it, the rules refuse it: ${entry.notes.join(" ")}`
    : "";
  names();
}

if (form && tid) {
  form.addEventListener("change", (ev) => {
    if (ev.target.name === "entry") show();
  });
  form.addEventListener("input", (ev) => {
    if (ev.target.name === "count" || ev.target.name === "name") names();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = form.querySelector(".status");
    const entry = chosen();
    if (!entry) return;
    const dials = {};
    for (const input of form.querySelectorAll(".bst-dial input")) {
      if (input.value !== input.dataset.stored) dials[input.dataset.key] = Number(input.value);
    }
    const body = {
      entry: entry.id,
      count: Number(form.elements.count.value) || 1,
      name: form.elements.name.value.trim() || null,
      dials,
      force: form.elements.force.checked,
    };
    const button = document.getElementById("bst-seat");
    button.disabled = true;
    try {
      await api("POST", `/api/tables/${tid}/characters/bestiary`, body);
      const n = body.count;
      say(status, `Seated ${n} ${n === 1 ? "adversary" : "adversaries"}: see the log and the cards.`, "good");
    } catch (e) {
      say(status, e.message, "bad");
    } finally {
      button.disabled = false;
    }
  });
  show();
}
