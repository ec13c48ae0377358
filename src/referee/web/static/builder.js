// The guided character builder (templates/_builder.html). It draws the game's form from the
// builder spec the server sends (sections of text, number, choice, multi-choice and row-list
// fields), sends the answers to be checked as they change, shows each problem next to its
// field and the budgets below, and enables "Seat" only for a legal sheet (the referee may
// force one in). Every rule is the server's: this module only draws and moves answers.
//
// The same form edits a seated sheet (a card's "Edit the sheet") and takes a sheet file:
// the sheet becomes the form's "base", the form is filled with its answers, and what is
// saved is the base with only the parts the form changed replaced (compared against the
// sheet the unchanged answers make), so what the form cannot say (notes, an example's own
// figures) is kept as it was.

import { api } from "./http.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;
const form = document.getElementById("builder");
const box = document.getElementById("bd-sections");

let spec = null;
let lastSheet = null;
let lastLegal = false;
let checking = 0;
const touched = new Set(); // fields the user has been at: only their problems show
let showAll = false; // after "start from" or a Seat attempt, every problem shows
let lastResult = null;
let base = null; // the sheet being edited or loaded (null: a new character from the form)
let baseBuilt = null; // the sheet the base's own answers make
let awaitingBase = false; // the next verdict is of the base's own answers
let editing = null; // {id, name} of the seated character being edited
let merged = null; // what Seat/Save sends
let mergedProblems = [];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const domId = (key) => "bd-f-" + key.replace(/[^A-Za-z0-9_-]+/g, "_");

// ---------------------------------------------------------------------------
// drawing the form

function control(field, id, describedBy) {
  const common = { id, "aria-describedby": describedBy, dataset: { key: field.key, kind: field.kind } };
  if (field.kind === "text") {
    return el("input", { ...common, type: "text", maxlength: field.high ?? 200, autocomplete: "off" });
  }
  if (field.kind === "number") {
    return el("input", { ...common, type: "number", step: 1, inputmode: "numeric", min: field.low, max: field.high });
  }
  if (field.kind === "choice") {
    const select = el("select", common);
    const hasBlank = field.choices.some((c) => c.value === "");
    if (!hasBlank) select.append(el("option", { value: "", text: "choose…" }));
    for (const c of field.choices) select.append(el("option", { value: JSON.stringify(c.value), text: c.label }));
    return select;
  }
  return null;
}

function setValue(c, value) {
  if (c.tagName === "SELECT") {
    c.value = value === null || value === undefined ? "" : JSON.stringify(value);
    if (c.selectedIndex < 0) c.value = "";
  } else c.value = value === null || value === undefined ? "" : String(value);
}

function readValue(c) {
  const kind = c.dataset.kind;
  const text = (c.value ?? "").trim();
  if (text === "") return undefined;
  if (kind === "number") {
    const n = Number(text);
    return Number.isInteger(n) ? n : text; // not a whole number: the server says so
  }
  if (kind === "choice") return JSON.parse(c.value);
  return c.value;
}

function hint(field) {
  const parts = [];
  if (field.help) parts.push(field.help);
  if (field.kind === "number" && field.low !== null && field.high !== null) parts.push(`${field.low} to ${field.high}`);
  return parts.join("; ");
}

const ORDINAL = ["first", "second", "third"];

// a multi-choice field that takes exactly 1 to 3 of more than 8 choices is drawn as that many
// selects (Mongrel's Expertise steps: two of 23 each)
function picksOf(field) {
  const n = field.high;
  return field.kind === "multi" && n !== null && field.low === n && n >= 1 && n <= 3 && field.choices.length > 8 ? n : 0;
}

