// Dreaming: the last run, what gates the next one, the last report, and "dream now" (one
// consolidation pass, as `pi-memory dream` runs it) with its progress. Text only, through el().
import { el } from "../app.js";
import { useStyles, when, errorText, getJson } from "./shared.js";

export function render(root, params, ctx) {
  useStyles();
  const api = (path, opts) => getJson(ctx, path, opts);
  const gone = () => Boolean(ctx && ctx.signal && ctx.signal.aborted);
  const state = el("section", { id: "dreaming-state", "aria-live": "polite" }, el("p", { class: "pm-muted" }, "Reading…"));
  const button = el("button", { type: "button", id: "dream-now", disabled: true }, "Dream now");
  const why = el("p", { class: "pm-muted", id: "dream-now-why" });
  const log = el("ol", { class: "pm-log", id: "dream-progress", role: "log", "aria-live": "polite" });
  const outcome = el("div", { id: "dream-outcome", "aria-live": "polite" });
  root.replaceChildren(el("h1", {}, "Dreaming"), state,
    el("h2", {}, "Dream now"), el("p", { class: "pm-muted" },
      "One consolidation pass over recent conversations, now (the gates do not apply), as pi-memory dream runs it."),
    button, why, log, outcome);

  let running = false;
  async function refresh() {
    // first without the turn count (it reads every session file), then with it
    for (const turns of ["0", "1"]) {
      try {
        const data = await api(`/api/dreaming?turns=${turns}`);
        if (gone()) return null;
        state.replaceChildren(...renderState(data));
        if (!running) button.disabled = !data.dreamNow.available;
        why.textContent = data.dreamNow.available ? `with ${data.model}` : String(data.dreamNow.message || "");
      } catch (err) {
        state.replaceChildren(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
        return null;
      }
    }
    return true;
  }

  async function follow() {
    let since = 0;
    for (;;) {
      if (gone()) return;
      let snap;
      try {
        snap = await api(`/api/dreaming/run?since=${since}`);
      } catch (err) {
        log.append(el("li", { class: "pm-error" }, errorText(err)));
        break;
      }
      for (const event of snap.events || []) log.append(eventItem(event));
      since = snap.next || since;
      if (!snap.running) {
        if (snap.outcome) outcome.replaceChildren(...renderReport(snap.outcome, "This dream"));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    running = false;
    button.disabled = false;
    button.textContent = "Dream now";
    await refresh();
  }

  button.addEventListener("click", async () => {
    running = true;
    button.disabled = true;
    button.textContent = "Dreaming…";
    log.replaceChildren(el("li", {}, "Starting…"));
    outcome.replaceChildren();
    try {
      await api("/api/dreaming/run", { method: "POST", body: {} });
    } catch (err) {
      log.replaceChildren(el("li", { class: "pm-error", role: "alert" }, errorText(err)));
      running = false;
      button.textContent = "Dream now";
      await refresh();
      return;
    }
    await follow();
  });

  refresh().then(async () => {
    // a dream started from this page before a reload is still followed
    try {
      const snap = await api("/api/dreaming/run?since=0");
      if (snap.job && snap.running) { running = true; button.disabled = true; button.textContent = "Dreaming…"; await follow(); }
    } catch (err) { /* the state above already says what is wrong */ }
  });
}

function eventItem(event) {
  if (event.type === "turns") return el("li", {}, `Found ${event.turns} turn(s) in ${event.sessions} session(s).`);
  if (event.type === "model-call") return el("li", {}, `Model call ${event.call}…`);
  if (event.type === "action") {
    const sign = !event.success ? "✗" : event.duplicate ? "=" : event.tool === "memory_add" ? "+"
      : event.tool === "memory_replace" ? "~" : "−";
    return el("li", { class: event.success ? "" : "pm-warn" },
      `${sign} ${event.target}: ${event.text}${event.error ? ` (${event.error})` : ""}`);
  }
  if (event.type === "done") return el("li", { class: "pm-done" }, String(event.message || event.reason));
  return el("li", {}, String(event.type));
}

function gateRow(name, open, text) {
  return el("tr", {}, el("th", { scope: "row" }, name),
    el("td", { class: open ? "pm-ok" : "pm-warn" }, open === null ? "…" : open ? "open" : "closed"),
    el("td", {}, text));
}

function renderState(data) {
  const g = data.gates;
  const time = g.hoursSince === null ? `never dreamed; waits ${g.minHours} h between dreams`
    : `${Number(g.hoursSince).toFixed(1)} h since the last dream; waits ${g.minHours} h` + (g.nextTimeAt ? ` (opens ${when(g.nextTimeAt)})` : "");
  const turns = g.turns === null ? `counting the new turns…; needs ${g.minTurns}` : `${g.turns} new turn(s); needs ${g.minTurns}`;
  const parts = [
    el("dl", { class: "pm-facts" },
      el("dt", {}, "Last run"), el("dd", {}, data.lastRun ? when(data.lastRun) : "never"),
      el("dt", {}, "Memory"), el("dd", {}, String(data.store)),
      el("dt", {}, "Model"), el("dd", {}, String(data.model)),
      el("dt", {}, "Background"), el("dd", { class: data.background.on ? "pm-ok" : "pm-warn" },
        data.background.on ? "on: runs at a session start when both gates are open"
          : `off: ${data.background.message || data.background.reason}`)),
    el("h2", {}, "What gates the next dream"),
    el("table", { class: "pm-table", id: "dreaming-gates" },
      el("tbody", {}, gateRow("time", g.timeOpen, time), gateRow("turns", g.turnsOpen, turns))),
  ];
  if (data.lastFailure) {
    parts.push(el("p", { class: "pm-warn" }, `The last attempt (${when(data.lastFailure.at)}) failed: ${data.lastFailure.message}`));
  }
  parts.push(...(data.lastReport ? renderReport(data.lastReport, "Last report")
    : [el("h2", {}, "Last report"), el("p", { class: "pm-muted" }, "No dream has been recorded here yet.")]));
  return parts;
}

function renderReport(report, title) {
  const parts = [el("h2", {}, title), el("p", { class: report.ran === false ? "pm-warn" : "" }, String(report.message || ""))];
  if (report.at) parts.push(el("p", { class: "pm-muted" }, `${when(report.at)} · ${report.turns || 0} turn(s) from ` +
    `${report.sessions || 0} session(s) · ${report.modelCalls || 0} model call(s)` +
    (report.redacted ? ` · ${report.redacted} message(s) withheld by the threat scanner` : "")));
  if (report.changes) {
    const rows = Object.entries(report.changes).map(([target, c]) => el("tr", {},
      el("th", { scope: "row" }, target === "memory" ? "MEMORY.md" : "USER.md"),
      el("td", {}, `${c.added} added, ${c.replaced} replaced, ${c.removed} removed`),
      el("td", {}, `${(report.usageBefore || {})[target] || "?"} → ${(report.usageAfter || {})[target] || "?"}`)));
    parts.push(el("table", { class: "pm-table" }, el("tbody", {}, ...rows)));
  }
  if (report.finalText) parts.push(el("div", { class: "pm-text pm-report" }, String(report.finalText)));
  return parts;
}
