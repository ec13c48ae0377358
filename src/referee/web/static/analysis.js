// The analysis page: the form works without this script (a plain GET); this only says
// that the server is working while a fight is computed, and keeps the button from
// being pressed twice.
const form = document.getElementById("pick");
if (form) {
  form.addEventListener("submit", () => {
    const status = document.getElementById("pick-status");
    const button = form.querySelector("button[type=submit]");
    if (status) status.textContent = "Working it out (a few seconds at most)…";
    if (button) button.disabled = true;
    document.getElementById("result")?.setAttribute("aria-busy", "true");
  });
}
