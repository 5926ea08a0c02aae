// Writes a conversation with the real pi SessionManager (@earendil-works/pi-coding-agent 1.6.0),
// for the dreaming tests: node pi_write_turns.mjs <sessionDir> <cwd> '<json [[user, assistant], ...]>'
// Prints {"file": <path>, "id": <session id>}. Timestamps are "now" minus a minute, one second apart.
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const { SessionManager } = await import(
  path.join(here, "../interop/node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")
);

const [dir, cwd, json] = process.argv.slice(2);
const sm = SessionManager.create(cwd, dir);
let clock = Date.now() - 60000;
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
sm.appendModelChange("anthropic", "claude-sonnet-4-5");
for (const [user, assistant] of JSON.parse(json)) {
  sm.appendMessage({ role: "user", content: [{ type: "text", text: user }], timestamp: (clock += 1000) });
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "thinking", thinking: "hmm", thinkingSignature: "s" }, { type: "text", text: assistant }],
    api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop",
    timestamp: (clock += 1000),
  });
}
console.log(JSON.stringify({ file: sm.getSessionFile(), id: sm.getSessionId() }));
