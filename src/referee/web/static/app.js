// referee web table: the live log over a WebSocket, the forms the server built, and the
// exact-odds preview. No build step; everything shown is rendered (and escaped) by the
// server, this module only moves it into place and sends what is typed to the JSON API.

import { api } from "./http.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const main = document.getElementById("main");
const tid = main?.dataset.table;
const role = main?.dataset.role;

// ---------------------------------------------------------------------------
// talking to the server

function say(el, text, kind) {
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("bad", kind === "bad");
  el.classList.toggle("good", kind === "good");
}

function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

function logStatus() {
  return document.getElementById("log-status");
}

function statusOf(form) {
  return form.querySelector(":scope > .status, .status");
}

// ---------------------------------------------------------------------------
// reading a form built from the game's field descriptions

function readControl(c) {
  const kind = c.dataset.kind;
  const optional = c.hasAttribute("data-optional");
  const text = (c.value ?? "").trim();
  switch (kind) {
    case "integer":
      if (c.validity && c.validity.badInput) return { error: "not a whole number" };
      if (text === "") return optional ? { value: null } : { skip: true };
      return { value: Number(text) };
    case "boolean":
      return { value: c.checked };
    case "choice":
      if (text === "") return optional ? { value: null } : { skip: true };
      return { value: c.value };
    case "string":
      if (text === "" && optional) return { value: null };
      return { value: c.value };
    case "csv": {
      const parts = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
      const ints = c.dataset.items === "integer";
      return { value: parts.map((s) => (ints && /^[+-]?\d+$/.test(s) ? Number(s) : s)) };
    }
    case "json":
      if (text === "") return { skip: true };
      try {
        return { value: JSON.parse(text) };
      } catch (e) {
        return { error: `not valid JSON (${e.message})` };
      }
    case "list": {
      // a list of rows (rows.js): none left is an empty list (left out when it may be none)
      const box = c.closest("[data-list]");
      const any = box && box.querySelector(":scope > .list-rows > .list-row");
      if (any) return { value: [] };
      if (c.hasAttribute("data-required")) return { skip: true };
      return { value: optional ? null : [] };
    }
    case "chips": {
      const box = c.closest("[data-chips]");
      const ints = c.dataset.items === "integer";
      const picked = box ? [...box.querySelectorAll("input[type=checkbox]:checked")].map((x) => (ints ? Number(x.value) : x.value)) : [];
      return { value: picked };
    }
    case "loose":
      if (text === "") return { skip: true };
      if (/^[+-]?\d+$/.test(text)) return { value: Number(text) };
      if (/^[[{"]/.test(text)) {
        try {
          return { value: JSON.parse(text) };
        } catch (e) {
          return { error: `not valid JSON (${e.message})` };
        }
      }
      return { value: text };
    default:
      return { value: c.value };
  }
}

function setPath(target, path, value) {
  const parts = path.split(".");
  let node = target;
  parts.slice(0, -1).forEach((part, i) => {
    // a numeric step is a row of a list (rows.js numbers them 0, 1, ...)
    if (node[part] === null || typeof node[part] !== "object") node[part] = /^\d+$/.test(parts[i + 1]) ? [] : {};
    node = node[part];
  });
  node[parts[parts.length - 1]] = value;
}

function formFields(form) {
  const fields = {};
  const errors = [];
  const off = [];
  for (const box of $$("[data-present]", form)) {
    // a record left out is sent as null, and nothing inside it is sent (not even its own
    // left-out records: {"threat": {"armour": null}} would be a threat with no damage)
    const path = box.dataset.present;
    if (off.some((prefix) => path.startsWith(prefix))) continue;
    if (!box.checked) {
      off.push(path + ".");
      setPath(fields, path, null);
    }
  }
  for (const c of $$("[data-field]", form)) {
    const path = c.dataset.field;
    if (off.some((prefix) => path.startsWith(prefix))) continue;
    const r = readControl(c);
    if (r.error) errors.push({ field: path, message: r.error });
    else if (!r.skip) setPath(fields, path, r.value);
  }
  return { fields, errors };
}

function showFieldErrors(form, problems) {
  for (const c of $$("[data-field]", form)) {
    c.removeAttribute("aria-invalid");
    const box = c.id && document.getElementById(`${c.id}-e`);
    if (box) {
      box.hidden = true;
      box.textContent = "";
    }
  }
  for (const p of problems || []) {
    const c = $$("[data-field]", form).find((x) => x.dataset.field === p.field && x.type !== "hidden");
    if (!c) continue;
    c.setAttribute("aria-invalid", "true");
    const box = document.getElementById(`${c.id}-e`);
    if (box) {
      box.hidden = false;
      box.textContent = box.textContent ? `${box.textContent}; ${p.message}` : p.message;
    }
  }
}

function commonOf(form) {
  const vis = $("[data-common=visibility]", form);
  const facesText = ($("[data-common=faces]", form)?.value || "").trim();
  let faces = null;
  if (facesText !== "") {
    const parts = facesText.split(/[\s,]+/).filter((s) => s !== "");
    if (!parts.every((s) => /^\d+$/.test(s))) return { error: "physical dice: write the faces as whole numbers, e.g. 6, 3" };
    faces = parts.map(Number);
  }
  return { visibility: vis ? vis.value : "public", faces };
}

// ---------------------------------------------------------------------------
// the odds preview

const previewSerial = new WeakMap();

async function preview(form) {
  const box = $(".preview", form);
  if (!box) return;
  const { fields, errors } = formFields(form);
  showFieldErrors(form, errors);
  if (errors.length) {
    box.textContent = "";
    return;
  }
  const missing = $$("[data-field][required]", form).filter((c) => c.value.trim() === "");
  if (missing.length) {
    box.textContent = `Fill in ${missing.map((c) => c.dataset.field.replaceAll("_", " ")).join(", ")} to see the odds.`;
    return;
  }
  const serial = (previewSerial.get(form) || 0) + 1;
  previewSerial.set(form, serial);
  try {
    const data = await api("POST", `/t/${tid}/preview`, { action: form.dataset.action, fields });
    if (previewSerial.get(form) !== serial) return; // a newer preview is on its way
    box.innerHTML = data.html; // rendered and escaped by the server
    box.dataset.shown = "1";
    showFieldErrors(form, data.problems);
  } catch (e) {
    if (previewSerial.get(form) !== serial) return;
    if (e.status === 429) {
      setTimeout(() => previewSoon(form), 1000); // over the link's quota: ask again shortly
      return;
    }
    box.textContent = e.message;
  }
}

const previewTimers = new WeakMap();

function previewSoon(form) {
  clearTimeout(previewTimers.get(form));
  previewTimers.set(form, setTimeout(() => preview(form), 180));
}

function refreshPreviews() {
  // the table changed: the odds of the form in view (only it) are asked again
  const shown = $$("form.action").find(
    (form) => !form.hidden && !form.closest("section[hidden], [hidden]") && $(".preview", form)?.dataset.shown,
  );
  if (shown) previewSoon(shown);
}

// the Roll button says who will see the roll, so a secret or blind choice is never missed
const ROLL_WORDS = { public: "Roll", referee: "Roll in secret", blind: "Roll blind", private: "Roll privately", self: "Roll for me only" };

function showVisibility(form) {
  const vis = form && $("[data-common=visibility]", form);
  const button = form && $("button[type=submit]", form);
  if (!vis || !button) return;
  button.textContent = ROLL_WORDS[vis.value] || "Roll";
  button.classList.toggle("hidden-roll", vis.value !== "public");
}

async function submitAction(form) {
  const status = statusOf(form);
  const { fields, errors } = formFields(form);
  showFieldErrors(form, errors);
  if (errors.length) {
    say(status, errors.map((e) => `${e.field}: ${e.message}`).join("; "), "bad");
    return;
  }
  const common = commonOf(form);
  if (common.error) {
    say(status, common.error, "bad");
    return;
  }
  const button = $("button[type=submit]", form);
  button.disabled = true;
  try {
    const done = await api("POST", `/api/tables/${tid}/actions`, {
      action: form.dataset.action,
      fields,
      visibility: common.visibility,
      faces: common.faces,
    });
    if (done.event && done.event.kind === "action-failed") {
      say(status, `Refused after the dice were drawn (logged as event #${done.seq}): ${done.event.payload.error}`, "bad");
      return;
    }
    const kind = done.event && done.event.kind;
    const said = kind === "action-proposed" ? `Waiting for a decision (event #${done.seq}): nothing is rolled until it comes.`
      : kind === "request-made" ? `Your dice wait for the referee's approval (event #${done.seq}).`
      : `Done: event #${done.seq} in the log.`;
    say(status, said, "good");
    const facesBox = $("[data-common=faces]", form);
    if (facesBox) facesBox.value = "";
    const vis = $("[data-common=visibility]", form);
    if (vis && vis.value !== "public") {
      vis.value = "public"; // each roll's visibility is chosen anew: the next goes to everyone
      showVisibility(form);
    }
  } catch (e) {
    say(status, e.message, "bad");
    if (e.data && e.data.problems) showFieldErrors(form, e.data.problems);
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------
// the log and the live socket

const logEl = document.getElementById("log");
let lastSeq = 0;
let firstSeq = 0;
const undone = new Set();
const revealed = new Set();

function decorate(li) {
  const bar = $(".entry-actions", li);
  if (!bar || role !== "referee") return;
  bar.textContent = "";
  const seq = Number(li.dataset.seq);
  const add = (label, what) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small entry-do";
    b.dataset.what = what;
    b.dataset.seq = String(seq);
    b.textContent = label;
    b.setAttribute("aria-label", `${label} event ${seq}`);
    bar.append(b);
  };
  if (li.hasAttribute("data-undoable")) add(undone.has(seq) ? "Redo" : "Undo", undone.has(seq) ? "redo" : "undo");
  if (li.dataset.visibility !== "public" && !li.classList.contains("redacted") && !revealed.has(seq)) add("Reveal", "reveal");
}

function markUndone(seq, on) {
  if (on) undone.add(seq);
  else undone.delete(seq);
  const li = document.getElementById(`e${seq}`);
  if (!li) return;
  li.classList.toggle("undone", on);
  decorate(li);
}

function nearBottom() {
  return logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 80;
}

function addEntry(msg) {
  const e = msg.event;
  const stick = nearBottom();
  logEl.insertAdjacentHTML("beforeend", msg.html);
  const li = logEl.lastElementChild;
  li.classList.add("fresh");
  const target = e.payload ? e.payload.seq : undefined; // none where the event is hidden
  if (e.kind === "undo" && target) markUndone(target, true);
  if (e.kind === "redo" && target) markUndone(target, false);
  if (e.kind === "reveal" && target) {
    revealed.add(target);
    const entry = document.getElementById(`e${target}`);
    if (entry) decorate(entry);
  }
  decorate(li);
  if (stick) logEl.scrollTop = logEl.scrollHeight;
}

function replaceEntry(msg) {
  const old = document.getElementById(`e${msg.event.seq}`);
  if (!old) return;
  old.insertAdjacentHTML("afterend", msg.html);
  const fresh = old.nextElementSibling;
  old.remove();
  if (undone.has(msg.event.seq)) fresh.classList.add("undone");
  decorate(fresh);
}

let socket = null;
let retry = 0;
let pinger = 0;
const connEl = document.getElementById("conn");

function connState(text, kind) {
  if (!connEl) return;
  connEl.textContent = text;
  connEl.classList.toggle("live", kind === "live");
  connEl.classList.toggle("down", kind === "down");
}

function onMessage(msg) {
  // one live message; false when the socket was closed over a gap
  if (msg.type === "event") {
    const seq = msg.event.seq;
    if (seq <= lastSeq) return true; // already shown
    if (seq !== lastSeq + 1) {
      socket.close(); // a gap: reconnect from what we have
      return false;
    }
    addEntry(msg);
    lastSeq = seq;
    main.dataset.seq = String(seq);
    if (catchingUp) missed = true;
  } else if (msg.type === "panels") {
    // the push carries this viewer's redrawn cards, panels, tracker and decisions
    if (msg.seq >= drawnSeq) applyPanels(msg);
  } else if (msg.type === "updated") {
    replaceEntry(msg);
  } else if (msg.type === "live") {
    connState("live", "live");
    catchingUp = false;
    if (missed) refresh(); // events came while away: draw the table as it is now
    missed = false;
  } else if (msg.type === "reload") {
    location.reload();
  } else if (msg.type === "left") {
    connState("you are no longer at this table", "down");
  } else if (msg.type === "gauge") {
    document.dispatchEvent(new CustomEvent("referee-gauge", { detail: msg })); // static/gauge.js
  }
  return true;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/ws/tables/${tid}?after=${lastSeq}&lean=1`); // the page reads the HTML, the seq and the kind
  socket.addEventListener("open", () => {
    retry = 0;
    catchingUp = true;
    connState("catching up…");
    clearInterval(pinger);
    pinger = setInterval(() => socket.readyState === 1 && socket.send('{"type":"ping"}'), 25000);
  });
  socket.addEventListener("message", (ev) => {
    let data;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return;
    }
    // messages that waited together arrive as one array, in order
    for (const msg of Array.isArray(data) ? data : [data]) {
      if (!onMessage(msg)) return;
    }
  });
  socket.addEventListener("close", (ev) => {
    clearInterval(pinger);
    if (ev.code === 1008 || ev.code === 4003) {
      connState(`disconnected: ${ev.reason || "no longer at this table"}`, "down");
      return;
    }
    retry = Math.min(retry + 1, 6);
    const wait = Math.min(500 * 2 ** (retry - 1), 8000);
    connState("reconnecting…", "down");
    setTimeout(connect, wait);
  });
}

// ---------------------------------------------------------------------------
// refreshing the live parts after an event

function syncCharacterSelects(characters) {
  for (const sel of $$('select[data-ref="character"]')) {
    const keep = sel.value;
    const none = sel.querySelector('option[value=""]');
    sel.textContent = "";
    if (none) sel.append(none);
    for (const c of characters) {
      const o = document.createElement("option");
      o.value = c.id;
      o.textContent = `${c.name} (${c.id})`;
      sel.append(o);
    }
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  }
  const target = document.getElementById("ed-target");
  if (target) {
    const keep = target.value;
    target.textContent = "";
    const t = document.createElement("option");
    t.value = "table";
    t.textContent = "the table";
    target.append(t);
    for (const c of characters) {
      const o = document.createElement("option");
      o.value = c.id;
      o.textContent = `${c.name} (${c.id})`;
      target.append(o);
    }
    if ([...target.options].some((o) => o.value === keep)) target.value = keep;
  }
}

function syncPeople(people) {
  // (the chat keeps its own list of whom to write to: static/chat.js)
  const fill = (sel, names, first) => {
    if (!sel) return;
    const keep = sel.value;
    sel.textContent = "";
    if (first) sel.append(first);
    for (const name of names) {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name;
      sel.append(o);
    }
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  };
  const owner = document.getElementById("bd-owner"); // the builder's "played by"
  if (owner) {
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "played by the referee";
    fill(owner, people.filter((p) => p.role === "player").map((p) => p.name), none);
    for (const o of owner.options) if (o.value) o.textContent = `played by ${o.value}`;
  }
}

const laterHtml = new Map(); // element id -> the html to draw once focus leaves it

function redrawLater(id, html) {
  const el = document.getElementById(id);
  if (!el) return;
  if (el.contains(document.activeElement)) laterHtml.set(id, html);
  else {
    laterHtml.delete(id);
    el.innerHTML = html;
  }
}

document.addEventListener("focusout", () => {
  if (laterHtml.size === 0) return;
  setTimeout(() => {
    for (const [id, html] of [...laterHtml]) redrawLater(id, html);
    markWaiting();
  }, 0);
});

let catchingUp = true; // until the socket says "live"
let missed = false; // events arrived while catching up: redraw once live
let drawnSeq = 0; // the newest table state drawn

async function refresh() {
  // a browser that was away asks for its panels once; after that every push carries them
  let data;
  try {
    data = await api("GET", `/t/${tid}/panels`);
  } catch {
    return;
  }
  if (data.seq >= drawnSeq) applyPanels(data);
}

function applyPanels(data) {
  drawnSeq = data.seq;
  if (data.role !== role) {
    location.reload();
    return;
  }
  const cards = document.getElementById("cards");
  const seen = new Set(Object.keys(data.cards));
  for (const art of $$("article.card", cards)) {
    if (!seen.has(art.dataset.cid)) art.remove();
  }
  for (const [cid, parts] of Object.entries(data.cards)) {
    const art = $$("article.card", cards).find((a) => a.dataset.cid === cid);
    if (art) $(".live", art).innerHTML = parts.live;
    else cards.insertAdjacentHTML("beforeend", parts.card);
  }
  document.getElementById("no-cards")?.remove();
  const panels = document.getElementById("panels");
  if (panels) {
    const want = new Set(Object.keys(data.panels));
    for (const sec of $$("section.actpanel", panels)) {
      if (!want.has(sec.dataset.actor)) sec.remove();
    }
    for (const [cid, html] of Object.entries(data.panels)) {
      if (!$$("section.actpanel", panels).some((s) => s.dataset.actor === cid)) {
        panels.insertAdjacentHTML("beforeend", html);
        document.getElementById("no-panels")?.remove();
      }
    }
    syncActAs();
  }
  syncCharacterSelects(data.characters);
  syncPeople(data.people);
  document.getElementById("tracker").innerHTML = data.tracker;
  // a part being used (focus inside) is redrawn once focus leaves it, never under the hand
  redrawLater("pending-top", data.pending);
  redrawLater("participants", data.participants);
  const fixes = document.getElementById("ed-field");
  if (fixes && data.corrections) {
    // the referee's correction form: the characters and values as the table has them now
    const chosen = fixes.value;
    fixes.innerHTML = data.corrections;
    if ([...fixes.options].some((o) => o.value === chosen)) fixes.value = chosen;
  }
  markWaiting();
  const now = new Set(data.undone);
  for (const seq of [...undone]) if (!now.has(seq)) markUndone(seq, false);
  for (const seq of now) if (!undone.has(seq)) markUndone(seq, true);
  refreshPreviews();
}


// ---------------------------------------------------------------------------
// the table page's controls

function showAction(pick) {
  const scope = pick.closest(".actpanel");
  for (const form of $$("form.action", scope)) form.hidden = form.dataset.action !== pick.value;
  const form = $$("form.action", scope).find((f) => !f.hidden);
  if (form) previewSoon(form);
}

// with several characters, one action panel at a time, chosen by "Act as"
function syncActAs(prefer) {
  const pick = document.getElementById("act-as");
  const panels = $$("#panels > section.actpanel");
  if (!pick) return;
  const keep = prefer || pick.value;
  pick.textContent = "";
  for (const sec of panels) {
    const o = document.createElement("option");
    o.value = sec.dataset.actor;
    o.textContent = $("h3", sec)?.textContent || sec.dataset.actor;
    pick.append(o);
  }
  pick.closest(".act-as").hidden = panels.length < 2;
  if (panels.some((p) => p.dataset.actor === keep)) pick.value = keep;
  for (const sec of panels) sec.hidden = panels.length > 1 && sec.dataset.actor !== pick.value;
}

function activateTab(tab, focus) {
  const tabs = $$('.tabs [role="tab"]');
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute("aria-controls"))?.classList.toggle("active", on);
  }
  if (tab.id === "tab-log" && logEl) logEl.scrollTop = logEl.scrollHeight;
  if (focus) tab.focus();
}

function readOptions(root) {
  // the list and pair options are built as fields (rows, pairs, selects); the rest as options
  const options = formFields(root).fields;
  for (const c of $$("[data-option]", root)) {
    const kind = c.dataset.kind;
    if (kind === "boolean") options[c.dataset.option] = c.checked;
    else if (kind === "integer") options[c.dataset.option] = Number(c.value);
    else if (kind === "json") options[c.dataset.option] = JSON.parse(c.value);
    else options[c.dataset.option] = c.value;
  }
  return options;
}

async function onClick(ev) {
  const b = ev.target.closest("button");
  if (!b) return;
  const logStatus = document.getElementById("log-status");
  try {
    if (b.classList.contains("entry-do")) {
      const seq = Number(b.dataset.seq);
      await api("POST", `/api/tables/${tid}/${b.dataset.what}`, { seq });
      say(logStatus, `${b.dataset.what} #${seq}: done`, "good");
    } else if (b.id === "undo") {
      const done = await api("POST", `/api/tables/${tid}/undo`, {});
      const asked = done.event.kind === "request-made";
      say(logStatus, asked ? `asked the referee to take back #${done.event.payload.seq}` : `took back #${done.event.payload.seq}`, "good");
    } else if (b.classList.contains("answer")) {
      const grant = b.dataset.grant === "true";
      await api("POST", `/api/tables/${tid}/requests/${b.dataset.seq}`, { grant });
      say(logStatus, `${grant ? "granted" : "closed"} request #${b.dataset.seq}`, "good");
    } else if (b.id === "redo") {
      const done = await api("POST", `/api/tables/${tid}/redo`, {});
      say(logStatus, `redid #${done.event.payload.seq}`, "good");
    } else if (b.id === "earlier") {
      const data = await api("GET", `/t/${tid}/entries?before=${firstSeq}`);
      logEl.insertAdjacentHTML("afterbegin", data.html);
      firstSeq = data.first || 1;
      for (const li of $$("li.entry", logEl)) decorate(li);
      if (firstSeq <= 1) b.remove();
    } else if (b.classList.contains("choice")) {
      const panel = $$("section.actpanel").find((s) => s.dataset.actor === b.dataset.actor);
      if (panel && panel.hidden) syncActAs(b.dataset.actor);
      const pick = panel && $(".action-pick", panel);
      if (!pick) {
        say(logStatus, `${b.dataset.actor} answers with ${b.dataset.action}`, "");
        return;
      }
      pick.value = b.dataset.action;
      showAction(pick);
      const tab = document.getElementById("tab-actions");
      if (tab && getComputedStyle(tab.parentElement).display !== "none") activateTab(tab, false);
      const form = $$("form.action", panel).find((f) => !f.hidden);
      const first = form && form.querySelector("input:not([type=hidden]), select, textarea, button");
      (first || pick).focus();
    } else if (b.classList.contains("withdraw")) {
      await api("DELETE", `/api/tables/${tid}/proposals/${b.dataset.seq}`);
      say(logStatus, `withdrew #${b.dataset.seq}`, "good");
    } else if (b.classList.contains("revoke")) {
      await api("DELETE", `/api/tables/${tid}/invites/${encodeURIComponent(b.dataset.kid)}`);
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = "revoked";
      b.replaceWith(badge);
    } else if (b.classList.contains("remove-person")) {
      if (!confirm(`Remove ${b.dataset.name} from the table? Their links stop working.`)) return;
      await api("DELETE", `/api/tables/${tid}/participants/${encodeURIComponent(b.dataset.name)}`);
    } else if (b.classList.contains("remove-char")) {
      if (!confirm(`Take ${b.dataset.cid} off the table?`)) return;
      await api("DELETE", `/api/tables/${tid}/characters/${encodeURIComponent(b.dataset.cid)}`);
    } else if (b.id === "verify") {
      const r = await api("GET", `/api/tables/${tid}/verify`);
      say(document.getElementById("ex-status"), r.ok ? `The log verifies: ${r.events} events, the chain and every replayed roll.` : `BROKEN at event ${r.seq}: ${r.problem}`, r.ok ? "good" : "bad");
    } else if (b.id === "forget") {
      await api("POST", `/t/${tid}/forget`);
      location.href = "/";
    } else if (b.id === "inv-copy") {
      const input = document.getElementById("inv-link");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        say(statusOf(document.getElementById("invite")), "Copied.", "good");
      } catch {
        say(statusOf(document.getElementById("invite")), "Selected: copy it with Ctrl+C.", "");
      }
    } else if (b.getAttribute("role") === "tab") {
      activateTab(b, false);
    }
  } catch (e) {
    say(logStatus, e.message, "bad");
    if (b.closest("#table-pane")) say(document.getElementById("ex-status"), e.message, "bad");
  }
}

async function onSubmit(ev) {
  const form = ev.target;
  if (!(form instanceof HTMLFormElement)) return;
  ev.preventDefault();
  const status = statusOf(form);
  try {
    if (form.classList.contains("action")) {
      await submitAction(form);
    } else if (form.classList.contains("decide-form")) {
      const { fields, errors } = formFields(form);
      showFieldErrors(form, errors);
      if (errors.length) {
        say(status, errors.map((e) => `${e.field}: ${e.message}`).join("; "), "bad");
        return;
      }
      const done = await api("POST", `/api/tables/${tid}/proposals/${form.dataset.seq}`, { fields });
      say(logStatus(), `Rolled #${form.dataset.seq}: event #${done.seq}.`, "good");
      document.activeElement?.blur(); // the answered form goes with the next redraw (pushed)
    } else if (form.id === "invite") {
      const name = document.getElementById("inv-name").value.trim();
      const made = await api("POST", `/api/tables/${tid}/invites`, { name, role: document.getElementById("inv-role").value });
      $(".made", form).hidden = false;
      const input = document.getElementById("inv-link");
      input.value = made.link;
      input.focus();
      input.select();
      const li = document.createElement("li");
      li.dataset.kid = made.id;
      li.textContent = `${made.name} `;
      const small = document.createElement("span");
      small.className = "muted small";
      small.textContent = `${made.kind} · just now`;
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "small revoke";
      revoke.dataset.kid = made.id;
      revoke.textContent = "Revoke";
      li.append(small, " ", revoke);
      document.getElementById("invites").append(li);
      say(status, `A link for ${made.name}.`, "good");
    } else if (form.id === "edit") {
      const mode = document.getElementById("ed-mode").value;
      const raw = document.getElementById("ed-value").value.trim();
      const [target, field] = document.getElementById("ed-field").value.split("|");
      const change = { target, field };
      if (mode === "delta") {
        if (!/^[+-]?\d+$/.test(raw)) {
          say(status, "add: a whole number, e.g. 2 or -1", "bad");
          return;
        }
        change.delta = Number(raw);
      } else {
        try {
          change.value = JSON.parse(raw);
        } catch {
          change.value = raw;
        }
      }
      await api("POST", `/api/tables/${tid}/edits`, { changes: [change], reason: document.getElementById("ed-reason").value });
      say(status, "Corrected (see the log).", "good");
    } else if (form.id === "options") {
      let options;
      try {
        options = readOptions(form);
      } catch (e) {
        say(status, `An option is not valid JSON: ${e.message}`, "bad");
        return;
      }
      await api("PUT", `/api/tables/${tid}/options`, { options });
      say(status, "Saved.", "good");
    } else if (form.id === "create") {
      const box = $$(".game-options", form).find((f) => !f.disabled);
      let options = {};
      try {
        options = box ? readOptions(box) : {};
      } catch (e) {
        say(status, `An option is not valid JSON: ${e.message}`, "bad");
        return;
      }
      const made = await api("POST", "/api/tables", {
        game: form.elements.game.value,
        name: form.elements.name.value,
        referee: form.elements.referee.value,
        options,
      });
      status.textContent = "";
      const p = document.createElement("span");
      p.textContent = "Created. Your referee link (keep it private; it is shown once): ";
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = made.link;
      input.setAttribute("aria-label", "Your referee link");
      const go = document.createElement("a");
      go.className = "button";
      go.href = `/t/${made.table.id}`;
      go.textContent = "Open the table";
      status.append(p, input, " ", go);
      go.focus();
    } else if (form.id === "import") {
      const file = document.getElementById("imp-file").files[0];
      if (!file) return;
      let data;
      try {
        data = JSON.parse(await file.text());
      } catch (e) {
        say(status, `Not valid JSON: ${e.message}`, "bad");
        return;
      }
      const made = await api("POST", "/api/import", data);
      say(status, `Imported and verified: ${made.table.name}.`, "good");
      location.href = `/t/${made.table.id}`;
    }
  } catch (e) {
    say(status, e.message, "bad");
    if (form.classList.contains("action") && e.data && e.data.problems) showFieldErrors(form, e.data.problems);
  }
}

function onInput(ev) {
  const t = ev.target;
  const form = t.closest("form.action");
  if (form && (t.dataset.field || t.dataset.present)) {
    form.dataset.touched = "1"; // from now on a refusal is the player's to fix: shown as one
    if (t.dataset.present) {
      const nested = t.closest("fieldset").querySelector(".nested-fields");
      if (nested) nested.hidden = !t.checked;
    }
    previewSoon(form);
  }
}

async function onChange(ev) {
  const t = ev.target;
  if (t.classList.contains("action-pick")) showAction(t);
  if (t.dataset.common === "visibility") showVisibility(t.closest("form"));
  if (t.id === "act-as") {
    syncActAs();
    const form = $$("#panels > section.actpanel:not([hidden]) form.action").find((f) => !f.hidden);
    if (form) previewSoon(form);
  }
  if (t.id === "c-game") {
    for (const box of $$(".game-options")) {
      const on = box.dataset.game === t.value;
      box.hidden = !on;
      box.disabled = !on;
    }
  }
  if (t.classList.contains("role-pick")) {
    try {
      await api("PUT", `/api/tables/${tid}/participants/${encodeURIComponent(t.dataset.name)}`, { role: t.value });
    } catch (e) {
      say(document.getElementById("log-status"), e.message, "bad");
    }
  }
  onInput(ev);
}

function onKey(ev) {
  const tab = ev.target.closest && ev.target.closest('[role="tab"]');
  if (!tab) return;
  const tabs = $$('.tabs [role="tab"]');
  let i = tabs.indexOf(tab);
  if (ev.key === "ArrowRight") i = (i + 1) % tabs.length;
  else if (ev.key === "ArrowLeft") i = (i - 1 + tabs.length) % tabs.length;
  else if (ev.key === "Home") i = 0;
  else if (ev.key === "End") i = tabs.length - 1;
  else return;
  ev.preventDefault();
  activateTab(tabs[i], true);
}

// ---------------------------------------------------------------------------
// start

document.addEventListener("click", onClick);
document.addEventListener("submit", onSubmit);
document.addEventListener("input", onInput);
document.addEventListener("change", onChange);
document.addEventListener("keydown", onKey);

// a decision that waits for me marks the Actions tab (on a phone it may be out of sight)
function markWaiting() {
  const tab = document.getElementById("tab-actions");
  const top = document.getElementById("pending-top");
  if (!tab || !top) return;
  const actors = new Set($$("section.actpanel").map((s) => s.dataset.actor));
  const mine =
    top.querySelector(".decide-form button[type=submit]") ||
    [...top.querySelectorAll("button.choice")].some((b) => actors.has(b.dataset.actor));
  tab.toggleAttribute("data-waiting", Boolean(mine));
  tab.setAttribute("aria-label", mine ? "Actions (a decision waits for you)" : "Actions");
}

if (main?.dataset.next) {
  location.replace(main.dataset.next); // the join page: the token leaves the address bar
}

if (tid && logEl) {
  markWaiting();
  for (const s of (main.dataset.undone || "").split(",")) if (s) undone.add(Number(s));
  for (const s of (main.dataset.revealed || "").split(",")) if (s) revealed.add(Number(s));
  const entries = $$("li.entry", logEl);
  lastSeq = entries.length ? Number(entries[entries.length - 1].dataset.seq) : Number(main.dataset.seq || 0);
  firstSeq = entries.length ? Number(entries[0].dataset.seq) : lastSeq + 1;
  for (const li of entries) decorate(li);
  logEl.scrollTop = logEl.scrollHeight;
  syncActAs();
  for (const form of $$("form.action")) if (!form.hidden && !form.closest("section[hidden]")) previewSoon(form);
  connect();
}
