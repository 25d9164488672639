// Factbase web UI: plain JavaScript over the /v1 HTTP API. No framework, no build.
"use strict";

const $ = (id) => document.getElementById(id);
const S = window.sessionStorage;
const state = { key: S.getItem("fb_key") || "", user: S.getItem("fb_user") || "", noauth: document.body.dataset.noauth === "true", paths: [], factsOffset: 0, listOffset: 0, epOffset: 0 };
const PAGE = 50;
const LIST_PAGE = 100;

// el builds an element: el("td", {class: "x"}, "text", child...).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k instanceof Node ? k : String(k));
  return e;
}

// api calls the API; errors become Error(message) with the problem's detail.
async function api(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (state.key) headers["Authorization"] = "Bearer " + state.key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error("The server cannot be reached: " + e.message);
  }
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { /* not JSON */ }
  if (!r.ok) {
    const msg = (data && (data.detail || data.title)) || r.statusText || ("HTTP " + r.status);
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return data;
}

const u = () => "/v1/users/" + encodeURIComponent(state.user);

function show(id, on) { $(id).hidden = !on; }

function fail(where, err) { $(where).textContent = err.message || String(err); }
function clear(where) { $(where).textContent = ""; }

// request calls the API for a panel whose errors show in the element where: it
// clears that line first and, on failure, shows the error there and resolves to
// failed, so that the caller can stop.
const failed = Symbol("failed");
async function request(where, method, path, body) {
  clear(where);
  try { return await api(method, path, body); } catch (e) { fail(where, e); return failed; }
}

// fillBox empties the element id and returns it, showing the note empty in it when
// there are no items.
function fillBox(id, items, empty) {
  const box = $(id);
  box.textContent = "";
  if (!items.length) box.append(el("p", { class: "empty" }, empty));
  return box;
}

// ---- sign-in ----

async function boot() {
  show("signin", false); show("pick", false); show("app", false);
  if (!state.noauth && !state.key) { show("signin", true); $("key").focus(); return; }
  if (!state.user && state.key) {
    try { const me = await api("GET", "/v1/me"); if (me && me.user) { state.user = me.user; S.setItem("fb_user", me.user); } } catch (_) { /* an application key, or no /v1/me */ }
  }
  if (!state.user) { show("pick", true); $("pick-user").focus(); return; }
  try {
    const doc = await api("GET", "/openapi.json");
    state.paths = Object.keys((doc && doc.paths) || {});
  } catch (e) { state.paths = []; }
  $("who").textContent = "Memory of " + state.user + (state.noauth ? " (open server, no key)" : "");
  $("signout").hidden = state.noauth && !S.getItem("fb_user");
  show("app", true);
  buildTabs();
}

$("signin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clear("signin-error");
  state.key = $("key").value.trim();
  state.user = $("user").value.trim();
  try {
    if (state.user) await api("GET", u() + "/facts?limit=1");
    else await api("GET", "/v1/me");
  } catch (e) {
    state.key = ""; state.user = "";
    fail("signin-error", e.status === 404 ? new Error("This key needs a user id: enter the user's UUID.") : e);
    return;
  }
  S.setItem("fb_key", state.key);
  if (state.user) S.setItem("fb_user", state.user);
  boot();
});

$("pick-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const id = $("pick-user").value.trim();
  const prev = state.user;
  state.user = id;
  if (await request("pick-error", "GET", u() + "/facts?limit=1") === failed) { state.user = prev; return; }
  S.setItem("fb_user", id);
  boot();
});

$("signout").addEventListener("click", () => { S.clear(); state.key = ""; state.user = ""; boot(); });

// ---- tabs ----

const TABS = [
  { id: "facts", label: "Facts", needs: "/facts", load: loadFacts },
  { id: "lists", label: "Lists", needs: "/lists/", load: loadLists },
  { id: "sheet", label: "Fact sheet", needs: "/fact-sheet", load: loadSheet },
  { id: "memory", label: "Memory", needs: "/episodes", load: loadMemory },
  { id: "people", label: "People", needs: "/entities", load: loadPeople },
  { id: "conflicts", label: "Conflicts", needs: "/conflicts", load: loadConflicts },
  { id: "transcripts", label: "Transcripts", needs: "/transcripts", load: loadTranscripts },
];

function has(needle) { return state.paths.some((p) => p.startsWith("/v1/users/{user}" + needle)); }

