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
//   node pi_session.mjs behaviours <dir>         edge cases of file handling (lazy write, recovery,
//                                               invalid files, torn lines...); prints observations
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

function lines(file) {
  if (!fs.existsSync(file)) return null;
  return fs.readFileSync(file, "utf8").split("\n");
}

function lastKeys(file) {
  const all = lines(file).filter((l) => l);
  return Object.keys(JSON.parse(all[all.length - 1]));
}

function attempt(fn) {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: String(e.message) };
  }
}

// Each case writes its own files under <dir>/<case>/ and reports what it saw; the Python test
// runs the same steps with our SessionManager and expects the same observations.
function behaviours(dir) {
  const out = {};
  const sub = (name) => {
    const d = path.join(dir, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  {
    const sm = SessionManager.create("/p", sub("lazy"));
    const f = sm.getSessionFile();
    sm.appendModelChange("a", "m");
    sm.appendThinkingLevelChange("off");
    sm.appendCustomEntry("t", { a: 1 });
    const before = fs.existsSync(f);
    sm.appendMessage(user("u"));
    const afterUser = lines(f).length - 1;
    sm.appendMessage(assistant("a"));
    const nameOk = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl$/.test(path.basename(f));
    out.lazy = { before, afterUser, afterAssistant: lines(f).length - 1, nameOk };
  }
  {
    const f = path.join(sub("empty"), "s.jsonl");
    fs.writeFileSync(f, "");
    const sm = SessionManager.open(f);
    const recovered = lines(f).length - 1;
    const sameId = JSON.parse(lines(f)[0]).id === sm.getSessionId();
    const again = SessionManager.open(f).getSessionId() === sm.getSessionId();
    sm.appendMessage(user("u"));
    sm.appendMessage(assistant("a"));
    const all = lines(f).filter((l) => l);
    out.empty = {
      recovered,
      sameId,
      again,
      samePath: sm.getSessionFile() === f,
      lines: all.length,
      headers: all.filter((l) => JSON.parse(l).type === "session").length,
      reopenedEntries: SessionManager.open(f).getEntries().length,
    };
  }
  {
    const f = path.join(sub("invalid"), "s.jsonl");
    const body = '{"type":"message","id":"x","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n';
    fs.writeFileSync(f, body);
    const r = attempt(() => SessionManager.open(f).getSessionId());
    out.onlyMessage = { threw: "error" in r, unchanged: fs.readFileSync(f, "utf8") === body };
    const g = path.join(sub("invalid"), "t.jsonl");
    fs.writeFileSync(g, "not json at all\n");
    out.notJson = { threw: "error" in attempt(() => SessionManager.open(g)) };
  }
  {
    const f = path.join(sub("missing"), "deep", "named.jsonl");
    const sm = SessionManager.open(f);
    sm.appendThinkingLevelChange("off");
    const before = fs.existsSync(f);
    sm.appendMessage(user("u"));
    out.missing = { before, after: fs.existsSync(f), path: sm.getSessionFile() === f };
  }
  {
    const sm = SessionManager.inMemory("/p");
    const a = sm.appendMessage(user("1"));
    const b = sm.appendMessage(assistant("2"));
    const s1 = sm.branchWithSummary(a, "S");
    const e1 = sm.getEntry(s1);
    sm.resetLeaf();
    const s2 = sm.branchWithSummary(null, "R");
    const e2 = sm.getEntry(s2);
    out.branchSummary = {
      fromIsOldLeaf: e1.fromId === b,
      parent: e1.parentId === a,
      rootFrom: e2.fromId,
      rootParent: e2.parentId,
      leaf: sm.getLeafId() === s2,
    };
    const t = attempt(() => sm.branchWithSummary("nonexistent", "S"));
    out.branchSummaryMissing = t;
  }
  {
    const sm = SessionManager.create("/p", sub("keys"));
    const f = sm.getSessionFile();
    const u = sm.appendMessage(user("u"));
    sm.appendCompaction("S", u, 10);
    const compaction = lastKeys(f);
    sm.appendCompaction("S", undefined, 10, { readFiles: [] }, false);
    const compaction2 = lastKeys(f);
    const c2 = JSON.parse(lines(f).filter((l) => l).pop());
    sm.appendLabelChange(u, undefined);
    const label = lastKeys(f);
    sm.appendLabelChange(u, "");
    const emptyLabel = lastKeys(f);
    sm.appendSessionInfo("  My\r\n name  ");
    const info = JSON.parse(lines(f).filter((l) => l).pop()).name;
    sm.appendCustomEntry("t");
    const custom = lastKeys(f);
    sm.appendCustomMessageEntry("t", "x", false);
    const customMessage = lastKeys(f);
    sm.appendUsage("k", "p", "m", { input: 1 }, "");
    const usageKeys = lastKeys(f);
    out.keys = {
      compaction,
      compaction2,
      selfKept: c2.firstKeptEntryId === c2.id,
      label,
      emptyLabel,
      info,
      name: sm.getSessionName(),
      custom,
      customMessage,
      usageKeys,
    };
  }
  {
    const f = path.join(sub("torn"), "s.jsonl");
    const sm = SessionManager.open(f);
    sm.appendMessage(user("u"));
    sm.appendMessage(assistant("a"));
    fs.appendFileSync(f, '{"type":"message","id":"torn00');
    const sm2 = SessionManager.open(f);
    const entries = sm2.getEntries().length;
    sm2.appendCustomEntry("after", { ok: true });
    const all = lines(f);
    out.torn = {
      entries,
      tornLineKept: all.includes('{"type":"message","id":"torn00'),
      reopened: SessionManager.open(f).getEntries().map((e) => e.type),
      endsWithNewline: fs.readFileSync(f, "utf8").endsWith("\n"),
    };
  }
  {
    const f = path.join(sub("duplicate-header"), "s.jsonl");
    const h = '{"type":"session","version":3,"id":"dup","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}';
    const m1 = '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}';
    const m2 = '{"type":"message","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"yo","timestamp":2}}';
    fs.writeFileSync(f, [h, m1, h, m2, ""].join("\n"));
    const sm = SessionManager.open(f);
    out.duplicateHeader = { entries: sm.getEntries().length, leaf: sm.getLeafId(), id: sm.getSessionId() };
  }
  {
    const sm = SessionManager.create("/p", sub("branched"));
    sm.appendMessage(user("first"));
    const a = sm.appendMessage(assistant("a"));
    const oldFile = sm.getSessionFile();
    const withAssistant = sm.createBranchedSession(a);
    const header = JSON.parse(lines(withAssistant)[0]);
    const sm2 = SessionManager.inMemory("/p");
    sm2.appendThinkingLevelChange("off");
    const t = sm2.appendCustomEntry("x");
    const sm3 = SessionManager.create("/p", sub("branched2"));
    sm3.appendThinkingLevelChange("off");
    sm3.appendCustomEntry("y");
    const noConversation = sm3.createBranchedSession(sm3.getLeafId());
    const existsBefore = fs.existsSync(noConversation);
    sm3.appendMessage(user("now"));
    const all = lines(noConversation).filter((l) => l);
    out.branched = {
      exists: fs.existsSync(withAssistant),
      headers: lines(withAssistant).filter((l) => l && JSON.parse(l).type === "session").length,
      parentIsOld: header.parentSession === oldFile,
      switched: sm.getSessionFile() === withAssistant,
      inMemory: sm2.createBranchedSession(t) === undefined,
      existsBefore,
      after: all.length,
      uniqueIds: new Set(all.map((l) => JSON.parse(l).id)).size === all.length,
    };
  }
  return out;
}

const [cmd, ...args] = process.argv.slice(2);
let out;
if (cmd === "scenario") out = scenario(args[0], args[1]);
else if (cmd === "dump") out = args.map(dump);
else if (cmd === "append") out = append(args[0]);
else if (cmd === "list") out = await list(args[0], args[1]);
else if (cmd === "behaviours") out = behaviours(args[0]);
else {
  console.error("unknown command " + cmd);
  process.exit(2);
}
process.stdout.write(JSON.stringify(out));
