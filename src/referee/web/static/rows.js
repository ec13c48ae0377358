// Lists in people's terms: a list field (a fieldset with data-list) is rows, each with a
// Remove button, and an "Add" button copies the fieldset's template row. The rows' controls
// are named path.0.x, path.1.x ... (app.js reads them into a list); they are renumbered
// after every change so the numbers stay 0, 1, 2 ... in order. Ids are made unique.

let made = 0;

function escapeRe(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function renumber(box) {
  const path = box.dataset.list;
  const rows = [...box.querySelectorAll(":scope > .list-rows > .list-row")];
  const step = new RegExp(`^${escapeRe(path)}\\.(\\d+|__i__)`);
  const SEL = "[data-field], [data-list], [data-chips], [data-present], [data-object]";
  const rename = (root, i) => {
    for (const el of root.querySelectorAll(SEL)) {
      for (const attr of ["field", "list", "chips", "present", "object"]) {
        const v = el.dataset[attr];
        if (v !== undefined) el.dataset[attr] = v.replace(step, `${path}.${i}`);
      }
    }
    for (const t of root.querySelectorAll("template")) rename(t.content, i); // a list in a row
  };
  rows.forEach((row, i) => {
    rename(row, i);
    const remove = row.querySelector(":scope > .row-remove");
    const legend = box.querySelector(":scope > legend");
    if (remove) remove.setAttribute("aria-label", `Remove ${legend ? legend.textContent.trim() : "row"} ${i + 1}`);
  });
}

function freshIds(root) {
  made += 1;
  const tag = `-n${made}`;
  const renamed = new Map();
  for (const el of root.querySelectorAll("[id]")) {
    const id = el.id + tag;
    renamed.set(el.id, id);
    el.id = id;
  }
  for (const el of root.querySelectorAll("[for], [aria-describedby], [list]")) {
    for (const attr of ["for", "aria-describedby", "list"]) {
      const v = el.getAttribute(attr);
      if (v) el.setAttribute(attr, v.split(" ").map((x) => renamed.get(x) || x).join(" "));
    }
  }
}

function changed(box) {
  renumber(box);
  // tell the form (the odds preview listens for input)
  box.dispatchEvent(new Event("input", { bubbles: true }));
}

document.addEventListener("click", (ev) => {
  const add = ev.target.closest("button.row-add");
  if (add) {
    const box = add.closest("[data-list]");
    const tpl = box && box.querySelector(":scope > template");
    if (!tpl) return;
    const row = tpl.content.firstElementChild.cloneNode(true);
    freshIds(row);
    box.querySelector(":scope > .list-rows").append(row);
    changed(box);
    const first = row.querySelector("input:not([type=hidden]), select, textarea");
    if (first) first.focus();
    return;
  }
  const remove = ev.target.closest("button.row-remove");
  if (remove) {
    const row = remove.closest(".list-row");
    const box = row.closest("[data-list]");
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    changed(box);
    const focus = next ? next.querySelector(".row-remove") : box.querySelector(":scope > .row-add");
    if (focus) focus.focus();
  }
});

// A row that names a character and a Talent (or skill, weapon...) of theirs: the names on
// the chosen character's sheet, from the page's sheet-names data (only sheets the viewer
// sees), fill the field's suggestions, and a value they do not have becomes their first.
function sheetNames() {
  const el = document.getElementById("sheet-names");
  try {
    return el ? JSON.parse(el.textContent) : {};
  } catch {
    return {};
  }
}

function fitRow(pick) {
  const row = pick.closest(".row-fields");
  if (!row) return;
  const names = sheetNames()[pick.value] || {};
  for (const input of row.querySelectorAll("input[data-sheet]")) {
    const own = names[input.dataset.sheet] || [];
    const list = input.list;
    if (list) {
      list.textContent = "";
      for (const n of own) {
        const o = document.createElement("option");
        o.value = n;
        list.append(o);
      }
    }
    // a left-out value keeps the rules' own default (a Life Role: the fallback)
    if (own.length && input.value !== "" && !own.includes(input.value)) input.value = own[0];
  }
}

document.addEventListener("change", (ev) => {
  const pick = ev.target.closest(".row-fields select[data-ref='character']");
  if (pick) fitRow(pick);
});

document.addEventListener("click", (ev) => {
  if (!ev.target.closest("button.row-add")) return;
  const box = ev.target.closest("[data-list]");
  const row = box && box.querySelector(":scope > .list-rows > .list-row:last-child");
  const pick = row && row.querySelector(".row-fields select[data-ref='character']");
  if (pick) fitRow(pick);
});