function buildTabs() {
  const nav = $("tabs");
  nav.textContent = "";
  const avail = TABS.filter((t) => state.paths.length === 0 ? t.id === "facts" || t.id === "lists" : has(t.needs));
  for (const t of TABS) $("panel-" + t.id).hidden = true;
  avail.forEach((t, i) => {
    const b = el("button", { type: "button", role: "tab", id: "tab-" + t.id, "aria-controls": "panel-" + t.id, "aria-selected": "false", tabindex: "-1" }, t.label);
    b.addEventListener("click", () => select(t));
    b.addEventListener("keydown", (ev) => {
      const d = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
      if (d) { const n = avail[(i + d + avail.length) % avail.length]; select(n); $("tab-" + n.id).focus(); }
    });
    nav.append(b);
  });
  const want = (location.hash || "").slice(1);
  select(avail.find((t) => t.id === want) || avail[0]);
}

function select(t) {
  for (const b of $("tabs").children) { const on = b.id === "tab-" + t.id; b.setAttribute("aria-selected", on); b.tabIndex = on ? 0 : -1; }
  for (const x of TABS) $("panel-" + x.id).hidden = x.id !== t.id;
  history.replaceState(null, "", "#" + t.id);
  t.load();
}

// ---- facts ----

function fmtTime(s) { if (!s) return ""; const d = new Date(s); return isNaN(d) ? s : d.toLocaleString(); }

async function loadFacts() {
  const cat = $("facts-cat").value;
  let q = u() + "/facts?limit=" + PAGE + "&offset=" + state.factsOffset + "&newest_first=true";
  if (cat) q += "&category=" + encodeURIComponent(cat);
  const page = await request("facts-error", "GET", q);
  if (page === failed) return;
  const facts = (page && page.facts) || [];
  const needle = $("facts-q").value.trim().toLowerCase();
  const shown = needle ? facts.filter((f) => (f.key + " " + f.value + " " + (f.text || "")).toLowerCase().includes(needle)) : facts;
  const by = $("facts-group").value;
  const groups = new Map();
  for (const f of shown) { const g = (by === "type" ? f.type : f.category) || "(none)"; if (!groups.has(g)) groups.set(g, []); groups.get(g).push(f); }
  const box = fillBox("facts-list", shown, state.factsOffset ? "No more facts." : "No facts yet.");
  for (const [g, fs] of groups) {
    box.append(el("h3", {}, el("span", { class: "badge " + g }, g), " ", fs.length));
    const tb = el("tbody");
    for (const f of fs) {
      tb.append(el("tr", { "data-id": f.id },
        el("td", {}, f.key, f.subject && f.subject !== "user" ? el("div", { class: "hint" }, "about " + f.subject) : null),
        el("td", { class: "value" }, f.rank ? "#" + f.rank + " " + f.value : f.value),
        el("td", {}, (f.confidence ?? 1).toFixed(2)),
        el("td", {}, (f.source && f.source.kind) || ""),
        el("td", {}, fmtTime(f.recorded_at)),
        el("td", {},
          el("button", { type: "button", onclick: () => showHistory(f) }, "History"), " ",
          el("button", { type: "button", onclick: () => factAction(f, "retract") }, "Retract"), " ",
          el("button", { type: "button", class: "danger", onclick: () => factAction(f, "delete") }, "Delete"))));
    }
    box.append(el("table", {}, el("thead", {}, el("tr", {}, ...["Key", "Value", "Confidence", "Source", "Recorded", ""].map((h) => el("th", { scope: "col" }, h)))), tb));
  }
  $("facts-page").textContent = facts.length ? `${state.factsOffset + 1}–${state.factsOffset + facts.length}` : "";
  $("facts-prev").disabled = state.factsOffset === 0;
  $("facts-next").disabled = facts.length < PAGE;
}

async function factAction(f, what) {
  const verb = what === "delete" ? "Delete (erase, history included)" : "Retract (end its validity, keep history)";
  if (!window.confirm(`${verb}: ${f.key} = ${f.value}?`)) return;
  const path = u() + "/facts/" + encodeURIComponent(f.id);
  const res = what === "delete" ? await request("facts-error", "DELETE", path) : await request("facts-error", "POST", path + "/retract");
  if (res === failed) return;
  loadFacts();
}

