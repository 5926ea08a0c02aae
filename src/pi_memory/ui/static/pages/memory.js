// Memory: MEMORY.md and USER.md side by side, with usage, entries, and add / edit / remove.
// Every write goes to the store (the tools' rules); a refusal shows the store's own message.
// Entries are text: they reach the DOM only through el() (textContent), never as HTML.
import { el, showPath } from "../app.js";

const POLL_MS = 1500;

export async function render(root, params, ctx) {
  const cards = {};
  let version = null;
  let editing = 0; // open edit forms: a reload would throw their text away, so it waits
  let pending = false;

  const heading = el("h1", {}, "Memory");
  const backendLine = el("p", { class: "muted where", id: "memory-backend" });
  const columns = el("div", { class: "columns" });
  root.append(heading, backendLine, columns);

  async function load() {
    const { ok, data } = await ctx.api("/api/memory");
    if (!ok) {
      columns.replaceChildren(el("p", { class: "message bad", role: "alert" }, data.error || "Memory cannot be read."));
      return;
    }
    version = data.version;
    showPath(backendLine, data.backend === "file" ? `File backend · ${data.where}` : `Shared memory · ${data.where}`);
    backendLine.dataset.backend = data.backend;
    for (const target of data.targets) {
      if (!cards[target.target]) {
        cards[target.target] = card(target);
        columns.append(cards[target.target].node);
      }
      cards[target.target].update(target);
    }
  }

  async function reloadWhenIdle() {
    if (editing > 0) { pending = true; return; }
    pending = false;
    await load();
  }

  function card(initial) {
    const target = initial.target;
    const label = initial.label;
    const inputId = `add-${target}`;
    const message = el("p", { class: "message", "data-role": "message", "aria-live": "polite" });
    const usageText = el("span", { "data-role": "usage" });
    const bar = el("progress", { max: 100, value: 0, "aria-label": `${label} usage` });
    const banner = el("div", { "data-role": "banner" });
    const list = el("ol", { class: "entries", "data-role": "entries", "aria-label": `${label} entries` });
    const where = el("p", { class: "where muted" });
    const input = el("textarea", { id: inputId, name: "content", rows: 3, "aria-describedby": `${inputId}-hint` });
    const submit = el("button", { type: "submit", class: "primary" }, `Add to ${label}`);
    const form = el("form", { class: "add", "data-target": target },
      el("label", { for: inputId }, `New entry for ${label}`),
      input,
      el("p", { class: "hint muted", id: `${inputId}-hint` }, "Enter adds it; Shift+Enter starts a new line."),
      el("div", { class: "row" }, submit));

    function say(text, kind) {
      message.textContent = text || "";
      message.className = `message ${kind || ""}`.trim();
      message.setAttribute("role", kind === "bad" ? "alert" : "status");
    }

    function busy(attempt, max) {
      say(`${label} is busy: another writer holds its lock. Retrying (${attempt}/${max})…`, "busy");
    }

    async function write(path, body, done) {
      const { ok, data } = await ctx.api(path, { body, onBusy: busy });
      if (ok) {
        say(data.message || "Done.", "ok");
        if (done) done();
        await reloadWhenIdle();
      } else {
        const details = [data.error || "The write was refused."];
        for (const finding of data.findings || []) {
          const where = finding.excerpt ? ` in “${finding.excerpt}”` : "";
          const why = finding.evidence.length ? ` (${finding.evidence.join(", ")})` : "";
          details.push(`Scanner: ${finding.id} [${finding.category}]${where}${why}`);
        }
        if (data.retryable) details.push("Still busy after several tries; nothing was changed. Try again in a moment.");
        if (data.remediation) details.push(data.remediation);
        say(details.join("\n"), "bad");
      }
      return ok;
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const content = input.value;
      if (!content.trim()) { say("Type the entry first.", "bad"); input.focus(); return; }
      submit.disabled = true;
      try {
        await write("/api/memory/add", { target, content }, () => { input.value = ""; });
      } finally {
        submit.disabled = false;
        input.focus();
      }
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });

    function entryItem(entry, index) {
      const text = el("p", { class: "entry" }, entry);
      const edit = el("button", { type: "button", "aria-label": `Edit entry ${index + 1} of ${label}` }, "Edit");
      const remove = el("button", { type: "button", class: "danger", "aria-label": `Remove entry ${index + 1} of ${label}` },
        "Remove");
      const actions = el("div", { class: "row" }, edit, remove);
      const item = el("li", { "data-index": index }, text, actions);

      remove.addEventListener("click", async () => {
        if (remove.dataset.armed !== "1") {
          remove.dataset.armed = "1";
          remove.textContent = "Confirm remove";
          return;
        }
        remove.disabled = true;
        await write("/api/memory/remove", { target, old: entry });
        remove.disabled = false;
      });
      remove.addEventListener("blur", () => { remove.dataset.armed = ""; remove.textContent = "Remove"; });

      edit.addEventListener("click", () => {
        editing += 1;
        const box = el("textarea", { rows: Math.min(8, entry.split("\n").length + 1), "aria-label": `Entry ${index + 1} of ${label}` });
        box.value = entry;
        const save = el("button", { type: "submit", class: "primary" }, "Save");
        const cancel = el("button", { type: "button" }, "Cancel");
        const editor = el("form", { class: "edit" }, box, el("div", { class: "row" }, save, cancel));
        const close = () => {
          editing -= 1;
          editor.replaceWith(text, actions);
          if (pending) reloadWhenIdle();
        };
        editor.addEventListener("submit", async (event) => {
          event.preventDefault();
          save.disabled = true;
          let saved = false;
          await write("/api/memory/replace", { target, old: entry, new: box.value }, () => { saved = true; });
          save.disabled = false;
          if (saved) { editing -= 1; pending = false; await load(); }
        });
        cancel.addEventListener("click", close);
        text.replaceWith(editor);
        actions.remove();
        box.focus();
      });
      return item;
    }

    function update(state) {
      showPath(where, state.location);
      usageText.textContent = `${state.chars.toLocaleString("en")} / ${state.limit.toLocaleString("en")} chars (${state.percent}%)`;
      bar.value = state.percent;
      bar.className = state.percent >= 90 ? "full" : "";
      banner.replaceChildren();
      if (state.state === "drift") {
        banner.append(el("div", { class: "banner", role: "note" },
          el("strong", {}, `${state.label} has drifted: `), state.drift.reason, ". Writes are refused until it is fixed. ",
          el("a", { href: "#/drift" }, "Open Drift to recover")));
      } else if (state.state === "unreadable") {
        banner.append(el("div", { class: "banner", role: "note" }, state.error));
      }
      list.replaceChildren(...state.entries.map(entryItem));
      if (!state.entries.length) list.append(el("li", { class: "muted empty" }, "No entries yet."));
    }

    const node = el("section", { class: "card", "data-target": target, "aria-labelledby": `h-${target}` },
      el("h2", { id: `h-${target}` }, label), where,
      el("div", { class: "usage" }, bar, usageText), banner, form, message, list);
    return { node, update, say };
  }

  await load();
  ctx.poll(async () => {
    const { ok, data } = await ctx.api("/api/memory/version", { retries: 0 });
    if (ok && data.version !== version) await reloadWhenIdle();
  }, POLL_MS);
}
