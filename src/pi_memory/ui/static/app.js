// pi-memory ui: the shell. A hash router loads pages/<page>.js and calls render(root, params, ctx).
// Safety rule for every page: stored text reaches the DOM only as text (el() sets textContent);
// nothing from memory, sessions or recall is ever parsed as HTML or Markdown.

export const PAGES = [
  ["memory", "Memory"], ["drift", "Drift"], ["recall", "Recall"], ["sessions", "Sessions"], ["dreaming", "Dreaming"],
];
const SAME_ORIGIN_HEADER = "X-Pi-Memory";
const SAFE_HREF = /^(#|\/(?!\/))/; // in-app links only: "#/…" or "/…" (never "//host", "javascript:", …)

// el("p", {class: "x", onclick: fn}, "text", child, ...): an element whose strings are text nodes.
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key.startsWith("on")) {
      throw new Error(`el(): ${key} must be a function`);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(node.style, value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "value") {
      node.value = value;
    } else if (key === "checked" || key === "disabled" || key === "hidden") {
      node[key] = Boolean(value);
    } else if (key === "href" || key === "src" || key === "action" || key === "formaction") {
      if (!SAFE_HREF.test(String(value))) throw new Error(`el(): refusing ${key}=${value}`);
      node.setAttribute(key, String(value));
    } else if (key === "innerHTML" || key === "outerHTML" || key === "srcdoc") {
      throw new Error(`el(): ${key} is not allowed`);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const statusLine = () => document.getElementById("status");

// The line under the header (role=status): what is going on right now.
export function setStatus(text, kind = "") {
  const line = statusLine();
  if (!line) return;
  line.textContent = text || "";
  line.className = `status ${kind}`.trim();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// api(path, {method, body, onBusy, retries}) -> {ok, status, data}. Writes carry the same-origin
// header. A retryable answer (another writer holds the lock) is retried with backoff; onBusy(n, max, data)
// is told before each retry (default: the status line says "busy, retrying").
export async function api(path, opts = {}) {
  const method = opts.method || (opts.body === undefined ? "GET" : "POST");
  const retries = opts.retries ?? 4;
  const headers = { Accept: "application/json" };
  if (method !== "GET" && method !== "HEAD") headers[SAME_ORIGIN_HEADER] = "1";
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(path, {
        method, headers, credentials: "same-origin", cache: "no-store", redirect: "error",
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: opts.signal,
      });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      const data = { success: false, error: "The pi-memory ui server does not answer: is it still running?" };
      setStatus(data.error, "bad");
      return { ok: false, status: 0, data };
    }
    let data;
    try { data = await response.json(); } catch { data = { success: false, error: `HTTP ${response.status}` }; }
    if (response.status === 401) {
      setStatus(data.error || "Not signed in: open the link pi-memory ui printed.", "bad");
      return { ok: false, status: 401, data };
    }
    if (data && data.retryable && attempt < retries) {
      if (opts.onBusy) opts.onBusy(attempt + 1, retries, data);
      else setStatus(`Busy (another writer holds the lock), retrying… ${attempt + 1}/${retries}`, "busy");
      await sleep(400 * 2 ** attempt);
      continue;
    }
    if (data && data.retryable === undefined && statusLine()?.classList.contains("busy")) setStatus("");
    return { ok: response.ok && data?.success !== false, status: response.status, data };
  }
}

// ---------------------------------------------------------------------------- the router

let current = null; // {controller} of the page on screen

export function parseHash(hash) {
  const raw = (hash || "").replace(/^#\/?/, "");
  const [pathPart, queryPart = ""] = raw.split("?", 2);
  const segments = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(queryPart));
  return { page: segments[0] || "", path: segments.slice(1), query };
}

export function navigate(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

function poller(signal) {
  // ctx.poll(fn, ms): call fn every ms while this page is shown (paused while the tab is hidden).
  return (fn, ms = 1500) => {
    const tick = async () => {
      if (signal.aborted) return;
      if (!document.hidden) {
        try { await fn(); } catch (error) { if (error.name !== "AbortError") console.error(error); }
      }
      if (!signal.aborted) setTimeout(tick, ms);
    };
    setTimeout(tick, ms);
  };
}

async function route() {
  const { page, path, query } = parseHash(location.hash);
  const known = PAGES.find(([name]) => name === page);
  if (!known) { location.replace("#/memory"); return; }
  if (current) current.controller.abort();
  const controller = new AbortController();
  current = { controller };
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = `${known[1]} · pi-memory`;
  const root = document.getElementById("main");
  delete root.dataset.page; // set again once the page is drawn (tests wait for main[data-page])
  root.replaceChildren(el("p", { class: "muted" }, "Loading…"));
  setStatus("");
  let module;
  try {
    module = await import(`./pages/${page}.js`);
  } catch (error) {
    if (controller.signal.aborted) return;
    root.replaceChildren(el("p", { class: "unavailable" }, `The ${known[1]} page is not available in this version.`));
    root.dataset.page = page;
    return;
  }
  if (controller.signal.aborted) return;
  const ctx = {
    api: (p, o = {}) => api(p, { signal: controller.signal, ...o }),
    el, setStatus, navigate, signal: controller.signal, poll: poller(controller.signal),
  };
  root.replaceChildren();
  try {
    await module.render(root, { ...query, id: path[0], path, query }, ctx);
  } catch (error) {
    if (error.name === "AbortError" || controller.signal.aborted) return;
    root.replaceChildren(el("p", { class: "message bad", role: "alert" }, `This page failed: ${error.message}`));
  }
  if (!controller.signal.aborted) root.dataset.page = page;
}

let infoAnswer = null;

/** The server's /api/info answer ({ok, status, data}), fetched once per page load. */
export function serverInfo() {
  if (!infoAnswer) infoAnswer = api("/api/info");
  return infoAnswer;
}

/** `text` with the user's home directory written as `~` (paths stay short and readable; screenshots
 * show no user name). Sets the node's text, and its title to the full text so hovering shows it. */
export async function showPath(node, text) {
  const full = String(text);
  const { ok, data } = await serverInfo();
  const home = ok && data.home && data.home !== "/" ? String(data.home).replace(/\/+$/, "") : "";
  const short = !home ? full : full === home ? "~" : full.split(home + "/").join("~/");
  node.textContent = short;
  if (short !== full) node.title = full;
  else node.removeAttribute("title");
}

/** el(tag, attrs, text) whose text is a path shown the showPath() way. */
export function pathNode(tag, attrs, text) {
  const node = el(tag, attrs, String(text));
  showPath(node, text);
  return node;
}

async function showBackend() {
  const { ok, data } = await serverInfo();
  const where = document.getElementById("backend");
  // A PostgreSQL store describes itself ("PostgreSQL user@host:port/db, namespace ns"); files are a directory.
  if (ok && where) await showPath(where, data.backend === "file" ? `Files · ${data.where}` : data.where);
}

window.addEventListener("hashchange", route);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => { route(); showBackend(); });
else { route(); showBackend(); }