function drawField(field) {
  const id = domId(field.key);
  const problemId = `${id}-p`;
  const hintId = `${id}-h`;
  const wrap = el("div", { class: `field bd-field bd-${field.kind}`, dataset: { key: field.key } });
  if (field.shown_when) {
    wrap.dataset.whenField = field.shown_when.field;
    wrap.dataset.whenValue = JSON.stringify(field.shown_when.value);
  }
  const hintText = hint(field);
  const described = [hintText ? hintId : null, problemId].filter(Boolean).join(" ");
  if (field.kind === "multi" && picksOf(field)) {
    // exactly one, two or three of many: that many choices, not a wall of checkboxes
    const set = el("fieldset", { id, class: "bd-multi bd-picks", "aria-describedby": described, dataset: { key: field.key, kind: "multi" } });
    set.append(el("legend", { text: field.label }));
    const grid = el("div", { class: "row" });
    for (let i = 0; i < picksOf(field); i++) {
      const cid = `${id}-${i}`;
      const select = el("select", { id: cid, class: "bd-pick" });
      select.append(el("option", { value: "", text: "choose…" }));
      for (const c of field.choices) select.append(el("option", { value: JSON.stringify(c.value), text: c.label }));
      grid.append(el("span", { class: "bd-cell" }, el("label", { for: cid, text: ORDINAL[i] }), select));
    }
    set.append(grid);
    wrap.append(set);
  } else if (field.kind === "multi") {
    const set = el("fieldset", { id, class: "bd-multi", "aria-describedby": described, dataset: { key: field.key, kind: "multi" } });
    set.append(el("legend", { text: field.label }));
    const grid = el("div", { class: "bd-choices" });
    field.choices.forEach((c, i) => {
      const cid = `${id}-${i}`;
      const box = el("input", { type: "checkbox", id: cid, value: JSON.stringify(c.value) });
      grid.append(el("label", { class: "check", for: cid }, box, c.label));
    });
    set.append(grid);
    wrap.append(set);
  } else if (field.kind === "rows") {
    const set = el("fieldset", { id, class: "bd-rows", "aria-describedby": described, dataset: { key: field.key, kind: "rows" } });
    set.append(el("legend", { text: field.label }));
    const list = el("ol", { class: "bd-rowlist" });
    const add = el("button", { type: "button", class: "small bd-add", text: `Add a row to ${field.label}` });
    add.addEventListener("click", () => {
      addRow(field, list, {});
      list.lastElementChild?.querySelector("input, select")?.focus();
      checkSoon();
    });
    set.append(list, add);
    wrap.append(set);
  } else {
    wrap.append(el("label", { for: id, text: field.label }), control(field, id, described));
    if (field.default !== null && field.default !== undefined) setValue(wrap.querySelector("input, select"), field.default);
  }
  if (hintText) wrap.append(el("span", { class: "hint", id: hintId, text: hintText }));
  wrap.append(el("p", { class: "bd-problem field-error", id: problemId }));
  return wrap;
}

function addRow(field, list, values) {
  const n = list.children.length + 1;
  const li = el("li", { class: "bd-row row" });
  for (const col of field.columns) {
    const id = `${domId(field.key)}-${n}-${col.key}-${Math.random().toString(36).slice(2, 7)}`;
    const c = control(col, id, null);
    c.dataset.col = col.key;
    const v = values[col.key] ?? col.default;
    if (v !== null && v !== undefined) setValue(c, v);
    li.append(el("span", { class: "bd-cell" }, el("label", { for: id, text: `${col.label}` }), c));
  }
  const remove = el("button", { type: "button", class: "small danger", text: "Remove", "aria-label": `Remove row ${n} of ${field.label}` });
  remove.addEventListener("click", () => {
    li.remove();
    checkSoon();
  });
  li.append(remove);
  list.append(li);
}

function draw() {
  box.replaceChildren();
  if (spec.help) box.append(el("p", { class: "muted small", text: spec.help }));
  for (const s of spec.sections) {
    const inner = [];
    if (s.help || s.rule) inner.push(el("p", { class: "muted small", text: [s.help, s.rule ? `[${s.rule}]` : ""].filter(Boolean).join(" ") }));
    for (const f of s.fields) inner.push(drawField(f));
    const grid = el("div", { class: "bd-grid" }, ...inner);
    if (s.folded) box.append(el("details", { class: "bd-section" }, el("summary", { text: s.title }), grid));
    else box.append(el("fieldset", { class: "bd-section" }, el("legend", { text: s.title }), grid));
  }
  applyWhen();
}

// ---------------------------------------------------------------------------
// answers

function fieldBox(key) {
  return box.querySelector(`.bd-field[data-key="${CSS.escape(key)}"]`);
}

function readField(wrap) {
  const key = wrap.dataset.key;
  const field = fields.get(key);
  if (field.kind === "multi" && picksOf(field)) {
    return [...wrap.querySelectorAll("select.bd-pick")].filter((c) => c.value !== "").map((c) => JSON.parse(c.value));
  }
  if (field.kind === "multi") {
    return [...wrap.querySelectorAll("input[type=checkbox]:checked")].map((b) => JSON.parse(b.value));
  }
  if (field.kind === "rows") {
    return [...wrap.querySelectorAll(".bd-row")].map((li) => {
      const row = {};
      for (const c of li.querySelectorAll("[data-col]")) {
        const v = readValue(c);
        if (v !== undefined) row[c.dataset.col] = v;
      }
      return row;
    });
  }
  return readValue(wrap.querySelector("input, select"));
}

