// referee web table: the character sheets' table setting (who sees them), and printing.
// The sheets themselves are rendered by the server (_sheet.html); this only sends the
// referee's choice to the JSON API and opens every sheet before the page is printed.

import { api } from "./http.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;

function say(el, text, kind) {
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("bad", kind === "bad");
  el.classList.toggle("good", kind === "good");
}

const form = document.getElementById("sheets-setting");
if (form && tid) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = form.querySelector(".status");
    const sheets = form.elements.sheets.value;
    try {
      await api("PUT", `/api/tables/${tid}/sheets`, { sheets });
      say(status, sheets === "everyone" ? "Saved: everyone sees every sheet." : "Saved: each sheet is seen by its player and you.", "good");
    } catch (e) {
      say(status, e.message, "bad");
    }
  });
}

const settings = document.getElementById("table-settings");
if (settings && tid) {
  settings.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const status = settings.querySelector(".status");
    const body = {
      take_back: settings.elements.take_back.value,
      typed_dice: settings.elements.typed_dice.value,
      true_odds: settings.elements.true_odds.checked,
      players_gauge: settings.elements.players_gauge.checked,
    };
    try {
      await api("PUT", `/api/tables/${tid}/settings`, body);
      say(status, "Saved.", "good");
    } catch (e) {
      say(status, e.message, "bad");
    }
  });
}

// a printed table page is its character sheets: open every one first
window.addEventListener("beforeprint", () => {
  for (const d of document.querySelectorAll("details.sheet-box")) d.open = true;
});
window.addEventListener("afterprint", () => {
  for (const d of document.querySelectorAll("details.sheet-box")) {
    const cid = d.closest("article.card")?.dataset.cid;
    if (cid && folded.has(cid)) d.open = false;
  }
});

// a sheet folded by hand stays folded when the card is redrawn after an event
const folded = new Set();
document.addEventListener(
  "toggle",
  (ev) => {
    const d = ev.target;
    if (!(d instanceof HTMLDetailsElement) || !d.classList.contains("sheet-box")) return;
    const cid = d.closest("article.card")?.dataset.cid;
    if (!cid) return;
    if (d.open) folded.delete(cid);
    else folded.add(cid);
  },
  true,
);
const cards = document.getElementById("cards");
if (cards) {
  new MutationObserver(() => {
    for (const d of cards.querySelectorAll("details.sheet-box[open]")) {
      const cid = d.closest("article.card")?.dataset.cid;
      if (cid && folded.has(cid)) d.open = false;
    }
  }).observe(cards, { childList: true, subtree: true });
}
