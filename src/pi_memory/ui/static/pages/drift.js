// Drift: why a file drifted, its .bak.<ts> backups, a diff of each against the current file, and a
// guided recovery that puts chosen backup entries back through the store (scanner and budget apply).
// Backups are only read, never changed or deleted. All text is shown as text (el() / textContent).
import { el } from "../app.js";

const POLL_MS = 3000;

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

function diffView(rows) {
  if (!rows.length) return el("p", { class: "muted" }, "No differences: this backup holds exactly the current text.");
  return el("pre", { class: "diff", "data-role": "diff", tabindex: 0, "aria-label": "Differences" },
    rows.map((row) => el("span", { class: row.kind }, row.text + "\n")));
}

export async function render(root, params, ctx) {
  const sections = {};
  let version = null;
  root.append(
    el("h1", {}, "Drift"),
    el("p", { class: "muted" },
      "A file drifts when its text would not survive a rewrite by the memory tools (a stray § line, Windows line "
      + "endings, free text appended by another program). Writes are then refused, and each refused write first saves "
      + "the file as a .bak.<time> backup. Pick entries from a backup to put them back; backups are never deleted."));
  const columns = el("div", { class: "columns" });
  root.append(columns);

  async function load() {
    const { ok, data } = await ctx.api("/api/drift");
    if (!ok) {
      columns.replaceChildren(el("p", { class: "message bad", role: "alert" }, data.error || "Drift cannot be read."));
      return;
    }
    version = data.version;
    for (const target of data.targets) {
      if (!sections[target.target]) {
        sections[target.target] = section(target.target, target.label);
        columns.append(sections[target.target].node);
      }
      sections[target.target].update(target);
    }
  }

  function section(target, label) {
    const status = el("div", { "data-role": "drift-status" });
    const backups = el("div", { "data-role": "backups" });
    const detail = el("div", { "data-role": "detail" });
    const result = el("div", { class: "message", "data-role": "result", "aria-live": "polite" });
    let current = null;

    async function open(name) {
      result.textContent = "";
      result.className = "message";
      if (name === "") return showSource({ name: "", title: `The current ${label}`, diff: null,
        entries: current.salvaged.map((text) => ({ text, present: false })) });
      const { ok, data } = await ctx.api(`/api/drift/backup?target=${encodeURIComponent(target)}&name=${encodeURIComponent(name)}`);
      if (!ok) { detail.replaceChildren(el("p", { class: "message bad", role: "alert" }, data.error)); return; }
      showSource({ name, title: `${data.name} (${when(data.created_at)}, ${data.chars.toLocaleString("en")} chars)`,
        diff: data.diff, entries: data.entries });
    }

    function showSource(source) {
      const drifted = current.state === "drift";
      const boxes = source.entries.map((entry, i) => {
        const id = `pick-${target}-${i}`;
        const box = el("input", { type: "checkbox", id, checked: drifted || !entry.present });
        box.dataset.entry = entry.text;
        return el("li", {}, el("label", { class: "pick", for: id }, box,
          el("span", { class: "entry" }, entry.text),
          entry.present ? el("span", { class: "tag" }, `in ${label}`) : null));
      });
      const action = drifted ? `Rebuild ${label} from the chosen entries` : `Add the chosen entries back to ${label}`;
      const go = el("button", { type: "button", class: "primary", "data-role": "recover" }, action);
      go.addEventListener("click", () => recover(boxes, drifted, go));
      detail.replaceChildren(
        el("h3", {}, source.title),
        source.diff ? el("p", { class: "muted" }, `Lines starting with - are only in the backup; + only in the current ${label}.`) : null,
        source.diff ? diffView(source.diff) : null,
        el("p", {}, source.entries.length ? "Entries in it (checked ones will be put back):" : "It holds no entries."),
        el("ul", { class: "entries", "data-role": "picks" }, boxes),
        drifted ? el("p", { class: "hint muted" },
          `${label} has drifted, so it is rebuilt from the entries you choose; its current text is saved as one more backup first.`) : null,
        source.entries.length ? el("div", { class: "row" }, go) : null);
    }

    async function recover(items, drifted, button) {
      const entries = items.map((li) => li.querySelector("input")).filter((box) => box.checked).map((box) => box.dataset.entry);
      if (!entries.length) { say("Choose at least one entry.", "bad"); return; }
      button.disabled = true;
      const { ok, data } = await ctx.api("/api/drift/recover", {
        body: { target, entries, rebuild: drifted },
        onBusy: (n, max) => say(`${label} is busy: another writer holds its lock. Retrying (${n}/${max})…`, "busy"),
      });
      button.disabled = false;
      const lines = [];
      if (ok) {
        lines.push(`Added ${data.added.length} entr${data.added.length === 1 ? "y" : "ies"} to ${label}.`);
        if (data.present.length) lines.push(`Already there: ${data.present.length}.`);
        if (data.backup) lines.push(`The drifted text was saved as ${data.backup}.`);
      } else {
        lines.push(data.error || "Nothing was changed.");
      }
      result.replaceChildren(...lines.map((line) => el("p", {}, line)));
      const refused = data.refused || [];
      if (refused.length) {
        result.append(el("p", {}, `Refused ${refused.length}:`),
          el("ul", { "data-role": "refused" }, refused.map((r) => el("li", {}, el("span", { class: "entry" }, r.entry), " — ", r.error))));
      }
      result.className = `message ${ok && !refused.length ? "ok" : "bad"}`;
      result.setAttribute("role", ok ? "status" : "alert");
      await load();
    }

    function say(text, kind) {
      result.textContent = text;
      result.className = `message ${kind}`;
    }

    function update(state) {
      current = state;
      if (state.state === "drift") {
        status.replaceChildren(el("div", { class: "banner", role: "note", "data-state": "drift" },
          el("p", {}, el("strong", {}, `${label} has drifted: `), state.drift.reason, "."),
          el("p", {}, "Likely cause: ", state.drift.cause, "."),
          el("p", {}, "To fix it by hand: ", state.drift.fix)));
      } else if (state.state === "unreadable") {
        status.replaceChildren(el("div", { class: "banner", role: "note", "data-state": "unreadable" }, state.error));
      } else {
        status.replaceChildren(el("p", { "data-state": "clean" },
          state.exists ? `${label} is clean: it round-trips through the memory tools.` : `${label} does not exist yet.`));
      }
      const rows = state.backups.map((b) => {
        const show = el("button", { type: "button", "aria-label": `Compare ${b.name} and recover` }, "Compare / recover");
        show.addEventListener("click", () => open(b.name));
        return el("tr", { "data-backup": b.name }, el("td", {}, b.name), el("td", {}, when(b.created_at)),
          el("td", {}, `${b.chars.toLocaleString("en")} chars`), el("td", {}, show));
      });
      const parts = [el("h3", {}, `Backups (${state.backups.length})`)];
      if (rows.length) {
        parts.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Backup"), el("th", {}, "Saved"),
          el("th", {}, "Size"), el("th", {}, el("span", { class: "muted" }, "Action")))), el("tbody", {}, rows)));
      } else {
        parts.push(el("p", { class: "muted" }, "No backups."));
      }
      if (state.state === "drift" && state.salvaged.length) {
        const fromCurrent = el("button", { type: "button", "data-role": "from-current" }, `Recover from the current ${label}`);
        fromCurrent.addEventListener("click", () => open(""));
        parts.push(el("div", { class: "row" }, fromCurrent));
      }
      backups.replaceChildren(...parts);
    }

    const node = el("section", { class: "card", "data-target": target, "aria-labelledby": `d-${target}` },
      el("h2", { id: `d-${target}` }, label), status, backups, detail, result);
    return { node, update };
  }

  await load();
  ctx.poll(async () => {
    const { ok, data } = await ctx.api("/api/drift", { retries: 0 });
    if (ok && data.version !== version) {
      version = data.version;
      for (const target of data.targets) sections[target.target]?.update(target);
    }
  }, POLL_MS);
}
