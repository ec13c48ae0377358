// referee web table: the character sheets' table setting (who sees them), and printing.
// The sheets themselves are rendered by the server (_sheet.html); this only sends the
// referee's choice to the JSON API and opens every sheet before the page is printed.

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
      const res = await fetch(`/api/tables/${tid}/sheets`, {
        method: "PUT",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sheets }),
      });
      const data = await res.json().catch(() => null);
      if (!res.ok) throw new Error((data && typeof data.detail === "string" && data.detail) || `${res.status}`);
      say(status, sheets === "everyone" ? "Saved: everyone sees every sheet." : "Saved: each sheet is seen by its player and you.", "good");
    } catch (e) {
      say(status, e.message, "bad");
    }
  });
}

// a printed table page is its character sheets: open every one first
window.addEventListener("beforeprint", () => {
  for (const d of document.querySelectorAll("details.sheet-box")) d.open = true;
});
