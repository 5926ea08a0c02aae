// Recall: search every past message (the search the agent's search_memory runs) and list the
// memories get_important_memories ranks, with the terms of their decay weight.
// Every stored text goes into the page through el() (textContent): never as HTML.
import { el } from "../app.js";
import { useStyles, sessionHref, when, field, errorText, getJson } from "./shared.js";

const ROLES = ["user", "assistant", "toolResult", "custom"];

export function render(root, params, ctx) {
  useStyles();
  const query = (params && params.query) || {};
  const api = (path) => getJson(ctx, path);
  const status = el("p", { class: "pm-muted", id: "recall-status" }, "Reading the index…");
  const q = el("input", { type: "search", id: "recall-q", name: "q", required: "", autocomplete: "off",
                          placeholder: "what was said about…", value: query.q || "" });
  const roleBoxes = ROLES.map((role) => el("label", { class: "pm-check" },
    el("input", { type: "checkbox", name: "role", value: role }), " ", role));
  const session = el("input", { type: "text", id: "recall-session", name: "session", autocomplete: "off",
                                placeholder: "session id", value: query.session || "" });
  const since = el("input", { type: "date", id: "recall-since", name: "since" });
  const until = el("input", { type: "date", id: "recall-until", name: "until" });
  const rank = el("select", { id: "recall-rank", name: "rank" },
    ...["relevance", "recency", "importance"].map((r) => el("option", { value: r }, r)));
  const topK = el("input", { type: "number", id: "recall-topk", name: "topK", min: "1", max: "50", value: "10" });
  const results = el("section", { id: "recall-results", "aria-live": "polite" });
  const form = el("form", { id: "recall-form", class: "pm-form", role: "search" },
    field("Search", q),
    el("fieldset", { class: "pm-roles" }, el("legend", {}, "Roles"), ...roleBoxes),
    field("Session", session), field("Since", since), field("Until", until), field("Rank", rank),
    field("Hits", topK),
    el("button", { type: "submit", id: "recall-go" }, "Search"));

  async function search() {
    const p = new URLSearchParams();
    p.set("q", q.value);
    for (const box of roleBoxes) {
      const input = box.querySelector("input");
      if (input.checked) p.append("role", input.value);
    }
    if (session.value.trim()) p.append("session", session.value.trim());
    if (since.value) p.set("since", since.value);
    if (until.value) p.set("until", until.value);
    p.set("rank", rank.value);
    p.set("topK", topK.value || "10");
    results.replaceChildren(el("p", { class: "pm-muted" }, "Searching…"));
    try {
      const data = await api("/api/recall/search?" + p.toString());
      results.replaceChildren(...renderHits(data));
    } catch (err) {
      results.replaceChildren(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
    }
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); search(); });

  const threshold = el("input", { type: "number", id: "important-threshold", step: "0.05", min: "0", max: "1",
                                  value: "0.7" });
  const limit = el("input", { type: "number", id: "important-limit", min: "1", max: "100", value: "10" });
  const important = el("section", { id: "important-results", "aria-live": "polite" });
  const importantForm = el("form", { id: "important-form", class: "pm-form" },
    field("Threshold", threshold), field("Limit", limit),
    el("button", { type: "submit", id: "important-go" }, "Rank"));
  async function rankImportant() {
    important.replaceChildren(el("p", { class: "pm-muted" }, "Weighing…"));
    try {
      const data = await api(`/api/recall/important?threshold=${encodeURIComponent(threshold.value)}` +
                             `&limit=${encodeURIComponent(limit.value)}`);
      important.replaceChildren(renderImportant(data));
    } catch (err) {
      important.replaceChildren(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
    }
  }
  importantForm.addEventListener("submit", (event) => { event.preventDefault(); rankImportant(); });

  root.replaceChildren(
    el("h1", {}, "Recall"), status, form, results,
    el("h2", {}, "Important memories"),
    el("p", { class: "pm-muted" },
       "get_important_memories' ranking: weight = min(exp(−rate·ageHours) + ln(recalls+1)/10 + 0.2 if younger " +
       "than a day, 1)."),
    importantForm, important);

  api("/api/recall/status").then((info) => {
    if (!info.exists) {
      status.textContent = `No recall index at ${info.location} yet: run pi-memory recall index.`;
      return;
    }
    // damaged_vectors as `pi-memory recall status` shows it: only where the backend counts them.
    const counted = typeof info.damagedVectors === "number";
    status.textContent = `${info.count} message(s) indexed in ${info.location}` +
      (counted ? ` · damaged vectors: ${info.damagedVectors}` : "");
    if (counted && info.damagedVectors > 0) status.after(damageHint(info));
  }).catch((err) => { status.textContent = errorText(err); });
  if (q.value) search();
  q.focus();
}