function answers() {
  const out = {};
  for (const wrap of box.querySelectorAll(".bd-field")) {
    if (wrap.hidden) continue;
    const v = readField(wrap);
    if (v !== undefined) out[wrap.dataset.key] = v;
  }
  return out;
}

function fill(given) {
  for (const wrap of box.querySelectorAll(".bd-field")) {
    const field = fields.get(wrap.dataset.key);
    const v = given[field.key];
    if (field.kind === "multi" && picksOf(field)) {
      [...wrap.querySelectorAll("select.bd-pick")].forEach((c, i) => setValue(c, (v || [])[i]));
    } else if (field.kind === "multi") {
      const want = new Set((v || []).map((x) => JSON.stringify(x)));
      for (const b of wrap.querySelectorAll("input[type=checkbox]")) b.checked = want.has(b.value);
    } else if (field.kind === "rows") {
      const list = wrap.querySelector(".bd-rowlist");
      list.replaceChildren();
      for (const row of v || []) addRow(field, list, row);
    } else {
      setValue(wrap.querySelector("input, select"), v === undefined ? field.default : v);
    }
  }
  applyWhen();
}

function applyWhen() {
  for (const wrap of box.querySelectorAll(".bd-field[data-when-field]")) {
    const ctl = fieldBox(wrap.dataset.whenField)?.querySelector("input, select");
    const value = ctl ? readValue(ctl) : undefined;
    wrap.hidden = JSON.stringify(value) !== wrap.dataset.whenValue;
  }
}

// ---------------------------------------------------------------------------
// the server's verdict

function keyOf(problemField) {
  // the longest field key that is the problem's field or a prefix of it (rows: key.0.col)
  let best = "";
  for (const key of fields.keys()) {
    if ((problemField === key || problemField.startsWith(key + ".")) && key.length > best.length) best = key;
  }
  return best;
}

function stable(v) {
  return JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
}

// the base with the parts the form changed replaced (each top-level part of the sheet)
function mergeSheet(made) {
  if (!base || !made) return made;
  const out = {};
  const keys = new Set([...Object.keys(base), ...Object.keys(made), ...Object.keys(baseBuilt || {})]);
  for (const k of keys) {
    const inMade = k in made;
    const inBuilt = Boolean(baseBuilt) && k in baseBuilt;
    const changed = !baseBuilt || inMade !== inBuilt || (inMade && stable(made[k]) !== stable(baseBuilt[k]));
    if (changed) {
      if (inMade) out[k] = made[k];
      else if (!baseBuilt && k in base) out[k] = base[k];
    } else if (k in base) out[k] = base[k];
    else if (inMade) out[k] = made[k];
  }
  return out;
}

function show(result) {
  lastResult = result;
  lastSheet = result.sheet;
  lastLegal = result.legal;
  if (awaitingBase) {
    baseBuilt = result.sheet;
    awaitingBase = false;
  }
  merged = mergeSheet(result.sheet);
  if (base && merged) {
    // what is saved is the merged sheet: its verdict is the game's validator's
    lastLegal = mergedProblems.length === 0;
  }
  const byField = new Map();
  const general = [];
  for (const p of result.problems) {
    const key = keyOf(p.field);
    const wrap = key ? fieldBox(key) : null;
    if (!wrap || wrap.hidden) general.push(p);
    else byField.set(key, [...(byField.get(key) || []), p]);
  }
  for (const wrap of box.querySelectorAll(".bd-field")) {
    const shown = showAll || touched.has(wrap.dataset.key);
    const found = shown ? byField.get(wrap.dataset.key) || [] : [];
    const out = wrap.querySelector(".bd-problem");
    out.textContent = found.map((p) => p.message + (p.rule ? ` [${p.rule}]` : "")).join(" · ");
    const ctl = wrap.querySelector("input:not([type=checkbox]), select, fieldset");
    if (ctl) {
      if (found.length) ctl.setAttribute("aria-invalid", "true");
      else ctl.removeAttribute("aria-invalid");
    }
  }
  // the choices still legal after the other answers
  for (const [key, legal] of Object.entries(result.offered || {})) {
    const wrap = fieldBox(key);
    if (!wrap) continue;
    const allowed = new Set(legal.map((v) => JSON.stringify(v)));
    for (const opt of wrap.querySelectorAll("option")) {
      if (opt.value !== "") opt.disabled = !allowed.has(opt.value) && !opt.selected;
    }
    for (const b of wrap.querySelectorAll("input[type=checkbox]")) {
      b.disabled = !allowed.has(b.value) && !b.checked;
    }
  }
  const budgets = document.getElementById("bd-budgets");
  budgets.replaceChildren();
  for (const b of result.budgets) {
    const words = b.tally
      ? `${b.label}: ${b.total}`
      : b.left < 0
        ? `${b.label}: ${b.spent} of ${b.total}, ${-b.left} over`
        : `${b.label}: ${b.spent} of ${b.total}, ${b.left} left`;
    const kind = b.tally ? "tally" : b.left < 0 ? "bad" : b.ok ? "ok" : "todo";
    budgets.append(el("li", { class: kind, text: words }));
  }
  const gen = document.getElementById("bd-general");
  gen.replaceChildren();
  const said = new Set(result.problems.map((p) => p.message));
  for (const p of base && merged ? mergedProblems : []) if (!said.has(p.message)) general.push({ ...p, field: "" });
  if (general.length) {
    const ul = el("ul");
    for (const p of general) ul.append(el("li", { text: `${p.field ? labelOf(p.field) + ": " : ""}${p.message}${p.rule ? ` [${p.rule}]` : ""}` }));
    gen.append(ul);
  }
  verdict(base && merged ? mergedProblems.length : result.problems.length);
}

