// referee web table: the chat panel and the log's filter.
//
// Table talk is the log's `note` events: whatever brings an entry into the log (the page,
// the live socket, "Earlier events", a reveal) brings it here too, because this module
// watches the log itself. A message is built from the entry the server rendered and
// redacted for this participant (its data-* attributes and its text), with textContent
// only: nothing here parses HTML. Sending is the JSON API's POST .../notes.

import { api } from "./http.js";
import { isCommand, runCommand } from "./chatcmd.js";

const main = document.getElementById("main");
const tid = main?.dataset.table;
const me = main?.dataset.me;
const myRole = main?.dataset.role;
const logEl = document.getElementById("log");
const list = document.getElementById("chat-list");
const pane = document.getElementById("chat-pane");
const tab = document.getElementById("tab-chat");
const form = document.getElementById("chat-form");
const text = document.getElementById("chat-text");
const to = document.getElementById("chat-to");
const status = document.getElementById("chat-status");
const empty = document.getElementById("chat-empty");

// ---------------------------------------------------------------------------
// messages from log entries

const shown = new Map(); // seq -> the message's <li>
let newest = 0; // the highest seq seen when the page was drawn, then live
let unread = 0;

function whisperLabel(m) {
  if (m.visibility === "referee") return m.actor === me ? "to the referees only" : `${m.actor} to the referees only`;
  if (m.visibility !== "private") return "";
  if (m.actor === me) return `whisper to ${m.audience}`;
  if (m.audience === me) return "whisper to you";
  return `whisper ${m.actor} → ${m.audience}`;
}

function fromEntry(li) {
  if (li.dataset.kind !== "note" || li.classList.contains("redacted")) return null;
  const body = li.querySelector(".note-text");
  const time = li.querySelector("time");
  return {
    seq: Number(li.dataset.seq),
    actor: li.dataset.actor || "someone",
    visibility: li.dataset.visibility || "public",
    audience: li.dataset.audience || "",
    time: time ? time.textContent.trim().slice(0, 5) : "",
    stamp: time ? time.getAttribute("datetime") || "" : "",
    text: body ? body.textContent : "",
  };
}

function render(m) {
  const li = document.createElement("li");
  li.className = "msg";
  li.dataset.seq = String(m.seq);
  li.classList.toggle("mine", m.actor === me);
  const label = whisperLabel(m);
  if (label) li.classList.add("whisper");
  const head = document.createElement("div");
  head.className = "msg-head";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = m.actor === me ? `${m.actor} (you)` : m.actor;
  head.append(who);
  if (label) {
    const badge = document.createElement("span");
    badge.className = "badge vis whisper-badge";
    badge.textContent = label;
    head.append(" ", badge);
  }
  const time = document.createElement("time");
  time.dateTime = m.stamp;
  time.textContent = m.time;
  head.append(" ", time);
  const body = document.createElement("p");
  body.className = "msg-text";
  body.textContent = m.text;
  li.append(head, body);
  return li;
}

function nearBottom() {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 60;
}

function place(li, seq) {
  const later = [...list.children].find((x) => Number(x.dataset.seq) > seq);
  if (later) list.insertBefore(li, later);
  else list.append(li);
}

function visible() {
  return pane.offsetParent !== null && getComputedStyle(pane).display !== "none";
}

function showUnread() {
  if (!tab) return;
  let count = tab.querySelector(".unread");
  if (unread > 0) {
    if (!count) {
      count = document.createElement("span");
      count.className = "unread";
      tab.append(count);
    }
    count.textContent = String(unread);
    tab.setAttribute("aria-label", `Chat, ${unread} unread`);
  } else {
    count?.remove();
    tab.setAttribute("aria-label", "Chat");
  }
}

function take(li, live) {
  const m = fromEntry(li);
  if (!m) return;
  const old = shown.get(m.seq);
  const stick = nearBottom();
  const item = render(m);
  if (old) old.replaceWith(item);
  else place(item, m.seq);
  shown.set(m.seq, item);
  empty.hidden = true;
  const fresh = live && m.seq > newest;
  if (fresh && !old) {
    item.classList.add("fresh");
    if (m.actor !== me && !visible()) {
      unread += 1;
      showUnread();
    }
  }
  if (stick || (fresh && m.actor === me)) list.scrollTop = list.scrollHeight;
}

function entriesIn(node) {
  if (!(node instanceof HTMLElement)) return [];
  if (node.matches("li.entry")) return [node];
  return [...node.querySelectorAll("li.entry")];
}

// ---------------------------------------------------------------------------
// who a message can go to (kept up to date when people join, leave or change role)