function damageHint(info) {
  return el("p", { class: "pm-warn", id: "recall-damage" },
    `${info.damagedVectors} stored vector(s) are damaged (wrong length, NaN/inf or not unit length: the file ` +
    "changed on disk). Searches leave those messages out of the meaning half and still find them by their " +
    "words. To repair them, re-embed every message: ",
    el("code", { class: "pm-command" }, String(info.reindex)));
}

function renderHits(data) {
  if (!data.indexed) return [el("p", { class: "pm-muted" }, "There is no recall index yet.")];
  if (!data.hits.length) return [el("p", { class: "pm-muted" }, "No matching messages.")];
  const list = el("ol", { class: "pm-hits" });
  for (const hit of data.hits) {
    const meta = el("div", { class: "pm-meta" },
      el("span", { class: "pm-score", title: "fused rank score (within this search)" },
         `score ${Number(hit.score).toFixed(3)}`),
      el("span", {}, `similarity ${Number(hit.similarity).toFixed(2)}`),
      el("span", { class: `pm-role pm-role-${String(hit.role).replace(/[^a-zA-Z]/g, "")}` }, String(hit.role)),
      el("time", { datetime: String(hit.timestamp) }, when(hit.timestamp)),
      hit.toolName ? el("span", {}, `tool ${hit.toolName}`) : null);
    const body = el("div", { class: "pm-text" }, String(hit.text));
    const item = el("li", { class: "pm-hit", "data-id": String(hit.id) }, meta, body);
    if (hit.blocked) {
      item.classList.add("pm-blocked");
      item.append(el("p", { class: "pm-warn" },
        `Withheld: it matches threat pattern(s) ${hit.blocked.join(", ")}; the agent sees this placeholder too.`));
    }
    const href = sessionHref(hit.sessionId, hit.entryId);
    item.append(el("a", { href, class: "pm-open" }, hit.entryId ? "Open in its session" : "Open its session"));
    list.append(item);
  }
  return [el("p", { class: "pm-muted" }, `${data.count} hit(s) for “${data.query}” (${data.rank})`), list];
}

function renderImportant(data) {
  if (!data.indexed) return el("p", { class: "pm-muted" }, "There is no recall index yet.");
  if (!data.memories.length) return el("p", { class: "pm-muted" }, `No memory weighs ${data.threshold} or more.`);
  const head = el("tr", {}, ...["weight", "decay", "recalls", "fresh", "age (h)", "role", "message", ""]
    .map((h) => el("th", { scope: "col" }, h)));
  const rows = data.memories.map((m) => el("tr", {},
    el("td", { class: "pm-num" }, Number(m.weight).toFixed(2)),
    el("td", { class: "pm-num" }, Number(m.parts.decay).toFixed(3)),
    el("td", { class: "pm-num", title: "ln(recalls+1)/10" }, `${m.accessCount} (+${Number(m.parts.recall).toFixed(3)})`),
    el("td", { class: "pm-num" }, m.parts.fresh ? `+${m.parts.fresh}` : "0"),
    el("td", { class: "pm-num" }, Number(m.parts.ageHours).toFixed(1)),
    el("td", {}, String(m.role)),
    el("td", { class: "pm-text" }, String(m.text)),
    el("td", {}, el("a", { href: sessionHref(m.sessionId, m.entryId) }, "open"))));
  return el("div", { class: "pm-scroll" },
    el("p", { class: "pm-muted" }, `rate ${data.rate} per hour; ${data.count} memor${data.count === 1 ? "y" : "ies"}`),
    el("table", { class: "pm-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}