async function showHistory(f) {
  const box = $("history");
  box.hidden = false;
  box.textContent = "Loading…";
  let h;
  try { h = await api("GET", u() + "/history/" + encodeURIComponent(f.key) + "?subject=" + encodeURIComponent(f.subject || "user")); } catch (e) { box.textContent = ""; fail("facts-error", e); return; }
  box.textContent = "";
  box.append(el("h3", {}, "History of " + f.key));
  const tl = el("div", { class: "timeline" });
  for (const v of h.versions || []) {
    const span = fmtTime(v.valid_from) + " → " + (v.valid_to ? fmtTime(v.valid_to) : "now");
    tl.append(el("div", {}, el("strong", {}, v.value), " ", v.current ? el("span", { class: "badge" }, "current") : "", el("div", { class: "hint" }, span + (v.said_by ? " · said by " + v.said_by : "") + (v.source ? " · " + v.source.kind : ""))));
  }
  box.append(tl);
  box.scrollIntoView({ block: "nearest" });
}

$("facts-filter").addEventListener("input", () => { state.factsOffset = 0; loadFacts(); });
$("facts-filter").addEventListener("submit", (ev) => ev.preventDefault());
$("facts-prev").addEventListener("click", () => { state.factsOffset = Math.max(0, state.factsOffset - PAGE); loadFacts(); });
$("facts-next").addEventListener("click", () => { state.factsOffset += PAGE; loadFacts(); });

// ---- lists ----

async function loadLists() {
  const page = await request("lists-error", "GET", u() + "/facts?prefix=favorites.&limit=1000");
  if (page === failed) return;
  const keys = [...new Set(((page && page.facts) || []).map((f) => f.key))].sort();
  const sel = $("lists-key");
  const cur = sel.value;
  sel.textContent = "";
  for (const k of keys) sel.append(el("option", { value: k }, k.replace(/^favorites\./, "").replaceAll("_", " ")));
  if (keys.includes(cur)) sel.value = cur;
  if (!keys.length) { $("list-items").textContent = ""; $("list-items").append(el("li", { class: "empty" }, "No lists yet. Say \"My favorite teas are oolong, sencha and rooibos\".")); return; }
  loadList();
}

async function loadList() {
  const key = $("lists-key").value;
  if (!key) return;
  let p;
  try { p = await api("GET", u() + "/lists/" + encodeURIComponent(key) + "?limit=" + LIST_PAGE + "&offset=" + state.listOffset); } catch (e) { fail("lists-error", e); return; }
  const n = (p.items || []).length;
  $("list-page").textContent = n ? `#${state.listOffset + 1}–#${state.listOffset + n} of ${p.total}` : "";
  $("list-prev").disabled = state.listOffset === 0;
  $("list-next").disabled = state.listOffset + n >= (p.total || 0);
  const ol = $("list-items");
  ol.textContent = "";
  for (const it of p.items || []) {
    const li = el("li", { draggable: "true", tabindex: "0", "data-value": it.value, "data-rank": it.rank, "aria-label": `#${it.rank} ${it.value}` },
      el("span", { class: "rank" }, "#" + it.rank),
      el("span", { class: "value" }, it.value),
      el("button", { type: "button", "aria-label": "Move " + it.value + " up", onclick: () => rank(it.value, it.rank - 1) }, "↑"),
      el("button", { type: "button", "aria-label": "Move " + it.value + " down", onclick: () => rank(it.value, it.rank + 1) }, "↓"),
      el("label", { class: "hint", for: "r-" + it.rank }, "rank"),
      el("input", { id: "r-" + it.rank, type: "number", min: "1", value: it.rank, "aria-label": "Rank of " + it.value, onchange: (ev) => rank(it.value, parseInt(ev.target.value, 10)) }),
      el("button", { type: "button", class: "danger", "aria-label": "Remove " + it.value, onclick: () => removeItem(it.value) }, "Remove"));
    li.addEventListener("dragstart", (ev) => { li.classList.add("dragging"); ev.dataTransfer.setData("text/plain", it.value); });
    li.addEventListener("dragend", () => li.classList.remove("dragging"));
    li.addEventListener("dragover", (ev) => ev.preventDefault());
    li.addEventListener("drop", (ev) => { ev.preventDefault(); const v = ev.dataTransfer.getData("text/plain"); if (v && v !== it.value) rank(v, it.rank); });
    li.addEventListener("keydown", (ev) => {
      if (ev.altKey && ev.key === "ArrowUp") { ev.preventDefault(); rank(it.value, it.rank - 1); }
      if (ev.altKey && ev.key === "ArrowDown") { ev.preventDefault(); rank(it.value, it.rank + 1); }
    });
    ol.append(li);
  }
}

