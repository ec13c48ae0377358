// The analysis page: its form is a plain GET that works without any script. This only
// says that the server is working while a fight is computed, keeps the button from being
// pressed twice, and keeps the table page's script (app.js, which sends every other form
// to the JSON API) from taking this form over.
const form = document.getElementById("pick");
if (form) {
  form.addEventListener("submit", (ev) => {
    ev.stopPropagation(); // the browser submits it as it is
    const status = document.getElementById("pick-status");
    const button = form.querySelector("button[type=submit]");
    if (status) status.textContent = "Working it out (a few seconds at most)…";
    if (button) setTimeout(() => { button.disabled = true; }, 0);
    document.getElementById("result")?.setAttribute("aria-busy", "true");
  });
}