// a problem's field as the form calls it (its label), never a program path
function labelOf(where) {
  const key = keyOf(where);
  return key ? fields.get(key).label : "";
}

function verdict(count) {
  const seat = document.getElementById("bd-seat");
  const force = document.getElementById("bd-force");
  const forced = Boolean(force && force.checked && lastSheet);
  seat.disabled = !(lastLegal || forced);
  const v = document.getElementById("bd-verdict");
  v.classList.toggle("good", lastLegal);
  v.classList.toggle("bad", !lastLegal);
  if (lastLegal) v.textContent = `The character follows every rule: ready to ${editing ? "save" : "seat"}.`;
  else if (!lastSheet) v.textContent = `${count} thing${count === 1 ? "" : "s"} to fill in or fix before it can be seated.`;
  else v.textContent = `Breaks ${count} rule${count === 1 ? "" : "s"}${forced ? " (the referee may seat it anyway)" : ""}.`;
}

async function check() {
  const mine = ++checking;
  try {
    const result = await api("POST", `/api/tables/${tid}/builder/check`, { answers: answers() });
    if (mine !== checking) return;
    if (base && result.sheet) {
      if (awaitingBase) baseBuilt = result.sheet;
      awaitingBase = false;
      const whole = mergeSheet(result.sheet);
      const said = await api("POST", `/api/tables/${tid}/validate`, { sheet: whole });
      if (mine !== checking) return;
      mergedProblems = said.problems;
    } else mergedProblems = [];
    show(result);
  } catch (e) {
    if (mine !== checking) return;
    lastLegal = false;
    lastSheet = null;
    merged = null;
    awaitingBase = false;
    document.getElementById("bd-general").textContent = e.message;
    verdict(1);
  }
}

let timer = 0;
function checkSoon() {
  clearTimeout(timer);
  timer = setTimeout(check, 250);
}

// ---------------------------------------------------------------------------
// wiring

const fields = new Map();

async function start() {
  if (!form || !tid) return;
  try {
    spec = await api("GET", `/api/tables/${tid}/builder`);
  } catch (e) {
    box.textContent = `The builder is not available: ${e.message}`;
    return;
  }
  for (const s of spec.sections) for (const f of s.fields) fields.set(f.key, f);
  draw();
  const touch = (t) => {
    const key = t.closest?.(".bd-field")?.dataset.key;
    if (key) touched.add(key);
  };
  form.addEventListener("focusout", (ev) => {
    touch(ev.target);
    if (lastResult) show(lastResult);
  });
  form.addEventListener("input", (ev) => {
    if (ev.target.id === "bd-id") return;
    touch(ev.target);
    applyWhen();
    checkSoon();
  });
  form.addEventListener("change", async (ev) => {
    const t = ev.target;
    if (t.id === "bd-force") return verdict(document.querySelectorAll(".bd-problem:not(:empty)").length);
    if (t.id === "bd-example") {
      if (!t.value) return startFrom(null, {});
      try {
        const got = await api("GET", `/api/tables/${tid}/builder/examples/${encodeURIComponent(t.value)}`);
        // an example is a start: the form's own character is seated, not the example's sheet
        await startFrom(null, got.answers);
        showAll = true;
        await check();
      } catch (e) {
        document.getElementById("bd-general").textContent = e.message;
      }
      return;
    }
    if (t.id === "bd-file") return loadFile(t);
    touch(t);
    applyWhen();
    checkSoon();
  });
  form.addEventListener("submit", seat);
  document.getElementById("bd-new")?.addEventListener("click", () => {
    setEditing(null);
    document.getElementById("bd-example").value = "";
    startFrom(null, {});
    document.getElementById("bd-example").focus();
  });
  // a card's "Edit the sheet" (the cards are redrawn as the table changes: delegated)
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest?.("button.edit-sheet");
    if (b) edit(b.dataset.cid);
  });
  await check();
}

