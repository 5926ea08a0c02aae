// Drives the real pi SessionManager (@earendil-works/pi-coding-agent 1.6.0) for the Python
// interop tests. The package entry point needs Node >= 22, so the session manager is imported
// by file path (it runs fine on Node 20).
//
//   node pi_session.mjs scenario <dir> <cwd>     build sessions with every entry type, branches,
//                                               labels, two compactions, custom entries and custom
//                                               messages with images; prints {"files": [...]}
//   node pi_session.mjs dump <file>...           open each file; print what pi sees: its
//                                               re-serialization, header, leaf, name, labels, tree,
//                                               and buildSessionContext() for every leaf
//   node pi_session.mjs append <file>            open and append a user message, an assistant
//                                               message, a custom entry and a label; prints ids
//   node pi_session.mjs list <agentDir> <cwd>    with PI_CODING_AGENT_DIR=<agentDir>: list(cwd),
//                                               listAll(), default dir, continueRecent, findById
import fs from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const { SessionManager, getDefaultSessionDir } = await import(
  path.join(here, "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")
);

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function usage(scale) {
  return {
    input: 10 * scale,
    output: 5 * scale,
    cacheRead: 0,
    cacheWrite: 3,
    totalTokens: 15 * scale + 3,
    cost: { input: 0.00003 * scale, output: 0.000075, cacheRead: 0, cacheWrite: 1e-7, total: 0.1 + 0.2 },
  };
}

let clock = 1733234400000;
const user = (text, extra = []) => ({ role: "user", content: [{ type: "text", text }, ...extra], timestamp: (clock += 1000) });
const assistant = (text, more = {}) => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "hmm " + text, thinkingSignature: "sig==" },
    { type: "text", text },
  ],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: usage(1),
  stopReason: "stop",
  timestamp: (clock += 1000),
  ...more,
});

function scenario(dir, cwd) {
  const sm = SessionManager.create(cwd, dir);
  sm.appendModelChange("openai", "gpt-4.1");
  sm.appendThinkingLevelChange("medium");
  sm.appendMessage({
    role: "system",
    content: "You are pi.",
    sections: { preamble: "P", tools: "<tools/>", 10: "ten", 2: "two" },
    toolsAdded: [
      { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
      { name: "bash", description: "Run", parameters: {} },
    ],
    timestamp: (clock += 1000),
  });
  const u1 = sm.appendMessage(user("héllo 😀 \u2028 tab\t ctl\u0001 quote\" back\\ lone\ud800 end", [{ type: "image", data: PNG, mimeType: "image/png" }]));
  const a1 = sm.appendMessage({
    role: "assistant",
    content: [
      { type: "thinking", thinking: "plan", thinkingSignature: "s1" },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.ts", 2: "x", b: [1.5, -0, 1e21, 123456789012, 5e-324] } },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: usage(3),
    stopReason: "toolUse",
    timestamp: (clock += 1000),
  });
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "read",
    content: [{ type: "text", text: "file body" }, { type: "image", data: PNG, mimeType: "image/png" }],
    details: { lines: 3, ratio: 0.000009, nested: { 1: [], a: {} } },
    isError: false,
    timestamp: (clock += 1000),
  });
  sm.appendCustomEntry("my-ext", { count: 1, big: 2.5e-8 });
  sm.appendCustomEntry("my-ext");
  sm.appendCustomMessageEntry(
    "my-ext",
    [{ type: "text", text: "injected context" }, { type: "image", data: PNG, mimeType: "image/png" }],
    true,
    { k: 1.5e-7 },
  );
  sm.appendCustomMessageEntry("my-ext", "hidden note", false);
  sm.appendMessage({ role: "bashExecution", command: "ls", output: "", exitCode: 2, cancelled: false, truncated: false, timestamp: (clock += 1000) });
  sm.appendLabelChange(u1, "checkpoint");
  sm.appendSessionInfo("  My  session\nname  ");
  const u2 = sm.appendMessage(user("second question"));
  const a2 = sm.appendMessage(assistant("second answer"));
  sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage(7), "warm");
  sm.appendCompaction("Summary one", u2, 12345, { readFiles: ["a.ts"], modifiedFiles: [] }, false);
  const u3 = sm.appendMessage(user("third"));
  const a3 = sm.appendMessage(assistant("third answer", { stopReason: "length" }));
  sm.appendMessage({
    role: "system",
    content: [{ type: "text", text: "Also: be brief." }],
    sections: { tools: null, skills: "<skills/>" },
    toolsRemoved: [{ name: "bash" }],
    toolsAdded: [{ name: "write", description: "Write", parameters: { type: "object" } }],
    timestamp: (clock += 1000),
  });
  sm.appendContextEdit(a3, { content: "edited answer" });
  sm.appendContextEdit(u3, null);
  sm.appendCompaction("Summary two", a3, 999, undefined, true, usage(2));
  const u4 = sm.appendMessage(user("fourth"));
  sm.appendMessage(assistant("", { stopReason: "aborted", errorMessage: "Request was aborted", content: [] }));
  sm.appendLabelChange(u4, "late");
  sm.appendLabelChange(u1, undefined);
  sm.appendLabelChange(a2, "");
  // branch 2: off a1, with a tool-error result and a model change
  sm.branch(a1);
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "read",
    content: [{ type: "text", text: "ENOENT" }],
    details: {},
    isError: true,
    timestamp: (clock += 1000),
  });
  sm.appendModelChange("openai", "gpt-5");
  sm.appendMessage(user("branch two"));
  // branch 3: a summary of where we came from, attached at u2
  sm.branchWithSummary(u2, "Tried approach B; it failed.", { readFiles: [], modifiedFiles: ["b.ts"] }, false);
  sm.appendMessage(user("after summary"));
  sm.appendMessage(assistant("ok"));
  // branch 4: a new root
  sm.branchWithSummary(null, "root summary", undefined, true);
  sm.appendMessage(user("new root"));
  sm.resetLeaf();
  sm.appendMessage(user("another root", []));
  sm.appendThinkingLevelChange("high");
  const main = sm.getSessionFile();

  const files = [main];
  // A branched session extracted from the main one (labels re-created), and a fork.
  const sm2 = SessionManager.open(main);
  files.push(sm2.createBranchedSession(u4));
  files.push(SessionManager.forkFrom(main, cwd + "-fork", dir).getSessionFile());
  return { files, ids: { u1, a1, u2, a2, u3, a3, u4 } };
}