async function rank(value, to) {
  if (!(to >= 1)) return;
  clear("lists-error"); clear("lists-note");
  const key = $("lists-key").value;
  try {
    const res = await api("POST", u() + "/lists/" + encodeURIComponent(key) + "/rank", { value, rank: to });
    const m = (res.mutations || [])[0];
    if (m) $("lists-note").textContent = m.action === "MOVE" ? `Moved ${m.value} from #${m.from} to #${m.to}.` : m.action === "NOOP" ? `${m.value} is already at #${m.to}.` : "";
  } catch (e) { fail("lists-error", e); return; }
  await loadList();
  const li = [...$("list-items").children].find((x) => x.dataset.value === value);
  if (li) li.focus();
}

async function removeItem(value) {
  if (!window.confirm(`Remove ${value} from the list?`)) return;
  if (await request("lists-error", "DELETE", u() + "/lists/" + encodeURIComponent($("lists-key").value) + "/items/" + encodeURIComponent(value)) === failed) return;
  loadLists();
}

$("lists-key").addEventListener("change", () => { state.listOffset = 0; loadList(); });
$("list-prev").addEventListener("click", () => { state.listOffset = Math.max(0, state.listOffset - LIST_PAGE); loadList(); });
$("list-next").addEventListener("click", () => { state.listOffset += LIST_PAGE; loadList(); });
$("list-add").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clear("lists-error"); clear("lists-note");
  const key = $("lists-key").value, value = $("list-add-value").value.trim();
  if (!key) { fail("lists-error", new Error("Pick a list first.")); return; }
  try {
    const res = await api("POST", u() + "/lists/" + encodeURIComponent(key), { value });
    const d = (res.duplicates || [])[0];
    $("lists-note").textContent = d ? `${d.value} is already at #${d.rank}.` : `Added ${value}.`;
    $("list-add-value").value = "";
  } catch (e) { fail("lists-error", e); return; }
  loadList();
});

// ---- fact sheet ----

async function loadSheet() {
  clear("sheet-error");
  const body = $("sheet-body");
  let sh;
  try { sh = await api("GET", u() + "/fact-sheet"); } catch (e) {
    body.textContent = "";
    if (e.status === 404) { $("sheet-meta").textContent = ""; body.append(el("p", { class: "empty", id: "sheet-empty" }, "No fact sheet yet. Regenerate to build one from the facts stored so far.")); return; }
    fail("sheet-error", e); return;
  }
  body.textContent = "";
  const entries = sh.entries || [];
  $("sheet-meta").textContent = `${sh.count ?? entries.length} entries · generated ${fmtTime(sh.created_at || sh.created)}`;
  if (!entries.length) body.append(el("p", { class: "empty", id: "sheet-empty" }, "The sheet is empty: no current facts."));
  for (const en of entries) {
    const x = en.explain || {};
    const rows = (x.buckets || []).map((b) => el("tr", {}, el("td", {}, b.label), el("td", {}, b.count), el("td", {}, b.points), el("td", {}, b.subtotal)));
    body.append(el("details", { class: "entry" },
      el("summary", {}, el("span", { class: "badge " + en.category }, en.category), " ", en.text, " ", el("span", { class: "hint" }, "score " + Number(en.score).toFixed(1))),
      el("p", {}, `Weight ${x.weight} × reference score ${x.reference_score ?? x.ReferenceScore ?? ""} = ${Number(en.score).toFixed(1)}; included: ${x.included || ""}${x.implicit ? " (no reference yet: counted once at its recorded time)" : ""}`),
      el("table", { class: "explain" }, el("thead", {}, el("tr", {}, el("th", {}, "age"), el("th", {}, "references"), el("th", {}, "points each"), el("th", {}, "subtotal"))), el("tbody", {}, ...rows))));
  }
}

$("sheet-regen").addEventListener("click", async () => {
  if (await request("sheet-error", "POST", u() + "/fact-sheet") === failed) return;
  loadSheet();
});

// ---- memory (episodes and search) ----

