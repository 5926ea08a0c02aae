// Helpers the Recall, Sessions and Dreaming pages share (text only: nothing here parses HTML).
import { el, api } from "../app.js";

let styled = false;

/** Adds this folder's stylesheet once (the pages' own layout: hits, the tree, the progress log). */
export function useStyles() {
  if (styled) return;
  styled = true;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/pages/pages.css" }));
}

/** `#/sessions/<id>?entry=<entryId>`: ids are encoded, so a hostile id stays inside the hash. */
export function sessionHref(sessionId, entryId) {
  let href = "#/sessions/" + encodeURIComponent(String(sessionId));
  if (entryId) href += "?entry=" + encodeURIComponent(String(entryId));
  return href;
}

/** A stored time as a short local date and time (the ISO text when it cannot be read). */
export function when(value) {
  if (value === null || value === undefined || value === "") return "";
  const date = new Date(typeof value === "number" ? value : String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A labelled control (the label names it for screen readers and a click focuses it). */
export function field(label, control) {
  return el("label", { class: "pm-field" }, el("span", {}, label), control);
}

export function errorText(err) {
  if (err && typeof err === "object") {
    if (err.data && err.data.error) return String(err.data.error);
    if (err.message) return String(err.message);
  }
  return String(err);
}

/** The JSON of a GET (or of `opts`), through the shell's api() (the page's ctx.api when given, so
 * leaving the page cancels it); an answer that is not ok throws an Error carrying the server's words. */
export async function getJson(ctx, path, opts = {}) {
  const call = ctx && ctx.api ? ctx.api : api;
  const answer = await call(path, opts);
  if (!answer.ok) {
    const error = new Error(answer.data && answer.data.error ? String(answer.data.error) : `HTTP ${answer.status}`);
    error.data = answer.data;
    error.status = answer.status;
    throw error;
  }
  return answer.data;
}