function treeJson(nodes) {
  return nodes.map((n) => ({
    id: n.entry.id,
    label: n.label,
    labelTimestamp: n.labelTimestamp,
    children: treeJson(n.children),
  }));
}

function dump(file) {
  const sm = SessionManager.open(file);
  const header = sm.getHeader();
  const fileEntries = [header, ...sm.getEntries()];
  const serialized = fileEntries.map((e) => JSON.stringify(e) + "\n").join("");
  const leafId = sm.getLeafId();
  const entries = sm.getEntries();
  const contexts = {};
  const contextEntries = {};
  const labels = {};
  const branches = {};
  for (const e of entries) {
    sm.branch(e.id);
    contexts[e.id] = JSON.stringify(sm.buildSessionContext());
    contextEntries[e.id] = sm.buildContextEntries().map((x) => x.id);
    branches[e.id] = sm.getBranch().map((x) => x.id);
    const label = sm.getLabel(e.id);
    if (label !== undefined) labels[e.id] = label;
  }
  sm.resetLeaf();
  const nullContext = JSON.stringify(sm.buildSessionContext());
  const reopened = SessionManager.open(file);
  return {
    file,
    serialized,
    sessionId: sm.getSessionId(),
    cwd: sm.getCwd(),
    header: JSON.stringify(header),
    leafId,
    leafContext: JSON.stringify(reopened.buildSessionContext()),
    sessionName: sm.getSessionName() ?? null,
    ids: entries.map((e) => e.id),
    contexts,
    contextEntries,
    branches,
    nullContext,
    labels,
    tree: JSON.stringify(treeJson(reopened.getTree())),
  };
}

function append(file) {
  const sm = SessionManager.open(file);
  const before = sm.getLeafId();
  const u = sm.appendMessage(user("from pi ✓"));
  const a = sm.appendMessage(assistant("pi answers"));
  const c = sm.appendCustomEntry("pi-ext", { n: 0.000001 });
  const l = sm.appendLabelChange(u, "pi-label");
  return { before, ids: [u, a, c, l], leafId: sm.getLeafId() };
}

function infoJson(s) {
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    name: s.name ?? null,
    parentSessionPath: s.parentSessionPath ?? null,
    created: s.created.getTime(),
    modified: s.modified.getTime(),
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    allMessagesText: s.allMessagesText,
  };
}

async function list(agentDir, cwd) {
  process.env.PI_CODING_AGENT_DIR = agentDir;
  const listed = await SessionManager.list(cwd);
  const all = await SessionManager.listAll();
  const recent = SessionManager.continueRecent(cwd);
  const ids = listed.map((s) => s.id);
  return {
    defaultDir: getDefaultSessionDir(cwd),
    list: listed.map(infoJson),
    listAll: all.map(infoJson),
    continueRecent: recent.getSessionFile(),
    findById: ids.length ? SessionManager.findById(cwd, ids[ids.length - 1]) ?? null : null,
  };
}

const [cmd, ...args] = process.argv.slice(2);
let out;
if (cmd === "scenario") out = scenario(args[0], args[1]);
else if (cmd === "dump") out = args.map(dump);
else if (cmd === "append") out = append(args[0]);
else if (cmd === "list") out = await list(args[0], args[1]);
else {
  console.error("unknown command " + cmd);
  process.exit(2);
}
process.stdout.write(JSON.stringify(out));