async function loadMemory() {
  const p = await request("memory-error", "GET", u() + "/episodes?limit=" + PAGE + "&offset=" + state.epOffset);
  if (p === failed) return;
  const got = ((p && p.episodes) || []).length;
  $("ep-page").textContent = got ? `${state.epOffset + 1}–${state.epOffset + got} of ${p.total}` : "";
  $("ep-prev").disabled = state.epOffset === 0;
  $("ep-next").disabled = state.epOffset + got >= (p.total || 0);
  const eps = (p && p.episodes) || [];
  const box = fillBox("episodes", eps, "No episodes yet.");
  for (const ep of eps) {
    box.append(el("div", { class: "episode" }, el("div", {}, ep.content), el("div", { class: "hint" }, fmtTime(ep.created_at || ep.created) + " · importance " + (ep.importance ?? "") + ((ep.tags || []).length ? " · " + ep.tags.join(", ") : ""))));
  }
}

$("ep-prev").addEventListener("click", () => { state.epOffset = Math.max(0, state.epOffset - PAGE); loadMemory(); });
$("ep-next").addEventListener("click", () => { state.epOffset += PAGE; loadMemory(); });

$("episode-add").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const tags = $("episode-tags").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (await request("memory-error", "POST", u() + "/episodes", { content: $("episode-content").value, tags }) === failed) return;
  $("episode-content").value = "";
  loadMemory();
});

$("search-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  clear("memory-error");
  const q = $("search-q").value.trim();
  let ans, res;
  try {
    [ans, res] = await Promise.all([api("POST", u() + "/questions", { text: q }), api("POST", u() + "/search", { query: q, limit: 10 })]);
  } catch (e) { fail("memory-error", e); return; }
  const box = $("search-results");
  box.textContent = "";
  // The answer is ask's, the one answer path; the hits below are the search's.
  const answer = el("div", { class: "note", id: "answer" }, el("p", {}, (ans && ans.reply) || "No answer."));
  if (ans && ans.source) answer.append(el("p", { class: "hint" }, "Answered from the " + ans.source + "."));
  for (const it of (ans && ans.items) || []) {
    if (it.id) answer.append(el("p", { class: "hint cite" }, (it.about && it.about !== "user" ? it.about + " · " : "") + (it.key || "") + ": " + it.value + " (fact " + it.id + ")"));
  }
  box.append(answer);
  for (const h of (res && res.hits) || []) {
    const x = h.explain || {};
    box.append(el("details", { class: "hit" }, el("summary", {}, el("span", { class: "badge" }, h.kind), " ", h.text, " ", el("span", { class: "hint" }, "score " + Number(h.score || 0).toFixed(4))),
      el("p", { class: "hint" }, `text rank ${x.bm25_rank || "–"}, vector rank ${x.vector_rank || "–"} (similarity ${Number(x.similarity || 0).toFixed(2)}), decay ${Number(x.decay || 1).toFixed(2)}, subject boost ${x.subject_boost || 1}, importance boost ${Number(x.importance_boost || 1).toFixed(2)}`)));
  }
});

// ---- people, conflicts, transcripts ----

async function loadPeople() {
  const p = await request("people-error", "GET", u() + "/entities");
  if (p === failed) return;
  const ents = (p && p.entities) || [];
  const box = fillBox("people", ents, "No people yet.");
  for (const en of ents) {
    const facts = el("div", { class: "entity-facts" });
    const d = el("details", { class: "entity", "data-id": en.id, "data-name": en.name },
      el("summary", {}, el("strong", {}, en.name), " ", el("span", { class: "badge" }, en.role || "other"), (en.aliases || []).length ? el("span", { class: "hint" }, " also " + en.aliases.join(", ")) : ""),
      el("div", { class: "row" },
        el("button", { type: "button", onclick: () => renameEntity(en) }, "Rename"),
        el("button", { type: "button", onclick: () => aliasEntity(en) }, "Add alias"),
        ents.length > 1 ? el("button", { type: "button", onclick: () => mergeEntity(en, ents) }, "Merge another into this") : null,
        el("button", { type: "button", onclick: () => splitEntity(en, facts) }, "Split checked facts off")),
      facts);
    d.addEventListener("toggle", () => { if (d.open) loadEntityFacts(en, facts); });
    box.append(d);
  }
  if (p.more) box.append(el("p", { class: "hint" }, `The first ${ents.length} people are shown; there are more.`));
}

async function loadEntityFacts(en, box) {
  let v;
  try { v = await api("GET", u() + "/entities/" + encodeURIComponent(en.id)); } catch (e) { fail("people-error", e); return; }
  box.textContent = "";
  const fs = v.facts || [];
  if (!fs.length) { box.append(el("p", { class: "hint" }, "No facts about " + en.name + ".")); return; }
  for (const f of fs) {
    const id = "sf-" + f.id;
    box.append(el("div", {}, el("input", { type: "checkbox", id, value: f.id }), " ", el("label", { for: id }, f.key + ": " + f.value)));
  }
  if (v.more) box.append(el("p", { class: "hint" }, `The first ${fs.length} facts are shown; there are more.`));
}

