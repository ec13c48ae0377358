// referee web table: rolling from the sheet. A sheet entry the game declares rollable
// (systems/sheetview.py Roll, rendered by _sheet.html as a <button class="sheet-roll">)
// opens its action in the character's action panel, filled in: the action chosen, the
// entry's fields set, the odds asked for (app.js previews on the input events sent here).
// The form's Roll button then rolls: one click to open, one to roll. Nothing here knows a
// game: the button carries the action's name and fields.

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

function fire(el, kind) {
  el.dispatchEvent(new Event(kind, { bubbles: true }));
}

function setControl(c, value) {
  if (c.type === "checkbox") c.checked = Boolean(value);
  else if (c.tagName === "SELECT" && ![...c.options].some((o) => o.value === String(value))) {
    const o = document.createElement("option"); // a value the form does not list yet
    o.value = String(value);
    o.textContent = String(value);
    c.append(o);
    c.value = String(value);
  } else c.value = value === null || value === undefined ? "" : String(value);
  const fold = c.closest("details");
  if (fold && !fold.open) fold.open = true; // a field set from the sheet is in sight
  fire(c, "input");
  fire(c, "change");
}

/** Open the action of a sheet entry filled in; returns its form (or null). */
export function openRoll(actor, roll) {
  const panel = $$("#panels section.actpanel").find((s) => s.dataset.actor === actor);
  if (!panel) return null;
  const actAs = document.getElementById("act-as");
  if (actAs && panel.hidden) {
    actAs.value = actor;
    fire(actAs, "change");
  }
  const pick = $(".action-pick", panel);
  if (!pick || ![...pick.options].some((o) => o.value === roll.action)) return null;
  if (pick.value !== roll.action) {
    pick.value = roll.action;
    fire(pick, "change");
  }
  const form = $(`form.action[data-action="${CSS.escape(roll.action)}"]`, panel);
  if (!form) return null;
  for (const [path, value] of Object.entries(roll.fields || {})) {
    const c = $$("[data-field]", form).find((x) => x.dataset.field === path && x.type !== "hidden");
    if (c) setControl(c, value);
  }
  // a roll the game declares aimed (a weapon's attack): a target left at "(none)" starts
  // at the first other character (as a required one does), shown in the form and its odds
  const target = roll.aims && $$("select[data-ref=character]", form).find((c) => c.dataset.field === "target");
  if (target && target.value === "" && !(roll.fields || {}).target) {
    const other = [...target.options].find((o) => o.value !== "" && o.value !== actor);
    if (other) setControl(target, other.value);
  }
  const tab = document.getElementById("tab-actions");
  if (tab && getComputedStyle(tab.parentElement).display !== "none") tab.click();
  const button = $("button[type=submit]", form);
  const status = $(".status", form);
  if (status) {
    const set = Object.entries(roll.fields || {}).map(([k, v]) => `${k.replace(/[_.]/g, " ")} ${v}`).join(", ");
    const what = roll.action.replace(/-/g, " ") + (set ? ` with ${set}` : "");
    status.textContent = `${what}, from the sheet: the odds are shown; Roll rolls.`;
    status.classList.remove("bad", "good");
  }
  if (button) {
    button.scrollIntoView({ block: "nearest" });
    button.focus({ preventScroll: true });
  }
  return form;
}

document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest("button.sheet-roll");
  if (!b) return;
  let roll;
  try {
    roll = JSON.parse(b.dataset.roll);
  } catch {
    return;
  }
  openRoll(b.dataset.actor, roll);
});
