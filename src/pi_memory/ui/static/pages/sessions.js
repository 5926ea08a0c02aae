// Sessions: the projects and their sessions (what pi's /resume lists), one session drawn as its
// tree (branches, labels, compactions, branch summaries, the frozen memory snapshot), and the
// context the model saw at a message. Every stored text goes in through el() (textContent).
import { el, pathNode } from "../app.js";
import { useStyles, sessionHref, when, field, errorText, getJson } from "./shared.js";

const PAGE = 50;

export function render(root, params, ctx) {
  useStyles();
  const api = (path) => getJson(ctx, path);
  const id = params && params.id;
  if (id) return renderSession(root, id, (params && params.entry) || null, api);
  return renderList(root, (params && params.project) || null, api);
}

async function renderList(root, chosen, api) {
  const select = el("select", { id: "sessions-project" });
  const list = el("ol", { class: "pm-sessions", id: "sessions-list" });
  const more = el("button", { type: "button", id: "sessions-more", hidden: true }, "More sessions");
  const count = el("p", { class: "pm-muted", id: "sessions-count" });
  root.replaceChildren(el("h1", {}, "Sessions"), field("Project", select), count, list, more);
  let offset = 0;
  let data;
  try {
    data = await api("/api/sessions/projects");
  } catch (err) {
    root.append(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
    return;
  }
  select.append(el("option", { value: "all" }, `All projects`));
  for (const project of data.projects) {
    select.append(pathNode("option", { value: project.id }, `${project.cwd || project.id} (${project.sessions})`));
  }
  const known = data.projects.map((p) => p.id);
  select.value = chosen && (chosen === "all" || known.includes(chosen)) ? chosen
    : known.includes(data.current) ? data.current : "all";

  async function load(reset) {
    if (reset) { offset = 0; list.replaceChildren(); }
    const project = select.value;
    try {
      const page = await api(`/api/sessions?project=${encodeURIComponent(project)}&offset=${offset}&limit=${PAGE}`);
      for (const s of page.sessions) list.append(sessionRow(s));
      offset += page.limit;
      count.textContent = `${page.total} session(s)`;
      more.hidden = offset >= page.total;
    } catch (err) {
      list.append(el("li", { class: "pm-error", role: "alert" }, errorText(err)));
    }
  }
  select.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  await load(true);
}

function sessionRow(s) {
  return el("li", { class: "pm-session" },
    el("a", { href: sessionHref(s.id), class: "pm-session-link" },
      el("span", { class: "pm-session-name" }, s.name ? String(s.name) : String(s.firstMessage))),
    el("div", { class: "pm-meta" },
      el("time", { datetime: String(s.modified) }, when(s.modified)),
      el("span", {}, `${s.messageCount} message(s)`),
      pathNode("span", { class: "pm-muted" }, s.cwd)));
}

const KIND = {
  message: "message", custom: "custom", custom_message: "custom message", compaction: "compaction",
  branch_summary: "branch summary", label: "label", session_info: "name", model_change: "model",
  thinking_level_change: "thinking", context_edit: "context edit",
};

function entryLine(entry) {
  const kind = entry.snapshot ? "memory snapshot" : KIND[entry.type] || String(entry.type);
  const bits = [el("span", { class: `pm-kind pm-kind-${String(entry.type).replace(/[^a-z_]/g, "")}` }, kind)];
  if (entry.role) bits.push(el("span", { class: `pm-role pm-role-${String(entry.role).replace(/[^a-zA-Z]/g, "")}` },
                               String(entry.role)));
  if (entry.customType && !entry.snapshot) bits.push(el("span", { class: "pm-muted" }, String(entry.customType)));
  if (entry.label) bits.push(el("span", { class: "pm-label" }, `label: ${entry.label}`));
  if (entry.toolName) bits.push(el("span", { class: "pm-muted" }, `tool ${entry.toolName}`));
  if (entry.type === "compaction") bits.push(el("span", { class: "pm-muted" },
    `${entry.tokensBefore} tokens before; keeps from ${entry.firstKeptEntryId}`));
  bits.push(el("time", { datetime: String(entry.timestamp) }, when(entry.timestamp)));
  return bits;
}

async function renderSession(root, id, focusEntry, api) {
  const header = el("header", { class: "pm-session-head" }, el("h1", {}, "Session"));
  const tree = el("div", { class: "pm-tree", id: "session-tree" });
  const context = el("aside", { class: "pm-context", id: "session-context", "aria-live": "polite" },
    el("p", { class: "pm-muted" }, "Choose an entry to see the context the model saw there."));
  root.replaceChildren(el("p", {}, el("a", { href: "#/sessions" }, "← all sessions")), header,
    el("div", { class: "pm-split" }, tree, context));
  let data;
  try {
    data = await api("/api/sessions/" + encodeURIComponent(id));
  } catch (err) {
    tree.replaceChildren(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
    return;
  }
  header.replaceChildren(
    el("h1", {}, data.name ? String(data.name) : "Session"),
    el("div", { class: "pm-meta" },
      el("span", {}, `id ${data.id}`), pathNode("span", {}, data.cwd),
      el("span", {}, `${data.messageCount} message(s)`), el("span", {}, `${data.branchPoints} branch point(s)`),
      data.damagedLines ? el("span", { class: "pm-warn" }, `${data.damagedLines} damaged line(s) skipped`) : null));

  const buttons = new Map();
  // nested lists: depth grows only at a branch point, so a long conversation stays one list
  const top = el("ul", { class: "pm-branch", "aria-label": "session tree" });
  const stack = [top];
  for (const entry of data.entries) {
    while (stack.length > entry.depth + 1) stack.pop();
    while (stack.length < entry.depth + 1) {
      const parent = stack[stack.length - 1];
      const nested = el("ul", { class: "pm-branch", "aria-label": "branch" });
      const holder = parent.lastElementChild || parent;
      holder.append(nested);
      stack.push(nested);
    }
    const button = el("button", { type: "button", class: "pm-entry-button", "data-entry": String(entry.id) },
      el("div", { class: "pm-meta" }, ...entryLine(entry)),
      entry.text ? el("div", { class: "pm-text" }, String(entry.text) +
        (entry.clipped ? ` … [${entry.clipped} more chars]` : "")) : null);
    const item = el("li", { class: "pm-entry", id: `entry-${entry.id}` }, button);
    if (!entry.onLeafPath) item.classList.add("pm-off-branch");
    if (entry.branchStart) item.classList.add("pm-branch-start");
    if (entry.snapshot) item.classList.add("pm-snapshot");
    if (entry.type === "compaction" || entry.type === "branch_summary") item.classList.add("pm-summary");
    button.addEventListener("click", () => select(entry.id, false));
    buttons.set(String(entry.id), item);
    stack[stack.length - 1].append(item);
  }
  tree.replaceChildren(top);

  async function select(entryId, scroll) {
    for (const item of buttons.values()) { item.classList.remove("pm-highlight"); item.removeAttribute("aria-current"); }
    const item = buttons.get(String(entryId));
    if (!item) {
      context.replaceChildren(el("p", { class: "pm-error", role: "alert" }, `No entry ${entryId} in this session.`));
      return;
    }
    item.classList.add("pm-highlight");
    item.setAttribute("aria-current", "true");
    if (scroll) {
      item.scrollIntoView({ block: "center" });
      item.querySelector("button").focus({ preventScroll: true });
    }
    const target = "#/sessions/" + encodeURIComponent(data.id) + "?entry=" + encodeURIComponent(entryId);
    if (location.hash !== target) history.replaceState(null, "", target);
    context.replaceChildren(el("p", { class: "pm-muted" }, "Building the context…"));
    try {
      const ctx = await api(`/api/sessions/${encodeURIComponent(data.id)}/context/${encodeURIComponent(entryId)}`);
      context.replaceChildren(...renderContext(ctx));
    } catch (err) {
      context.replaceChildren(el("p", { class: "pm-error", role: "alert" }, errorText(err)));
    }
  }
  if (focusEntry) select(focusEntry, true);
}

function renderContext(ctx) {
  const parts = [el("h2", {}, "Context the model saw"),
    el("p", { class: "pm-muted" }, ctx.reply ? "The messages the model was given when it wrote this reply."
      : "The messages the model is given with this entry as the last one."),
    el("div", { class: "pm-meta" },
      ctx.model ? el("span", {}, `model ${ctx.model.provider}/${ctx.model.modelId}`) : null,
      el("span", {}, `thinking ${ctx.thinkingLevel}`), el("span", {}, `${ctx.messages.length} message(s)`))];
  if (ctx.memorySnapshot) {
    parts.push(el("details", { class: "pm-snapshot-box" }, el("summary", {}, "System prompt memory (frozen snapshot)"),
      el("div", { class: "pm-text" }, String(ctx.memorySnapshot))));
  }
  if (ctx.systemMessage) {
    parts.push(el("details", {}, el("summary", {}, "System message"), el("div", { class: "pm-text" }, ctx.systemMessage)));
  }
  const list = el("ol", { class: "pm-context-list" });
  for (const m of ctx.messages) list.append(messageItem(m));
  parts.push(list);
  if (ctx.reply) {
    parts.push(el("h3", {}, "Its reply"), el("ol", { class: "pm-context-list" },
      messageItem({ role: "assistant", blocks: ctx.reply })));
  }
  return parts;
}

function messageItem(m) {
  const blocks = m.blocks.map((b) => el("div", { class: `pm-block pm-block-${String(b.type)}` },
    b.type === "toolCall" ? el("span", { class: "pm-muted" }, `call ${b.name}: `) : null,
    b.type === "thinking" ? el("span", { class: "pm-muted" }, "thinking: ") : null,
    el("span", { class: "pm-text" }, String(b.text))));
  return el("li", { class: "pm-context-message" },
    el("div", { class: "pm-meta" }, el("span", { class: `pm-role pm-role-${String(m.role).replace(/[^a-zA-Z]/g, "")}` },
      String(m.role)), m.toolName ? el("span", {}, `tool ${m.toolName}`) : null,
      m.isError ? el("span", { class: "pm-warn" }, "error") : null),
    ...blocks);
}