async function peopleCall(path, body) {
  if (await request("people-error", "POST", u() + "/entities/" + path, body) === failed) return;
  loadPeople();
}

function renameEntity(en) { const n = window.prompt("New name for " + en.name + " (the old name becomes an alias):", en.name); if (n && n.trim() && n !== en.name) peopleCall(encodeURIComponent(en.id) + "/rename", { name: n.trim() }); }
function aliasEntity(en) { const a = window.prompt("Another name for " + en.name + ":"); if (a && a.trim()) peopleCall(encodeURIComponent(en.id) + "/aliases", { alias: a.trim() }); }
function mergeEntity(en, ents) {
  const others = ents.filter((x) => x.id !== en.id).map((x) => x.name).join(", ");
  const from = window.prompt(`Merge which person into ${en.name}? (${others})`);
  const other = ents.find((x) => x.id !== en.id && from && x.name.toLowerCase() === from.trim().toLowerCase());
  if (from && !other) { fail("people-error", new Error(`No other person is called ${from}.`)); return; }
  if (other && window.confirm(`Merge ${other.name} into ${en.name}? Their facts move; history is kept.`)) peopleCall(encodeURIComponent(en.id) + "/merge", { from: other.id });
}
function splitEntity(en, box) {
  const ids = [...box.querySelectorAll("input[type=checkbox]:checked")].map((c) => c.value);
  if (!ids.length) { fail("people-error", new Error("Open the person, check the facts to move, then split.")); return; }
  const name = window.prompt("Name of the new person for the " + ids.length + " checked fact(s):");
  if (name && name.trim()) peopleCall(encodeURIComponent(en.id) + "/split", { fact_ids: ids, name: name.trim() });
}

async function loadConflicts() {
  const p = await request("conflicts-error", "GET", u() + "/conflicts");
  if (p === failed) return;
  const cs = (p && p.conflicts) || [];
  const box = fillBox("conflicts", cs, "Nothing to confirm.");
  for (const c of cs) {
    const pr = c.proposed || {};
    box.append(el("div", { class: "conflict", "data-id": c.id },
      el("p", {}, el("strong", {}, c.key), c.subject && c.subject !== "user" ? " (" + c.subject + ")" : "", ": ", c.current_value || "(none)", " → ", el("strong", { class: "proposed" }, pr.value || ""),
        el("div", { class: "hint" }, (c.reason || "") + " · from " + ((pr.source && pr.source.kind) || "?") + (pr.said_by ? ", said by " + pr.said_by : "") + " · " + fmtTime(c.created_at))),
      el("button", { type: "button", class: "primary", onclick: () => resolve(c.id, "confirm") }, "Confirm"), " ",
      el("button", { type: "button", onclick: () => resolve(c.id, "reject") }, "Reject")));
  }
  if (p.more) box.append(el("p", { class: "hint" }, `The first ${cs.length} conflicts are shown; there are more.`));
}

async function resolve(id, how) {
  if (await request("conflicts-error", "POST", u() + "/conflicts/" + encodeURIComponent(id) + "/" + how) === failed) return;
  loadConflicts();
}

async function loadTranscripts() {
  const pred = $("tq-pred").value.trim(), conf = $("tq-conf").value || "0";
  const p = await request("transcripts-error", "GET", u() + "/transcripts/facts?min_confidence=" + encodeURIComponent(conf) + (pred ? "&predicate=" + encodeURIComponent(pred) : ""));
  if (p === failed) return;
  const fs = (p && p.facts) || [];
  const box = fillBox("transcripts", fs, "No transcript facts.");
  if (!fs.length) return;
  const tb = el("tbody");
  for (const f of fs) tb.append(el("tr", {}, el("td", {}, f.subject), el("td", {}, f.predicate || f.key), el("td", { class: "value" }, f.object || f.value), el("td", {}, Number(f.confidence).toFixed(2))));
  box.append(el("table", {}, el("thead", {}, el("tr", {}, ...["Subject", "Predicate", "Object", "Confidence"].map((h) => el("th", { scope: "col" }, h)))), tb));
}
$("tq").addEventListener("submit", (ev) => { ev.preventDefault(); loadTranscripts(); });

boot();