async function syncRecipients() {
  if (!to) return;
  let data;
  try {
    data = await api("GET", `/api/tables/${tid}`);
  } catch {
    return;
  }
  const people = Object.entries(data.participants || {});
  const referees = people.filter(([, r]) => r === "referee").map(([n]) => n);
  const keep = to.value;
  to.textContent = "";
  const add = (value, label, dataTo) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    if (dataTo) o.dataset.to = dataTo;
    to.append(o);
  };
  add("", "everyone");
  if (myRole === "referee") add("@referee", "the referees only");
  else if (referees.length) add("@referee", `the referee (${referees[0]})`, referees[0]);
  for (const [name, r] of people) {
    if (name === me || (myRole !== "referee" && name === referees[0])) continue;
    add(name, r === "referee" ? `${name} (referee)` : r === "observer" ? `${name} (observer)` : name);
  }
  to.value = [...to.options].some((o) => o.value === keep) ? keep : "";
}

// ---------------------------------------------------------------------------
// sending

function recipient() {
  const value = to ? to.value : "";
  if (value === "") return { visibility: "public" };
  if (value === "@referee") {
    if (myRole === "referee") return { visibility: "referee" };
    return { visibility: "private", to: to.selectedOptions[0]?.dataset.to };
  }
  return { visibility: "private", to: value };
}

function showRecipient() {
  // the Send button says who the message goes to, so a whisper is never sent by mistake
  const button = form && form.querySelector("button[type=submit]");
  if (!button || !to) return;
  button.classList.remove("hidden-roll");
  button.textContent = to.value === "" ? "Send" : `Send: ${to.selectedOptions[0]?.textContent || to.value}`;
}

async function send(ev) {
  ev.preventDefault();
  ev.stopPropagation(); // app.js's document-wide submit handler has nothing to do here
  const words = text.value.trim();
  if (!words) {
    status.textContent = "Write a message first.";
    status.classList.add("bad");
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  if (isCommand(words)) {
    // a command (/r 2d6, /task Fitness 6): rolled through the table, not said (chatcmd.js)
    if (await runCommand(words, status)) {
      text.value = "";
      showRecipient();
    }
    button.disabled = false;
    text.focus();
    return;
  }
  try {
    await api("POST", `/api/tables/${tid}/notes`, { text: words, ...recipient() });
    text.value = "";
    if (to && to.value !== "") {
      to.value = ""; // each message's audience is chosen anew: the next goes to everyone
      showRecipient();
    }
    status.textContent = "";
    status.classList.remove("bad");
  } catch (e) {
    status.textContent = e.message;
    status.classList.add("bad");
  } finally {
    button.disabled = false;
    text.focus();
  }
}

// ---------------------------------------------------------------------------
// the log's filter: everything, rolls, or chat; remembered per table in this browser

const FILTER_KEY = `referee.logFilter.${tid}`;

function applyFilter(value) {
  if (!logEl) return;
  const known = ["all", "roll", "chat"].includes(value) ? value : "all";
  logEl.dataset.filter = known;
  for (const r of document.querySelectorAll('input[name="log-filter"]')) r.checked = r.value === known;
  if (known !== "all") logEl.scrollTop = logEl.scrollHeight;
}

function storedFilter() {
  try {
    return localStorage.getItem(FILTER_KEY) || "all";
  } catch {
    return "all";
  }
}

function onFilter(ev) {
  const r = ev.target;
  if (!(r instanceof HTMLInputElement) || r.name !== "log-filter") return;
  applyFilter(r.value);
  try {
    localStorage.setItem(FILTER_KEY, r.value);
  } catch {
    // private browsing: the choice lasts this page only
  }
}

// ---------------------------------------------------------------------------
// start

if (tid && logEl) {
  applyFilter(storedFilter());
  document.getElementById("log-filter")?.addEventListener("change", onFilter);
}

if (tid && logEl && list) {
  for (const li of logEl.querySelectorAll("li.entry")) take(li, false);
  for (const li of logEl.querySelectorAll("li.entry")) newest = Math.max(newest, Number(li.dataset.seq));
  list.scrollTop = list.scrollHeight;
  new MutationObserver((records) => {
    let people = false;
    for (const rec of records) {
      for (const node of rec.addedNodes) {
        for (const li of entriesIn(node)) {
          const seq = Number(li.dataset.seq);
          take(li, seq > newest);
          if (/^participant-|^role-changed$/.test(li.dataset.kind || "") && seq > newest) people = true;
          if (seq > newest) newest = seq;
        }
      }
    }
    if (people) syncRecipients();
  }).observe(logEl, { childList: true });
  // the tab's unread count goes when the panel is shown (app.js marks the active pane)
  new MutationObserver(() => {
    if (!visible()) return;
    unread = 0;
    showUnread();
    list.scrollTop = list.scrollHeight;
  }).observe(pane, { attributes: true, attributeFilter: ["class"] });
  window.addEventListener("resize", () => {
    if (visible() && unread) {
      unread = 0;
      showUnread();
    }
  });
  if (form) {
    form.addEventListener("submit", send);
    if (to) to.addEventListener("change", showRecipient);
    text.addEventListener("chat-mode", showRecipient); // the line is a message again
    text.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        form.requestSubmit();
      }
    });
  }
}