// the form filled from ``answers``, keeping ``sheet`` (null: none) as the base
async function startFrom(sheet, given) {
  base = sheet;
  baseBuilt = null;
  awaitingBase = Boolean(sheet);
  mergedProblems = [];
  fill(given);
  touched.clear();
  showAll = Boolean(sheet);
  await check();
}

function setEditing(who) {
  editing = who;
  const box = document.getElementById("bd-editing");
  box.hidden = !who;
  document.getElementById("bd-editing-what").textContent = who ? `Editing the sheet of ${who.name}: what you change here replaces it when you save.` : "";
  document.getElementById("bd-start-from").hidden = Boolean(who);
  document.getElementById("bd-seat-as").hidden = Boolean(who);
  document.getElementById("bd-seat").textContent = who ? `Save the sheet of ${who.name}` : "Seat";
  const summary = document.getElementById("bd-summary");
  if (summary) summary.textContent = who ? `Edit the sheet of ${who.name}` : "Seat a character";
}

async function edit(cid) {
  const holder = document.getElementById("add-char");
  try {
    const got = await api("GET", `/api/tables/${tid}/builder/characters/${encodeURIComponent(cid)}`);
    setEditing({ id: got.id, name: got.name });
    document.getElementById("bd-file-said").textContent = "";
    if (holder) holder.open = true;
    await startFrom(got.sheet, got.answers);
    holder?.scrollIntoView({ block: "start" });
    box.querySelector("input, select")?.focus({ preventScroll: true });
  } catch (e) {
    const v = document.getElementById("bd-verdict");
    v.textContent = e.message;
    if (holder) holder.open = true;
  }
}

async function loadFile(input) {
  const said = document.getElementById("bd-file-said");
  const file = input.files[0];
  if (!file) return;
  let sheet;
  try {
    sheet = JSON.parse(await file.text());
  } catch {
    said.textContent = `${file.name} is not a sheet file (it could not be read as one).`;
    return;
  }
  if (sheet === null || typeof sheet !== "object" || Array.isArray(sheet)) {
    said.textContent = `${file.name} is not a sheet file (it holds no character).`;
    return;
  }
  try {
    const got = await api("POST", `/api/tables/${tid}/builder/answers`, { sheet });
    document.getElementById("bd-example").value = "";
    await startFrom(got.sheet, got.answers);
    said.textContent = `Loaded ${file.name}: check the form, then ${editing ? "save" : "seat"} it.`;
  } catch (e) {
    said.textContent = `${file.name}: ${e.message}`;
  } finally {
    input.value = "";
  }
}

async function seat(ev) {
  ev.preventDefault();
  ev.stopPropagation();
  clearTimeout(timer);
  showAll = true;
  await check();
  const force = document.getElementById("bd-force");
  const forced = Boolean(force && force.checked);
  const v = document.getElementById("bd-verdict");
  const sheet = mergeSheet(lastSheet);
  if (!sheet || (!lastLegal && !forced)) {
    v.textContent = "Fix the problems shown first.";
    return;
  }
  try {
    if (editing) {
      const body = { sheet, force: forced && !lastLegal };
      await api("PUT", `/api/tables/${tid}/characters/${encodeURIComponent(editing.id)}`, body);
      base = sheet; // further changes are against what is now seated
      baseBuilt = lastSheet;
      v.textContent = `Saved the sheet of ${editing.name}.`;
    } else {
      const body = { sheet };
      const id = document.getElementById("bd-id").value.trim();
      if (id) body.id = id;
      const owner = document.getElementById("bd-owner");
      if (owner && owner.value) body.owner = owner.value;
      if (forced && !lastLegal) body.force = true;
      const done = await api("POST", `/api/tables/${tid}/characters`, body);
      v.textContent = `Seated ${done.event.payload.sheet?.name || done.event.payload.id}.`;
    }
    v.classList.add("good");
    v.classList.remove("bad");
  } catch (e) {
    v.classList.add("bad");
    v.classList.remove("good");
    v.textContent = e.message;
  }
}

start();
